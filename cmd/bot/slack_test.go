package main

import (
	"testing"

	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
)

func TestSlackConfigMapsSubscriptionManagers(t *testing.T) {
	c := slackConfig(config.Slack{SubscriptionManagers: []string{"U024BE7LH", "W0123ABCD"}})
	if len(c.SubscriptionManagers) != 2 || c.SubscriptionManagers[0] != "U024BE7LH" || c.SubscriptionManagers[1] != "W0123ABCD" {
		t.Errorf("SubscriptionManagers = %q", c.SubscriptionManagers)
	}
}

func TestSlackConfigCarriesAllowReplays(t *testing.T) {
	if !slackConfig(config.Slack{AllowReplays: true}).AllowReplays || slackConfig(config.Slack{}).AllowReplays {
		t.Error("slackConfig does not carry allow_replays")
	}
}

// TestSlackConfigSigningSecrets: the current signing secret first, the
// previous one while it is set; the default command is the adapter's.
func TestSlackConfigSigningSecrets(t *testing.T) {
	c := slackConfig(config.Slack{SigningSecret: config.NewSecret("new"), SigningSecretPrevious: config.NewSecret("old")})
	if len(c.SigningSecrets) != 2 || c.SigningSecrets[0].Value() != "new" || c.SigningSecrets[1].Value() != "old" {
		t.Errorf("SigningSecrets = %v", c.SigningSecrets)
	}
	if c := slackConfig(config.Slack{SigningSecret: config.NewSecret("new")}); len(c.SigningSecrets) != 1 {
		t.Errorf("SigningSecrets = %v; want the current one alone", c.SigningSecrets)
	}
	if slack.DefaultCommand != config.DefaultSlackCommand {
		t.Errorf("the adapter's default command %q is not the config's %q", slack.DefaultCommand, config.DefaultSlackCommand)
	}
}
