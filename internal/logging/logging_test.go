package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
)

const (
	botToken      = "xoxb-1111-2222-abcdefABCDEF"
	appToken      = "xapp-1-A111-222-0123456789abcdef"
	signingSecret = "8f14e45fceea167a5a36dedd4bea2543"
	responseURL   = "https://hooks.slack.com/commands/T1/123456/abcDEF"
	discordToken  = "MTA1234567890123456789012.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"
)

func TestRedactorScrubs(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"bot token", "auth with " + botToken + " ok", "auth with [REDACTED] ok"},
		{"user token", "xoxp-1-2-3 and xoxa-2-x and xoxs-9 and xoxr-1 and xoxo-5", "[REDACTED] and [REDACTED] and [REDACTED] and [REDACTED] and [REDACTED]"},
		{"app token", `{"tok":"` + appToken + `"}`, `{"tok":"[REDACTED]"}`},
		{"signing secret", "secret=" + signingSecret + ";", "secret=[REDACTED];"},
		{"response url", `{"response_url":"` + responseURL + `"}`, `{"response_url":"[REDACTED]"}`},
		{"escaped url", `"{\"u\":\"https:\/\/hooks.slack.com\/services\/T\/B\/x\"}"`, `"{\"u\":\"[REDACTED]\"}"`},
		{"webhook upper", "HTTPS://HOOKS.SLACK.COM/services/a/b", "[REDACTED]"},
		{"ticket", "dial wss://wss.slack.com/link/?ticket=abc-123&app_id=A1", "dial wss://wss.slack.com/link/?[REDACTED]&app_id=A1"},
		{"discord", "token " + discordToken, "token [REDACTED]"},
		{"nothing", "answered kind=kep in 3ms", "answered kind=kep in 3ms"},
		{"short word not a secret", "the xox is fine", "the xox is fine"},
	}
	r := NewRedactor(nil, signingSecret, "abc") // "abc" is too short to scrub
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(r.Scrub([]byte(tt.in))); got != tt.want {
				t.Errorf("Scrub(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactorScrubsJSONEscapedSecret(t *testing.T) {
	secret := `pa"ss\word<>1`
	var buf bytes.Buffer
	l := zerolog.New(NewRedactor(&buf, secret))
	l.Info().Str("s", secret).Msg("x")
	if strings.Contains(buf.String(), "ss\\\\word") || strings.Contains(buf.String(), "word") {
		t.Errorf("escaped secret leaked: %s", buf.String())
	}
}

func TestRedactorWriteReportsInputLength(t *testing.T) {
	var buf bytes.Buffer
	r := NewRedactor(&buf)
	in := []byte("token " + botToken + "\n")
	n, err := r.Write(in)
	if err != nil || n != len(in) {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	r2 := NewRedactor(failWriter{})
	if _, err := r2.Write(in); err == nil {
		t.Error("Write to a failing writer succeeded")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestLoggerNeverWritesSecrets logs secrets every way a careless caller
// might, at every level and in both formats, and scans the output.
func TestLoggerNeverWritesSecrets(t *testing.T) {
	secrets := []string{botToken, appToken, signingSecret, responseURL, discordToken}
	for _, format := range []string{"json", "console"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			l := New(config.Log{Level: "debug", Format: format}, &buf, botToken, appToken, signingSecret)
			for _, s := range secrets {
				l.Debug().Msg("debug " + s)
				l.Info().Str("value", s).Msg("info")
				l.Warn().Err(fmt.Errorf("post %s: %w", s, errors.New("boom"))).Msg("warn")
				l.Error().Interface("obj", map[string]string{"k": s}).Msg("error")
				l.Log().Msg(s)
			}
			l.Info().Interface("secret", config.NewSecret(signingSecret)).Msg("typed")
			out := buf.String()
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("%s output contains %q:\n%s", format, s, out)
				}
			}
			if got := strings.Count(out, Mask); got < len(secrets)*5 {
				t.Errorf("%d masks in output, want at least %d:\n%s", got, len(secrets)*5, out)
			}
		})
	}
}

func TestNewLevelsAndFormat(t *testing.T) {
	var buf bytes.Buffer
	l := New(config.Log{Level: "warn", Format: "auto"}, &buf)
	l.Info().Msg("hidden")
	l.Warn().Msg("shown")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("got %d lines, want only the warning: %q", len(lines), buf.String())
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil {
		t.Fatalf("auto format on a buffer should be JSON: %v: %s", err, lines[0])
	}
	if m["level"] != "warn" || m["message"] != "shown" || m["time"] == nil {
		t.Errorf("line = %v", m)
	}
	for in, want := range map[string]zerolog.Level{"debug": zerolog.DebugLevel, "info": zerolog.InfoLevel, "warn": zerolog.WarnLevel, "error": zerolog.ErrorLevel, "": zerolog.InfoLevel, "loud": zerolog.InfoLevel} {
		if got := Level(in); got != want {
			t.Errorf("Level(%q) = %v, want %v", in, got, want)
		}
	}
	if Console("auto", &buf) || !Console("console", &buf) || Console("json", &buf) {
		t.Error("Console: auto on a buffer is JSON, console is console, json is JSON")
	}
}

func TestRequestScope(t *testing.T) {
	var buf bytes.Buffer
	base := zerolog.New(&buf)
	l := Request(base, "slack", "C123", "kep")
	l.Info().Msg("answered")
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"platform": "slack", "channel": "C123", "kind": "kep"} {
		if m[k] != v {
			t.Errorf("%s = %v, want %s", k, m[k], v)
		}
	}
}
