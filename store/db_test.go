package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// holderEnv, when set to a path, makes the test binary a second process
// that opens that database, says "holding" and keeps it open until its
// standard input closes.
const holderEnv = "KEPBOT_STORE_TEST_HOLD_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(holderEnv); path != "" {
		os.Exit(holdDatabase(path))
	}
	os.Exit(m.Run())
}

func holdDatabase(path string) int {
	db, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("holding")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := db.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startHolder starts a second process that holds the database at path; the
// returned func makes it let go and waits for it to exit.
func startHolder(t *testing.T, path string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holderEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("holder process: %v; stderr: %s", err, stderr.String())
		}
	}
	t.Cleanup(release)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "holding\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("holder process said %q, %v; stderr: %s", line, err, stderr.String())
	}
	return release
}

func TestOpenWhileAnotherProcessHoldsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kepbot.db")
	release := startHolder(t, path)

	const timeout = 300 * time.Millisecond
	const slack = 500 * time.Millisecond // a shared, busy machine
	start := time.Now()
	db, err := Open(path, Options{Timeout: timeout})
	elapsed := time.Since(start)
	if err == nil {
		db.Close()
		t.Fatal("Open succeeded while another process held the file")
	}
	t.Logf("gave up after %v: %v", elapsed, err)
	if elapsed > timeout+slack {
		t.Errorf("Open took %v; want at most %v", elapsed, timeout+slack)
	}
	if elapsed < timeout/2 {
		t.Errorf("Open gave up after %v; want it to wait about %v", elapsed, timeout)
	}
	if !errors.Is(err, ErrLocked) || !errors.Is(err, berrors.ErrTimeout) {
		t.Errorf("error %v does not wrap ErrLocked and bbolt's ErrTimeout", err)
	}
	for _, want := range []string{path, "another kepbot", "bot serve", "stop", "--db", "300ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not say %q", err, want)
		}
	}

	release()
	db, err = Open(path, Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Open after the other process let go: %v", err)
	}
	db.Close()
}

func TestOpenCreatesFoldersAndFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "kepbot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("file mode %v; want no access for group or others", perm)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q; want %q", db.Path(), path)
	}
	var version string
	err = db.bolt.View(func(tx *bolt.Tx) error {
		version = string(tx.Bucket(bucketMeta).Get(keySchemaVersion))
		for _, name := range knowledgeBuckets {
			if tx.Bucket(name) == nil {
				return fmt.Errorf("bucket %s is missing", name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Itoa(SchemaVersion); version != want {
		t.Errorf("schema_version = %q; want %q", version, want)
	}
}

func TestOpenRefusesFilesItCannotUse(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		setup func(path string) error
		kind  error
		want  []string
	}{
		{"short text file", writeFile([]byte("not a database at all\n")), ErrNotDatabase,
			[]string{"not a kepbot database", "invalid database", "--db"}},
		{"long text file", writeFile(bytes.Repeat([]byte("plain words, no pages. "), 2000)), ErrNotDatabase,
			[]string{"not a kepbot database", "--db"}},
		{"zeros", writeFile(make([]byte, 64<<10)), ErrNotDatabase,
			[]string{"not a kepbot database"}},
		{"another program's bbolt file", boltWith(func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket([]byte("widgets"))
			return err
		}), ErrNotDatabase, []string{"bbolt database, but not kepbot's", `"widgets"`, "--db"}},
		{"newer schema", kepbotWith(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte(strconv.Itoa(SchemaVersion+1)))
		}), ErrNewerSchema, []string{"newer kepbot", "schema version " + strconv.Itoa(SchemaVersion+1), "reads version " + strconv.Itoa(SchemaVersion), "upgrade kepbot", "--db"}},
		{"damaged schema version", kepbotWith(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("two"))
		}), ErrNotDatabase, []string{`schema_version is "two"`, "damaged"}},
		{"no schema version", kepbotWith(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketMeta).Delete(keySchemaVersion)
		}), ErrNotDatabase, []string{"no schema_version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := tc.setup(path); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			db, err := Open(path, Options{})
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if !errors.Is(err, tc.kind) {
				t.Errorf("error does not wrap %v", tc.kind)
			}
			for _, want := range append(tc.want, "open "+path+": ") {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message does not say %q", want)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Error("Open changed a file it refused")
			}
		})
	}
}

func TestOpenWithoutAPath(t *testing.T) {
	_, err := Open("", Options{})
	if err == nil || !strings.Contains(err.Error(), "no database path") || !strings.Contains(err.Error(), "--db") {
		t.Fatalf("Open(\"\"): %v; want a message asking for --db", err)
	}
}

func TestOpenADirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "open "+dir+": ") {
		t.Fatalf("Open of a directory: %v; want an error naming it", err)
	}
}

func writeFile(data []byte) func(string) error {
	return func(path string) error { return os.WriteFile(path, data, 0o600) }
}

// boltWith makes a bbolt file that kepbot did not write.
func boltWith(fn func(*bolt.Tx) error) func(string) error {
	return func(path string) error {
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			return err
		}
		if err := db.Update(fn); err != nil {
			db.Close()
			return err
		}
		return db.Close()
	}
}

// kepbotWith makes a kepbot database, then changes it with fn.
func kepbotWith(fn func(*bolt.Tx) error) func(string) error {
	return func(path string) error {
		db, err := Open(path, Options{})
		if err != nil {
			return err
		}
		if err := db.bolt.Update(fn); err != nil {
			db.Close()
			return err
		}
		return db.Close()
	}
}
