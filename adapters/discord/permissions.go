package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"
)

// manageBits are the permissions that let a member change a channel's
// subscriptions: Manage Channels, Manage Server, or Administrator.
const manageBits = discordgo.PermissionManageChannels | discordgo.PermissionManageGuild | discordgo.PermissionAdministrator

// How a permission decision was made, for the audit log.
const (
	decidedDM          = "dm"          // no guild, so no one manages it
	decidedInteraction = "interaction" // the member's permissions Discord sent with the interaction
	decidedState       = "state"       // the gateway's state and the member's roles
	decidedREST        = "rest"        // what the state lacked, asked over REST
	decidedError       = "error"       // could not tell: refused
)

// interactionCanManage reports whether whoever invoked i may change the
// channel's subscriptions. In a guild Discord sends the member's
// permissions in the channel, overwrites applied, with every interaction;
// in a DM there is no member and no one may.
func interactionCanManage(i *discordgo.Interaction) (bool, string) {
	if i.Member == nil || i.GuildID == "" {
		return false, decidedDM
	}
	return i.Member.Permissions&manageBits != 0, decidedInteraction
}

// messageCanManage reports whether the author of m may change the
// channel's subscriptions, from the gateway's state (guild roles, the
// channel's overwrites; a thread's are its parent's) and the member's
// roles as the message gives them, asking over REST for what the state
// lacks. A DM never may; a failure to find out refuses.
func (a *Adapter) messageCanManage(ctx context.Context, m *discordgo.MessageCreate, log zerolog.Logger) (bool, string) {
	if m.GuildID == "" {
		return false, decidedDM
	}
	perms, how, err := a.channelPermissions(ctx, m.GuildID, m.ChannelID, m.Author.ID, m.Member)
	if err != nil {
		log.Warn().Str("error", secrets.scrub(err.Error())).Msg("discord: could not read the member's permissions")
		return false, decidedError
	}
	return perms&manageBits != 0, how
}

// channelPermissions returns userID's permissions in channel (a thread's
// are those of its parent channel): from the state with member's roles
// when the state knows the guild and the channel, else through discordgo,
// which reads what it can from the state and the rest over REST.
func (a *Adapter) channelPermissions(ctx context.Context, guildID, channelID, userID string, member *discordgo.Member) (int64, string, error) {
	st := a.session.State
	how := decidedState
	ch, err := st.Channel(channelID)
	if err != nil {
		how = decidedREST
		err = a.rest.call(ctx, "read channel", "", false, func(opts ...discordgo.RequestOption) error {
			var err error
			ch, err = a.session.Channel(channelID, opts...)
			return err
		})
		if err != nil {
			return 0, how, err
		}
	}
	if ch.IsThread() && ch.ParentID != "" {
		channelID = ch.ParentID
	}
	if member != nil {
		msg := &discordgo.Message{ChannelID: channelID, GuildID: guildID, Author: &discordgo.User{ID: userID}, Member: member}
		if p, err := st.MessagePermissions(msg); err == nil {
			return p, how, nil
		}
	}
	var p int64
	err = a.rest.call(ctx, "read permissions", "", false, func(opts ...discordgo.RequestOption) error {
		var err error
		p, err = a.session.UserChannelPermissions(userID, channelID, opts...)
		return err
	})
	return p, decidedREST, err
}

// auditManage logs a decision on who may change subscriptions: user,
// guild and channel are in log already; never the question's text.
func auditManage(log zerolog.Logger, allowed bool, how string) {
	log.Info().Bool("can_manage", allowed).Str("decided_by", how).Msg("discord: subscription change permission")
}
