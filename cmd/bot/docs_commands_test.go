package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// TestDocsCommandsRun runs every command of every ```sh block of the docs
// that has no <!-- needs: ... --> mark, as a reader would type it at the
// root of a fresh clone: in a copy of the checkout, with ../shared beside
// it, no network (a dead proxy) and no token. Each exits as its comment
// says ("# exits 5", else 0). `go run ./cmd/bot` is this test binary as
// bot; other go commands are checked, not run (checkGoCommand). The
// commands of a marked block are not run, but their bot commands must
// parse against the command's flags, and their go commands are checked.
func TestDocsCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the docs' commands; skipped with -short")
	}
	work := checkoutCopy(t)
	bin := botOnPath(t)
	home := filepath.Join(work, "..", "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := docsEnv(bin, home)
	ran := 0
	for _, page := range docPages(t) {
		blocks, _ := parsePage(page, readPage(t, page))
		if err := os.RemoveAll(filepath.Join(work, "data")); err != nil { // each page starts as a fresh clone does
			t.Fatal(err)
		}
		for _, b := range blocks {
			if b.lang != "sh" {
				continue
			}
			cmds, lines := shellCommands(b)
			for i, cmd := range cmds {
				where := fmt.Sprintf("%s:%d", page, lines[i])
				words := shellSegments(cmd)
				if goSegs := goSegments(words); len(goSegs) > 0 {
					for _, g := range goSegs {
						if err := checkGoCommand(g, b.needs); err != nil {
							t.Errorf("%s: %s: %v", where, cmd, err)
						}
					}
					continue
				}
				for _, seg := range words {
					if args, ok := botArgs(seg); ok {
						if err := parseBotArgs(args); err != nil {
							t.Errorf("%s: %s: %v", where, cmd, err)
						}
					}
				}
				if b.needs != "" {
					continue
				}
				if strings.Contains(cmd, "../shared") {
					if _, err := os.Stat(filepath.Join(work, "..", "shared")); err != nil {
						sharedtest.Root(t) // skips here (fails in CI): the command reads ../shared
					}
				}
				if prog := missingProgram(cmd); prog != "" {
					t.Logf("%s: not run: %s is not installed (%s)", where, prog, cmd)
					continue
				}
				ran++
				runDocCommand(t, where, work, env, cmd)
			}
		}
	}
	if ran < 25 {
		t.Errorf("ran only %d commands of the docs", ran)
	}
}

// runDocCommand runs cmd with bash in dir and checks its exit code.
func runDocCommand(t *testing.T, where, dir string, env []string, cmd string) {
	t.Helper()
	want := 0
	if m := exitsRe.FindStringSubmatch(commentOf(cmd)); m != nil {
		want, _ = strconv.Atoi(m[1])
	}
	line := strings.ReplaceAll(cmd, "go run ./cmd/bot", "bot")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-o", "pipefail", "-c", line)
	c.Dir, c.Env = dir, env
	c.Stdin = strings.NewReader("") // the chat ends at once, as at Ctrl-D
	out, err := c.CombinedOutput()
	got := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		t.Errorf("%s: %s: %v", where, cmd, err)
		return
	}
	if got != want {
		t.Errorf("%s: %s\nexits %d; the docs say %d. Output:\n%s", where, cmd, got, want, tail(string(out), 2000))
	}
}

// exitsRe reads the exit code a command's comment promises: "# exits 5".
var exitsRe = regexp.MustCompile(`\bexits (\d+)\b`)

// commentOf is the comment at the end of a shell command: from the first
// # that starts a word outside quotes.
func commentOf(cmd string) string {
	var quote rune
	for i, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || cmd[i-1] == ' ' || cmd[i-1] == '\t'):
			return cmd[i:]
		}
	}
	return ""
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// docsEnv is the environment the docs' commands run in: this test binary
// as bot first on PATH, a home of their own, no setting or token of
// kepbot, and a proxy that refuses every connection, so that a command
// that reaches for the network fails instead of passing by luck.
func docsEnv(bin, home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "BOT_"), strings.HasPrefix(k, "SLACK_"), strings.HasPrefix(k, "DISCORD_"),
			k == "KUBECONFIG", k == "HOME", k == "PATH", strings.HasSuffix(strings.ToUpper(k), "_PROXY"):
			continue
		}
		env = append(env, kv)
	}
	dead := "http://127.0.0.1:9"
	return append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home,
		"HTTPS_PROXY="+dead, "HTTP_PROXY="+dead, "https_proxy="+dead, "http_proxy="+dead, "NO_PROXY=", "no_proxy=")
}

// checkoutCopy copies the repository (without .git and what a build or a
// run leaves: data, bin, dist) into a new folder, with ../shared beside it
// when the shared documents are there, and returns the copy.
func checkoutCopy(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	work := filepath.Join(top, "kepbot")
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch rel {
		case ".git", "data", "bin", "dist": // .git is a file in a worktree
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(work, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(dst, raw, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	if shared, err := sharedtest.Find(); err == nil {
		if err := os.Symlink(shared, filepath.Join(top, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	return work
}

// missingProgram is the first program a command runs that is not on PATH
// (jq on a machine without it), or "".
func missingProgram(cmd string) string {
	for _, seg := range shellSegments(cmd) {
		if len(seg) == 0 {
			continue
		}
		prog := seg[0]
		switch prog {
		case "bot", "go", "cd", "export", "source", "printf", "echo", "[":
			continue
		}
		if strings.ContainsAny(prog, "/$(") {
			continue
		}
		if _, err := exec.LookPath(prog); err != nil {
			return prog
		}
	}
	return ""
}
