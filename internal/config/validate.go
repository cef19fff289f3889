package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ValidationError lists every problem Validate found, each naming its key
// (and the variable that sets it).
type ValidationError struct {
	Problems []string
}

// Error returns the problems, one a line after the first.
func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return "config: " + e.Problems[0]
	}
	return "config has " + strconv.Itoa(len(e.Problems)) + " problems:\n  " + strings.Join(e.Problems, "\n  ")
}

// Validate checks c and returns a *ValidationError naming every key at
// fault, or nil.
func (c *Config) Validate() error {
	var p []string
	add := func(s string) { p = append(p, s) }

	if strings.TrimSpace(c.DB) == "" {
		add("db (BOT_DB) is empty; set it to the database file, e.g. " + DefaultDB)
	}
	if msg := checkAddr(c.HTTP.Addr); msg != "" {
		add("http.addr (BOT_HTTP_ADDR) " + msg)
	}
	if c.HTTP.ShutdownTimeout <= 0 || c.HTTP.ShutdownTimeout > 5*time.Minute {
		add("http.shutdown_timeout (BOT_SHUTDOWN_TIMEOUT) must be between 1s and 5m, e.g. 10s; it is " + c.HTTP.ShutdownTimeout.String())
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		add("log.level (BOT_LOG_LEVEL) is " + strconv.Quote(c.Log.Level) + "; use debug, info, warn or error")
	}
	switch c.Log.Format {
	case "auto", "json", "console":
	default:
		add("log.format (BOT_LOG_FORMAT) is " + strconv.Quote(c.Log.Format) + "; use auto, json or console")
	}
	p = append(p, c.Slack.problems()...)
	p = append(p, c.Slack.managerProblems()...)
	p = append(p, c.Digests.problems()...)
	p = append(p, c.Sources.problems()...)
	p = append(p, c.Store.problems()...)
	if len(p) > 0 {
		return &ValidationError{Problems: p}
	}
	return nil
}

// problems checks the Slack section.
func (s *Slack) problems() []string {
	var p []string
	add := func(msg string) { p = append(p, msg) }
	if msg := tokenProblem(s.BotToken, "xoxb-"); msg != "" {
		add("slack bot token (SLACK_BOT_TOKEN) " + msg)
	}
	if msg := tokenProblem(s.AppToken, "xapp-"); msg != "" {
		add("slack app token (SLACK_APP_TOKEN) " + msg)
	}
	switch {
	case !s.AppToken.IsZero() && s.BotToken.IsZero():
		add("slack app token (SLACK_APP_TOKEN) is set but the bot token (SLACK_BOT_TOKEN) is not: Socket Mode needs both")
	case !s.BotToken.IsZero() && s.AppToken.IsZero() && s.SigningSecret.IsZero():
		add("slack bot token (SLACK_BOT_TOKEN) is set but Slack cannot reach kepbot: also set SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP endpoints)")
	}
	if !s.SigningSecretPrevious.IsZero() && s.SigningSecret.IsZero() {
		add("slack previous signing secret (SLACK_SIGNING_SECRET_PREVIOUS) is set without the current one (SLACK_SIGNING_SECRET)")
	}
	for _, sec := range []struct {
		name string
		v    Secret
	}{{"signing secret (SLACK_SIGNING_SECRET)", s.SigningSecret}, {"previous signing secret (SLACK_SIGNING_SECRET_PREVIOUS)", s.SigningSecretPrevious}} {
		if !sec.v.IsZero() && len(sec.v.Value()) < 16 {
			add("slack " + sec.name + " is shorter than 16 characters; copy it from the app's Basic Information page")
		}
	}
	if s.APIURL != "" {
		u, err := url.Parse(s.APIURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" {
			add("slack.api_url (SLACK_API_URL) must be an http(s) URL without user or query, e.g. https://slack.com/api/")
		}
	}
	if !strings.HasPrefix(s.Command, "/") || len(s.Command) < 2 || len(s.Command) > 32 || strings.ContainsAny(s.Command, " \t") || strings.ToLower(s.Command) != s.Command {
		add("slack.command is " + strconv.Quote(s.Command) + "; it must be a lower-case slash command of at most 32 characters, e.g. /k8s")
	}
	return p
}

// tokenProblem says what is wrong with a token that should start with
// prefix. It names the token's own prefix only when that is a known Slack
// token prefix (xoxp-, xapp-, …), never other characters of it.
func tokenProblem(t Secret, prefix string) string {
	v := t.Value()
	if v == "" || strings.HasPrefix(v, prefix) {
		return ""
	}
	if len(v) > 5 && (v[:5] == "xapp-" || (v[:3] == "xox" && v[4] == '-' && v[3] >= 'a' && v[3] <= 'z')) {
		return "must start with " + prefix + "; this one starts with " + v[:5] + " (is it the other token?)"
	}
	return "must start with " + prefix
}

// checkAddr returns what is wrong with a listen address, or "".
func checkAddr(addr string) string {
	if addr == "" {
		return "is empty; set it to host:port, e.g. " + DefaultHTTPAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "is " + strconv.Quote(addr) + "; it must be host:port, e.g. " + DefaultHTTPAddr
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "has port " + strconv.Quote(port) + "; use a number from 0 to 65535"
	}
	if host != "" && net.ParseIP(host) == nil && strings.ContainsAny(host, "/ ") {
		return "has host " + strconv.Quote(host) + "; use an IP address or a host name"
	}
	return ""
}
