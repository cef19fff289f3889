package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// completionCase is a command line typed up to the cursor, and what the
// shell must offer there.
type completionCase struct {
	line string
	want []string
}

// completionCases are the lines every shell's script is tried on, their
// answers read from the command table: each command's flags after --,
// the commands, the words and the files arguments take.
func completionCases() []completionCase {
	var names []string
	cases := []completionCase{
		{"bot sc", []string{"scan"}},
		{"bot --db x.db as", []string{"ask"}},
		{"bot completion ", shells},
		{"bot digest ", []string{"preview"}},
		{"bot help sn", []string{"snapshot"}},
		{"bot scan --to 1.36 dep", []string{"deploy.yaml"}},
		{"bot ingest ch", []string{"charts"}},
		{"bot scan --db dep", []string{"deploy.yaml"}},
	}
	for _, c := range commands() {
		names = append(names, c.name)
		fs, _ := c.flagSet(testIO)
		var want []string
		for _, f := range flagSpecs(fs) {
			want = append(want, "--"+f.name)
		}
		cases = append(cases, completionCase{"bot " + c.name + " --", want})
		if c.name == "serve" { // bot with no command takes serve's flags, and --version
			cases = append(cases, completionCase{"bot --", append(want, "--version")})
		}
	}
	return append(cases, completionCase{"bot ", names})
}

// completionDir is a folder holding the script for shell and the files
// the cases complete.
func completionDir(t *testing.T, shell, file string) string {
	t.Helper()
	code, script, errs := run(t, "", nil, "completion", shell)
	if code != exitOK || errs != "" {
		t.Fatalf("bot completion %s: exit %d: %s", shell, code, errs)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "charts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{file: script, "deploy.yaml": "kind: List\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shellPath finds shell or skips: bash is everywhere, zsh and fish are not.
func shellPath(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed here, so its completion script is not run (apt-get install %s to run it)", shell, shell)
	}
	return p
}

// checkCompletions compares what a shell offered for each case (got, by
// line) with what it must offer, as sets; a folder's trailing / is left out.
func checkCompletions(t *testing.T, shell string, got map[string][]string) {
	t.Helper()
	for _, c := range completionCases() {
		var offered []string
		for _, w := range got[c.line] {
			if w = strings.TrimSuffix(strings.TrimSpace(w), "/"); w != "" && !slices.Contains(offered, w) {
				offered = append(offered, w)
			}
		}
		slices.Sort(offered)
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(offered, want) {
			t.Errorf("%s: %q offers %q, want %q", shell, c.line, offered, want)
		}
	}
}

// TestBashCompletion sources `bot completion bash`, checks that it
// registers for bot, and completes each case as bash would (COMP_WORDS).
func TestBashCompletion(t *testing.T) {
	bash := shellPath(t, "bash")
	dir := completionDir(t, "bash", "bot.bash")
	var sh strings.Builder
	sh.WriteString("source ./bot.bash || exit 1\ncomplete -p bot\n")
	for _, c := range completionCases() {
		words := strings.Split(c.line, " ")
		fmt.Fprintf(&sh, "COMP_WORDS=(%s); COMP_CWORD=%d; COMPREPLY=(); _bot; echo '@@%s'; printf '%%s\\n' \"${COMPREPLY[@]}\"\n",
			quoteAll(words), len(words)-1, c.line)
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", sh.String())
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "complete -o filenames -F _bot bot\n") {
		t.Errorf("complete -p bot says %q", strings.SplitN(string(out), "\n", 2)[0])
	}
	checkCompletions(t, "bash", splitCases(string(out)))
}

// TestFishCompletion sources `bot completion fish` and asks fish what it
// completes each case to (complete -C).
func TestFishCompletion(t *testing.T) {
	fish := shellPath(t, "fish")
	dir := completionDir(t, "fish", "bot.fish")
	var sh strings.Builder
	sh.WriteString("source ./bot.fish; or exit 1\n")
	for _, c := range completionCases() {
		fmt.Fprintf(&sh, "echo '@@%s'; complete -C '%s'\n", c.line, c.line)
	}
	cmd := exec.Command(fish, "--no-config", "-c", sh.String())
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fish: %v\n%s", err, out)
	}
	got := splitCases(string(out))
	for line, ws := range got {
		for i, w := range ws {
			ws[i], _, _ = strings.Cut(w, "\t") // the description
		}
		got[line] = slices.DeleteFunc(ws, func(w string) bool { return w == "-h" }) // -h beside --help
	}
	checkCompletions(t, "fish", got)
}

// zshInit sets up an interactive zsh to report what completion offers: it
// loads the script, and wraps compadd to print each match that fits what
// was typed ("match:WORD") before adding it, and a line when done.
const zshInit = `PROMPT='' RPROMPT=''
autoload -U compinit && compinit -u -d ./zcompdump
source ./_bot
bindkey '^I' complete-word
compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a kept
  builtin compadd -O kept "$@"
  (( $#kept )) && print -rl -- "match:"${^kept}
  builtin compadd "$@"
}
comppostfuncs=(_capture_done)
_capture_done() { print -r -- "capture-done"; exit }
print -r -- "capture-ready"
`

// zshCapture types its argument and a tab into an interactive zsh (in a
// zpty) set up by zshInit, and prints the matches.
const zshCapture = `zmodload zsh/zpty || exit 1
zpty z zsh -f -i
zpty -w z "source ./init.zsh"
local line
while zpty -r z line; do [[ $line == *capture-ready* ]] && break; done
zpty -w -n z "$1"$'\t'
while zpty -r z line; do
  [[ $line == *capture-done* ]] && break
  [[ $line == *match:* ]] && print -r -- "${${line#*match:}%%[$'\r\n']*}"
done
zpty -d z
`

// TestZshCompletion types each case and a tab into an interactive zsh
// that loaded `bot completion zsh`, and reads what it offers.
func TestZshCompletion(t *testing.T) {
	zsh := shellPath(t, "zsh")
	dir := completionDir(t, "zsh", "_bot")
	for name, body := range map[string]string{"init.zsh": zshInit, "capture.zsh": zshCapture} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string][]string{}
	for _, c := range completionCases() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a zpty that never answers
		cmd := exec.CommandContext(ctx, zsh, "-f", "capture.zsh", c.line)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("zsh, %q: %v\n%s", c.line, err, out)
		}
		got[c.line] = strings.Split(string(out), "\n")
	}
	checkCompletions(t, "zsh", got)
}

// splitCases splits output where each case's answers follow a line
// "@@LINE".
func splitCases(out string) map[string][]string {
	got := map[string][]string{}
	cur := ""
	for _, l := range strings.Split(out, "\n") {
		if line, ok := strings.CutPrefix(l, "@@"); ok {
			cur = line
			got[cur] = []string{}
			continue
		}
		if cur != "" {
			got[cur] = append(got[cur], l)
		}
	}
	return got
}

// quoteAll quotes words for bash, each in single quotes.
func quoteAll(words []string) string {
	var q []string
	for _, w := range words {
		q = append(q, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
	}
	return strings.Join(q, " ")
}
