package slack

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// digestEventType names the message metadata a digest carries, so that an
// operator can find the posts of one delivery (and any duplicate) by nonce.
const digestEventType = "kepbot_digest"

// terminalCodes are the chat.postMessage errors after which the channel
// takes no digest until someone acts: the worker pauses its subscription
// with the code as the reason.
var terminalCodes = map[string]bool{
	"channel_not_found": true,
	"not_in_channel":    true,
	"is_archived":       true,
	"account_inactive":  true,
	"token_revoked":     true,
}

// Poster posts deprecation digests for the delivery worker
// (knowledge/digest/delivery): one chat.postMessage a call, never
// retried, since Slack has no idempotency key and a retried post can show
// twice. The
// worker owns retries, Retry-After and giving up, and reads what happened
// from the error (delivery.RateLimited, delivery.Scoped, delivery.Terminal).
//
// It knows only the channel, so it posts with the one bot token kepbot
// has: one workspace. It is safe for concurrent use.
type Poster struct {
	api *slackapi.Client
}

// The worker finds out what a Poster can do through these. A Poster is
// not delivery.Idempotent.
var (
	_ delivery.Poster = (*Poster)(nil)
	_ delivery.Fitter = (*Poster)(nil)
)

// Poster returns the digest poster over a's bot token and API base, with a
// Web API client of its own that never retries (a's client retries a 429
// once, which is right for answers and wrong for digests). It fails when
// no bot token is configured: posting needs one.
func (a *Adapter) Poster() (*Poster, error) {
	if a.cfg.BotToken.IsZero() {
		return nil, errors.New("config: slack digests need a bot token: set SLACK_BOT_TOKEN (slack.bot_token_file)")
	}
	base := a.http.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	timeout := a.http.Timeout
	if timeout <= 0 || timeout > postTimeout {
		timeout = postTimeout
	}
	opts := []slackapi.Option{
		slackapi.OptionHTTPClient(&http.Client{Transport: retryAfterSeconds{base}, Timeout: timeout}),
		slackapi.OptionLog(slackLogger{a.log}),
		slackapi.OptionDebug(a.cfg.Debug),
	}
	if a.cfg.APIURL != "" {
		opts = append(opts, slackapi.OptionAPIURL(withSlash(a.cfg.APIURL)))
	}
	return &Poster{api: slackapi.New(a.cfg.BotToken.Value(), opts...)}, nil
}

// Fits reports whether a renders as one Slack message whole: every line
// drawn, within 50 blocks, 3,000 characters a section and MaxMessageChars
// in all. The worker splits a digest that does not into parts that do.
func (p *Poster) Fits(a *knowledge.Answer) bool {
	m, whole := renderPost(a)
	return whole && CheckLimits(m) == nil
}

// renderPost draws a as one chat.postMessage body with every line it can
// hold; whole is false when lines had to be left out.
func renderPost(a *knowledge.Answer) (m *Message, whole bool) {
	m, cut := render(a, RenderOptions{Whole: true})
	return m, !cut
}

// Post renders a as one message (blocks and escaped fallback text; links
// and media not unfurled; link_names never set, so no text in it can
// notify anyone) and posts it to channel once. nonce goes into the
// message's metadata. It returns the message's ts.
//
// It fails with an error that is delivery.RateLimited on HTTP 429 (with
// Slack's Retry-After, or 0 without one), delivery.Terminal with Slack's
// code for channel_not_found, not_in_channel, is_archived,
// account_inactive and token_revoked, delivery.Unposted for Slack's other
// ok:false answers but fatal_error and for other 4xx statuses (nothing
// was posted), and an ordinary error otherwise (5xx, fatal_error,
// timeouts: the worker retries them, and counts a possible duplicate).
// Error texts never hold the token or a URL.
func (p *Poster) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	switch {
	case a == nil:
		return "", errors.New("slack post digest: no answer to post")
	case !channelID(channel):
		return "", delivery.Refused(fmt.Errorf("slack post digest: %q is not a channel ID", truncate(strings.ToValidUTF8(channel, "?"), 24)), "channel_not_found")
	}
	m, _ := renderPost(a)
	opts, err := messageOptions(m)
	if err != nil {
		return "", fmt.Errorf("slack post digest: %w", err)
	}
	if nonce != "" {
		opts = append(opts, slackapi.MsgOptionMetadata(slackapi.SlackMetadata{
			EventType: digestEventType, EventPayload: map[string]any{"nonce": nonce}}))
	}
	_, ts, err := p.api.PostMessageContext(ctx, channel, opts...)
	if err != nil {
		return "", postFailure(err)
	}
	if ts == "" {
		return "", errors.New("slack post digest: chat.postMessage answered without a ts")
	}
	return ts, nil
}

// channelID reports whether s looks like a Slack conversation ID (C…, G…,
// D…): upper-case letters and digits.
func channelID(s string) bool {
	if len(s) < 2 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// postFailure turns a failed chat.postMessage into the error the worker
// reads, keeping the chain (timeouts stay timeouts) but no URL.
func postFailure(err error) error {
	err = fmt.Errorf("slack post digest: chat.postMessage: %w", safeErr(err))
	var rl *slackapi.RateLimitedError
	if errors.As(err, &rl) {
		return delivery.RateLimit(err, rl.RetryAfter, delivery.ScopeChannel)
	}
	var sc slackapi.StatusCodeError
	if errors.As(err, &sc) && sc.Code == http.StatusTooManyRequests {
		return delivery.RateLimit(err, 0, delivery.ScopeChannel) // no Retry-After: the worker waits its default
	}
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) && terminalCodes[se.Err] {
		return delivery.Refused(err, se.Err)
	}
	// Slack answered: only fatal_error says part of the post may have
	// happened. A 5xx may come after the message was created.
	if (errors.As(err, &se) && se.Err != "fatal_error") || (errors.As(err, &sc) && sc.Code >= 400 && sc.Code < 500) {
		return delivery.NotPosted(err)
	}
	return err
}

// retryAfterSeconds is the digest client's transport. slack-go reads a
// 429's Retry-After only as whole seconds and fails with a parse error on
// anything else (a fraction, an HTTP date), which would hide the 429; this
// rewrites such a header as whole seconds, rounded up, or drops it when it
// cannot be read.
type retryAfterSeconds struct{ base http.RoundTripper }

// maxRetryAfter bounds the wait a header can ask for.
const maxRetryAfter = 24 * time.Hour

func (t retryAfterSeconds) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		return resp, err
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return resp, nil
	}
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return resp, nil
	}
	resp.Header = resp.Header.Clone()
	resp.Header.Del("Retry-After")
	var d time.Duration
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= maxRetryAfter.Seconds() {
		d = time.Duration(math.Ceil(f)) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = time.Until(at).Round(time.Second)
	}
	if d > 0 && d <= maxRetryAfter {
		resp.Header.Set("Retry-After", strconv.FormatInt(int64(d/time.Second), 10))
	}
	return resp, nil
}
