package discord

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// Why a cleanup pauses a subscription: Discord's own codes, the ones a
// post to the channel would get, so that digest.PauseReasonText words
// them as it words a failed delivery.
const (
	// ReasonChannelGone pauses the subscription of a deleted channel or
	// thread (10003 Unknown Channel).
	ReasonChannelGone = "10003"
	// ReasonRemoved pauses the subscriptions of a server that removed
	// kepbot (50001 Missing Access).
	ReasonRemoved = "50001"
)

// cleanupTimeout bounds the pauses one gateway event makes.
const cleanupTimeout = 30 * time.Second

// Pauser pauses a channel's digest subscription and records why. It fails
// with a knowledge error of code ENOTFOUND when the channel has none,
// which the adapter ignores. *store.SubscriptionStore implements it.
type Pauser interface {
	PauseSubscription(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time) error
}

// SubscriptionLister lists every subscription. A Pauser that also lists
// (as *store.SubscriptionStore does) lets the adapter pause every
// subscription of a server that removed kepbot; without it that removal
// is only logged and each channel pauses at its next failed post.
type SubscriptionLister interface {
	ListSubscriptions(ctx context.Context) ([]digest.Subscription, error)
}

// WithPauser pauses subscriptions when Discord says their channel is gone:
// a deleted channel or thread (CHANNEL_DELETE, THREAD_DELETE) with reason
// ReasonChannelGone, and every subscription of a server that removed
// kepbot (GUILD_DELETE without "unavailable"; an outage pauses nothing)
// with ReasonRemoved, when p is also a SubscriptionLister. A nil p does
// nothing.
func WithPauser(p Pauser) Option {
	return func(a *Adapter) {
		if p == nil {
			return
		}
		a.pauser = p
		a.lister, _ = p.(SubscriptionLister)
	}
}

// addCleanupHandlers listens for deleted channels, threads and servers
// when there is a Pauser. The Guilds intent brings all three events.
func (a *Adapter) addCleanupHandlers(s *discordgo.Session) {
	if a.pauser == nil {
		return
	}
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.ChannelDelete) {
		if e != nil {
			a.channelGone("CHANNEL_DELETE", e.Channel)
		}
	})
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.ThreadDelete) {
		if e != nil {
			a.channelGone("THREAD_DELETE", e.Channel)
		}
	})
	s.AddHandler(a.onGuildDelete)
}

// channelRef names a Discord channel as the subscription commands do
// (digest.OriginChannel of the Origin a message or interaction gives):
// the guild as workspace, the channel or thread ID as channel.
func channelRef(guildID, channelID string) digest.ChannelRef {
	return digest.ChannelRef{Platform: Platform, Workspace: guildID, Channel: channelID}
}

// channelGone pauses the subscription of a deleted channel or thread, if
// it has one. It logs IDs only, never the channel's name.
func (a *Adapter) channelGone(event string, ch *discordgo.Channel) {
	if ch == nil || ch.ID == "" {
		return
	}
	log := a.log.With().Str("event", event).Str("guild", ch.GuildID).Str("channel", ch.ID).Logger()
	ctx, done, ok := a.start(cleanupTimeout)
	if !ok {
		log.Info().Msg("discord: channel deleted while shutting down; its next digest will pause it")
		return
	}
	defer done()
	a.pause(ctx, log, channelRef(ch.GuildID, ch.ID), ReasonChannelGone)
}

// onGuildDelete pauses every active subscription in a server that removed
// kepbot. A server that is only unavailable (an outage; Discord sends
// "unavailable": true) keeps its subscriptions.
func (a *Adapter) onGuildDelete(_ *discordgo.Session, e *discordgo.GuildDelete) {
	if e == nil || e.Guild == nil || e.ID == "" {
		return
	}
	log := a.log.With().Str("event", "GUILD_DELETE").Str("guild", e.ID).Logger()
	if e.Unavailable {
		log.Info().Msg("discord: server unavailable (outage); subscriptions kept")
		return
	}
	if a.lister == nil {
		log.Warn().Msg("discord: removed from a server, but the subscription store cannot list; its channels pause at their next digest")
		return
	}
	ctx, done, ok := a.start(cleanupTimeout)
	if !ok {
		log.Info().Msg("discord: removed from a server while shutting down; its channels pause at their next digest")
		return
	}
	defer done()
	subs, err := a.lister.ListSubscriptions(ctx)
	if err != nil {
		log.Error().Str("error", secrets.scrub(err.Error())).Msg("discord: removed from a server; could not list its subscriptions")
		return
	}
	paused := 0
	for _, s := range subs {
		if s.Platform != Platform || s.Workspace != e.ID || !s.Active() {
			continue
		}
		if a.pause(ctx, log.With().Str("channel", s.Channel).Logger(), s.Ref(), ReasonRemoved) {
			paused++
		}
	}
	log.Info().Int("paused", paused).Str("reason", ReasonRemoved).Msg("discord: removed from a server; its subscriptions paused")
}

// pause pauses ch's subscription with reason and reports whether it did;
// a channel without one is not an error.
func (a *Adapter) pause(ctx context.Context, log zerolog.Logger, ch digest.ChannelRef, reason string) bool {
	err := a.pauser.PauseSubscription(ctx, ch, reason, a.clock())
	switch {
	case err == nil:
		log.Info().Str("reason", reason).Msg("discord: subscription paused")
		return true
	case knowledge.ErrorCode(err) == knowledge.ENOTFOUND:
		log.Debug().Msg("discord: no subscription to pause")
	default:
		log.Error().Str("error", secrets.scrub(err.Error())).Str("reason", reason).Msg("discord: could not pause the subscription")
	}
	return false
}
