package logging

import (
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
)

// New returns the logger for cfg writing to out (os.Stderr in production),
// scrubbing secrets (the configured ones, and any token-shaped text).
// Format "auto" is the console writer when out is a terminal and JSON
// otherwise. An unknown level is info; config.Validate refuses one first.
func New(cfg config.Log, out io.Writer, secrets ...string) zerolog.Logger {
	w := io.Writer(NewRedactor(out, secrets...))
	if Console(cfg.Format, out) {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly, NoColor: !IsTerminal(out)}
	}
	return zerolog.New(w).Level(Level(cfg.Level)).With().Timestamp().Logger()
}

// Level parses a config level; anything unknown is info.
func Level(s string) zerolog.Level {
	switch s {
	case "debug":
		return zerolog.DebugLevel
	case "warn":
		return zerolog.WarnLevel
	case "error":
		return zerolog.ErrorLevel
	}
	return zerolog.InfoLevel
}

// Console reports whether format means the console writer for out.
func Console(format string, out io.Writer) bool {
	switch format {
	case "console":
		return true
	case "json":
		return false
	}
	return IsTerminal(out)
}

// IsTerminal reports whether w is a terminal (a console, or Cygwin's).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Request returns l scoped to one request: the platform ("slack"), the
// channel (ID) and the kind of command or answer. Never add message text to
// it; log that only with an explicit Debug event.
func Request(l zerolog.Logger, platform, channel, kind string) zerolog.Logger {
	return l.With().Str("platform", platform).Str("channel", channel).Str("kind", kind).Logger()
}
