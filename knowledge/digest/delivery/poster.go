package delivery

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Poster posts one message to a channel of its platform: what an adapter
// implements for digests. nonce is the same for every attempt at the same
// part of the same delivery, also after a restart; a platform that can use
// it as an idempotency key should (Discord: nonce with enforce_nonce).
// messageID is the platform's ID of the message (Slack ts, Discord ID).
//
// Errors say what to do next through the interfaces they implement:
// RateLimited (wait, then retry), Terminal (give up and pause the
// subscription); any other error is retried with backoff.
type Poster interface {
	Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (messageID string, err error)
}

// Idempotent is implemented by a Poster whose platform never posts twice
// for the same nonce (Discord with enforce_nonce). A Poster without it is
// treated as able to duplicate a message it posts again.
type Idempotent interface {
	Idempotent() bool
}

// Fitter is implemented by a Poster that knows its platform's message
// limits: Fits reports whether a renders as one message. The worker splits
// a digest that does not fit with digest.SplitAnswer and posts the parts
// one by one, each with its own nonce, at most one a second per channel.
type Fitter interface {
	Fits(a *knowledge.Answer) bool
}

// RateLimited is implemented by an error that means "too many requests":
// HTTP 429 with Retry-After (Slack's RateLimitedError, Discord's
// retry_after). Nothing is sent to the same Scope before RetryAfter has
// passed.
type RateLimited interface {
	RetryAfter() time.Duration
}

// Scoped is implemented by a RateLimited error whose limit covers more than
// the channel: a Slack workspace-wide limit, Discord's global limit.
type Scoped interface {
	RetryScope() Scope
}

// Terminal is implemented by an error that means the channel will not take
// digests again until someone acts: Slack channel_not_found,
// not_in_channel, is_archived, account_inactive, token_revoked; Discord
// 10003, 10004, 50001, 50013. reason is the platform's code; ok false means
// the error is not terminal after all.
type Terminal interface {
	Terminal() (reason string, ok bool)
}

// Unposted is implemented by an error that says the message was not
// posted: the platform refused it and said so. Any other failure, a
// timeout or a server error above all, may have posted it, and posting
// again on a platform that is not Idempotent may show it twice.
type Unposted interface {
	Unposted() bool
}

// Scope is what a Retry-After holds back.
type Scope int

// The scopes of a rate limit.
const (
	ScopeChannel   Scope = iota // the channel's bucket (the default)
	ScopeWorkspace              // every channel of the workspace on the platform
	ScopePlatform               // every channel of the platform
)

// outcome is what a post's result asks the worker to do.
type outcome struct {
	kind       outcomeKind
	retryAfter time.Duration
	scope      Scope
	reason     string // safe to store and show: a platform code or a class, never the error's text
	unposted   bool   // a failure the platform says did not post
}

type outcomeKind int

const (
	posted outcomeKind = iota
	rateLimited
	terminal
	failed
)

// classify reads what err asks for. Errors are searched through their
// wrapping chains.
func classify(err error) outcome {
	if err == nil {
		return outcome{kind: posted}
	}
	var t Terminal
	if errors.As(err, &t) {
		if reason, ok := t.Terminal(); ok {
			return outcome{kind: terminal, reason: reason}
		}
	}
	var rl RateLimited
	if errors.As(err, &rl) {
		o := outcome{kind: rateLimited, retryAfter: max(rl.RetryAfter(), 0), reason: "rate_limited"}
		var sc Scoped
		if errors.As(err, &sc) {
			o.scope = sc.RetryScope()
		}
		return o
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return outcome{kind: failed, reason: "timeout"}
	}
	var u Unposted
	return outcome{kind: failed, reason: "error", unposted: errors.As(err, &u) && u.Unposted()}
}
