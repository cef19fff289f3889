package main

import (
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
)

// slackConfig maps the config's slack section to the Slack adapter's
// Config: the signing secrets current first, the previous one while it
// is set.
func slackConfig(s config.Slack) slack.Config {
	c := slack.Config{BotToken: s.BotToken, AppToken: s.AppToken, APIURL: s.APIURL, Command: s.Command, Debug: s.Debug,
		SubscriptionManagers: append([]string(nil), s.SubscriptionManagers...), AllowReplays: s.AllowReplays}
	for _, sec := range []config.Secret{s.SigningSecret, s.SigningSecretPrevious} {
		if !sec.IsZero() {
			c.SigningSecrets = append(c.SigningSecrets, sec)
		}
	}
	return c
}
