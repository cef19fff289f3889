package discord

import (
	"bytes"
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// Message is one message kepbot sends, before it becomes a channel message,
// an interaction response or a webhook follow-up. Render makes them within
// Discord's limits.
type Message struct {
	Content string
	Embeds  []*discordgo.MessageEmbed
	// Ephemeral messages are shown only to the person who asked. Only
	// interaction responses can be ephemeral; a channel message ignores it.
	Ephemeral bool
	// Components are the buttons under the message: one for each question
	// a "did you mean" suggests (askButtons), or the one that shares a
	// private answer with the channel (shareButton).
	Components []discordgo.MessageComponent
	// ReplyTo makes a channel message a reply to this message of the same
	// channel (the question it answers). Interaction responses ignore it.
	ReplyTo string
	// File, when set, is sent as the message's attachment: the whole list
	// of a long upgrade answer (knowledge.AnswerFile).
	File *File
}

// File is a message's attachment: a name and plain text.
type File struct {
	Name string
	Data []byte
}

// multipart is body (the message as JSON) with m's file attached, as
// Discord takes an upload: its content type and bytes.
func (m Message) multipart(body any) (string, []byte, error) {
	return discordgo.MultipartBodyWithJSON(body, []*discordgo.File{{Name: m.File.Name, ContentType: "text/plain; charset=utf-8", Reader: bytes.NewReader(m.File.Data)}})
}

// noMentions is the allowed_mentions every message carries: an empty
// parse list (serialised as "parse":[]), no users, no roles, no reply
// ping. Discord's default for bot messages parses @everyone and roles.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

func (m Message) flags() discordgo.MessageFlags {
	if m.Ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

// send is m as a channel message (POST /channels/{id}/messages). A reply
// whose question was deleted meanwhile is sent as a plain message
// (fail_if_not_exists false) rather than refused.
func (m Message) send() *discordgo.MessageSend {
	s := &discordgo.MessageSend{Content: m.Content, Embeds: m.Embeds, Components: m.Components, AllowedMentions: noMentions()}
	if m.ReplyTo != "" {
		fail := false
		s.Reference = &discordgo.MessageReference{MessageID: m.ReplyTo, FailIfNotExists: &fail}
	}
	return s
}

// response is m as the data of an interaction response (type 4).
func (m Message) response() *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: m.Content, Embeds: m.Embeds, Components: m.Components,
		AllowedMentions: noMentions(), Flags: m.flags()}
}

// edit is m as an edit of the deferred original response.
func (m Message) edit() *discordgo.WebhookEdit {
	content := m.Content
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	components := m.components()
	return &discordgo.WebhookEdit{Content: &content, Embeds: &embeds, Components: &components, AllowedMentions: noMentions()}
}

// followup is m as a follow-up message after the original response.
func (m Message) followup() *discordgo.WebhookParams {
	return &discordgo.WebhookParams{Content: m.Content, Embeds: m.Embeds, Components: m.Components, AllowedMentions: noMentions(), Flags: m.flags()}
}

// components is m's components, never nil: a response or an edit that
// replaces a message with buttons (an answer to a suggestion button) must
// say there are none left.
func (m Message) components() []discordgo.MessageComponent {
	if m.Components == nil {
		return []discordgo.MessageComponent{}
	}
	return m.Components
}

// callback is an interaction response as kepbot sends it, as the body of
// an HTTP interaction or to the callback endpoint. Unlike discordgo's own
// type, an autocomplete answer always carries its choices, even none.
type callback struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data any                               `json:"data,omitempty"`

	raw []byte // the JSON of Type and Data, when kept by renderMemo
}

// encode returns c as JSON.
func (c *callback) encode() ([]byte, error) {
	if c.raw != nil {
		return c.raw, nil
	}
	return json.Marshal(c)
}

// autocompleteData is the data of an autocomplete answer (type 8).
type autocompleteData struct {
	Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
}

// pong answers Discord's PING (type 1).
func pong() *callback { return &callback{Type: discordgo.InteractionResponsePong} }

// autocompleteResult answers an autocomplete interaction (type 8).
func autocompleteResult(c []*discordgo.ApplicationCommandOptionChoice) *callback {
	if c == nil {
		c = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return &callback{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: autocompleteData{Choices: c}}
}

// deferred is the type 5 response that buys time: Discord shows "kepbot
// is thinking…" until the original response is edited.
func deferred() *callback {
	return &callback{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{AllowedMentions: noMentions()}}
}

// reply is m as an immediate interaction response (type 4).
func reply(m Message) *callback {
	return &callback{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: m.response()}
}

// updateMessage is m replacing the message whose button was pressed (type
// 7), its buttons gone unless m has its own.
func updateMessage(m Message) *callback {
	d := m.response()
	d.Components = m.components()
	return &callback{Type: discordgo.InteractionResponseUpdateMessage, Data: d}
}

// deferredUpdate buys time for a button's answer (type 6): the message
// stays until the original response is edited.
func deferredUpdate() *callback {
	return &callback{Type: discordgo.InteractionResponseDeferredMessageUpdate}
}

// textMessage is a short message of kepbot's own words (already safe).
func textMessage(s string, ephemeral bool) Message {
	return Message{Content: truncate(s, MaxContent), Ephemeral: ephemeral}
}
