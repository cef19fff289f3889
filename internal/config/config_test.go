package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
)

const examplePath = "../../configs/bot.example.yaml"

// env is a fake environment.
type env map[string]string

func (e env) get(k string) string { return e[k] }

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExampleLoadsAsDefaults(t *testing.T) {
	got, err := Load(examplePath, env{}.get)
	if err != nil {
		t.Fatalf("Load(%s): %v", examplePath, err)
	}
	want := Default()
	want.Path = examplePath
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Config{}, "Discord"), cmp.AllowUnexported(Secret{})); diff != "" {
		t.Errorf("the example should spell out the defaults (-want +got):\n%s", diff)
	}
	if got.HasAdapters() {
		t.Error("HasAdapters() = true with no secrets set")
	}
}

// TestExampleDocumentsEveryKey fails when Config grows a key the example
// does not show, so the example cannot go stale.
func TestExampleDocumentsEveryKey(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		if n.Kind == yaml.DocumentNode {
			walk(prefix, n.Content[0])
			return
		}
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := prefix + n.Content[i].Value
			have[k] = true
			walk(k+".", n.Content[i+1])
		}
	}
	walk("", &doc)
	for _, key := range yamlKeys("", reflect.TypeOf(Config{})) {
		if !have[key] {
			t.Errorf("%s does not document the key %s", examplePath, key)
		}
	}
}

// yamlKeys lists the dotted YAML keys of a struct type.
func yamlKeys(prefix string, typ reflect.Type) []string {
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || name == "" {
			continue
		}
		out = append(out, prefix+name)
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(yaml.Node{}) && f.Type != reflect.TypeOf(time.Duration(0)) {
			out = append(out, yamlKeys(prefix+name+".", f.Type)...)
		}
	}
	return out
}

func TestEnvironmentOverridesFile(t *testing.T) {
	botFile := writeFile(t, "bot", "xoxb-from-file-1234\n")
	cfgPath := writeFile(t, "bot.yaml", `
db: /var/lib/kepbot/file.db
http:
  addr: 0.0.0.0:9000
  shutdown_timeout: 20s
log:
  level: warn
slack:
  bot_token_file: `+botFile+`
  api_url: https://file.example/api/
answers:
  public: false
`)
	e := env{
		"BOT_ANSWERS_PUBLIC":            "true",
		"BOT_DB":                        "/tmp/env.db",
		"BOT_LOG_FORMAT":                "json",
		"SLACK_APP_TOKEN":               "xapp-1-env",
		"SLACK_SIGNING_SECRET":          "0123456789abcdef0123",
		"SLACK_SIGNING_SECRET_PREVIOUS": "fedcba9876543210fedc",
		"SLACK_API_URL":                 "http://127.0.0.1:9/api/",
	}
	c, err := Load(cfgPath, e.get)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{
		"db": c.DB, "addr": c.HTTP.Addr, "shutdown": c.HTTP.ShutdownTimeout.String(),
		"level": c.Log.Level, "format": c.Log.Format, "api": c.Slack.APIURL,
		"bot": c.Slack.BotToken.Value(), "app": c.Slack.AppToken.Value(),
		"sign": c.Slack.SigningSecret.Value(), "prev": c.Slack.SigningSecretPrevious.Value(),
		"public": strconv.FormatBool(c.Answers.Public),
	}
	want := map[string]string{
		"db": "/tmp/env.db", "addr": "0.0.0.0:9000", "shutdown": "20s",
		"level": "warn", "format": "json", "api": "http://127.0.0.1:9/api/",
		"bot": "xoxb-from-file-1234", "app": "xapp-1-env",
		"sign": "0123456789abcdef0123", "prev": "fedcba9876543210fedc", "public": "true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !c.SlackSocketMode() || !c.SlackHTTP() || !c.HasAdapters() {
		t.Errorf("SlackSocketMode=%v SlackHTTP=%v, want both", c.SlackSocketMode(), c.SlackHTTP())
	}
	if n := len(c.Secrets()); n != 4 {
		t.Errorf("Secrets() has %d, want 4", n)
	}
}

func TestSecretFromFileVariable(t *testing.T) {
	f := writeFile(t, "secret", "  0123456789abcdef0123  \n")
	c, err := Load("", env{"SLACK_SIGNING_SECRET_FILE": f}.get)
	if err != nil {
		t.Fatal(err)
	}
	if c.Slack.SigningSecret.Value() != "0123456789abcdef0123" {
		t.Errorf("signing secret = %q", c.Slack.SigningSecret.Value())
	}
	if !c.SlackHTTP() || c.SlackSocketMode() {
		t.Errorf("SlackHTTP=%v SlackSocketMode=%v, want HTTP only", c.SlackHTTP(), c.SlackSocketMode())
	}
}

// TestLoadErrorsNameTheKey checks that every refusal names what to fix.
func TestLoadErrorsNameTheKey(t *testing.T) {
	empty := writeFile(t, "empty", "\n")
	tests := []struct {
		name string
		yaml string
		env  env
		want []string // substrings of the error
	}{
		{"inline bot token", "slack:\n  bot_token: xoxb-123-abc\n", nil,
			[]string{"slack.bot_token", "SLACK_BOT_TOKEN", "slack.bot_token_file", ":2:"}},
		{"inline signing secret", "slack:\n  signing_secret: abc\n", nil, []string{"slack.signing_secret", "SLACK_SIGNING_SECRET"}},
		{"inline discord token", "discord:\n  bot_token: abc\n", nil, []string{"discord.bot_token", "DISCORD_BOT_TOKEN"}},
		{"unknown key", "slack:\n  comand: /k8s\n", nil, []string{"comand", "not found"}},
		{"unknown section", "slak:\n  command: /k8s\n", nil, []string{"slak"}},
		{"bad duration", "http:\n  shutdown_timeout: soon\n", nil, []string{"soon"}},
		{"bad yaml", "slack: [\n", nil, []string{"config"}},
		{"bad level", "log:\n  level: loud\n", nil, []string{"log.level", "BOT_LOG_LEVEL", "debug, info, warn or error"}},
		{"bad format", "", env{"BOT_LOG_FORMAT": "xml"}, []string{"log.format", "auto, json or console"}},
		{"bad addr", "", env{"BOT_HTTP_ADDR": "8080"}, []string{"http.addr", "BOT_HTTP_ADDR", "host:port"}},
		{"bad port", "http:\n  addr: 127.0.0.1:http-alt\n", nil, []string{"http.addr", "port"}},
		{"bad shutdown env", "", env{"BOT_SHUTDOWN_TIMEOUT": "ten"}, []string{"BOT_SHUTDOWN_TIMEOUT"}},
		{"zero shutdown", "http:\n  shutdown_timeout: 0s\n", nil, []string{"http.shutdown_timeout"}},
		{"empty db", "", env{"BOT_DB": " "}, nil}, // white space is "unset": no error
		{"app token alone", "", env{"SLACK_APP_TOKEN": "xapp-1"}, []string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "both"}},
		{"bot token alone", "", env{"SLACK_BOT_TOKEN": "xoxb-1"}, []string{"SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"}},
		{"tokens swapped", "", env{"SLACK_BOT_TOKEN": "xapp-1-zz", "SLACK_APP_TOKEN": "xoxb-1-zz"},
			[]string{"SLACK_BOT_TOKEN) must start with xoxb-; this one starts with xapp-", "SLACK_APP_TOKEN) must start with xapp-"}},
		{"previous without current", "", env{"SLACK_SIGNING_SECRET_PREVIOUS": "0123456789abcdef0123"}, []string{"SLACK_SIGNING_SECRET_PREVIOUS", "SLACK_SIGNING_SECRET)"}},
		{"short signing secret", "", env{"SLACK_SIGNING_SECRET": "short"}, []string{"SLACK_SIGNING_SECRET", "16"}},
		{"both env and file", "", env{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_BOT_TOKEN_FILE": "/x"}, []string{"SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE"}},
		{"missing secret file", "slack:\n  app_token_file: /nonexistent/kepbot\n", nil, []string{"slack.app_token_file", "/nonexistent/kepbot"}},
		{"empty secret file", "", env{"SLACK_SIGNING_SECRET_FILE": empty}, []string{"SLACK_SIGNING_SECRET_FILE", "empty"}},
		{"bad api url", "", env{"SLACK_API_URL": "ftp://x"}, []string{"slack.api_url", "SLACK_API_URL"}},
		{"bad command", "slack:\n  command: k8s\n", nil, []string{"slack.command", "/k8s"}},
		{"bad public answers", "", env{"BOT_ANSWERS_PUBLIC": "everyone"}, []string{"BOT_ANSWERS_PUBLIC", "true or false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.yaml != "" {
				path = writeFile(t, "bot.yaml", tt.yaml)
			}
			_, err := Load(path, tt.env.get)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Load: %v, want no error", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Load succeeded, want an error with %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestErrorsNeverShowSecrets(t *testing.T) {
	secret := "xoxp-9999-very-secret-value"
	_, err := Load("", env{"SLACK_BOT_TOKEN": secret, "SLACK_APP_TOKEN": "xapp-1"}.get)
	if err == nil {
		t.Fatal("a user token as bot token should be refused")
	}
	if strings.Contains(err.Error(), "very-secret") {
		t.Errorf("error shows the secret: %v", err)
	}
	path := writeFile(t, "bot.yaml", "slack:\n  app_token: xapp-1-inline-secret\n")
	_, err = Load(path, nil)
	if err == nil || strings.Contains(err.Error(), "inline-secret") {
		t.Errorf("inline secret error = %v; want a refusal that does not repeat the value", err)
	}
}

func TestMissingConfigFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), nil)
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("Load of a missing file: %v, want an error naming it", err)
	}
}

func TestOversizeConfigFile(t *testing.T) {
	path := writeFile(t, "big.yaml", "# "+strings.Repeat("x", MaxFileBytes)+"\n")
	_, err := Load(path, nil)
	if err == nil || !strings.Contains(err.Error(), "KiB") {
		t.Errorf("Load of a huge file: %v, want a size error", err)
	}
}

func TestDecodeDiscordSection(t *testing.T) {
	type discordConfig struct {
		AppID        string   `yaml:"app_id"`
		BotTokenFile string   `yaml:"bot_token_file"`
		Guilds       []string `yaml:"guilds"`
	}
	path := writeFile(t, "bot.yaml", "discord:\n  app_id: \"123\"\n  bot_token_file: /run/secrets/discord\n  guilds: [g1, g2]\n")
	c, err := Load(path, env{}.get)
	if err != nil {
		t.Fatal(err)
	}
	var d discordConfig
	if err := c.DecodeDiscord(&d); err != nil {
		t.Fatal(err)
	}
	want := discordConfig{AppID: "123", BotTokenFile: "/run/secrets/discord", Guilds: []string{"g1", "g2"}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	typo := writeFile(t, "typo.yaml", "discord:\n  app_idd: \"1\"\n")
	c, err = Load(typo, env{}.get)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DecodeDiscord(&d); err == nil || !strings.Contains(err.Error(), "app_idd") || !strings.Contains(err.Error(), "discord") {
		t.Errorf("DecodeDiscord with a typo = %v, want an error naming discord and the key", err)
	}
	for _, body := range []string{"", "discord: {}\n"} {
		c, err := Load(writeFile(t, "empty.yaml", body+"db: x.db\n"), env{}.get)
		if err != nil {
			t.Fatal(err)
		}
		d := discordConfig{AppID: "kept"}
		if err := c.DecodeDiscord(&d); err != nil || d.AppID != "kept" {
			t.Errorf("DecodeDiscord of %q = %v, %+v; want nothing changed", body, err, d)
		}
	}
}

func TestDigestsAndManagers(t *testing.T) {
	c, err := Load("", env{"SLACK_SUBSCRIPTION_MANAGERS": " U024BE7LH, W0123ABCD ,"}.get)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Slack.SubscriptionManagers; len(got) != 2 || got[0] != "U024BE7LH" || got[1] != "W0123ABCD" {
		t.Errorf("managers = %q", got)
	}
	if c.Digests.Weekday() != time.Monday || c.Digests.WeeklyAt() != 9*time.Hour || c.Digests.DailyAt() != 9*time.Hour {
		t.Errorf("default schedule = %v %v %v", c.Digests.Weekday(), c.Digests.WeeklyAt(), c.Digests.DailyAt())
	}
	for _, tc := range []struct{ yaml, want string }{
		{"digests:\n  weekly_day: funday\n", "digests.weekly_day"},
		{"digests:\n  weekly_time: \"25:00\"\n", "digests.weekly_time"},
		{"digests:\n  daily_time: \"9\"\n", "digests.daily_time"},
		{"digests:\n  global_rate: -1\n", "digests.global_rate"},
		{"digests:\n  slack_workspace_rate: 0\n", "digests.slack_workspace_rate"},
		{"slack:\n  subscription_managers: [\"@alice\"]\n", "slack.subscription_managers"},
	} {
		path := filepath.Join(t.TempDir(), "bot.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, env{}.get)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want it to name %s", tc.yaml, err, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bot.yaml")
	if err := os.WriteFile(path, []byte("digests:\n  weekly_day: Friday\n  weekly_time: \"17:30\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Load(path, env{}.get)
	if err != nil {
		t.Fatal(err)
	}
	if c.Digests.Weekday() != time.Friday || c.Digests.WeeklyAt() != 17*time.Hour+30*time.Minute {
		t.Errorf("schedule = %v %v", c.Digests.Weekday(), c.Digests.WeeklyAt())
	}
}

// TestSources: the section's keys, their variables (which win), "off",
// and refusals that name the key.
func TestSources(t *testing.T) {
	path := writeFile(t, "bot.yaml", `
sources:
  sync_url: https://mirror.example/enhancements.tar.gz
  allow_hosts: [mirror.example]
  refresh_interval: 10m
`)
	c, err := Load(path, env{
		"BOT_RELNOTES_URL":        "http://127.0.0.1:9000/releases",
		"BOT_SOURCES_ALLOW_HOSTS": "mirror.example, 127.0.0.1",
		"BOT_STALE_AFTER":         "72h",
		"BOT_API_LIFECYCLE_URL":   "http://127.0.0.1:9000/api/archive/refs/tags?token=x",
	}.get)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sources
	if s.SyncURL != "https://mirror.example/enhancements.tar.gz" || s.RelnotesURL != "http://127.0.0.1:9000/releases" ||
		len(s.AllowHosts) != 2 || s.AllowHosts[1] != "127.0.0.1" || s.RefreshInterval != 10*time.Minute ||
		s.StaleAfter != 72*time.Hour || !s.Refresh || s.Timeout != DefaultSourcesTimeout ||
		s.APILifecycleURL != "http://127.0.0.1:9000/api/archive/refs/tags?token=x" {
		t.Errorf("sources %+v", s)
	}
	c, err = Load("", env{"BOT_REFRESH_INTERVAL": "off"}.get)
	if err != nil || c.Sources.Refresh {
		t.Errorf("BOT_REFRESH_INTERVAL=off: %+v, %v; want refreshing off", c.Sources, err)
	}
	for _, tc := range []struct {
		env  env
		want string
	}{
		{env{"BOT_REFRESH_INTERVAL": "500ms"}, "sources.refresh_interval (BOT_REFRESH_INTERVAL) must be at least 1s"},
		{env{"BOT_REFRESH_INTERVAL": "hourly"}, `BOT_REFRESH_INTERVAL: "hourly" is not a duration`},
		{env{"BOT_SOURCES_ALLOW_HOSTS": "https://mirror.example/x"}, "sources.allow_hosts (BOT_SOURCES_ALLOW_HOSTS) holds"},
		{env{"BOT_LIFECYCLE_URL": "ftp://x/y"}, "sources.lifecycle_url (BOT_LIFECYCLE_URL) is not an http(s) URL"},
		{env{"BOT_API_LIFECYCLE_URL": "github.com/kubernetes/api"}, "sources.api_lifecycle_url (BOT_API_LIFECYCLE_URL) is not an http(s) URL"},
		{env{"BOT_SOURCES_TIMEOUT": "2h"}, "sources.timeout (BOT_SOURCES_TIMEOUT) must be between 1s and 1h"},
	} {
		if _, err := Load("", tc.env.get); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want %q", tc.env, err, tc.want)
		}
	}
}
