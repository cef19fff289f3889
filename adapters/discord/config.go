package discord

import (
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Defaults for what the configuration leaves out.
const (
	DefaultPrefix        = "!k8s"
	DefaultUserPerMinute = 10
	DefaultUserBurst     = 5
)

// Environment variables ApplyEnv reads.
const (
	EnvBotToken  = "DISCORD_BOT_TOKEN"
	EnvAppID     = "DISCORD_APP_ID"
	EnvPublicKey = "DISCORD_PUBLIC_KEY"
	EnvPrefix    = "DISCORD_PREFIX"
	// EnvPrefixCommands turns on `!k8s …` typed in server channels, and
	// with it the privileged Message Content intent.
	EnvPrefixCommands = "DISCORD_PREFIX_COMMANDS"
	EnvGuilds         = "DISCORD_GUILDS"
	EnvAPIURL         = "DISCORD_API_URL"
	EnvGatewayURL     = "DISCORD_GATEWAY_URL"
)

// Config configures the Discord adapter. The gateway (prefix commands,
// mentions, DMs and gateway interactions) runs when BotToken is set; the
// HTTP interactions endpoint when PublicKey is; /k8s is registered at
// start when both BotToken and AppID are. Each field's yaml tag is its
// key in the config file's discord section, its env tag the variable that
// overrides it; the table of settings in docs/configuration.md is made
// from them.
type Config struct {
	// BotToken authenticates the gateway and REST calls. It is never
	// logged; it comes from DISCORD_BOT_TOKEN or a file, never from YAML.
	BotToken Secret `yaml:"-" json:"-"`
	// BotTokenFile is a file holding the bot token; the variable wins
	// over the file.
	BotTokenFile string `yaml:"bot_token_file" env:"DISCORD_BOT_TOKEN,DISCORD_BOT_TOKEN_FILE"`
	// AppID is the application ID: with the bot token, /k8s is registered
	// at start.
	AppID string `yaml:"app_id" env:"DISCORD_APP_ID"`
	// PublicKey is the application's Ed25519 public key (64 hex
	// characters, not a secret): it turns on the signed HTTP interactions
	// endpoint.
	PublicKey string `yaml:"public_key" env:"DISCORD_PUBLIC_KEY"`
	// PrefixCommands answers questions typed after the prefix in server
	// channels. They need the Message Content intent, which is privileged
	// (switched on in the Developer Portal; bots in 100 servers or more
	// must be approved by Discord), so kepbot asks for it only when this
	// is set; without it kepbot answers /k8s, mentions and DMs, whose text
	// Discord sends any bot.
	PrefixCommands bool `yaml:"prefix_commands" env:"DISCORD_PREFIX_COMMANDS"`
	// Prefix is what starts a typed question, when prefix commands are on.
	Prefix string `yaml:"prefix" env:"DISCORD_PREFIX"`
	// PublicAnswers shows /k8s answers to the channel; false shows them to
	// the asker alone (ephemeral) with a "Share in channel" button. It is
	// no key of the discord section: serve sets it from answers.public,
	// one setting for every platform.
	PublicAnswers bool `yaml:"-"`
	// Guilds are the guilds (servers) /k8s is registered in, for instant
	// updates while developing; empty, it is registered globally
	// (comma-separated in the variable).
	Guilds []string `yaml:"guilds" env:"DISCORD_GUILDS"`
	// APIURL replaces https://discord.com for REST calls (a proxy, a test
	// server); a trailing /api/v9 is allowed.
	APIURL string `yaml:"api_url" env:"DISCORD_API_URL"`
	// GatewayURL is the gateway WebSocket URL to use instead of the one
	// GET /gateway returns.
	GatewayURL string `yaml:"gateway_url" env:"DISCORD_GATEWAY_URL"`
	// UserPerMinute is how many questions a minute one person's bucket
	// refills with.
	UserPerMinute int `yaml:"user_per_minute"`
	// UserBurst is how many questions one person's bucket holds at most.
	UserBurst int `yaml:"user_burst"`
}

// WithDefaults returns c with the defaults filled in where c leaves a
// value unset.
func (c Config) WithDefaults() Config {
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.UserPerMinute == 0 {
		c.UserPerMinute = DefaultUserPerMinute
	}
	if c.UserBurst == 0 {
		c.UserBurst = DefaultUserBurst
	}
	return c
}

// ApplyEnv sets from the environment (read through getenv) every field
// whose variable is set. Secret files (DISCORD_BOT_TOKEN_FILE) are the
// config loader's business. It fails on a value it cannot read, naming
// the variable.
func (c *Config) ApplyEnv(getenv func(string) string) error {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	if v := get(EnvBotToken); v != "" {
		c.BotToken = NewSecret(v)
	}
	for _, f := range []struct {
		dst  *string
		name string
	}{{&c.AppID, EnvAppID}, {&c.PublicKey, EnvPublicKey}, {&c.Prefix, EnvPrefix}, {&c.APIURL, EnvAPIURL}, {&c.GatewayURL, EnvGatewayURL}} {
		if v := get(f.name); v != "" {
			*f.dst = v
		}
	}
	if v := get(EnvPrefixCommands); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("config: discord.prefix_commands (%s) is %s; use true or false", EnvPrefixCommands, strconv.Quote(short(v, 24)))
		}
		c.PrefixCommands = on
	}
	if v := get(EnvGuilds); v != "" {
		c.Guilds = nil
		for _, g := range strings.Split(v, ",") {
			if g = strings.TrimSpace(g); g != "" {
				c.Guilds = append(c.Guilds, g)
			}
		}
	}
	return nil
}

// Enabled reports whether Discord is configured at all: a bot token or a
// public key.
func (c *Config) Enabled() bool { return !c.BotToken.IsZero() || c.PublicKey != "" }

// Gateway reports whether the gateway runs: a bot token is set.
func (c *Config) Gateway() bool { return !c.BotToken.IsZero() }

// Register reports whether /k8s is registered at start.
func (c *Config) Register() bool { return !c.BotToken.IsZero() && c.AppID != "" }

// Validate checks a configuration after WithDefaults and returns an error
// naming every key at fault (and the variable that sets it), or nil. A
// configuration that does not enable Discord is valid.
func (c *Config) Validate() error {
	p := c.Problems()
	switch len(p) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("config: %s", p[0])
	}
	return fmt.Errorf("config has %d problems:\n  %s", len(p), strings.Join(p, "\n  "))
}

// Problems returns what Validate reports, one sentence a key, for a config
// loader that gathers the problems of every section.
func (c *Config) Problems() []string {
	if !c.Enabled() {
		return nil
	}
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if tok := c.BotToken.Value(); tok != "" && strings.ContainsFunc(tok, unicode.IsSpace) && !strings.HasPrefix(tok, "Bot ") {
		add("discord.bot_token (%s) holds spaces; give the token exactly as the Developer Portal shows it", EnvBotToken)
	}
	if c.PublicKey != "" {
		if b, err := hex.DecodeString(c.PublicKey); err != nil || len(b) != 32 {
			add("discord.public_key (%s) must be the 64 hex characters the Developer Portal shows as Public Key; it has %d characters", EnvPublicKey, len(c.PublicKey))
		}
	}
	if c.AppID != "" && !isSnowflake(c.AppID) {
		add("discord.app_id (%s) must be the application ID, a number like 1234567890123456789", EnvAppID)
	}
	if c.PrefixCommands && c.BotToken.IsZero() {
		add("discord.prefix_commands (%s) is on but no bot token is set (%s): typed commands arrive over the gateway, which needs it", EnvPrefixCommands, EnvBotToken)
	}
	if len(c.Guilds) > 0 && c.AppID == "" {
		add("discord.guilds (%s) is set but discord.app_id (%s) is not: registering commands in guilds needs the application ID", EnvGuilds, EnvAppID)
	}
	for _, g := range c.Guilds {
		if !isSnowflake(g) {
			add("discord.guilds (%s) holds %s; each guild is a numeric ID like 1234567890123456789", EnvGuilds, strconv.Quote(short(g, 24)))
		}
	}
	switch {
	case c.Prefix == "" || len(c.Prefix) > 16:
		add("discord.prefix (%s) must be 1 to 16 characters, e.g. %s", EnvPrefix, DefaultPrefix)
	case strings.ContainsFunc(c.Prefix, unicode.IsSpace) || strings.ContainsAny(c.Prefix, "<@`"):
		add("discord.prefix (%s) %s must not hold spaces, <, @ or `; use a word like %s", EnvPrefix, strconv.Quote(c.Prefix), DefaultPrefix)
	}
	if msg := urlProblem(c.APIURL, "http", "https"); msg != "" {
		add("discord.api_url (%s) %s", EnvAPIURL, msg)
	}
	if msg := urlProblem(c.GatewayURL, "ws", "wss"); msg != "" {
		add("discord.gateway_url (%s) %s", EnvGatewayURL, msg)
	}
	if c.UserPerMinute < 1 || c.UserPerMinute > 600 {
		add("discord.user_per_minute must be between 1 and 600 questions a minute; it is %d", c.UserPerMinute)
	}
	if c.UserBurst < 1 || c.UserBurst > 100 {
		add("discord.user_burst must be between 1 and 100; it is %d", c.UserBurst)
	}
	return p
}

// urlProblem says what is wrong with an optional base URL, or "".
func urlProblem(raw string, schemes ...string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "is not a URL like " + schemes[1] + "://host:port"
	}
	for _, s := range schemes {
		if u.Scheme == s {
			if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
				return "must not carry a user, a query or a fragment"
			}
			return ""
		}
	}
	return "must start with " + strings.Join(schemes, ":// or ") + "://"
}

// isSnowflake reports whether s is a Discord ID: 1 to 20 digits.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
