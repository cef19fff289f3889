package discord

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
)

// secretShapes match what must never reach a log, whoever wrote it: bot
// tokens, interaction tokens (they start with base64 "interaction"), the
// token in a webhook or interaction URL, and token fields in %#v or JSON
// dumps of gateway packets.
var secretShapes = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`[A-Za-z\d_-]{23,}\.[\w-]{6}\.[\w-]{27,}`), redacted},
	{regexp.MustCompile(`aW50ZXJhY3Rpb24[\w.:-]*`), redacted},
	{regexp.MustCompile(`/(webhooks|interactions)/(\d+)/[^/\s?"'<>]+`), "/$1/$2/" + redacted},
	{regexp.MustCompile(`(?i)(\btoken\b["']?\s*[:=]\s*["']?)[^"'\s,}]+`), "${1}" + redacted},
	{regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*\[?["']?)(Bot |Bearer )?[^"'\s,\]}]+`), "${1}" + redacted},
}

// scrubber removes secrets from text: the configured ones literally, and
// anything shaped like a secret. It is safe for concurrent use.
type scrubber struct {
	mu      sync.RWMutex
	secrets []string
}

// add remembers secret (ignored when shorter than 8 bytes: it would
// scrub ordinary words).
func (s *scrubber) add(secret string) {
	secret = strings.TrimPrefix(secret, "Bot ")
	if len(secret) < 8 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.secrets {
		if have == secret {
			return
		}
	}
	s.secrets = append(s.secrets, secret)
}

// scrub returns text without secrets.
func (s *scrubber) scrub(text string) string {
	s.mu.RLock()
	for _, sec := range s.secrets {
		text = strings.ReplaceAll(text, sec, redacted)
	}
	s.mu.RUnlock()
	for _, sh := range secretShapes {
		text = sh.re.ReplaceAllString(text, sh.repl)
	}
	return text
}

// secrets is the process-wide scrubber: discordgo's logger is a package
// variable, so every adapter's token is scrubbed from every line.
var secrets = &scrubber{}

// libraryLog routes discordgo's package logger into zerolog.
var libraryLog struct {
	once   sync.Once
	mu     sync.RWMutex
	logger zerolog.Logger
}

// routeLibraryLog makes discordgo log through l (scoped as
// component=discordgo), with secrets scrubbed. discordgo's errors and
// warnings stay errors and warnings; its informational lines are debug.
// discordgo.Logger is one package variable: the last adapter made wins.
func routeLibraryLog(l zerolog.Logger) {
	libraryLog.mu.Lock()
	libraryLog.logger = l.With().Str("component", "discordgo").Logger()
	libraryLog.mu.Unlock()
	libraryLog.once.Do(func() { discordgo.Logger = logLibrary })
}

func logLibrary(msgL, _ int, format string, a ...any) {
	libraryLog.mu.RLock()
	l := libraryLog.logger
	libraryLog.mu.RUnlock()
	level := zerolog.DebugLevel
	switch msgL {
	case discordgo.LogError:
		level = zerolog.ErrorLevel
	case discordgo.LogWarning:
		level = zerolog.WarnLevel
	}
	if e := l.WithLevel(level); e != nil {
		e.Msg(secrets.scrub(fmt.Sprintf(format, a...)))
	}
}
