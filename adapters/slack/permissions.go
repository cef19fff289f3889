package slack

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// How long a users.info answer on who may manage subscriptions is kept: a
// role taken away (or a person made a guest) counts within this time.
const (
	manageTTL     = 5 * time.Minute
	manageMax     = 10000 // people kept at most; the oldest half goes when full
	lookupTimeout = 5 * time.Second
)

// How a decision on who may change subscriptions was made, for the audit
// log.
const (
	decidedGuest     = "guest"     // a guest (restricted or ultra restricted): never
	decidedAdmin     = "admin"     // a workspace admin or owner
	decidedAllowlist = "allowlist" // on slack.subscription_managers
	decidedMember    = "member"    // none of those: refused
	decidedError     = "error"     // users.info failed, or no bot token to ask with: refused
)

var (
	errNoBotToken = errors.New("no SLACK_BOT_TOKEN to call users.info with")
	errNoUser     = errors.New("the question names no user")
	// errNoUsersRead answers a subscription change when the app was not
	// granted users:read (an optional scope: only digests need it).
	errNoUsersRead = knowledge.Errorf(knowledge.EBADINPUT, "I cannot tell who may change this channel's digests: "+
		"the Slack app was not granted the users:read scope, with which kepbot checks that you are a workspace admin or owner. "+
		"Ask whoever installed kepbot to add it (docs/slack.md, the admin review sheet).")
)

// manageKey is one person in one workspace.
type manageKey struct{ team, user string }

type manageEntry struct {
	allowed bool
	how     string
	at      time.Time
}

// manageCache keeps users.info decisions for at most manageTTL, per
// workspace and user. Failures are not kept.
type manageCache struct {
	mu sync.Mutex
	m  map[manageKey]manageEntry
}

func (c *manageCache) get(k manageKey, now time.Time) (manageEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || now.Sub(e.at) >= manageTTL || now.Before(e.at) {
		return manageEntry{}, false
	}
	return e, true
}

func (c *manageCache) put(k manageKey, e manageEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[manageKey]manageEntry{}
	}
	if len(c.m) >= manageMax {
		for key, old := range c.m {
			if e.at.Sub(old.at) >= manageTTL {
				delete(c.m, key)
			}
		}
		for key := range c.m {
			if len(c.m) < manageMax/2 {
				break
			}
			delete(c.m, key)
		}
	}
	c.m[k] = e
}

// withManage sets from.CanManage for a question that subscribes or
// unsubscribes a channel (the questions question.ChangesSubscription
// names), and leaves every other question alone: only these cost a
// users.info call. It fails with errNoUsersRead when the app lacks the
// scope to ask.
func (a *Adapter) withManage(ctx context.Context, q knowledge.Question, from knowledge.Origin) (knowledge.Origin, error) {
	if q.Kind != knowledge.AskSubscribe && q.Kind != knowledge.AskUnsubscribe {
		return from, nil
	}
	var err error
	from.CanManage, err = a.canManage(ctx, from)
	return from, err
}

// canManage reports whether from.User may change the subscriptions of
// from.Channel: not a guest, and a workspace admin or owner or on the
// operator's allowlist (slack.subscription_managers). It asks users.info
// (scope users:read) and keeps the answer for manageTTL. When it cannot
// tell, it refuses and logs a warning; without the scope it also fails
// with errNoUsersRead, which says so to the asker. Every decision is
// logged at info level: user, workspace, channel, decision and how; never
// the question.
func (a *Adapter) canManage(ctx context.Context, from knowledge.Origin) (bool, error) {
	key := manageKey{team: from.Workspace, user: from.User}
	now := a.clock()
	e, cached := a.manage.get(key, now)
	if !cached {
		var err error
		e, err = a.lookupManage(ctx, from.User)
		if slackCode(err) == "missing_scope" {
			a.log.Warn().Str("team", from.Workspace).Str("scope", "users:read").
				Msg("users.info refused: the Slack app lacks users:read, which subscriptions need; refusing the subscription change")
			return false, errNoUsersRead
		}
		if err != nil {
			a.log.Warn().Err(safeErr(err)).Str("user", from.User).Str("team", from.Workspace).
				Msg("users.info failed; refusing the subscription change")
			e = manageEntry{how: decidedError}
		} else {
			e.at = now
			a.manage.put(key, e)
		}
	}
	a.log.Info().Str("user", from.User).Str("team", from.Workspace).Str("channel", from.Channel).
		Bool("can_manage", e.allowed).Str("decided_by", e.how).Bool("cached", cached).
		Msg("slack: subscription change permission")
	return e.allowed, nil
}

// lookupManage asks users.info who user is and decides: guests never;
// admins and owners always; others when on the allowlist.
func (a *Adapter) lookupManage(ctx context.Context, user string) (manageEntry, error) {
	if a.api == nil {
		return manageEntry{}, errNoBotToken
	}
	if user == "" {
		return manageEntry{}, errNoUser
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	u, err := a.api.GetUserInfoContext(ctx, user)
	if err != nil {
		return manageEntry{}, err
	}
	switch {
	case u.IsRestricted || u.IsUltraRestricted:
		return manageEntry{how: decidedGuest}, nil
	case u.IsAdmin || u.IsOwner || u.IsPrimaryOwner:
		return manageEntry{allowed: true, how: decidedAdmin}, nil
	case a.managers[user]:
		return manageEntry{allowed: true, how: decidedAllowlist}, nil
	}
	return manageEntry{how: decidedMember}, nil
}
