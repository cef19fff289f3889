package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"go.yaml.in/yaml/v3"
)

// Defaults for what neither the file nor the environment sets.
const (
	DefaultDB              = "./data/kepbot.db"
	DefaultHTTPAddr        = "127.0.0.1:8080"
	DefaultShutdownTimeout = 10 * time.Second
	DefaultLogLevel        = "info"
	DefaultLogFormat       = "auto"
	DefaultSlackCommand    = "/k8s"
)

// MaxFileBytes caps the config file and every secret file.
const MaxFileBytes = 64 << 10

// Config is everything `bot serve` needs to know.
type Config struct {
	// DB is the bbolt database file.
	DB string `yaml:"db"`
	// HTTP is the health, metrics and Slack HTTP endpoint server.
	HTTP HTTP `yaml:"http"`
	// Log sets the log level and format.
	Log Log `yaml:"log"`
	// Slack configures the Slack adapter: Socket Mode, HTTP or both.
	Slack Slack `yaml:"slack"`
	// Answers says who sees the answers to /k8s, on Slack and Discord.
	Answers Answers `yaml:"answers"`
	// Discord is kept as written until the Discord adapter defines its
	// keys; nothing reads it yet.
	Discord yaml.Node `yaml:"discord"`
	// Digests sets the schedule and rate of deprecation digests.
	Digests Digests `yaml:"digests"`
	// Sources says where the knowledge is refreshed from, and how often.
	Sources Sources `yaml:"sources"`
	// Store says where the state replicas share lives: bbolt (db, one
	// process) or etcd (several replicas).
	Store Store `yaml:"store"`

	// Path is the file the config was read from, "" for none.
	Path string `yaml:"-"`
}

// HTTP configures the HTTP server.
type HTTP struct {
	// Addr is host:port to listen on; BOT_HTTP_ADDR overrides it.
	Addr string `yaml:"addr"`
	// ShutdownTimeout bounds how long a stop waits for requests in flight.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
}

// Log configures logging.
type Log struct {
	// Level is debug, info, warn or error; BOT_LOG_LEVEL overrides it.
	Level string `yaml:"level"`
	// Format is auto (console on a terminal, else JSON), json or console;
	// BOT_LOG_FORMAT overrides it.
	Format string `yaml:"format"`
}

// Slack configures the Slack adapter. Socket Mode runs when AppToken and
// BotToken are set; the HTTP endpoints when SigningSecret is.
type Slack struct {
	// BotTokenFile, AppTokenFile, SigningSecretFile and
	// SigningSecretPreviousFile name files holding the secrets; the
	// SLACK_* variables win over them.
	BotTokenFile              string `yaml:"bot_token_file"`
	AppTokenFile              string `yaml:"app_token_file"`
	SigningSecretFile         string `yaml:"signing_secret_file"`
	SigningSecretPreviousFile string `yaml:"signing_secret_previous_file"`
	// APIURL is the Web API base, "" for Slack's own; SLACK_API_URL
	// overrides it.
	APIURL string `yaml:"api_url"`
	// Command is the slash command the app registers, "/k8s".
	Command string `yaml:"command"`
	// Debug turns on slack-go's own debug output, logged at debug level
	// through the redacting logger. It includes message text: keep it off
	// in production.
	Debug bool `yaml:"debug"`
	// SubscriptionManagers are Slack user IDs allowed to subscribe and
	// unsubscribe channels besides workspace admins and owners.
	SubscriptionManagers []string `yaml:"subscription_managers"`
	// AllowReplays answers a signed request sent again within Slack's
	// 5-minute window instead of refusing it with 401. Only for load
	// tests that send one signed request many times; never in production,
	// where a replayed subscribe would change state again.
	AllowReplays bool `yaml:"allow_replays"`

	BotToken              Secret `yaml:"-"` // xoxb-…, for the Web API
	AppToken              Secret `yaml:"-"` // xapp-…, for Socket Mode
	SigningSecret         Secret `yaml:"-"` // verifies HTTP requests
	SigningSecretPrevious Secret `yaml:"-"` // still accepted while rotating
}

// Answers says who sees the answers to a slash command (/k8s on Slack and
// on Discord).
type Answers struct {
	// Public shows every answer to the channel. false (the default) shows
	// it to the person who asked only, with a "Share in channel" button
	// that posts it for everyone (on Slack, --public after a question does
	// too). Errors and help are always private. BOT_ANSWERS_PUBLIC.
	Public bool `yaml:"public"`
}

// Default returns the configuration with nothing set but the defaults.
func Default() *Config {
	return &Config{
		DB:    DefaultDB,
		HTTP:  HTTP{Addr: DefaultHTTPAddr, ShutdownTimeout: DefaultShutdownTimeout},
		Log:   Log{Level: DefaultLogLevel, Format: DefaultLogFormat},
		Slack: Slack{Command: DefaultSlackCommand},
		Digests: Digests{
			WeeklyDay: DefaultDigestDay, WeeklyTime: DefaultDigestTime, DailyTime: DefaultDigestTime,
			SlackWorkspaceRate: DefaultSlackWorkspaceRate,
		},
		Sources: defaultSources(),
		Store:   defaultStore(),
	}
}

// Load reads the YAML file at path ("" for none), fills in defaults,
// applies the environment read through getenv (nil means os.Getenv),
// reads secret files, and validates. It fails with a message that names
// the key at fault: an unknown key, a secret written inline, a secret file
// that cannot be read, a value Validate refuses.
func Load(path string, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Default()
	if path != "" {
		if err := c.readFile(path); err != nil {
			return nil, err
		}
		c.Path = path
		if len(c.Slack.SubscriptionManagers) == 0 {
			c.Slack.SubscriptionManagers = nil // "[]" in the file means none
		}
		if len(c.Sources.AllowHosts) == 0 {
			c.Sources.AllowHosts = nil
		}
		if len(c.Store.Etcd.Endpoints) == 0 {
			c.Store.Etcd.Endpoints = nil
		}
	}
	if err := c.applyEnv(getenv); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// readFile decodes the YAML file at path over c's defaults.
func (c *Config) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("config %s: the file is over %d KiB; a kepbot config is a few lines", path, MaxFileBytes>>10)
	}
	return c.decode(path, data)
}

// decode reads data (the file at path) over c. It refuses inline secrets
// before decoding, so the error names the key and not a type.
func (c *Config) decode(path string, data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if err := refuseInlineSecrets(path, &doc); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		if errors.Is(err, io.EOF) { // an empty file: defaults only
			return nil
		}
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}

// HasAdapters reports whether any chat adapter is configured. Without one,
// `bot serve` is the terminal chat.
func (c *Config) HasAdapters() bool { return c.SlackSocketMode() || c.SlackHTTP() }

// SlackSocketMode reports whether Slack Socket Mode is configured: both the
// app-level token and the bot token.
func (c *Config) SlackSocketMode() bool {
	return !c.Slack.AppToken.IsZero() && !c.Slack.BotToken.IsZero()
}

// SlackHTTP reports whether the Slack HTTP endpoints are configured: a
// signing secret.
func (c *Config) SlackHTTP() bool { return !c.Slack.SigningSecret.IsZero() }

// Secrets returns every secret set, for the log redactor.
func (c *Config) Secrets() []string {
	var out []string
	for _, s := range []Secret{c.Slack.BotToken, c.Slack.AppToken, c.Slack.SigningSecret, c.Slack.SigningSecretPrevious, c.Store.Etcd.Password} {
		if !s.IsZero() {
			out = append(out, s.Value())
		}
	}
	return out
}
