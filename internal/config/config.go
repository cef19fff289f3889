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

// Config is everything `bot serve` needs to know. Each field's yaml tag
// is its key in the file; its env tag names the variable that overrides
// it. The table of settings in docs/configuration.md is made from these
// fields, their comments (the first words, the field's name and "is",
// left out) and Default (go test ./internal/config -run TestSettingsTable
// -update).
type Config struct {
	// DB is the bbolt database; a missing file is created from the
	// built-in snapshot.
	DB string `yaml:"db" env:"BOT_DB"`
	// HTTP is the health, metrics and Slack HTTP endpoint server.
	HTTP HTTP `yaml:"http"`
	// Log sets the log level and format.
	Log Log `yaml:"log"`
	// Slack configures the Slack adapter: Socket Mode, HTTP or both.
	Slack Slack `yaml:"slack"`
	// Answers says who sees the answers to /k8s, on Slack and Discord.
	Answers Answers `yaml:"answers"`
	// Discord is the discord section as written: the Discord adapter's own
	// Config reads it (see DecodeDiscord).
	Discord yaml.Node `yaml:"discord"`
	// Digests sets the schedule and rate of deprecation digests.
	Digests Digests `yaml:"digests"`
	// Sources says where the knowledge is refreshed from, and how often.
	Sources Sources `yaml:"sources"`
	// Store says where the state replicas share lives: bbolt (db, one
	// process) or etcd (several replicas).
	Store Store `yaml:"store"`
	// ReplicaID names this replica in the leader election with
	// store.backend etcd (the pod's name in the chart); empty, the host
	// name and process ID.
	ReplicaID string `yaml:"-" env:"BOT_REPLICA_ID"`

	// Path is the file the config was read from, "" for none.
	Path string `yaml:"-"`
}

// HTTP configures the HTTP server.
type HTTP struct {
	// Addr is the host:port of health, metrics and the Slack HTTP
	// endpoints.
	Addr string `yaml:"addr" env:"BOT_HTTP_ADDR"`
	// ShutdownTimeout is how long a stop waits for answers in flight.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout" env:"BOT_SHUTDOWN_TIMEOUT"`
}

// Log configures logging.
type Log struct {
	// Level is debug, info, warn or error.
	Level string `yaml:"level" env:"BOT_LOG_LEVEL"`
	// Format is auto (console lines on a terminal, else JSON), json or
	// console.
	Format string `yaml:"format" env:"BOT_LOG_FORMAT"`
}

// Slack configures the Slack adapter. Socket Mode runs when AppToken and
// BotToken are set; the HTTP endpoints when SigningSecret is. A secret's
// variable wins over its *_FILE variable's file, which wins over its
// *_file key's.
type Slack struct {
	// BotTokenFile is a file holding the bot token, xoxb-….
	BotTokenFile string `yaml:"bot_token_file" env:"SLACK_BOT_TOKEN,SLACK_BOT_TOKEN_FILE"`
	// AppTokenFile is a file holding the app-level token, xapp-… (Socket
	// Mode).
	AppTokenFile string `yaml:"app_token_file" env:"SLACK_APP_TOKEN,SLACK_APP_TOKEN_FILE"`
	// SigningSecretFile is a file holding the signing secret (the HTTP
	// endpoints).
	SigningSecretFile string `yaml:"signing_secret_file" env:"SLACK_SIGNING_SECRET,SLACK_SIGNING_SECRET_FILE"`
	// SigningSecretPreviousFile is a file holding the previous signing
	// secret, still accepted while rotating.
	SigningSecretPreviousFile string `yaml:"signing_secret_previous_file" env:"SLACK_SIGNING_SECRET_PREVIOUS,SLACK_SIGNING_SECRET_PREVIOUS_FILE"`
	// APIURL is the Web API base, for a proxy or a test server; empty,
	// Slack's own.
	APIURL string `yaml:"api_url" env:"SLACK_API_URL"`
	// Command is the slash command the app manifest registers.
	Command string `yaml:"command"`
	// Debug turns on slack-go's own debug output at debug level, tokens
	// scrubbed. It includes message text: keep it off in production.
	Debug bool `yaml:"debug"`
	// SubscriptionManagers are the Slack user IDs who may subscribe and
	// unsubscribe channels besides workspace admins and owners
	// (comma-separated in the variable).
	SubscriptionManagers []string `yaml:"subscription_managers" env:"SLACK_SUBSCRIPTION_MANAGERS"`
	// AllowReplays answers a signed request sent again within its window
	// instead of refusing it with 401: only for load tests that send one
	// signed request many times, never in production.
	AllowReplays bool `yaml:"allow_replays" env:"SLACK_ALLOW_REPLAYS"`

	BotToken              Secret `yaml:"-"` // xoxb-…, for the Web API
	AppToken              Secret `yaml:"-"` // xapp-…, for Socket Mode
	SigningSecret         Secret `yaml:"-"` // verifies HTTP requests
	SigningSecretPrevious Secret `yaml:"-"` // still accepted while rotating
}

// Answers says who sees the answers to a slash command (/k8s on Slack and
// on Discord).
type Answers struct {
	// Public shows every /k8s answer to the whole channel, on Slack and
	// Discord; false shows it to the asker alone, with a "Share in
	// channel" button that posts it for everyone (on Slack, --public after
	// a question does too). Errors, help and the reports of /k8s scan
	// always stay private (on Slack, --public shares a scan too).
	Public bool `yaml:"public" env:"BOT_ANSWERS_PUBLIC"`
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
