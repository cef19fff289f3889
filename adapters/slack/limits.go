package slack

import (
	"fmt"
	"strings"
)

// Slack's limits on a message, from the Block Kit reference
// (https://docs.slack.dev/reference/block-kit/blocks, …/block-elements and
// …/composition-objects) and chat.postMessage
// (https://docs.slack.dev/reference/methods/chat.postMessage). Slack does
// not check them for us before it refuses a message, so the renderer stays
// within them and CheckLimits proves it.
const (
	MaxBlocks          = 50    // blocks in one message
	MaxSectionText     = 3000  // characters of a section's text
	MaxFields          = 10    // fields in one section
	MaxFieldText       = 2000  // characters of one field
	MaxHeaderText      = 150   // characters of a header's plain text
	MaxBlockID         = 255   // characters of a block_id
	MaxContextElements = 10    // elements in one context block
	MaxContextText     = 2000  // characters we allow one context element (Slack: 3000 for any text object)
	MaxActionElements  = 25    // elements in one actions block
	MaxButtonText      = 75    // characters of a button's label
	MaxButtonValue     = 2000  // characters of a button's value
	MaxActionID        = 255   // characters of an action_id
	MaxMessageText     = 40000 // characters of the top-level text before Slack truncates it
	// MaxInputText is the most a plain_text_input takes: its max_length
	// may be at most 3,000 (https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element).
	MaxInputText = 3000
)

// Limits of our own, below Slack's, from experience rather than the docs.
const (
	// MaxMessageChars bounds all block text in one message: Slack has
	// refused messages with msg_blocks_too_long at about 13,000 characters
	// (slackapi/bolt-js#2509), below the documented numbers.
	MaxMessageChars = 10000
	// MaxFallbackText bounds the fallback text: it is for notifications
	// and screen readers, not a second copy of the answer.
	MaxFallbackText = 3000
	// MaxSocketAckBytes bounds a Socket Mode ack payload: Slack silently
	// drops socket responses of 20 KiB or more (slack-go socketmode,
	// maxResponseSize). The envelope adds its id; keep a margin.
	MaxSocketAckBytes = 19 << 10
	// maxURLLen is the longest link the renderer turns into a link.
	maxURLLen = 500
	// maxLinkTitle is the longest title a link shows.
	maxLinkTitle = 100
)

// CheckLimits returns every way m breaks one of Slack's limits (or ours),
// or nil when it is within all of them.
func CheckLimits(m *Message) []string {
	var p []string
	bad := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if m.Text == "" {
		bad("no fallback text")
	}
	if n := runes(m.Text); n > MaxFallbackText {
		bad("fallback text has %d characters, over %d", n, MaxFallbackText)
	}
	if len(m.Blocks) > MaxBlocks {
		bad("%d blocks, over %d", len(m.Blocks), MaxBlocks)
	}
	total := 0
	text := func(where, s string, max int) {
		n := runes(s)
		total += n
		if n > max {
			bad("%s has %d characters, over %d", where, n, max)
		}
		if n == 0 {
			bad("%s is empty", where)
		}
	}
	id := func(where, s string) {
		if runes(s) > MaxBlockID {
			bad("%s block_id has %d characters, over %d", where, runes(s), MaxBlockID)
		}
	}
	elements := func(where, block string, n, max int) {
		if n == 0 || n > max {
			bad("%s %s has %d elements, want 1 to %d", where, block, n, max)
		}
	}
	for i, b := range m.Blocks {
		where := fmt.Sprintf("block %d", i)
		switch b := b.(type) {
		case *Header:
			id(where, b.ID)
			text(where+" header", b.Text, MaxHeaderText)
			if strings.ContainsAny(b.Text, "\n") {
				bad("%s header has a line break", where)
			}
		case *Section:
			id(where, b.ID)
			if b.Text == "" && len(b.Fields) == 0 {
				bad("%s section has neither text nor fields", where)
			}
			if b.Text != "" {
				text(where+" section text", b.Text, MaxSectionText)
			}
			if len(b.Fields) > MaxFields {
				bad("%s section has %d fields, over %d", where, len(b.Fields), MaxFields)
			}
			for j, f := range b.Fields {
				text(fmt.Sprintf("%s field %d", where, j), f, MaxFieldText)
			}
		case *Context:
			id(where, b.ID)
			elements(where, "context", len(b.Elements), MaxContextElements)
			for j, e := range b.Elements {
				text(fmt.Sprintf("%s context element %d", where, j), e, MaxContextText)
			}
		case *Actions:
			id(where, b.ID)
			elements(where, "actions", len(b.Buttons), MaxActionElements)
			for j, bt := range b.Buttons {
				text(fmt.Sprintf("%s button %d", where, j), bt.Text, MaxButtonText)
				if runes(bt.Value) > MaxButtonValue {
					bad("%s button %d value has %d characters, over %d", where, j, runes(bt.Value), MaxButtonValue)
				}
				if bt.ActionID == "" || runes(bt.ActionID) > MaxActionID {
					bad("%s button %d action_id must have 1 to %d characters", where, j, MaxActionID)
				}
			}
		case Divider, *Divider:
		default:
			bad("%s is an unknown block %T", where, b)
		}
	}
	if total > MaxMessageChars {
		bad("blocks hold %d characters, over %d", total, MaxMessageChars)
	}
	return p
}
