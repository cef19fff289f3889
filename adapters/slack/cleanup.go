package slack

import (
	"context"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// Pauser pauses a channel's digest subscription when Slack says the
// channel is gone, archived, or no longer has kepbot in it.
// store.SubscriptionStore (db.Subscriptions()) implements it. An ENOTFOUND
// error means the channel has no subscription.
type Pauser interface {
	PauseSubscription(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time) error
}

// subscriptionLister is a Pauser that can also list subscriptions
// (store.SubscriptionStore can): what pausing a whole workspace needs.
type subscriptionLister interface {
	ListSubscriptions(ctx context.Context) ([]digest.Subscription, error)
}

// WithPauser pauses subscriptions through p when a channel is archived or
// deleted, kepbot is removed from it, or kepbot is uninstalled from the
// workspace or its token revoked.
func WithPauser(p Pauser) Option { return func(a *Adapter) { a.pauser = p } }

// pauseTimeout bounds the pauses of one event.
const pauseTimeout = 30 * time.Second

// channelGone are the events that end digests to one channel, and the
// reason each is paused with: the code chat.postMessage would answer, so
// that subscriptions and metrics say the same as a failed post would.
var channelGone = map[string]string{
	"channel_archive": "is_archived",
	"group_archive":   "is_archived",
	"channel_deleted": "channel_not_found",
	"group_deleted":   "channel_not_found",
	"channel_left":    "not_in_channel", // kepbot was removed from the channel
	"group_left":      "not_in_channel",
}

// workspaceGone is the reason subscriptions of a workspace kepbot was
// uninstalled from (or whose bot token was revoked) are paused with.
const workspaceGone = "token_revoked"

// onLifecycle handles the events that end digests (channelGone,
// app_uninstalled, tokens_revoked for the bot) and reports whether env was
// one of them. The pauses run in the background: the event is acked at
// once.
func (a *Adapter) onLifecycle(env eventEnvelope, via string) bool {
	ev := env.Event
	reason, channel := channelGone[ev.Type]
	switch {
	case channel:
	case ev.Type == "app_uninstalled":
	case ev.Type == "tokens_revoked":
		if !a.botTokenRevoked(ev.Tokens.Bot) {
			return true // user tokens only: kepbot uses none
		}
	default:
		return false
	}
	if env.EventID != "" && !a.events.first("event:"+env.EventID, time.Now()) {
		return true
	}
	log := a.log.With().Str("event", ev.Type).Str("team", env.TeamID).Str("via", via).Logger()
	if a.pauser == nil {
		log.Info().Str("channel", ev.Channel).Msg("slack: a channel or the workspace is gone, but no subscription store is set to pause")
		return true
	}
	at := a.clock()
	a.bg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), pauseTimeout)
		defer cancel()
		if channel {
			if ev.Channel == "" {
				log.Warn().Msg("slack: the event names no channel; nothing paused")
				return
			}
			a.pause(ctx, digest.ChannelRef{Platform: Platform, Workspace: env.TeamID, Channel: ev.Channel}, reason, at, ev.Type)
			return
		}
		a.pauseWorkspace(ctx, env.TeamID, at, ev.Type)
	})
	return true
}

// botTokenRevoked reports whether a tokens_revoked event's bot list names
// kepbot's bot user (any bot, while kepbot has not learnt its own ID).
func (a *Adapter) botTokenRevoked(bots []string) bool {
	me := a.botUserID()
	for _, b := range bots {
		if me == "" || b == me {
			return true
		}
	}
	return false
}

// pause pauses ch's subscription; a channel without one is no error.
func (a *Adapter) pause(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time, event string) {
	err := a.pauser.PauseSubscription(ctx, ch, reason, at)
	l := a.log.With().Str("event", event).Str("team", ch.Workspace).Str("channel", ch.Channel).Str("reason", reason).Logger()
	switch {
	case err == nil:
		l.Info().Msg("slack: paused the channel's digest subscription")
	case knowledge.ErrorCode(err) == knowledge.ENOTFOUND:
		l.Debug().Msg("slack: the channel has no digest subscription")
	default:
		l.Error().Err(err).Msg("slack: could not pause the channel's digest subscription")
	}
}

// pauseWorkspace pauses every active Slack subscription of team. It needs
// a Pauser that can list subscriptions; without one it logs what it could
// not do (the worker pauses each channel at its next failed post instead).
func (a *Adapter) pauseWorkspace(ctx context.Context, team string, at time.Time, event string) {
	lister, ok := a.pauser.(subscriptionLister)
	if !ok {
		a.log.Warn().Str("event", event).Str("team", team).
			Msg("slack: kepbot left the workspace, but the subscription store cannot list its channels; each is paused at its next post")
		return
	}
	subs, err := lister.ListSubscriptions(ctx)
	if err != nil {
		a.log.Error().Err(err).Str("event", event).Str("team", team).Msg("slack: could not list subscriptions to pause")
		return
	}
	n := 0
	for _, s := range subs {
		if s.Platform != Platform || s.Workspace != team || !s.Active() {
			continue
		}
		a.pause(ctx, s.Ref(), workspaceGone, at, event)
		n++
	}
	a.log.Info().Str("event", event).Str("team", team).Int("channels", n).Msg("slack: kepbot left the workspace; its digest subscriptions are paused")
}
