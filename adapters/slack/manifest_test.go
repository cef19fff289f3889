package slack

import (
	"os"
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

// TestManifestMatchesTheAdapter keeps the manifest and the code in step:
// the command the config expects, exactly the scopes the adapter uses and
// the events it handles, Socket Mode on, buttons and DMs enabled.
func TestManifestMatchesTheAdapter(t *testing.T) {
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	var m appManifest
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", manifestPath, err)
	}
	cmds := m.Features.SlashCommands
	if len(cmds) != 1 || cmds[0].Command != config.DefaultSlackCommand || cmds[0].UsageHint == "" || cmds[0].ShouldEscape {
		t.Errorf("slash commands = %+v, want %s with a usage hint and should_escape false", cmds, config.DefaultSlackCommand)
	}
	wantScopes := []string{"app_mentions:read", "channels:read", "chat:write", "commands", "files:read", "files:write", "groups:read", "im:history", "users:read"}
	got := slices.Sorted(slices.Values(m.OAuth.Scopes.Bot))
	if !slices.Equal(got, wantScopes) || len(m.OAuth.Scopes.User) != 0 {
		t.Errorf("bot scopes %v, user scopes %v; want exactly %v and no user scopes", got, m.OAuth.Scopes.User, wantScopes)
	}
	events := slices.Sorted(slices.Values(m.Settings.Events.BotEvents))
	handled := []string{"app_mention", "message.im", "app_uninstalled", "tokens_revoked"}
	for ev := range channelGone {
		handled = append(handled, ev)
	}
	if want := slices.Sorted(slices.Values(handled)); !slices.Equal(events, want) {
		t.Errorf("bot events %v, want exactly those the adapter handles: %v", events, want)
	}
	if !m.Settings.SocketMode || !m.Settings.Interactivity.Enabled {
		t.Errorf("socket_mode_enabled=%v interactivity=%v, want both on", m.Settings.SocketMode, m.Settings.Interactivity.Enabled)
	}
	if !m.Features.AppHome.MessagesTab || m.Features.AppHome.MessagesTabReadOnly {
		t.Error("direct messages need the Messages tab, writable")
	}
}
