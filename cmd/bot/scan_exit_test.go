package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/manifest/scan"
	"github.com/kepbot/kepbot/store"
)

const ingressBeta = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"

// TestScanUnreadableInputExits3: CI must never pass on input it could not
// read. A missing file beside a clean folder, or a document that does not
// parse (even one holding an extensions/v1beta1 Ingress), exits 3 and
// names the document; a removal still exits 5; --ignore-unreadable lists
// them and passes; an empty or comment-only file is nothing to find (0).
func TestScanUnreadableInputExits3(t *testing.T) {
	db := scanDB(t)
	dir := writeFiles(t, map[string]string{
		"deploy/web.yaml": deployment,
		"broken.yaml":     deployment + "---\n" + ingressBeta + "  labels: [unclosed\n",
		"removed.yaml":    cronBeta,
		"empty.yaml":      "",
		"comments.yaml":   "# nothing here yet\n---\n# nor here\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	missing := p("missing.yaml")
	for _, tc := range []struct {
		name string
		args []string
		want int
		says []string
	}{
		{"a missing file", []string{"--to", "1.36", p("deploy"), missing}, scan.ExitUnreadable, []string{"missing.yaml: no such file", "exit 3"}},
		{"a missing file alone", []string{"--to", "1.36", missing}, scan.ExitUnreadable, []string{"missing.yaml: no such file"}},
		{"a document that does not parse", []string{"--to", "1.36", p("broken.yaml")}, scan.ExitUnreadable, []string{"broken.yaml: document 2, line 11"}},
		{"a removal wins", []string{"--to", "1.36", p("removed.yaml"), missing}, scan.ExitRemoved, []string{"missing.yaml: no such file", "Removed in 1.25"}},
		{"--ignore-unreadable", []string{"--to", "1.36", "--ignore-unreadable", p("deploy"), missing}, scan.ExitClean, []string{"missing.yaml: no such file", "passed over"}},
		{"--ignore-unreadable, nothing readable", []string{"--to", "1.36", "--ignore-unreadable", missing}, exitBadInput, []string{"nothing readable"}},
		{"an empty file", []string{"--to", "1.36", p("empty.yaml")}, scan.ExitClean, []string{"0 objects"}},
		{"a comment-only file", []string{"--to", "1.36", p("comments.yaml")}, scan.ExitClean, []string{"0 objects"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, "", nil, append([]string{"scan", "--db", db}, tc.args...)...)
			if code != tc.want {
				t.Errorf("exit %d; want %d\nstdout: %s\nstderr: %s", code, tc.want, out, errs)
			}
			for _, s := range tc.says {
				if !strings.Contains(out+errs, s) {
					t.Errorf("the output lacks %q\nstdout: %s\nstderr: %s", s, out, errs)
				}
			}
		})
	}
	code, got := scanJSONOf(t, "", "--to", "1.36", p("broken.yaml"))
	if code != scan.ExitUnreadable || len(got.Errors) != 1 || got.Errors[0].Document == nil || *got.Errors[0].Document != 2 {
		t.Errorf("exit %d, errors %+v; want 3 and document 2 named", code, got.Errors)
	}
}

// TestScanKubectlVersionAnywhere: `kubectl version | cat - manifests.yaml`
// has no "---" between the two; the server's release is read there, and
// the scan says when the version output names no server.
func TestScanKubectlVersionAnywhere(t *testing.T) {
	in := "Client Version: v1.31.2\nKustomize Version: v5.4.2\nServer Version: v1.29.7\n" + cronBeta
	code, got := scanJSONOf(t, in, "--to", "1.33", "-")
	if code != scan.ExitRemoved || got.From == nil || *got.From != "1.29" || len(got.Findings) != 1 {
		t.Errorf("exit %d, from %v, findings %+v; want 1.29 and the CronJob", code, got.From, got.Findings)
	}
	_, out, errs := run(t, "Client Version: v1.31.2\nKustomize Version: v5.4.2\n"+cronBeta, nil, "scan", "--db", scanDB(t), "--to", "1.33", "-")
	if !strings.Contains(errs, "names no server version") || !strings.Contains(out, "Removed in 1.25") {
		t.Errorf("stdout: %s\nstderr: %s\nwant the note that the server version was not read", out, errs)
	}
}

// TestDocsCISnippet runs docs/scan.md's GitHub Actions step as the script
// it is (bash -e -o pipefail, as a `shell: bash` step runs), with the bot
// on PATH: it passes on a clean folder and on deprecations only, and
// fails on a removal, on input it cannot read and on bad arguments.
func TestDocsCISnippet(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed; the snippet uses it")
	}
	readme, err := os.ReadFile("../../docs/scan.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- CI snippet:[^\n]*\n```yaml\n.*?  run: \\|\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/scan.md has no CI snippet after its <!-- CI snippet --> mark")
	}
	var script strings.Builder
	for _, l := range strings.Split(string(m[1]), "\n") {
		script.WriteString(strings.TrimPrefix(l, "    ") + "\n")
	}
	bin := botOnPath(t)
	db := scanDB(t)
	for _, tc := range []struct {
		name  string
		files map[string]string
		edit  func(string) string
		pass  bool
	}{
		{"clean", map[string]string{"k8s/web.yaml": deployment}, nil, true},
		{"deprecations only", map[string]string{"k8s/flow.yaml": strings.Replace(flowBeta3, "v1beta3", "v1beta3", 1)}, func(s string) string { return strings.Replace(s, "--to 1.36", "--to 1.30", 1) }, true},
		{"removed", map[string]string{"k8s/cron.yaml": cronBeta}, nil, false},
		{"unreadable", map[string]string{"k8s/web.yaml": deployment, "k8s/broken.yaml": "kind: [unclosed\n"}, nil, false},
		{"bad arguments", map[string]string{"k8s/web.yaml": deployment}, func(s string) string { return strings.Replace(s, "--to 1.36", "--to 1.99", 1) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			s := script.String()
			if tc.edit != nil {
				s = tc.edit(s)
			}
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "BOT_DB="+db)
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.pass {
				t.Errorf("the step passed: %v; want %v (%v)\n%s", err == nil, tc.pass, err, out)
			}
		})
	}
}

// TestScanStopsOnSignal: a scan reading a stdin that says nothing stops at
// once on SIGINT or SIGTERM, with the exit code of an interrupted command.
func TestScanStopsOnSignal(t *testing.T) {
	db := scanDB(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, exe, "scan", "--db", db, "--to", "1.33", "-")
			cmd.Env = append(os.Environ(), botChild+"=1")
			stdin, err := cmd.StdinPipe() // held open, silent
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var errb bytes.Buffer
			cmd.Stderr, cmd.Stdout = &errb, io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // let it reach the read
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			took := time.Since(sent)
			if code := cmd.ProcessState.ExitCode(); code != tc.want || took > 5*time.Second {
				t.Errorf("exit %d after %v (%v); want %d at once\nstderr: %s", code, took, err, tc.want, errb.String())
			}
		})
	}
}

// TestDocsScanExitCodes: docs/scan.md's table of scan's exit codes is
// scan.ExitCodes, the list the help shows, row for row.
func TestDocsScanExitCodes(t *testing.T) {
	readme, err := os.ReadFile("../../docs/scan.md")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("| exit | meaning |\n|---|---|\n")
	for _, e := range scan.ExitCodes {
		fmt.Fprintf(&want, "| %d | %s |\n", e.Code, e.Meaning)
	}
	if !strings.Contains(string(readme), "<!-- scan exit codes: generated from scan.ExitCodes, checked by go test ./cmd/bot -->\n"+want.String()) {
		t.Errorf("docs/scan.md's scan exit codes are not scan.ExitCodes; write them as:\n%s", want.String())
	}
}

// TestScanReleaseMessagesAreTheCommandLines: a scan's release errors name
// its flags, never the chat's "scan 1.25 1.30" or "Usage: scan [FROM] TO".
func TestScanReleaseMessagesAreTheCommandLines(t *testing.T) {
	db := scanDB(t)
	for _, tc := range []struct {
		args  []string
		stdin string
		says  string
	}{
		{[]string{"--from", "1.30", "--to", "1.25", "-"}, deployment, "--from 1.30 is not older than --to 1.25: --from is the release you run, --to the one you go to (bot scan --from 1.25 --to 1.30 …)"},
		{[]string{"--to", "1.99", "-"}, deployment, "or older (bot sync brings newer releases"},
		{[]string{"--to", "1.33", "-"}, "Server Version: v1.35.1\n", "server runs 1.35, which is not older than --to 1.33"},
	} {
		code, _, errs := run(t, tc.stdin, nil, append([]string{"scan", "--db", db}, tc.args...)...)
		if code != exitBadInput || !strings.Contains(errs, tc.says) || strings.Contains(errs, "Usage: scan") || strings.Contains(errs, ": scan 1.") {
			t.Errorf("%v: exit %d, %q; want 2 saying %q in the command line's words", tc.args, code, errs, tc.says)
		}
	}
}

// TestScanOnlyReads: without --db (or $BOT_DB) and with no ./data/kepbot.db,
// a scan answers from the built-in snapshot and writes nothing into the
// working tree; with one, two scans share it (read-only, a shared lock)
// while a third holder reads it too; a --db that does not exist is a bad
// argument, not a new database.
func TestScanOnlyReads(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k8s/cron.yaml": cronBeta})
	t.Chdir(dir)
	code, out, errs := run(t, "", nil, "scan", "--to", "1.25", "k8s")
	if code != scan.ExitRemoved || !strings.Contains(out, "Removed in 1.25: batch/v1beta1 CronJob") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the scan left %v in the working tree; want k8s alone", entries)
	}
	db := scanDB(t)
	held, err := store.Open(db, store.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _, _ = run(t, "", nil, "scan", "--db", db, "--to", "1.25", "k8s")
		}()
	}
	wg.Wait()
	if codes[0] != scan.ExitRemoved || codes[1] != scan.ExitRemoved {
		t.Errorf("two scans sharing a database beside a reader: exits %v; want 5 and 5", codes)
	}
	code, _, errs = run(t, "", nil, "scan", "--db", filepath.Join(dir, "none.db"), "--to", "1.25", "k8s")
	if _, err := os.Stat(filepath.Join(dir, "none.db")); code != exitBadInput || err == nil || !strings.Contains(errs, "no database at") {
		t.Errorf("exit %d (%q), file made: %v; want 2 and no file", code, errs, err == nil)
	}
}
