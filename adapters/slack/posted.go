package slack

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	slackapi "github.com/slack-go/slack"
)

// historyPages bounds how far back FindPosted reads: 5 pages of 200
// messages since the post may have been made.
const (
	historyPages = 5
	historyLimit = 200
)

// ErrNoHistoryScope is FindPosted's answer when the app may not read the
// channel's history (no channels:history or groups:history scope): the
// caller cannot know, and posts again.
var ErrNoHistoryScope = errors.New("slack: reading a channel's history needs the channels:history and groups:history scopes")

// FindPosted looks in channel's history, back to since, for the digest
// part posted with nonce (kepbot puts it in each digest message's
// metadata), and returns that message's ts. A new leader asks it for a
// delivery it found in doubt, so that a post the old leader made just
// before it died is recorded instead of shown twice. found is false when
// no such message is there. It fails with ErrNoHistoryScope without the
// history scopes, and with Slack's error otherwise (never a URL or token).
func (p *Poster) FindPosted(ctx context.Context, channel, nonce string, since time.Time) (ts string, found bool, err error) {
	params := &slackapi.GetConversationHistoryParameters{ChannelID: channel, Limit: historyLimit, IncludeAllMetadata: true,
		Oldest: strconv.FormatInt(since.Unix(), 10) + ".000000", Inclusive: true}
	for range historyPages {
		resp, err := p.api.GetConversationHistoryContext(ctx, params)
		if err != nil {
			var se slackapi.SlackErrorResponse
			if errors.As(err, &se) && (se.Err == "missing_scope" || se.Err == "not_allowed_token_type") {
				return "", false, ErrNoHistoryScope
			}
			return "", false, fmt.Errorf("slack find posted digest: conversations.history: %w", safeErr(err))
		}
		for _, m := range resp.Messages {
			if m.Metadata.EventType == digestEventType && m.Metadata.EventPayload["nonce"] == nonce {
				return m.Timestamp, true, nil
			}
		}
		if !resp.HasMore || resp.ResponseMetaData.NextCursor == "" {
			return "", false, nil
		}
		params.Cursor = resp.ResponseMetaData.NextCursor
	}
	return "", false, nil
}
