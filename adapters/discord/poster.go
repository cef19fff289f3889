package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// MaxNonce is the longest nonce Discord keeps on a message: 25 characters.
// https://discord.com/developers/docs/resources/message#create-message
const MaxNonce = 25

// opPostDigest names digest posts in errors.
const opPostDigest = "post digest"

// Poster posts deprecation digests for the delivery worker
// (knowledge/digest/delivery): one message a call, with the worker's
// nonce and enforce_nonce, so that Discord answers a repeated post with
// the message it already made instead of a second one. It never retries: the worker
// owns retries, Retry-After and giving up, and reads what happened from
// the error (delivery.RateLimited, delivery.Scoped, delivery.Terminal).
//
// It shares the adapter's session (token, API URL, Discord's rate-limit
// buckets), its invalid-request budget and its refused channels. It is
// safe for concurrent use.
type Poster struct {
	s       *discordgo.Session
	invalid *invalidCounter
	refused *refusedChannels
	now     func() time.Time
}

// The worker finds out what a Poster can do through these.
var (
	_ delivery.Poster     = (*Poster)(nil)
	_ delivery.Idempotent = (*Poster)(nil)
	_ delivery.Fitter     = (*Poster)(nil)
)

// Poster returns the digest poster over a's session. The gateway need not
// run. It fails when no bot token is configured: posting needs one.
func (a *Adapter) Poster() (*Poster, error) {
	if !a.cfg.Gateway() {
		return nil, fmt.Errorf("config: discord digests need a bot token: set %s", EnvBotToken)
	}
	return &Poster{s: a.session, invalid: &a.invalid, refused: a.rest.refused, now: a.clock}, nil
}

// Idempotent reports true: with enforce_nonce Discord never makes a second
// message for a nonce it has seen.
func (p *Poster) Idempotent() bool { return true }

// Fits reports whether a renders as one Discord message (2,000 content
// characters, 10 embeds, 6,000 embed characters); the worker splits a
// digest that does not into parts that do.
func (p *Poster) Fits(a *knowledge.Answer) bool { return len(Render(a)) == 1 }

// digestPost is the body of POST /channels/{id}/messages for a digest.
// discordgo's MessageSend (v0.29.0) has no nonce.
type digestPost struct {
	Content         string                            `json:"content,omitempty"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Nonce           string                            `json:"nonce"`
	EnforceNonce    bool                              `json:"enforce_nonce"`
}

// Post renders a as one message (an answer too big for one ends in
// "…and N more"; the worker splits digests with Fits first) and posts it to
// channel with nonce, once. It returns the message's ID: the new one, or
// the one Discord made for an earlier post with the same nonce.
//
// It fails with an error that is RateLimited on HTTP 429 (scope platform
// when the limit is global, or when kepbot has spent its invalid-request
// budget), Terminal with Discord's code ("10003", "10004", "50001",
// "50013") when Discord refuses the channel now or did within the hour,
// and an ordinary error otherwise (5xx, timeouts: safe to retry with the
// same nonce). Error texts never hold the token or a URL.
func (p *Poster) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	switch {
	case a == nil:
		return "", errors.New("discord post digest: no answer to post")
	case nonce == "" || len(nonce) > MaxNonce:
		return "", fmt.Errorf("discord post digest: a nonce of %d characters; Discord takes 1 to %d", len(nonce), MaxNonce)
	case !isSnowflake(channel):
		return "", delivery.Refused(fmt.Errorf("discord post digest: %q is not a channel ID", short(plain(channel), 24)), strconv.Itoa(codeUnknownChannel))
	}
	now := p.now()
	if code, ok := p.refused.lookup(channel, now); ok {
		return "", delivery.Refused(errRefused, strconv.Itoa(code))
	}
	if p.invalid.count(now) >= InvalidLimit {
		return "", delivery.RateLimit(errBudget, p.invalid.freeIn(now, InvalidLimit), delivery.ScopePlatform)
	}
	m := render(a, 1)[0]
	body := digestPost{Content: m.Content, Embeds: m.Embeds, AllowedMentions: noMentions(), Nonce: nonce, EnforceNonce: true}
	seen := &captured{base: p.s.Client.Transport}
	client := &http.Client{Transport: seen, Timeout: p.s.Client.Timeout}
	endpoint := discordgo.EndpointChannelMessages(channel)
	out, err := p.s.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint,
		discordgo.WithContext(ctx), discordgo.WithClient(client),
		discordgo.WithRetryOnRatelimit(false), discordgo.WithRestRetries(0))
	if err != nil {
		return "", p.failure(channel, err, seen)
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &created); err != nil || created.ID == "" {
		return "", errors.New("discord post digest: the response names no message")
	}
	return created.ID, nil
}

// failure turns a failed post into the error the worker reads.
func (p *Poster) failure(channel string, err error, seen *captured) error {
	e := classify(opPostDigest, err)
	if seen.status == http.StatusTooManyRequests {
		e.Status = http.StatusTooManyRequests // also when the body was not Discord's JSON
	}
	if e.Status == http.StatusTooManyRequests {
		if e.RetryAfter <= 0 {
			e.RetryAfter = headerSeconds(seen.header.Get("Retry-After"))
		}
		scope := delivery.ScopeChannel
		if seen.global() {
			scope = delivery.ScopePlatform
		}
		return delivery.RateLimit(e, e.RetryAfter, scope)
	}
	if e.refusesChannel() {
		p.refused.add(channel, e.refusalCode(), p.now())
		return delivery.Refused(e, strconv.Itoa(e.refusalCode()))
	}
	return e
}

// captured is the transport of one digest post: it keeps the response's
// status and headers, and the body of a 429 (discordgo drops "global"),
// for failure to read.
type captured struct {
	base   http.RoundTripper
	status int
	header http.Header
	body   []byte
}

// maxCapture bounds the 429 body kept.
const maxCapture = 4 << 10

func (c *captured) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	c.status, c.header = resp.StatusCode, resp.Header.Clone()
	if resp.StatusCode == http.StatusTooManyRequests {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxCapture))
		resp.Body.Close()
		c.body = b
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	return resp, nil
}

// global reports whether a 429 was Discord's global limit (or not
// Discord's JSON at all, as a Cloudflare ban is): it holds every channel.
func (c *captured) global() bool {
	if c.header == nil {
		return false
	}
	if strings.EqualFold(c.header.Get("X-RateLimit-Global"), "true") || strings.EqualFold(c.header.Get("X-RateLimit-Scope"), "global") {
		return true
	}
	var body struct {
		Global bool `json:"global"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil {
		return true
	}
	return body.Global
}

// headerSeconds reads a Retry-After header in seconds; 0 when absent or
// not a number.
func headerSeconds(v string) time.Duration {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f < 0 || f > 24*3600 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}
