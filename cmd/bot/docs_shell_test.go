package main

import (
	"errors"
	"flag"
	"fmt"
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
