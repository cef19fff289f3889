package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shellSegments splits a command line as a shell would, enough for the
// docs' commands: into the simple commands of its pipelines and lists (at
// unquoted |, ||, &&, ; and &), each into words with their quotes taken
// off, leaving out a comment, leading VAR=value assignments and
// redirections with their targets. $(...) and <(...) stay inside their
// word.
func shellSegments(cmd string) [][]string {
	var segs [][]string
	var words []string
	var cur strings.Builder
	inWord, depth := false, 0
	var quote rune
	endWord := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	endSeg := func() {
		endWord()
		segs = append(segs, cleanWords(words))
		words = nil
	}
	rs := []rune(cmd)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case depth > 0:
			cur.WriteRune(r)
			if r == '(' {
				depth++
			} else if r == ')' {
				depth--
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case (r == '$' || r == '<') && i+1 < len(rs) && rs[i+1] == '(':
			cur.WriteRune(r)
			cur.WriteRune('(')
			i++
			depth, inWord = 1, true
		case r == '#' && !inWord:
			endSeg()
			return dropEmpty(segs)
		case r == '|' || r == ';' || r == '&':
			if r == '&' && cur.Len() > 0 && strings.HasSuffix(cur.String(), ">") { // 2>&1
				cur.WriteRune(r)
				continue
			}
			endSeg()
			if i+1 < len(rs) && (rs[i+1] == '|' || rs[i+1] == '&') {
				i++
			}
		case r == ' ' || r == '\t':
			endWord()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	endSeg()
	return dropEmpty(segs)
}

func dropEmpty(segs [][]string) [][]string {
	var out [][]string
	for _, s := range segs {
		if len(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// redirectRe is a redirection word: > FILE, 2>&1, <FILE, >>out.
var redirectRe = regexp.MustCompile(`^[0-9]*(>>?|<)(&[0-9]+)?(.*)$`)

// envAssignRe is a leading VAR=value of a simple command.
var envAssignRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// cleanWords drops a simple command's leading assignments and its
// redirections.
func cleanWords(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if len(out) == 0 && envAssignRe.MatchString(w) {
			continue
		}
		if m := redirectRe.FindStringSubmatch(w); m != nil && !strings.HasPrefix(w, "<(") {
			if m[2] == "" && m[3] == "" {
				i++ // the target is the next word
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// botArgs returns the arguments of a simple command that runs kepbot: bot,
// ./bot, bin/bot, ./bin/bot, or go run ./cmd/bot.
func botArgs(seg []string) ([]string, bool) {
	switch {
	case len(seg) >= 3 && seg[0] == "go" && seg[1] == "run" && seg[2] == "./cmd/bot":
		return seg[3:], true
	case len(seg) > 0 && (seg[0] == "bot" || seg[0] == "./bot" || seg[0] == "bin/bot" || seg[0] == "./bin/bot"):
		return seg[1:], true
	}
	return nil, false
}

// goSegments returns the simple commands of segs that run the go tool,
// but not go run ./cmd/bot (which runs as bot).
func goSegments(segs [][]string) [][]string {
	var out [][]string
	for _, s := range segs {
		if _, isBot := botArgs(s); !isBot && len(s) > 0 && s[0] == "go" {
			out = append(out, s)
		}
	}
	return out
}

// parseBotArgs parses a bot command line's flags as bot would, without
// running it: the command must exist and every flag be one of its own.
func parseBotArgs(args []string) error {
	name := "serve" // bot with no command, or with flags first, is serve's
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	switch name {
	case "help", "version":
		return nil
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		fs, _ := c.flagSet(stdio{getenv: func(string) string { return "" }})
		if _, err := parseFlags(fs, args, c.interleaved); err != nil && !errors.Is(err, flag.ErrHelp) {
			return fmt.Errorf("bot %s: %s", name, flagError(err))
		}
		return nil
	}
	return fmt.Errorf("bot has no command %q", name)
}

// goTestValueFlags are the go test flags that take a value; any other
// flag is a boolean of go test's, or one of the test binary's own
// (-update), which its package must define.
var goTestValueFlags = map[string]bool{"run": true, "bench": true, "count": true, "benchtime": true, "timeout": true,
	"cpu": true, "tags": true, "coverprofile": true, "cpuprofile": true, "memprofile": true, "trace": true, "o": true,
	"p": true, "parallel": true, "shuffle": true, "list": true, "skip": true, "fuzz": true, "fuzztime": true, "exec": true}

// goTestBoolFlags are go test's own boolean flags.
var goTestBoolFlags = map[string]bool{"v": true, "race": true, "benchmem": true, "short": true, "cover": true,
	"json": true, "failfast": true, "x": true, "n": true, "trimpath": true}

// checkGoCommand checks a go command of the docs without running it (CI
// builds and tests the module already, and a -update would rewrite the
// checkout): the packages it names exist, a go test's -run and -bench
// patterns match a test or benchmark of them and its own flags are
// defined there, go generate has a directive to run, and a go run or go
// install of a module at a version is in a block marked as needing the
// network.
func checkGoCommand(words []string, needs string) error {
	if len(words) < 2 {
		return fmt.Errorf("go with no subcommand")
	}
	sub, rest := words[1], words[2:]
	var pkgs []string
	flags := map[string]string{}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if sub == "test" && goTestValueFlags[name] && !hasVal && i+1 < len(rest) {
			i++
			val = rest[i]
		} else if sub != "test" && (name == "o" || name == "ldflags" || name == "tags") && !hasVal && i+1 < len(rest) {
			i++
			val = rest[i]
		}
		flags[name] = val
	}
	for _, p := range pkgs {
		if strings.Contains(p, "@") {
			if !strings.Contains(needs, "network") {
				return fmt.Errorf("%s fetches a module at a version from the proxy: mark its block <!-- needs: network -->", p)
			}
			return nil
		}
	}
	switch sub {
	case "test", "build", "vet", "generate", "install", "run":
	default:
		return nil
	}
	if len(pkgs) == 0 {
		return nil // the tool named in passing (go test -bench), not a command to check
	}
	var dirs []string
	for _, p := range pkgs {
		if sub == "run" && strings.HasSuffix(p, ".go") {
			break
		}
		if !strings.HasPrefix(p, ".") {
			return fmt.Errorf("go %s %s: name packages by path (./...)", sub, p)
		}
		ds, err := packageDirs(p)
		if err != nil {
			return fmt.Errorf("go %s %s: %v", sub, p, err)
		}
		dirs = append(dirs, ds...)
		if sub == "run" {
			break // the rest are the program's arguments
		}
	}
	switch sub {
	case "generate":
		for _, d := range dirs {
			if !filesContain(d, "*.go", "//go:generate ") {
				return fmt.Errorf("go generate %s: the package has no //go:generate directive", d)
			}
		}
	case "test":
		return checkGoTestFlags(dirs, flags)
	}
	return nil
}

// checkGoTestFlags checks go test's -run and -bench against the tests and
// benchmarks of dirs, and every flag go test does not know against the
// flags their tests define.
func checkGoTestFlags(dirs []string, flags map[string]string) error {
	funcs := map[string][]string{} // Test, Benchmark → names
	var src strings.Builder
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*_test.go"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			src.Write(raw)
			for _, m := range testFuncRe.FindAllStringSubmatch(string(raw), -1) {
				kind := m[1]
				if kind == "Example" || kind == "Fuzz" {
					kind = "Test"
				}
				funcs[kind] = append(funcs[kind], m[1]+m[2])
			}
		}
	}
	for name, val := range flags {
		switch {
		case name == "run" || name == "bench":
			kind := map[string]string{"run": "Test", "bench": "Benchmark"}[name]
			if val == "^$" || val == "." && len(funcs[kind]) > 0 {
				continue
			}
			first, _, _ := strings.Cut(val, "/")
			re, err := regexp.Compile(first)
			if err != nil {
				return fmt.Errorf("-%s %q: %v", name, val, err)
			}
			found := false
			for _, f := range funcs[kind] {
				found = found || re.MatchString(f)
			}
			if !found {
				return fmt.Errorf("-%s %q matches no %s of %v", name, val, strings.ToLower(kind), dirs)
			}
		case goTestValueFlags[name], goTestBoolFlags[name]:
		default:
			if !strings.Contains(src.String(), `("`+name+`"`) {
				return fmt.Errorf("-%s is not a flag the tests of %v define", name, dirs)
			}
		}
	}
	return nil
}

// testFuncRe is a test, benchmark, example or fuzz function.
var testFuncRe = regexp.MustCompile(`(?m)^func (Test|Benchmark|Example|Fuzz)([A-Za-z0-9_]*)\(`)

// packageDirs resolves a package pattern (./knowledge/engine, ./store/...,
// ./...) to the folders of Go packages it names, relative to the
// repository's root; it fails when it names none.
func packageDirs(pattern string) ([]string, error) {
	base, all := strings.CutSuffix(pattern, "/...")
	root := filepath.Join(repoRoot, filepath.FromSlash(base))
	var dirs []string
	if !all {
		if m, _ := filepath.Glob(filepath.Join(root, "*.go")); len(m) > 0 {
			dirs = append(dirs, root)
		}
	} else {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
				return filepath.SkipDir
			}
			if d.IsDir() {
				if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
					dirs = append(dirs, p)
				}
			}
			return nil
		})
	}
	if len(dirs) == 0 {
		return nil, errors.New("no Go package there")
	}
	return dirs, nil
}

// filesContain reports whether a file of dir matching glob holds s.
func filesContain(dir, glob, s string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, glob))
	for _, f := range files {
		if raw, err := os.ReadFile(f); err == nil && strings.Contains(string(raw), s) {
			return true
		}
	}
	return false
}

// TestDocsGoCommandsInProse: every `go test …` and `go generate …` written
// in the docs' prose and tables (not only their sh blocks) names packages
// that exist, and -run, -bench and its own flags that their tests have.
func TestDocsGoCommandsInProse(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		_, prose := parsePage(page, readPage(t, page))
		for _, span := range codeSpans(prose) {
			if !strings.HasPrefix(span, "go test ") && !strings.HasPrefix(span, "go generate ") {
				continue
			}
			for _, g := range goSegments(shellSegments(span)) {
				checked++
				if err := checkGoCommand(g, ""); err != nil {
					t.Errorf("%s: `%s`: %v", page, span, err)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d go commands in the docs' prose", checked)
	}
}

// TestDocsShellReading: the shell reading above splits the docs' kinds of
// command lines as bash does.
func TestDocsShellReading(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want [][]string
	}{
		{`go run ./cmd/bot scan --to 1.36 docs/examples/ > kepbot.sarif   # exits 5`, [][]string{{"go", "run", "./cmd/bot", "scan", "--to", "1.36", "docs/examples/"}}},
		{`printf 'kep 3866\n1.30 ga\n' | go run ./cmd/bot ask --json -`, [][]string{{"printf", `kep 3866\n1.30 ga\n`}, {"go", "run", "./cmd/bot", "ask", "--json", "-"}}},
		{`CGO_ENABLED=0 go build -trimpath -o bin/bot ./cmd/bot`, [][]string{{"go", "build", "-trimpath", "-o", "bin/bot", "./cmd/bot"}}},
		{`SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… bot serve 2>&1`, [][]string{{"bot", "serve"}}},
		{`go test ./x -run '^$' -bench 'A|B' -count 10 | tee new.txt`, [][]string{{"go", "test", "./x", "-run", "^$", "-bench", "A|B", "-count", "10"}, {"tee", "new.txt"}}},
		{`a && b || c; d &`, [][]string{{"a"}, {"b"}, {"c"}, {"d"}}},
		{`source <(bot completion bash)`, [][]string{{"source", "<(bot completion bash)"}}},
	} {
		got := shellSegments(tt.cmd)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("shellSegments(%q) = %q; want %q", tt.cmd, got, tt.want)
		}
	}
	if err := parseBotArgs([]string{"scan", "--to", "1.36", "--frm", "1.30"}); err == nil || !strings.Contains(err.Error(), "unknown flag --frm") {
		t.Errorf("a misspelt flag: %v", err)
	}
	if err := checkGoCommand([]string{"go", "test", "./knowledge/engine", "-run", "NoSuchTestAnywhere"}, ""); err == nil {
		t.Error("a -run that matches nothing passed")
	}
	if err := checkGoCommand([]string{"go", "test", "./internal/config", "-run", "TestSettingsTable", "-updat"}, ""); err == nil {
		t.Error("a flag the tests do not define passed")
	}
	if err := checkGoCommand([]string{"go", "install", "example.com/x@latest"}, ""); err == nil {
		t.Error("a module fetched at a version passed without the network mark")
	}
}
