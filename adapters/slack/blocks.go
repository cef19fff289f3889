package slack

import (
	"strconv"
	"unicode/utf8"
)

// Message is a Slack message as kepbot sends it: a slash-command response,
// a Socket Mode ack payload, a response_url post or the body of
// chat.postMessage. Text is the notification and screen-reader fallback;
// Blocks are the layout. It encodes itself without reflection, because the
// HTTP slash path renders one per request.
type Message struct {
	ResponseType    string // "ephemeral", "in_channel" or "" (chat.postMessage)
	Text            string
	Blocks          []Block
	ReplaceOriginal bool // page buttons replace the message they sit on
	DeleteOriginal  bool // only this: delete the message whose button was pressed
}

// Response types of a slash-command answer.
const (
	Ephemeral = "ephemeral"
	InChannel = "in_channel"
)

// Block is one Block Kit layout block: *Header, *Section, *Context,
// *Actions or *Divider.
type Block interface {
	appendJSON(b []byte) []byte
}

// Header is a header block: plain text, at most MaxHeaderText characters.
type Header struct {
	ID   string
	Text string
}

// Section is a section block: mrkdwn text and up to MaxFields mrkdwn fields.
type Section struct {
	ID     string
	Text   string
	Fields []string
}

// Context is a context block: up to MaxContextElements mrkdwn elements in
// small print.
type Context struct {
	ID       string
	Elements []string
}

// Divider is a divider block.
type Divider struct{}

// Actions is an actions block of buttons.
type Actions struct {
	ID      string
	Buttons []Button
}

// Button is a button element; Value comes back in the interaction payload.
type Button struct {
	ActionID string
	Text     string // plain text
	Value    string
	Style    string // "", "primary" or "danger"
}

// MarshalJSON encodes m as Slack expects it.
func (m *Message) MarshalJSON() ([]byte, error) { return m.AppendJSON(nil), nil }

// AppendJSON appends m's JSON encoding to b.
func (m *Message) AppendJSON(b []byte) []byte {
	if m.DeleteOriginal {
		return append(b, `{"delete_original":true}`...)
	}
	b = append(b, '{')
	if m.ResponseType != "" {
		b = append(b, `"response_type":`...)
		b = appendString(b, m.ResponseType)
		b = append(b, ',')
	}
	if m.ReplaceOriginal {
		b = append(b, `"replace_original":true,`...)
	}
	b = append(b, `"text":`...)
	b = appendString(b, m.Text)
	if len(m.Blocks) > 0 {
		b = append(b, `,"blocks":[`...)
		for i, bl := range m.Blocks {
			if i > 0 {
				b = append(b, ',')
			}
			b = bl.appendJSON(b)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// BlocksJSON encodes only the blocks, as chat.postMessage's blocks field.
func (m *Message) BlocksJSON() []byte {
	b := []byte{'['}
	for i, bl := range m.Blocks {
		if i > 0 {
			b = append(b, ',')
		}
		b = bl.appendJSON(b)
	}
	return append(b, ']')
}

func (h *Header) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"header",`...)
	b = appendID(b, h.ID)
	b = append(b, `"text":`...)
	b = appendText(b, "plain_text", h.Text)
	return append(b, '}')
}

func (s *Section) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"section"`...)
	if s.ID != "" {
		b = append(b, `,"block_id":`...)
		b = appendString(b, s.ID)
	}
	if s.Text != "" {
		b = append(b, `,"text":`...)
		b = appendText(b, "mrkdwn", s.Text)
	}
	if len(s.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for i, f := range s.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendText(b, "mrkdwn", f)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (c *Context) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"context",`...)
	b = appendID(b, c.ID)
	b = append(b, `"elements":[`...)
	for i, e := range c.Elements {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendText(b, "mrkdwn", e)
	}
	return append(b, "]}"...)
}

func (Divider) appendJSON(b []byte) []byte { return append(b, `{"type":"divider"}`...) }

func (a *Actions) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"actions",`...)
	b = appendID(b, a.ID)
	b = append(b, `"elements":[`...)
	for i, bt := range a.Buttons {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"button","action_id":`...)
		b = appendString(b, bt.ActionID)
		b = append(b, `,"text":`...)
		b = appendText(b, "plain_text", bt.Text)
		if bt.Value != "" {
			b = append(b, `,"value":`...)
			b = appendString(b, bt.Value)
		}
		if bt.Style != "" {
			b = append(b, `,"style":`...)
			b = appendString(b, bt.Style)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendID(b []byte, id string) []byte {
	if id == "" {
		return b
	}
	b = append(b, `"block_id":`...)
	b = appendString(b, id)
	return append(b, ',')
}

// appendText appends a text object. mrkdwn texts are verbatim, so Slack
// does not turn bare URLs or channel names into links on its own.
func appendText(b []byte, typ, text string) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","text":`...)
	b = appendString(b, text)
	if typ == "mrkdwn" {
		b = append(b, `,"verbatim":true`...)
	} else {
		b = append(b, `,"emoji":true`...)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD;
// control characters and U+2028/U+2029 are escaped. <, > and & are left
// alone: the renderer has already escaped them for Slack.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = strconv.AppendInt(b, int64(r&0xf), 16)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
