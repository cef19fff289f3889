package serve

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/secret"
)

// SlackConfig maps the config's slack section to the Slack adapter's
// Config: the signing secrets current first, the previous one while it
// is set.
func SlackConfig(s config.Slack) slack.Config {
	c := slack.Config{BotToken: s.BotToken, AppToken: s.AppToken, APIURL: s.APIURL, Command: s.Command, Debug: s.Debug,
		SubscriptionManagers: append([]string(nil), s.SubscriptionManagers...), AllowReplays: s.AllowReplays}
	for _, sec := range []config.Secret{s.SigningSecret, s.SigningSecretPrevious} {
		if !sec.IsZero() {
			c.SigningSecrets = append(c.SigningSecrets, sec)
		}
	}
	return c
}

// DiscordConfig reads the Discord adapter's settings: the config file's
// discord section, then the DISCORD_* environment, then the bot token file
// when no token came from the environment. Errors name the key at fault.
func DiscordConfig(cfg *config.Config, getenv func(string) string) (discord.Config, error) {
	var d discord.Config
	if err := cfg.DecodeDiscord(&d); err != nil {
		return d, err
	}
	d.ApplyEnv(getenv)
	if d.BotToken.IsZero() {
		path := strings.TrimSpace(getenv("DISCORD_BOT_TOKEN_FILE"))
		key := "DISCORD_BOT_TOKEN_FILE"
		if path == "" {
			path, key = d.BotTokenFile, "discord.bot_token_file"
		}
		if path != "" {
			tok, err := secret.ReadFile(path)
			if err != nil {
				return d, fmt.Errorf("%s: %w", key, err)
			}
			d.BotToken = tok
		}
	}
	d = d.WithDefaults()
	if d.Enabled() {
		if err := d.Validate(); err != nil {
			return d, err
		}
	}
	return d, nil
}
