package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
)

func TestSlackConfigMapsSubscriptionManagers(t *testing.T) {
	c := SlackConfig(&config.Config{Slack: config.Slack{SubscriptionManagers: []string{"U024BE7LH", "W0123ABCD"}}})
	if len(c.SubscriptionManagers) != 2 || c.SubscriptionManagers[0] != "U024BE7LH" || c.SubscriptionManagers[1] != "W0123ABCD" {
		t.Errorf("SubscriptionManagers = %q", c.SubscriptionManagers)
	}
}

func TestSlackConfigCarriesAllowReplays(t *testing.T) {
	if !SlackConfig(&config.Config{Slack: config.Slack{AllowReplays: true}}).AllowReplays || SlackConfig(&config.Config{}).AllowReplays {
		t.Error("SlackConfig does not carry allow_replays")
	}
}

// TestPublicAnswersReachBothAdapters: answers.public is one setting, and
// both Slack's and Discord's configs carry it.
func TestPublicAnswersReachBothAdapters(t *testing.T) {
	for _, public := range []bool{false, true} {
		cfg := &config.Config{Answers: config.Answers{Public: public}}
		d, err := DiscordConfig(cfg, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if SlackConfig(cfg).PublicAnswers != public || d.PublicAnswers != public {
			t.Errorf("answers.public %v: Slack %v, Discord %v", public, SlackConfig(cfg).PublicAnswers, d.PublicAnswers)
		}
	}
}

// TestSlackConfigSigningSecrets: the current signing secret first, the
// previous one while it is set; the default command is the adapter's.
func TestSlackConfigSigningSecrets(t *testing.T) {
	c := SlackConfig(&config.Config{Slack: config.Slack{SigningSecret: config.NewSecret("new"), SigningSecretPrevious: config.NewSecret("old")}})
	if len(c.SigningSecrets) != 2 || c.SigningSecrets[0].Value() != "new" || c.SigningSecrets[1].Value() != "old" {
		t.Errorf("SigningSecrets = %v", c.SigningSecrets)
	}
	if c := SlackConfig(&config.Config{Slack: config.Slack{SigningSecret: config.NewSecret("new")}}); len(c.SigningSecrets) != 1 {
		t.Errorf("SigningSecrets = %v; want the current one alone", c.SigningSecrets)
	}
	if slack.DefaultCommand != config.DefaultSlackCommand {
		t.Errorf("the adapter's default command %q is not the config's %q", slack.DefaultCommand, config.DefaultSlackCommand)
	}
}

// TestExampleConfigDiscordSection keeps the example's discord section true
// to the adapter: every key decodes, and the defaults it shows are the code's.
func TestExampleConfigDiscordSection(t *testing.T) {
	cfg, err := config.Load(filepath.Join("..", "..", "..", "..", "configs", "bot.example.yaml"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	d, err := DiscordConfig(cfg, func(string) string { return "" })
	if err != nil {
		t.Fatalf("the example's discord section: %v", err)
	}
	if d.Enabled() {
		t.Error("the example enables Discord without any token or key")
	}
	if d.Prefix != "!k8s" || d.UserPerMinute != 10 || d.UserBurst != 5 || d.PrefixCommands {
		t.Errorf("example values %q %d %d %v differ from the defaults", d.Prefix, d.UserPerMinute, d.UserBurst, d.PrefixCommands)
	}
}

func TestDiscordTokenFromFile(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte("  file-token-value \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DISCORD_BOT_TOKEN_FILE": tok}
	cfg, err := config.Load("", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	d, err := DiscordConfig(cfg, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if d.BotToken.Value() != "file-token-value" || !d.Enabled() {
		t.Errorf("token from file = %q, enabled %v", d.BotToken.Value(), d.Enabled())
	}

	env["DISCORD_BOT_TOKEN_FILE"] = filepath.Join(dir, "missing")
	_, err = DiscordConfig(cfg, func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "DISCORD_BOT_TOKEN_FILE") {
		t.Errorf("a missing token file: %v; want an error naming DISCORD_BOT_TOKEN_FILE", err)
	}
}
