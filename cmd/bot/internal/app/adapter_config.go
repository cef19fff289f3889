package app

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/secret"
)

// SlackConfig maps the config's slack section (and answers.public) to the
// Slack adapter's Config: the signing secrets current first, the previous
// one while it is set.
func SlackConfig(cfg *config.Config) slack.Config {
	s := cfg.Slack
	c := slack.Config{BotToken: s.BotToken, AppToken: s.AppToken, APIURL: s.APIURL, Command: s.Command, Debug: s.Debug,
		SubscriptionManagers: append([]string(nil), s.SubscriptionManagers...), AllowReplays: s.AllowReplays,
		PublicAnswers: cfg.Answers.Public}
	for _, sec := range []config.Secret{s.SigningSecret, s.SigningSecretPrevious} {
		if !sec.IsZero() {
			c.SigningSecrets = append(c.SigningSecrets, sec)
		}
	}
	return c
}

// DiscordConfig reads the Discord adapter's settings: the config file's
// discord section, then the DISCORD_* environment, then the bot token file
// when no token came from the environment; and answers.public. Errors name
// the key at fault.
func DiscordConfig(cfg *config.Config, getenv func(string) string) (discord.Config, error) {
	var d discord.Config
	if err := cfg.DecodeDiscord(&d); err != nil {
		return d, err
	}
	if err := d.ApplyEnv(getenv); err != nil {
		return d, err
	}
	d.PublicAnswers = cfg.Answers.Public
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

// NoPlatform says that neither Slack nor Discord is configured: the
// settings that would start each (the variables and the config file's
// keys), and the Discord settings set that are not enough on their own.
// (A Slack token set alone is config.Load's error already.)
func NoPlatform(cfg *config.Config, d discord.Config) string {
	var b strings.Builder
	b.WriteString("no chat platform is configured. Set one of:\n" +
		"  Slack Socket Mode:          " + config.EnvSlackBotToken + " and " + config.EnvSlackAppToken +
		" (or their _FILE forms; slack.bot_token_file and slack.app_token_file in --config FILE)\n" +
		"  Slack HTTP endpoints:       " + config.EnvSlackSigningSecret + " (or " + config.EnvSlackSigningSecret + "_FILE; slack.signing_secret_file)\n" +
		"  Discord gateway:            " + discord.EnvBotToken + " (or " + discord.EnvBotToken + "_FILE; discord.bot_token_file)\n" +
		"  Discord HTTP interactions:  " + discord.EnvPublicKey + " (discord.public_key)\n")
	if d.AppID != "" || len(d.Guilds) > 0 {
		b.WriteString(discord.EnvAppID + " or " + discord.EnvGuilds + " is set, but Discord also needs " + discord.EnvBotToken + " or " + discord.EnvPublicKey + ".\n")
	}
	return b.String()
}
