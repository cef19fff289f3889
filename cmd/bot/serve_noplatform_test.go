package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeWithNothingConfiguredAndNoTerminal: in a container whose
// Secret is missing, bot serve exits 2 naming every setting that would
// start Slack or Discord (variables and config keys), says what is set
// but not enough, and leaves no database behind.
func TestServeWithNothingConfiguredAndNoTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kepbot.db")
	code, out, errs := run(t, "", map[string]string{"BOT_DB": db}, "serve")
	if code != exitBadInput || out != "" {
		t.Fatalf("exit %d, stdout %q; want 2 and nothing on stdout", code, out)
	}
	for _, want := range []string{"no chat platform is configured", "SLACK_BOT_TOKEN and SLACK_APP_TOKEN", "slack.bot_token_file",
		"slack.app_token_file", "SLACK_SIGNING_SECRET", "slack.signing_secret_file", "DISCORD_BOT_TOKEN", "discord.bot_token_file",
		"DISCORD_PUBLIC_KEY", "discord.public_key", "Stdin is not a terminal", "`bot ask QUESTION`"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a database was made for a serve that could not start")
	}
	_, _, errs = run(t, "", map[string]string{"BOT_DB": db, "SLACK_BOT_TOKEN": "xoxb-1-2-abc"}, "serve")
	if !strings.Contains(errs, "(SLACK_BOT_TOKEN) is set but Slack cannot reach kepbot: also set SLACK_APP_TOKEN") || strings.Contains(errs, "xoxb-1-2-abc") {
		t.Errorf("a bot token alone: stderr\n%s", errs)
	}
	_, _, errs = run(t, "", map[string]string{"BOT_DB": db, "DISCORD_APP_ID": "1234567890123456789"}, "serve")
	if !strings.Contains(errs, "DISCORD_APP_ID or DISCORD_GUILDS is set, but Discord also needs DISCORD_BOT_TOKEN or DISCORD_PUBLIC_KEY") {
		t.Errorf("an application ID alone: stderr\n%s", errs)
	}
}

// TestServeChatsOnATerminal: bot serve on a terminal, and bot with no
// command anywhere (go run ./cmd/bot, a pipe), are the terminal chat.
func TestServeChatsOnATerminal(t *testing.T) {
	db := scanDB(t)
	for _, args := range [][]string{{"serve", "--db", db}, {"--db", db}} {
		for _, terminal := range []bool{true, false} {
			if args[0] == "serve" && !terminal {
				continue // the test above
			}
			var out, errb bytes.Buffer
			code := Main(context.Background(), args, stdio{in: strings.NewReader("kep 4639\nquit\n"), out: &out, err: &errb,
				getenv: func(string) string { return "" }, terminal: terminal})
			if code != exitOK || !strings.Contains(out.String(), "k8s> KEP-4639") || !strings.Contains(out.String(), "Bye.") {
				t.Errorf("bot %v (terminal %v): exit %d\nstdout:\n%s\nstderr:\n%s", args, terminal, code, out.String(), errb.String())
			}
		}
	}
}
