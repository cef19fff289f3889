package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/knowledge"
	bolt "go.etcd.io/bbolt"
)

// TestAskJSONLinesAnswersEachAtOnce: with questions typed one at a time,
// each answer is written before the next question comes, though answers
// are buffered.
func TestAskJSONLinesAnswersEachAtOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db") // the built-in snapshot
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main(context.Background(), []string{"ask", "--db", db, "--json", "-"},
			stdio{in: inR, out: outW, err: io.Discard, getenv: func(string) string { return "" }})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	for _, q := range []string{"kep 4639", "1.29 ga"} {
		if _, err := io.WriteString(inW, q+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			if lines.Scan() {
				got <- lines.Text()
			}
			close(got)
		}()
		select {
		case l := <-got:
			var a knowledge.Answer
			if err := json.Unmarshal([]byte(l), &a); err != nil || a.Error != nil {
				t.Fatalf("%q: %v %+v", q, err, a.Error)
			}
		case <-time.After(10 * time.Second): // generous: only a held answer takes this long
			t.Fatalf("no answer to %q while stdin stays open: the answer is held in the buffer", q)
		}
	}
	inW.Close()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
}

// TestAskJSONLinesTooLong: a line over the limit stops the run with exit 2
// and says why; the answers before it are written; CRLF ends a line too.
func TestAskJSONLinesTooLong(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	in := "kep 4639\r\n" + strings.Repeat("x", console.MaxLineBytes+10) + "\n1.29\n"
	code, out, errs := run(t, in, nil, "ask", "--db", db, "--json", "-")
	if code != exitBadInput || !strings.Contains(errs, "a line longer than 16 KB") {
		t.Fatalf("exit %d, stderr %q; want 2 and the line limit", code, errs)
	}
	var a knowledge.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil || a.Kind != knowledge.KindKEP || strings.Count(out, "\n") != 1 {
		t.Errorf("want the one answer before the long line, got %d lines (%v):\n%.300s", strings.Count(out, "\n"), err, out)
	}
}

// TestAskSaysWhatWentWrong: the chat sees only an apology when kepbot fails
// on its side, but whoever runs bot ask or the terminal is told on stderr
// what failed and what rebuilds the database. Here one KEP's value is
// damaged with bbolt directly, as a build that wrote another layout would.
func TestAskSaysWhatWentWrong(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	if code, _, errs := run(t, "", nil, "ask", "--db", db, "kep 4639"); code != exitOK {
		t.Fatalf("first ask: exit %d: %s", code, errs)
	}
	// A KEP kepbot does not know is an answer, not kepbot's failure.
	if _, out, errs := run(t, "", nil, "ask", "--db", db, "kep 99999"); errs != "" || !strings.Contains(out, "99999") {
		t.Errorf("kep 99999: stdout %q, stderr %q; want the miss on stdout alone", out, errs)
	}
	bdb, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], 4639)
	err = bdb.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("keps"))
		if b == nil || b.Get(key[:]) == nil {
			t.Fatal("no KEP-4639 in the keps bucket")
		}
		return b.Put(key[:], []byte{0xff, 0x01, 0x02})
	})
	if cerr := bdb.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "", nil, "ask", "--db", db, "kep 4639")
	if code == exitOK || !strings.Contains(out, "something went wrong on my side") {
		t.Errorf("exit %d, stdout %q; want a failure and the apology", code, out)
	}
	if !strings.Contains(errs, "bot ask: error:") || !strings.Contains(errs, "4639") || !strings.Contains(errs, "bot ingest") {
		t.Errorf("stderr %q; want the error, the KEP it was reading and what rebuilds the database", errs)
	}
	// The terminal chat says the same on its stderr.
	_, out, errs = run(t, "kep 4639\nquit\n", nil, "--db", db)
	if !strings.Contains(out, "something went wrong on my side") || !strings.Contains(errs, "bot: error:") {
		t.Errorf("terminal: stdout %q, stderr %q", out, errs)
	}
}
