package main

import (
	"flag"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// testIO is a stdio for reading the table: no input, nothing set.
var testIO = stdio{in: strings.NewReader(""), out: io.Discard, err: io.Discard, getenv: func(string) string { return "" }}

// TestCommandTableIsComplete: every command has a one-line summary that
// fits the list, a usage naming only its own flags, two or more examples
// whose flags are its own, and its exit codes, 2 among them (a bad flag).
func TestCommandTableIsComplete(t *testing.T) {
	width := 0
	for _, c := range commands() {
		width = max(width, len(c.name))
	}
	seen := map[string]bool{}
	for _, c := range commands() {
		if seen[c.name] {
			t.Errorf("two commands are called %s", c.name)
		}
		seen[c.name] = true
		if c.summary == "" || strings.Contains(c.summary, "\n") || 2+width+2+len(c.summary) > helpWidth {
			t.Errorf("%s: summary %q is not one line of the list (%d columns)", c.name, c.summary, helpWidth)
		}
		if len(c.examples) < 2 {
			t.Errorf("%s: %d examples, want two or three", c.name, len(c.examples))
		}
		codes := map[int]bool{}
		for _, x := range c.exits {
			if codes[x.code] || x.meaning == "" {
				t.Errorf("%s: exit %d listed twice or without a meaning", c.name, x.code)
			}
			codes[x.code] = true
		}
		if !codes[exitOK] || !codes[exitBadInput] {
			t.Errorf("%s: exit codes %v lack 0 or 2 (a bad flag exits 2)", c.name, codes)
		}
		fs, run := c.flagSet(testIO)
		if run == nil {
			t.Errorf("%s: no run function", c.name)
		}
		for _, name := range longFlags(c.usage) {
			if fs.Lookup(name) == nil {
				t.Errorf("%s: usage %q names --%s, which it does not take", c.name, c.usage, name)
			}
		}
		for _, e := range c.examples {
			words := strings.Fields(e.line)
			for i, w := range words {
				if (w == "bot" || strings.HasSuffix(w, "/bot")) && i+1 < len(words) && words[i+1] == c.name {
					for _, name := range longFlags(strings.Join(words[i+2:], " ")) {
						if fs.Lookup(name) == nil {
							t.Errorf("%s: example %q gives --%s, which it does not take", c.name, e.line, name)
						}
					}
				}
			}
		}
		fs.VisitAll(func(f *flag.Flag) {
			if arg, _ := flag.UnquoteUsage(f); arg == "string" || arg == "value" || arg == "int" {
				t.Errorf("%s: --%s's value has no name (a `NAME` in its usage): help would show %q", c.name, f.Name, arg)
			}
		})
	}
}

// longFlags returns the names of the --flags in s, without a value.
func longFlags(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?:^|\s)--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(s, -1) {
		if m[1] != "help" {
			out = append(out, m[1])
		}
	}
	return out
}

// TestHelpExitsZero: bot --help, -h and help list every command with its
// summary on stdout and exit 0; help CMD, CMD --help and CMD -h show the
// command's usage, every flag, its examples and its exit codes.
func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"-help"}, {"help"}} {
		code, out, errs := run(t, "", nil, args...)
		if code != exitOK || errs != "" {
			t.Errorf("bot %v: exit %d, stderr %q", args, code, errs)
		}
		for _, c := range commands() {
			if !regexp.MustCompile(`(?m)^  ` + c.name + ` +` + regexp.QuoteMeta(c.summary) + `$`).MatchString(out) {
				t.Errorf("bot %v does not list %s with its summary on one line:\n%s", args, c.name, out)
			}
		}
	}
	for _, c := range commands() {
		fs, _ := c.flagSet(testIO)
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			code, out, errs := run(t, "", nil, args...)
			if code != exitOK || errs != "" {
				t.Errorf("bot %v: exit %d, stderr %q", args, code, errs)
				continue
			}
			if !strings.Contains(out, "bot "+strings.TrimSpace(c.name+" "+c.usage)+"\n") {
				t.Errorf("bot %v lacks the usage line:\n%s", args, out)
			}
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(out, "--"+f.Name) {
					t.Errorf("bot %v does not show --%s:\n%s", args, f.Name, out)
				}
			})
			for _, e := range c.examples {
				if !strings.Contains(out, "  "+e.line+"\n") {
					t.Errorf("bot %v lacks the example %q", args, e.line)
				}
			}
			for _, x := range c.exits {
				if !strings.Contains(out, "\n  "+strconv.Itoa(x.code)+"  ") {
					t.Errorf("bot %v lacks exit code %d:\n%s", args, x.code, out)
				}
			}
		}
	}
}

// TestUnknownExitsTwo: an unknown command, or a flag a command does not
// take, exits 2 and says so on stderr with the commands, or the command's
// usage.
func TestUnknownExitsTwo(t *testing.T) {
	code, out, errs := run(t, "", nil, "frobnicate")
	if code != exitBadInput || out != "" || !strings.Contains(errs, `unknown command "frobnicate"`) || !strings.Contains(errs, "  scan ") {
		t.Errorf("bot frobnicate: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	if _, _, errs := run(t, "", nil, "scna"); !strings.Contains(errs, `did you mean "scan"?`) {
		t.Errorf("bot scna: %s", errs)
	}
	if code, _, errs := run(t, "", nil, "help", "frobnicate"); code != exitBadInput || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("bot help frobnicate: exit %d\n%s", code, errs)
	}
	if code, _, errs := run(t, "", nil, "--frobnicate"); code != exitBadInput || !strings.Contains(errs, "unknown flag --frobnicate") || !strings.Contains(errs, "  scan ") {
		t.Errorf("bot --frobnicate: exit %d\n%s", code, errs)
	}
	for _, c := range commands() {
		code, out, errs := run(t, "", nil, c.name, "--frobnicate")
		if code != exitBadInput || out != "" || !strings.Contains(errs, "bot "+c.name+": unknown flag --frobnicate") ||
			!strings.Contains(errs, "Usage:\n  bot "+c.name) {
			t.Errorf("bot %s --frobnicate: exit %d, stdout %q, stderr:\n%s", c.name, code, out, errs)
		}
	}
	if code, _, errs := run(t, "", nil, "scan", "--to"); code != exitBadInput || !strings.Contains(errs, "flag --to needs a value") {
		t.Errorf("bot scan --to: exit %d\n%s", code, errs)
	}
	if code, _, errs := run(t, "", nil, "--db", "x.db", "ask", "kep", "1"); code != exitBadInput || !strings.Contains(errs, "bot ask --db x.db") {
		t.Errorf("bot --db x.db ask: exit %d\n%s", code, errs)
	}
}

// TestFlagsAfterDoubleDash: after --, words that look like flags are the
// question's.
func TestFlagsAfterDoubleDash(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	j := fs.Bool("json", false, "")
	words, err := parseFlags(fs, []string{"kep", "--json", "1", "--", "--json", "x"}, true)
	if err != nil || !*j || strings.Join(words, " ") != "kep 1 --json x" {
		t.Errorf("words %q, json %v, err %v", words, *j, err)
	}
}

// TestVersion: ldflags win where given; else the module version and the
// commit Go embedded; go run's (devel) and no VCS stay dev and unknown.
func TestVersion(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "9182a57cb37ee77634ba3776c1041075823c133c"},
		{Key: "vcs.time", Value: "2026-05-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	tests := []struct {
		info            *debug.BuildInfo
		ldVer, ldCommit string
		want            buildInfo
	}{
		{info, "dev", "unknown", buildInfo{Version: "v1.4.0", Commit: "9182a57cb37ee77634ba3776c1041075823c133c", Time: "2026-05-01T10:00:00Z", Modified: true, Go: "go1.26.0"}},
		{info, "v2.0.0", "abc123", buildInfo{Version: "v2.0.0", Commit: "abc123", Go: "go1.26.0"}},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "dev", "unknown", buildInfo{Version: "dev", Commit: "unknown", Go: "go1.26.0"}},
	}
	for _, tt := range tests {
		if got := buildVersion(tt.info, tt.ldVer, tt.ldCommit); got != tt.want {
			t.Errorf("buildVersion(%q, %q) = %+v, want %+v", tt.ldVer, tt.ldCommit, got, tt.want)
		}
	}
	b := buildVersion(info, "dev", "unknown")
	if s := b.String(); !strings.HasPrefix(s, "kepbot v1.4.0, commit 9182a57cb37ee77634ba3776c1041075823c133c (2026-05-01T10:00:00Z, with uncommitted changes), go1.26.0 ") {
		t.Errorf("version line %q", s)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := run(t, "", nil, args...)
		if code != exitOK || out != currentBuild().String()+"\n" {
			t.Errorf("bot %v: exit %d, %q", args, code, out)
		}
	}
	if code, _, _ := run(t, "", nil, "version", "now"); code != exitBadInput {
		t.Errorf("bot version now: exit %d, want 2", code)
	}
}
