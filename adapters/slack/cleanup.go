package slack

import (
	"context"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Pauser pauses a channel's digest subscription when Slack says the
// channel is gone, archived, or no longer has kepbot in it.
// store.SubscriptionStore (db.Subscriptions()) implements it. An ENOTFOUND
// error means the channel has no subscription.
type Pauser interface {
	PauseSubscription(ctx context.Context, ch knowledge.ChannelRef, reason string, at time.Time) error
}

// WithPauser pauses subscriptions through p when a channel is archived or
// deleted, kepbot is removed from it, or kepbot is uninstalled.
func WithPauser(p Pauser) Option { return func(a *Adapter) { a.pauser = p } }
