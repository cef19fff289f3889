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

// TestChatScansAPastedManifest: in the terminal chat, a multi-document
// manifest pasted after `scan 1.36` is scanned as one input (the
// extensions/v1beta1 Ingress and batch/v1beta1 CronJob removed, the
// Deployment fine), blank lines between ``` lines included, and the next
// line is a question again.
func TestChatScansAPastedManifest(t *testing.T) {
	db := scanDB(t)
	docs := "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n  namespace: shop\n---\n" +
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\n" +
		"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n"
	for name, paste := range map[string]string{
		"up to a blank line":     docs + "\n",
		"between ``` lines":      "```yaml\n" + strings.Replace(docs, "---\n", "\n---\n\n", -1) + "```\n",
		"up to the end of input": docs,
		"a mention, FROM and TO": docs + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			scan := "scan 1.36"
			if name == "a mention, FROM and TO" {
				scan = "@kepbot scan 1.32 1.36"
			}
			input := scan + "\n" + paste
			if name != "up to the end of input" {
				input += "kep 4639\nquit\n"
			}
			code, out, errs := run(t, input, nil, "--db", db)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range []string{"Paste the manifests, then an empty line.\n", "3 objects: 2 removed by 1.36",
				"Removed in 1.22: extensions/v1beta1 Ingress", "use networking.k8s.io/v1 Ingress", "1 object: shop/web (document 1)",
				"Removed in 1.25: batch/v1beta1 CronJob", "1 object: nightly (document 3)"} {
				if !strings.Contains(out, want) {
					t.Errorf("the chat's answer lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "read as") || strings.Count(out, "k8s> ") > 3 {
				t.Errorf("a line of the manifest was answered as a question:\n%s", out)
			}
			if name != "up to the end of input" && !strings.Contains(out, "KEP-4639: OCI images as VolumeSource") {
				t.Errorf("the question after the manifest was not answered:\n%s", out)
			}
		})
	}
}
