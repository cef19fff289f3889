package discord

import (
	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// sharePrefix starts the custom_id of the "Share in channel" button; the
// question follows it, so that any replica can answer the press.
const sharePrefix = "kepbot:share:"

// Texts of sharing.
const (
	shareLabel = "Share in channel"
	sharedNote = "Shared in the channel."
)

// private reports whether the answer to a /k8s command asking text is
// shown to the asker alone: unless answers are public (answers.public),
// every answer but a subscription made or stopped, which the channel
// should see (who set up its digests), as on Slack.
func (a *Adapter) private(text string) bool {
	return !a.cfg.PublicAnswers && !question.ChangesSubscription(text)
}

// draw renders ans as the answer to a /k8s command or to a suggestion
// button. A private answer is ephemeral in every message, the last with
// the share button. Errors and help are ephemeral anyway (Render) and are
// not offered to the channel.
func draw(ans *knowledge.Answer, private bool) []Message {
	msgs := Render(ans)
	if !private || ans == nil || ans.Kind == knowledge.KindError || ans.Kind == knowledge.KindHelp {
		return msgs
	}
	for n := range msgs {
		msgs[n].Ephemeral = true
	}
	// the answer's follow-up questions (see also, as the terminal shows
	// them; a press replaces this private message), then the share button
	last := &msgs[len(msgs)-1]
	last.Components = append(append(last.Components, askButtons(ans.Suggest)...), shareButton(ans.Query)...)
	return msgs
}

// shareButton is the action row under a private answer: pressing it asks
// query again and posts the answer for everyone. A question that is not
// kepbot's own, or too long for a custom_id, gets none.
func shareButton(query string) []discordgo.MessageComponent {
	id := sharePrefix + query
	if query == "" || !knowledge.PlainQuestion(query) || length(id) > MaxCustomID {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: shareLabel, Style: discordgo.PrimaryButton, CustomID: id}}}}
}

// shared is what a press of the share button sends, once the question was
// asked again: the private message becomes a short note without the
// button (first), and the answer follows for everyone (rest). An answer
// that is now an error (the knowledge changed) replaces the private
// message instead, and nothing is posted.
func shared(ans *knowledge.Answer) (first Message, rest []Message) {
	msgs := Render(ans)
	if ans == nil || ans.Kind == knowledge.KindError {
		return msgs[0], nil
	}
	for n := range msgs {
		msgs[n].Ephemeral = false
	}
	note := textMessage(sharedNote, true)
	note.Components = []discordgo.MessageComponent{}
	return note, msgs
}
