package discord

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testPublicKey = "0f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f40"

func TestConfigValidate(t *testing.T) {
	ok := Config{BotToken: NewSecret(testToken), AppID: testAppID, PublicKey: testPublicKey}
	tests := []struct {
		name string
		edit func(c *Config)
		want []string // in the error; none means valid
	}{
		{"valid", func(*Config) {}, nil},
		{"disabled is valid", func(c *Config) { *c = Config{} }, nil},
		{"public key only", func(c *Config) { c.BotToken = Secret{}; c.AppID = "" }, nil},
		{"public key short", func(c *Config) { c.PublicKey = "abcd" }, []string{"discord.public_key (DISCORD_PUBLIC_KEY)", "64 hex", "4 characters"}},
		{"public key not hex", func(c *Config) { c.PublicKey = strings.Repeat("zz", 32) }, []string{"discord.public_key"}},
		{"app id not a number", func(c *Config) { c.AppID = "my-app" }, []string{"discord.app_id (DISCORD_APP_ID)"}},
		{"guilds without app id", func(c *Config) { c.AppID = ""; c.Guilds = []string{testGuild} }, []string{"discord.guilds (DISCORD_GUILDS)", "discord.app_id"}},
		{"guild not a number", func(c *Config) { c.Guilds = []string{"my guild"} }, []string{"discord.guilds", `"my guild"`}},
		{"prefix with space", func(c *Config) { c.Prefix = "! k8s" }, []string{"discord.prefix (DISCORD_PREFIX)"}},
		{"prefix too long", func(c *Config) { c.Prefix = strings.Repeat("k", 17) }, []string{"discord.prefix", "1 to 16"}},
		{"prefix a mention", func(c *Config) { c.Prefix = "<@1>" }, []string{"discord.prefix"}},
		{"api url not http", func(c *Config) { c.APIURL = "ftp://x" }, []string{"discord.api_url (DISCORD_API_URL)", "http"}},
		{"api url with user", func(c *Config) { c.APIURL = "https://u:p@x" }, []string{"discord.api_url", "user"}},
		{"gateway url http", func(c *Config) { c.GatewayURL = "http://x" }, []string{"discord.gateway_url (DISCORD_GATEWAY_URL)", "ws"}},
		{"rate zero", func(c *Config) { c.UserPerMinute = -1 }, []string{"discord.user_per_minute"}},
		{"burst huge", func(c *Config) { c.UserBurst = 1000 }, []string{"discord.user_burst"}},
		{"token with spaces", func(c *Config) { c.BotToken = NewSecret("abc def") }, []string{"discord.bot_token (DISCORD_BOT_TOKEN)"}},
		{"prefix commands without the gateway", func(c *Config) { c.BotToken = Secret{}; c.AppID = ""; c.PrefixCommands = true },
			[]string{"discord.prefix_commands (DISCORD_PREFIX_COMMANDS)", "DISCORD_BOT_TOKEN"}},
		{"two problems", func(c *Config) { c.AppID = "x"; c.Prefix = " " }, []string{"2 problems", "discord.app_id", "discord.prefix"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			c = c.WithDefaults()
			err := c.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate accepted it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if p := c.Problems(); len(p) == 0 || !strings.Contains(err.Error(), p[len(p)-1]) {
				t.Errorf("Problems %q disagree with Validate %q", p, err)
			}
			if strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "abc def") {
				t.Errorf("error shows the token: %v", err)
			}
		})
	}
}

func TestConfigApplyEnv(t *testing.T) {
	env := map[string]string{
		EnvBotToken: " " + testToken + "\n", EnvAppID: testAppID, EnvPublicKey: testPublicKey, EnvPrefix: "?k8s",
		EnvGuilds: " 1, 2 ,,3", EnvAPIURL: "http://127.0.0.1:1", EnvGatewayURL: "ws://127.0.0.1:2/gw",
		EnvPrefixCommands: "true",
	}
	c := Config{Prefix: "!x", Guilds: []string{"9"}}
	if err := c.ApplyEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	want := Config{BotToken: NewSecret(testToken), AppID: testAppID, PublicKey: testPublicKey, Prefix: "?k8s", PrefixCommands: true,
		Guilds: []string{"1", "2", "3"}, APIURL: "http://127.0.0.1:1", GatewayURL: "ws://127.0.0.1:2/gw"}
	if diff := cmp.Diff(want, c, cmp.AllowUnexported(Secret{})); diff != "" {
		t.Errorf("ApplyEnv (-want +got):\n%s", diff)
	}
	if !c.Enabled() || !c.Gateway() || !c.Register() {
		t.Errorf("Enabled %v Gateway %v Register %v, want all", c.Enabled(), c.Gateway(), c.Register())
	}
	d := Config{}.WithDefaults()
	if d.Prefix != DefaultPrefix || d.UserPerMinute != DefaultUserPerMinute || d.UserBurst != DefaultUserBurst || d.Enabled() || d.PrefixCommands || d.PublicAnswers {
		t.Errorf("defaults: %+v", d)
	}
	err := (&Config{}).ApplyEnv(func(k string) string { return map[string]string{EnvPrefixCommands: "yes please"}[k] })
	if err == nil || !strings.Contains(err.Error(), EnvPrefixCommands) || !strings.Contains(err.Error(), "true or false") {
		t.Errorf("DISCORD_PREFIX_COMMANDS=\"yes please\": %v", err)
	}
}

func TestNewAdapterRefuses(t *testing.T) {
	logger, _ := testLogger(t)
	if _, err := NewAdapter(Config{}, &answerFunc{}, nil, logger); err == nil || !strings.Contains(err.Error(), "DISCORD_BOT_TOKEN") {
		t.Errorf("no config: %v", err)
	}
	if _, err := NewAdapter(Config{PublicKey: "x"}, &answerFunc{}, nil, logger); err == nil || !strings.Contains(err.Error(), "discord.public_key") {
		t.Errorf("bad key: %v", err)
	}
	if _, err := NewAdapter(Config{PublicKey: testPublicKey}, nil, nil, logger); err == nil {
		t.Error("no answerer accepted")
	}
	a, err := NewAdapter(Config{BotToken: NewSecret(testToken)}, &answerFunc{}, nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != "discord" || len(a.Routes()) != 0 {
		t.Errorf("gateway-only adapter: name %q, %d routes", a.Name(), len(a.Routes()))
	}
}
