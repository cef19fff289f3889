package config

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Environment variables Load reads. Each secret variable also has a _FILE
// form naming a file that holds it (SLACK_BOT_TOKEN_FILE).
const (
	EnvDB                         = "BOT_DB"
	EnvHTTPAddr                   = "BOT_HTTP_ADDR"
	EnvShutdownTimeout            = "BOT_SHUTDOWN_TIMEOUT"
	EnvLogLevel                   = "BOT_LOG_LEVEL"
	EnvLogFormat                  = "BOT_LOG_FORMAT"
	EnvSlackBotToken              = "SLACK_BOT_TOKEN"
	EnvSlackAppToken              = "SLACK_APP_TOKEN"
	EnvSlackSigningSecret         = "SLACK_SIGNING_SECRET"
	EnvSlackSigningSecretPrevious = "SLACK_SIGNING_SECRET_PREVIOUS"
	EnvSlackAPIURL                = "SLACK_API_URL"
	EnvSlackSubscriptionManagers  = "SLACK_SUBSCRIPTION_MANAGERS" // comma-separated user IDs
	EnvSlackAllowReplays          = "SLACK_ALLOW_REPLAYS"         // true: answer replayed requests (load tests only)
	EnvReplicaID                  = "BOT_REPLICA_ID"
	EnvAnswersPublic              = "BOT_ANSWERS_PUBLIC" // true: /k8s answers shown to the channel
)

// secretSpec ties one secret to its YAML file key and its variables.
type secretSpec struct {
	key  string  // YAML key of the secret itself, refused inline: slack.bot_token
	env  string  // SLACK_BOT_TOKEN; env+"_FILE" names a file
	file *string // the *_file key's value
	dst  *Secret
}

func (c *Config) secretSpecs() []secretSpec {
	return []secretSpec{
		{"slack.bot_token", EnvSlackBotToken, &c.Slack.BotTokenFile, &c.Slack.BotToken},
		{"slack.app_token", EnvSlackAppToken, &c.Slack.AppTokenFile, &c.Slack.AppToken},
		{"slack.signing_secret", EnvSlackSigningSecret, &c.Slack.SigningSecretFile, &c.Slack.SigningSecret},
		{"slack.signing_secret_previous", EnvSlackSigningSecretPrevious, &c.Slack.SigningSecretPreviousFile, &c.Slack.SigningSecretPrevious},
		{"store.etcd.password", EnvEtcdPassword, &c.Store.Etcd.PasswordFile, &c.Store.Etcd.Password},
	}
}

// applyEnv applies the environment over c and reads the secrets.
func (c *Config) applyEnv(getenv func(string) string) error {
	set := func(dst *string, name string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	set(&c.DB, EnvDB)
	set(&c.ReplicaID, EnvReplicaID)
	set(&c.HTTP.Addr, EnvHTTPAddr)
	set(&c.Log.Level, EnvLogLevel)
	set(&c.Log.Format, EnvLogFormat)
	set(&c.Slack.APIURL, EnvSlackAPIURL)
	if v := strings.TrimSpace(getenv(EnvSlackSubscriptionManagers)); v != "" {
		c.Slack.SubscriptionManagers = nil
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				c.Slack.SubscriptionManagers = append(c.Slack.SubscriptionManagers, id)
			}
		}
	}
	for _, b := range []struct {
		dst  *bool
		name string
	}{{&c.Slack.AllowReplays, EnvSlackAllowReplays}, {&c.Answers.Public, EnvAnswersPublic}} {
		if v := strings.TrimSpace(getenv(b.name)); v != "" {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s: %q is not true or false", b.name, v)
			}
			*b.dst = on
		}
	}
	if v := strings.TrimSpace(getenv(EnvShutdownTimeout)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s: %q is not a duration like 10s", EnvShutdownTimeout, v)
		}
		c.HTTP.ShutdownTimeout = d
	}
	if err := c.Sources.applyEnv(getenv); err != nil {
		return err
	}
	if err := c.Store.applyEnv(getenv); err != nil {
		return err
	}
	for _, s := range c.secretSpecs() {
		if err := s.resolve(getenv); err != nil {
			return err
		}
	}
	return nil
}

// resolve sets s.dst from, in order: the variable, the _FILE variable, the
// *_file key. Setting both the variable and its _FILE form is an error: one
// of them would be silently ignored.
func (s secretSpec) resolve(getenv func(string) string) error {
	val, fileEnv := getenv(s.env), strings.TrimSpace(getenv(s.env+"_FILE"))
	switch {
	case val != "" && fileEnv != "":
		return fmt.Errorf("%s and %s_FILE are both set; set one of them", s.env, s.env)
	case val != "":
		v := strings.TrimSpace(val)
		if v == "" {
			return fmt.Errorf("%s is only white space; set it to the secret or unset it", s.env)
		}
		*s.dst = NewSecret(v)
		return nil
	case fileEnv != "":
		return s.readFile(s.env+"_FILE", fileEnv)
	case *s.file != "":
		return s.readFile(s.key+"_file", *s.file)
	}
	return nil
}

// readFile reads the secret from path; from names the key or variable
// that named the file, for the message.
func (s secretSpec) readFile(from, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: read the secret file: %w", from, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("%s: read the secret file %s: %w", from, path, err)
	}
	if len(b) > MaxFileBytes {
		return fmt.Errorf("%s: %s is over %d KiB; it should hold only the secret", from, path, MaxFileBytes>>10)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return fmt.Errorf("%s: %s is empty; it should hold the secret for %s", from, path, s.env)
	}
	*s.dst = NewSecret(v)
	return nil
}

// refuseInlineSecrets fails when the document writes a secret as a value:
// slack.bot_token, or any key ending in token or secret (but not _file) in
// any section, including discord. The message names the key and says what
// to do instead.
func refuseInlineSecrets(path string, doc *yaml.Node) error {
	var walk func(prefix string, n *yaml.Node) error
	walk = func(prefix string, n *yaml.Node) error {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if err := walk(prefix, c); err != nil {
					return err
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				key := k.Value
				if prefix != "" {
					key = prefix + "." + k.Value
				}
				if isSecretKey(k.Value) {
					return inlineSecretError(path, key, k.Line)
				}
				if err := walk(key, v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk("", doc)
}

func isSecretKey(k string) bool {
	k = strings.ToLower(k)
	if strings.HasSuffix(k, "_file") {
		return false
	}
	return strings.HasSuffix(k, "token") || strings.HasSuffix(k, "secret") || strings.HasSuffix(k, "secret_previous") || k == "password"
}

func inlineSecretError(path, key string, line int) error {
	env := strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
	return fmt.Errorf("config %s:%d: %s: secrets are never read from the config file; set %s in the environment, or %s_file (or %s_FILE) to a file that holds it",
		path, line, key, env, key, env)
}
