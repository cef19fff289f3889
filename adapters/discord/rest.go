package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Retry bounds. discordgo would retry a 429 forever; kepbot tries a call
// at most maxAttempts times, waits at most maxRetryAfter for one retry, and
// never past its context.
const (
	maxAttempts   = 3
	maxRetryAfter = 10 * time.Second
	retry5xxAfter = time.Second
)

// JSON error codes that mean "do not post here again":
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
const (
	codeUnknownChannel     = 10003
	codeUnknownGuild       = 10004
	codeUnknownWebhook     = 10015
	codeUnknownInteraction = 10062
	codeMissingAccess      = 50001
	codeMissingPermissions = 50013
	// codeCannotReply: kepbot may post in the channel but not read its
	// history, which a reply needs.
	codeCannotReply = 160002
)

// Errors the REST client returns before calling Discord.
var (
	errRefused = errors.New("discord refused this channel recently; not posting there for a while")
	errBudget  = errors.New("too many invalid requests to discord in the last 10 minutes; not posting for now")
)

// APIError is a failed Discord call, described without its URL (which can
// hold an interaction token) or the request: the operation, the HTTP
// status, Discord's JSON error code and how long Discord asked to wait.
type APIError struct {
	Op         string
	Status     int
	Code       int
	RetryAfter time.Duration
	Err        error // the cause, for transport failures; never a URL
}

// Error describes the failure in one line without secrets.
func (e *APIError) Error() string {
	switch {
	case e.Status == http.StatusTooManyRequests:
		return fmt.Sprintf("discord %s: rate limited, retry after %s", e.Op, e.RetryAfter)
	case e.Status != 0 && e.Code != 0:
		return fmt.Sprintf("discord %s: HTTP %d, code %d", e.Op, e.Status, e.Code)
	case e.Status != 0:
		return fmt.Sprintf("discord %s: HTTP %d", e.Op, e.Status)
	case e.Err != nil:
		return fmt.Sprintf("discord %s: %v", e.Op, e.Err)
	}
	return "discord " + e.Op + ": failed"
}

// Unwrap returns the cause.
func (e *APIError) Unwrap() error { return e.Err }

// refusesChannel reports whether Discord said kepbot may not post there.
func (e *APIError) refusesChannel() bool {
	switch e.Code {
	case codeUnknownChannel, codeUnknownGuild, codeMissingAccess, codeMissingPermissions:
		return true
	}
	return e.Code == 0 && e.Status == http.StatusForbidden
}

// refusalCode is the code of a refusal: Discord's, or Missing
// Permissions for a bare 403.
func (e *APIError) refusalCode() int {
	if e.Code == 0 && e.Status == http.StatusForbidden {
		return codeMissingPermissions
	}
	return e.Code
}

// classify turns what discordgo returned into an *APIError without URLs.
func classify(op string, err error) *APIError {
	e := &APIError{Op: op}
	var rl *discordgo.RateLimitError
	var re *discordgo.RESTError
	var ue *url.Error
	switch {
	case errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil:
		e.Status, e.RetryAfter = http.StatusTooManyRequests, rl.RetryAfter
	case errors.As(err, &re) && re.Response != nil:
		e.Status = re.Response.StatusCode
		if re.Message != nil {
			e.Code = re.Message.Code
		}
	case errors.As(err, &ue):
		e.Err = ue.Err // the URL stays out
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Err = err
	default:
		e.Err = errors.New(secrets.scrub(err.Error()))
	}
	return e
}

// rest calls Discord's REST API through a session with bounded retries,
// counting refused requests and remembering refused channels.
type rest struct {
	s       *discordgo.Session
	invalid *invalidCounter
	refused *refusedChannels
	noReply *refusedChannels // channels where replies were refused: answers go as plain messages
	now     func() time.Time
}

// call runs fn (one REST request made with the options it is given) until
// it succeeds, retrying a 429 after the retry_after Discord gave (when that
// is at most maxRetryAfter), and a 5xx or a failed connection once when
// idempotent is set (and an interaction webhook Discord does not know yet),
// at most maxAttempts times in all and never past ctx.
// A refusal of channel marks it refused.
func (r *rest) call(ctx context.Context, op, channel string, idempotent bool, fn func(opts ...discordgo.RequestOption) error) error {
	if channel != "" && r.refused.has(channel, r.now()) {
		return errRefused
	}
	if r.invalid.count(r.now()) >= InvalidLimit {
		return errBudget
	}
	for attempt := 1; ; attempt++ {
		err := fn(discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false), discordgo.WithRestRetries(0))
		if err == nil {
			return nil
		}
		e := classify(op, err)
		if channel != "" && e.refusesChannel() {
			r.refused.add(channel, e.refusalCode(), r.now())
		}
		var wait time.Duration
		switch {
		case e.Status == http.StatusTooManyRequests && e.RetryAfter <= maxRetryAfter:
			wait = e.RetryAfter
		case idempotent && attempt == 1 && (e.Status >= 500 || (e.Status == 0 && ctx.Err() == nil)):
			wait = retry5xxAfter
		case idempotent && attempt == 1 && e.Code == codeUnknownWebhook:
			wait = retry5xxAfter // a follow-up sent before Discord took the first response
		default:
			return e
		}
		if attempt >= maxAttempts {
			return e
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return e
		case <-t.C:
		}
	}
}

// sendChannel posts m to a channel. A post is not retried after a 5xx:
// Discord may have made the message already. A reply Discord refuses
// because kepbot may not read the channel's history (Read Message
// History, which replies need) is sent again as a plain message, and the
// channel gets plain messages for refuseFor.
func (r *rest) sendChannel(ctx context.Context, channel string, m Message) error {
	if m.ReplyTo != "" && r.noReply.has(channel, r.now()) {
		m.ReplyTo = ""
	}
	post := func(m Message) error {
		return r.call(ctx, "post message", channel, false, func(opts ...discordgo.RequestOption) error {
			endpoint := discordgo.EndpointChannelMessages(channel)
			if m.File != nil {
				ct, body, err := m.multipart(m.send())
				if err != nil {
					return fmt.Errorf("encode: %w", err)
				}
				_, err = r.s.RequestWithLockedBucket(http.MethodPost, endpoint, ct, body, r.s.Ratelimiter.LockBucket(endpoint), 0, opts...)
				return err
			}
			_, err := r.s.RequestWithBucketID(http.MethodPost, endpoint, m.send(), endpoint, opts...)
			return err
		})
	}
	err := post(m)
	var e *APIError
	if m.ReplyTo != "" && errors.As(err, &e) && e.Code == codeCannotReply {
		r.noReply.add(channel, e.Code, r.now())
		m.ReplyTo = ""
		err = post(m)
	}
	return err
}

// register replaces the application's commands, globally (guild "") or in
// one guild, by bulk overwrite: a PUT, safe to repeat.
func (r *rest) register(ctx context.Context, appID, guild string, cmds []*discordgo.ApplicationCommand) error {
	return r.call(ctx, "register commands", "", true, func(opts ...discordgo.RequestOption) error {
		_, err := r.s.ApplicationCommandBulkOverwrite(appID, guild, cmds, opts...)
		return err
	})
}

// interaction calls an interaction or webhook endpoint. Those carry the
// interaction token in their URL, so they use a rate-limit bucket of their
// own rather than one kept for ever in the session's limiter.
func (r *rest) interaction(ctx context.Context, op, method, endpoint string, body any) error {
	return r.call(ctx, op, "", true, func(opts ...discordgo.RequestOption) error {
		b, err := discordgo.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		bucket := discordgo.NewRatelimiter().LockBucket("interaction")
		_, err = r.s.RequestWithLockedBucket(method, endpoint, "application/json", b, bucket, 0, opts...)
		return err
	})
}

// respond sends the first response to an interaction received on the
// gateway.
func (r *rest) respond(ctx context.Context, i *discordgo.Interaction, c *callback) error {
	return r.interaction(ctx, "respond to interaction", http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), c)
}

// editOriginal replaces the deferred first response with m.
func (r *rest) editOriginal(ctx context.Context, i *discordgo.Interaction, m Message) error {
	return r.interaction(ctx, "edit response", http.MethodPatch, discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), m.edit())
}

// followup posts m after the first response.
func (r *rest) followup(ctx context.Context, i *discordgo.Interaction, m Message) error {
	if m.File != nil {
		return r.call(ctx, "follow up with a file", "", true, func(opts ...discordgo.RequestOption) error {
			ct, body, err := m.multipart(m.followup())
			if err != nil {
				return fmt.Errorf("encode: %w", err)
			}
			bucket := discordgo.NewRatelimiter().LockBucket("interaction")
			_, err = r.s.RequestWithLockedBucket(http.MethodPost, discordgo.EndpointFollowupMessage(i.AppID, i.Token), ct, body, bucket, 0, opts...)
			return err
		})
	}
	return r.interaction(ctx, "follow up", http.MethodPost, discordgo.EndpointFollowupMessage(i.AppID, i.Token), m.followup())
}
