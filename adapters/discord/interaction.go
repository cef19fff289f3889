package discord

import (
	"context"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// later sends what follows a first interaction response.
type later func(ctx context.Context)

// onInteractionCreate answers an interaction that came over the gateway:
// the first response goes to the callback endpoint, the rest follow.
func (a *Adapter) onInteractionCreate(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	if ic == nil || ic.Interaction == nil {
		return
	}
	i := ic.Interaction
	ctx, done, ok := a.start(answerTimeout + sendTimeout)
	if !ok {
		return
	}
	defer done()
	log := a.interactionLog(i, "gateway")
	first, rest := a.interact(i, log)
	if err := a.rest.respond(ctx, i, first); err != nil {
		a.rec.Failed(Platform, metrics.ReasonPost)
		log.Warn().Str("error", err.Error()).Msg("discord: interaction response failed")
		return
	}
	if rest != nil {
		rest(ctx)
	}
}

// interact handles one interaction, from the gateway or HTTP. It returns
// the first response at once: a PONG, autocomplete choices, an error or
// help shown only to the asker, the answer when it is ready within the
// inline budget, or else a deferral. When more must be sent after the
// first response (the answer after a deferral, or its further messages),
// it also returns the function that sends it. The answer to /k8s is
// private unless answers are public (see draw). A suggestion button
// (askButtons) asks its question, and the answer replaces the message the
// button was on; the share button (shareButton) asks its question again
// and posts the answer for everyone (see shared).
func (a *Adapter) interact(i *discordgo.Interaction, log zerolog.Logger) (*callback, later) {
	button := false
	switch i.Type {
	case discordgo.InteractionPing:
		return pong(), nil
	case discordgo.InteractionApplicationCommandAutocomplete:
		return autocompleteResult(choices(a.currentCatalog(), i.ApplicationCommandData())), nil
	case discordgo.InteractionApplicationCommand:
	case discordgo.InteractionMessageComponent:
		button = true
	default:
		return reply(textMessage("I only answer /"+CommandName+" commands.", true)), nil
	}
	user, name := interactionUser(i)
	if ok, _ := a.users.allow(user, a.clock()); !ok {
		log.Info().Msg("discord: user over their question rate")
		return reply(textMessage(limitedText, true)), nil
	}
	if isScanCommand(i) {
		return a.interactScan(i, knowledge.Origin{Platform: Platform, Workspace: i.GuildID, Channel: i.ChannelID, User: user, UserName: name}, log)
	}
	text, share, err := interactionText(i, button)
	if err != nil {
		return reply(errorMessage(knowledge.ErrorAnswer(err))), nil
	}
	ctx, done, ok := a.start(answerTimeout)
	if !ok {
		return reply(textMessage("kepbot is restarting; ask again in a minute.", true)), nil
	}
	origin := knowledge.Origin{Platform: Platform, Workspace: i.GuildID, Channel: i.ChannelID, User: user, UserName: name}
	if question.ChangesSubscription(text) {
		var how string
		origin.CanManage, how = interactionCanManage(i)
		auditManage(log, origin.CanManage, how)
	}
	answers := make(chan *knowledge.Answer, 1)
	go func() {
		defer done()
		answers <- a.ask(ctx, text, origin, log)
	}()
	// The answer to /k8s is private unless answers are public; one asked
	// by a button replaces the button's message, and is private when that
	// message was.
	private := a.private(text)
	respond, wait := reply, deferred
	switch {
	case button:
		private = i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
		respond, wait = replaceWith, deferredUpdate
	case private:
		wait = deferredPrivately // the edit that follows stays private
	}
	t := time.NewTimer(a.inlineBudget)
	defer t.Stop()
	select {
	case ans := <-answers:
		log.Debug().Str("kind", string(ans.Kind)).Bool("button", button).Bool("share", share).Msg("discord: answered")
		if share {
			note, msgs := shared(ans)
			return replaceWith(note), a.followups(i, log, msgs)
		}
		first, rest := a.memo.render(ans, button, private, respond)
		return first, a.followups(i, log, rest)
	case <-t.C:
	}
	a.rec.Failed(Platform, metrics.ReasonLate)
	return wait(), func(ctx context.Context) {
		var ans *knowledge.Answer
		select {
		case ans = <-answers:
		case <-ctx.Done():
			ans = knowledge.ErrorAnswer(ctx.Err())
		}
		log.Debug().Str("kind", string(ans.Kind)).Bool("deferred", true).Bool("button", button).Bool("share", share).Msg("discord: answered")
		msgs := draw(ans, private)
		if share {
			note, rest := shared(ans)
			msgs = append([]Message{note}, rest...)
		}
		if err := a.rest.editOriginal(ctx, i, msgs[0]); err != nil {
			a.rec.Failed(Platform, metrics.ReasonPost)
			log.Warn().Str("error", err.Error()).Msg("discord: deferred response edit failed")
			return
		}
		if more := a.followups(i, log, msgs[1:]); more != nil {
			more(ctx)
		}
	}
}

// interactionText is the question an interaction asks: the text of a /k8s
// command's options, or the question a suggestion button or the share
// button (share) carries.
func interactionText(i *discordgo.Interaction, button bool) (text string, share bool, err error) {
	if !button {
		text, err = commandText(i.ApplicationCommandData())
		return text, false, err
	}
	id := i.MessageComponentData().CustomID
	q, ok := strings.CutPrefix(id, askPrefix)
	if !ok {
		q, share = strings.CutPrefix(id, sharePrefix)
		ok = share
	}
	if !ok || strings.TrimSpace(q) == "" {
		return "", false, knowledge.Errorf(knowledge.EBADINPUT, "I don't know that button; ask your question again.")
	}
	return q, share, nil
}

// replaceWith is m replacing the message whose button was pressed: what
// was ephemeral stays so, and nothing else changes flags.
func replaceWith(m Message) *callback {
	m.Ephemeral = false
	return updateMessage(m)
}

// followups returns the function that posts msgs after the first
// response, or nil when there are none; each is ephemeral as it says.
func (a *Adapter) followups(i *discordgo.Interaction, log zerolog.Logger, msgs []Message) later {
	if len(msgs) == 0 {
		return nil
	}
	return func(ctx context.Context) {
		for _, m := range msgs {
			if err := a.rest.followup(ctx, i, m); err != nil {
				a.rec.Failed(Platform, metrics.ReasonPost)
				log.Warn().Str("error", err.Error()).Msg("discord: follow-up failed")
				return
			}
		}
	}
}

// interactionUser returns who invoked i: the member in a guild, the user
// in a DM.
func interactionUser(i *discordgo.Interaction) (id, name string) {
	switch {
	case i.Member != nil && i.Member.User != nil:
		return i.Member.User.ID, i.Member.User.Username
	case i.User != nil:
		return i.User.ID, i.User.Username
	}
	return "", ""
}

// interactionLog scopes the log to one interaction, without its token.
func (a *Adapter) interactionLog(i *discordgo.Interaction, via string) zerolog.Logger {
	user, _ := interactionUser(i)
	return a.log.With().Str("platform", Platform).Str("guild", i.GuildID).Str("channel", i.ChannelID).
		Str("user", user).Str("interaction", i.ID).Str("via", via).Logger()
}
