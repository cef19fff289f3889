package slack

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
)

// requestLog returns l scoped to one request: the platform, the channel
// (ID) and the kind of command or answer, as the Discord adapter scopes
// its own. Never add message text to it; log that only with an explicit
// Debug event.
func requestLog(l zerolog.Logger, channel, kind string) zerolog.Logger {
	return l.With().Str("platform", Platform).Str("channel", channel).Str("kind", kind).Logger()
}

// slackLogger routes slack-go's own log lines (its debug output when
// Config.Debug is on) into zerolog at debug level, where the redacting
// writer scrubs them like every other line.
type slackLogger struct{ l zerolog.Logger }

// Output implements slack-go's logger interface. The envelopes Socket
// Mode dumps are left out: they hold what people typed and pasted
// (manifests with Secrets among them), which no log line may hold.
func (s slackLogger) Output(_ int, msg string) error {
	msg = strings.TrimSpace(msg)
	if rest, ok := strings.CutPrefix(msg, receivedPrefix); ok {
		msg = receivedPrefix + " " + strconv.Itoa(len(rest)) + " bytes, not logged"
	}
	s.l.Debug().Str("source", "slack-go").Msg(msg)
	return nil
}

// receivedPrefix starts the line slack-go's Socket Mode debug output
// writes for every message it receives, with the message after it.
const receivedPrefix = "Received WebSocket message:"

// safeErr strips the URL from a *url.Error, whose message repeats the URL
// it failed on: a response_url is a bearer capability and never goes into
// a log or an error. What the URL error wrapped stays in the chain, so a
// timeout is still a timeout.
func safeErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s failed: %w", strings.ToLower(ue.Op), ue.Err)
	}
	return err
}
