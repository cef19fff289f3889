package slack

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/internal/config"
)

const manifestPath = "../../configs/slack-app-manifest.yaml"

// appManifest is the part of Slack's app manifest kepbot depends on.
type appManifest struct {
	Features struct {
		AppHome struct {
			MessagesTab         bool `yaml:"messages_tab_enabled"`
			MessagesTabReadOnly bool `yaml:"messages_tab_read_only_enabled"`
		} `yaml:"app_home"`
		SlashCommands []struct {
			Command      string `yaml:"command"`
			Description  string `yaml:"description"`
			UsageHint    string `yaml:"usage_hint"`
			ShouldEscape bool   `yaml:"should_escape"`
		} `yaml:"slash_commands"`
	} `yaml:"features"`
	OAuth struct {
		Scopes struct {
			Bot  []string `yaml:"bot"`
			User []string `yaml:"user"`
		} `yaml:"scopes"`
	} `yaml:"oauth_config"`
	Settings struct {
		Events struct {
			BotEvents []string `yaml:"bot_events"`
		} `yaml:"event_subscriptions"`
		Interactivity struct {
			Enabled bool `yaml:"is_enabled"`
		} `yaml:"interactivity"`
		SocketMode bool `yaml:"socket_mode_enabled"`
	} `yaml:"settings"`
}

// optionalLineRe is a line of the manifest that turns on an optional
// feature when its "#" is removed: "      #- users:read".
var optionalLineRe = regexp.MustCompile(`(?m)^(\s*)#- `)

// readManifest decodes the manifest as it is, or with every optional
// scope and event turned on (all).
func readManifest(t *testing.T, all bool) appManifest {
	t.Helper()
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	if all {
		data = optionalLineRe.ReplaceAll(data, []byte("$1- "))
	}
	var m appManifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s (optional lines on: %v): %v", manifestPath, all, err)
	}
	return m
}

// TestManifestMatchesTheAdapter keeps the manifest and the code in step:
// the command the config expects; by default the least the adapter needs
// to answer questions (commands, mentions, DMs) and the events that need
// no scope; with its optional lines turned on, exactly the scopes the
// adapter uses and the events it handles; Socket Mode on, buttons and DMs
// enabled.
func TestManifestMatchesTheAdapter(t *testing.T) {
	m := readManifest(t, false)
	cmds := m.Features.SlashCommands
	if len(cmds) != 1 || cmds[0].Command != config.DefaultSlackCommand || cmds[0].UsageHint == "" || cmds[0].ShouldEscape {
		t.Errorf("slash commands = %+v, want %s with a usage hint and should_escape false", cmds, config.DefaultSlackCommand)
	}
	scopes := func(m appManifest) []string { return slices.Sorted(slices.Values(m.OAuth.Scopes.Bot)) }
	events := func(m appManifest) []string { return slices.Sorted(slices.Values(m.Settings.Events.BotEvents)) }
	minimum := []string{"app_mentions:read", "chat:write", "commands", "im:history"}
	if got := scopes(m); !slices.Equal(got, minimum) || len(m.OAuth.Scopes.User) != 0 {
		t.Errorf("default bot scopes %v, user scopes %v; want exactly %v and no user scopes", got, m.OAuth.Scopes.User, minimum)
	}
	if got, want := events(m), []string{"app_mention", "app_uninstalled", "message.im", "tokens_revoked"}; !slices.Equal(got, want) {
		t.Errorf("default bot events %v, want %v (the others need an optional scope)", got, want)
	}

	all := readManifest(t, true)
	allScopes := []string{"app_mentions:read", "channels:read", "chat:write", "commands", "files:read", "files:write", "groups:read", "im:history", "users:read"}
	if got := scopes(all); !slices.Equal(got, allScopes) || len(all.OAuth.Scopes.User) != 0 {
		t.Errorf("bot scopes with the optional lines %v, user scopes %v; want exactly %v and no user scopes", got, all.OAuth.Scopes.User, allScopes)
	}
	handled := []string{"app_mention", "message.im", "app_uninstalled", "tokens_revoked"}
	for ev := range channelGone {
		handled = append(handled, ev)
	}
	if got, want := events(all), slices.Sorted(slices.Values(handled)); !slices.Equal(got, want) {
		t.Errorf("bot events with the optional lines %v, want exactly those the adapter handles: %v", got, want)
	}
	if !m.Settings.SocketMode || !m.Settings.Interactivity.Enabled {
		t.Errorf("socket_mode_enabled=%v interactivity=%v, want both on", m.Settings.SocketMode, m.Settings.Interactivity.Enabled)
	}
	if !m.Features.AppHome.MessagesTab || m.Features.AppHome.MessagesTabReadOnly {
		t.Error("direct messages need the Messages tab, writable")
	}
}
