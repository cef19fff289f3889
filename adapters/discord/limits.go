package discord

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Message and embed limits, as Discord documents them:
// https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// and https://discord.com/developers/docs/resources/message#create-message
// (content). discordgo enforces none of them; Render keeps every message
// within them and a test checks the largest answers.
const (
	MaxContent        = 2000 // message content
	MaxEmbeds         = 10   // embeds in one message
	MaxTitle          = 256  // embed title
	MaxDescription    = 4096 // embed description
	MaxFields         = 25   // fields in one embed
	MaxFieldName      = 256  // field name
	MaxFieldValue     = 1024 // field value
	MaxFooter         = 2048 // footer text
	MaxAuthorName     = 256  // author name
	MaxEmbedTotal     = 6000 // title, description, fields, footer and author of all embeds in a message, together
	MaxMessagesAnswer = 3    // messages one answer may take before "…and N more"
)

// Message component limits, as Discord documents them:
// https://discord.com/developers/docs/components/reference#action-row and
// #button.
const (
	MaxActionRows = 5   // action rows in one message
	MaxRowButtons = 5   // buttons in one action row
	MaxButtonText = 80  // a button's label
	MaxCustomID   = 100 // a component's custom_id
)

// Application command limits, as Discord documents them:
// https://discord.com/developers/docs/interactions/application-commands#application-command-object
// and the autocomplete response in
// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-autocomplete
const (
	MaxCommandName        = 32  // command, subcommand and option names: 1-32, lower case
	MaxCommandDescription = 100 // descriptions: 1-100
	MaxOptions            = 25  // options (or subcommands) of one command
	MaxChoices            = 25  // choices of an option, and of an autocomplete answer
	MaxChoiceName         = 100 // choice name: 1-100
	MaxChoiceValue        = 100 // string choice value: up to 100
	MaxOptionLength       = 200 // the max_length kepbot gives string options (Discord allows 6000)
	MaxCommandTotal       = 4000
)

// length counts s the way Discord does: in UTF-16 code units (a rune
// outside the Basic Multilingual Plane counts twice). Counting so is never
// less than Discord's own count.
func length(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// truncate returns s cut to at most max (as length counts) with "…" at the
// end when it was cut. It never leaves a lone escaping backslash before the
// ellipsis, and it never cuts a rune.
func truncate(s string, max int) string {
	if length(s) <= max {
		return s
	}
	if max <= 0 {
		return ""
	}
	n := 0
	cut := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > max-1 {
			break
		}
		n += w
		cut = i + utf8.RuneLen(r)
	}
	out := strings.TrimRight(s[:cut], " ")
	if trailing := len(out) - len(strings.TrimRight(out, `\`)); trailing%2 == 1 {
		out = out[:len(out)-1]
	}
	return out + "…"
}

// cutRunes returns the first n runes of s, without an ellipsis: the cheap
// cut made before expensive work on text that will be truncated anyway.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// short returns s cut to n runes, for echoing bad values in config errors.
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// embedSize is what Discord counts of e toward MaxEmbedTotal.
func embedSize(e *discordgo.MessageEmbed) int {
	n := length(e.Title) + length(e.Description)
	for _, f := range e.Fields {
		n += length(f.Name) + length(f.Value)
	}
	if e.Footer != nil {
		n += length(e.Footer.Text)
	}
	if e.Author != nil {
		n += length(e.Author.Name)
	}
	return n
}

// CheckMessage returns an error describing the first Discord limit m
// breaks, or nil when m may be sent as it is.
func CheckMessage(m Message) error {
	if length(m.Content) > MaxContent {
		return fmt.Errorf("content has %d characters, over %d", length(m.Content), MaxContent)
	}
	if m.Content == "" && len(m.Embeds) == 0 {
		return fmt.Errorf("message is empty")
	}
	if len(m.Embeds) > MaxEmbeds {
		return fmt.Errorf("%d embeds, over %d", len(m.Embeds), MaxEmbeds)
	}
	total := 0
	for i, e := range m.Embeds {
		if err := checkEmbed(e); err != nil {
			return fmt.Errorf("embed %d: %w", i, err)
		}
		total += embedSize(e)
	}
	if total > MaxEmbedTotal {
		return fmt.Errorf("embeds hold %d characters together, over %d", total, MaxEmbedTotal)
	}
	return checkComponents(m.Components)
}

// checkComponents checks the action rows of a message and their buttons.
func checkComponents(cs []discordgo.MessageComponent) error {
	if len(cs) > MaxActionRows {
		return fmt.Errorf("%d action rows, over %d", len(cs), MaxActionRows)
	}
	for i, c := range cs {
		row, ok := c.(discordgo.ActionsRow)
		if !ok {
			return fmt.Errorf("component %d is not an action row", i)
		}
		if len(row.Components) == 0 || len(row.Components) > MaxRowButtons {
			return fmt.Errorf("action row %d has %d buttons; want 1 to %d", i, len(row.Components), MaxRowButtons)
		}
		for j, b := range row.Components {
			bt, ok := b.(discordgo.Button)
			switch {
			case !ok:
				return fmt.Errorf("row %d component %d is not a button", i, j)
			case bt.Label == "" || length(bt.Label) > MaxButtonText:
				return fmt.Errorf("row %d button %d label has %d characters; want 1 to %d", i, j, length(bt.Label), MaxButtonText)
			case bt.CustomID == "" || length(bt.CustomID) > MaxCustomID:
				return fmt.Errorf("row %d button %d custom_id has %d characters; want 1 to %d", i, j, length(bt.CustomID), MaxCustomID)
			}
		}
	}
	return nil
}

func checkEmbed(e *discordgo.MessageEmbed) error {
	switch {
	case length(e.Title) > MaxTitle:
		return fmt.Errorf("title has %d characters, over %d", length(e.Title), MaxTitle)
	case length(e.Description) > MaxDescription:
		return fmt.Errorf("description has %d characters, over %d", length(e.Description), MaxDescription)
	case len(e.Fields) > MaxFields:
		return fmt.Errorf("%d fields, over %d", len(e.Fields), MaxFields)
	case e.Footer != nil && length(e.Footer.Text) > MaxFooter:
		return fmt.Errorf("footer has %d characters, over %d", length(e.Footer.Text), MaxFooter)
	case e.Author != nil && length(e.Author.Name) > MaxAuthorName:
		return fmt.Errorf("author has %d characters, over %d", length(e.Author.Name), MaxAuthorName)
	case e.Title == "" && e.Description == "" && len(e.Fields) == 0:
		return fmt.Errorf("embed is empty")
	}
	for j, f := range e.Fields {
		switch {
		case f.Name == "" || length(f.Name) > MaxFieldName:
			return fmt.Errorf("field %d name has %d characters; want 1 to %d", j, length(f.Name), MaxFieldName)
		case f.Value == "" || length(f.Value) > MaxFieldValue:
			return fmt.Errorf("field %d value has %d characters; want 1 to %d", j, length(f.Value), MaxFieldValue)
		}
	}
	return nil
}
