package slack

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"
)

// slashCommand is what the adapter reads of a slash-command invocation,
// from an HTTP form or a Socket Mode payload.
type slashCommand struct {
	Team        string
	Channel     string
	User        string
	UserName    string
	Command     string
	Text        string
	ResponseURL string
	TriggerID   string // opens a modal within 3 s of the command
}

var errBadForm = errors.New("malformed form body")

// slashForm is a slash-command form body cut into the fields kepbot uses,
// each still form-escaped and pointing into the body.
type slashForm struct {
	team, channel, user, userName, command, text, responseURL, triggerID []byte
}

// scanSlashForm finds the fields kepbot uses in an
// application/x-www-form-urlencoded body and checks that each decodes (an
// invalid escape or invalid UTF-8 fails), without allocating: this is the
// hot path of the HTTP endpoint. A field given twice keeps its last value.
func scanSlashForm(body []byte) (slashForm, error) {
	var f slashForm
	for len(body) > 0 {
		var k, v []byte
		k, v, body = nextField(body)
		var dst *[]byte
		switch string(k) { // no allocation: the compiler matches on the bytes
		case "team_id":
			dst = &f.team
		case "channel_id":
			dst = &f.channel
		case "user_id":
			dst = &f.user
		case "user_name":
			dst = &f.userName
		case "command":
			dst = &f.command
		case "text":
			dst = &f.text
		case "response_url":
			dst = &f.responseURL
		case "trigger_id":
			dst = &f.triggerID
		default:
			continue
		}
		if !validFormValue(v) {
			return slashForm{}, errBadForm
		}
		*dst = v
	}
	return f, nil
}

// decode decodes every field of f. It fails only when f did not come
// from scanSlashForm.
func (f *slashForm) decode() (slashCommand, error) {
	var c slashCommand
	for _, fv := range [...]struct {
		dst *string
		raw []byte
	}{{&c.Team, f.team}, {&c.Channel, f.channel}, {&c.User, f.user}, {&c.UserName, f.userName},
		{&c.Command, f.command}, {&c.Text, f.text}, {&c.ResponseURL, f.responseURL}, {&c.TriggerID, f.triggerID}} {
		if fv.raw == nil {
			continue
		}
		s, ok := unescapeForm(fv.raw)
		if !ok {
			return slashCommand{}, errBadForm
		}
		*fv.dst = s
	}
	return c, nil
}

// parseSlashForm reads the fields kepbot uses from a form body.
func parseSlashForm(body []byte) (slashCommand, error) {
	f, err := scanSlashForm(body)
	if err != nil {
		return slashCommand{}, err
	}
	return f.decode()
}

// validFormValue reports whether v is a form value unescapeForm accepts.
// Escapes of ASCII bytes (a URL's %3A%2F) cannot break UTF-8, so only a
// value escaping a byte of 0x80 or more is decoded to be checked.
func validFormValue(v []byte) bool {
	for i := bytes.IndexByte(v, '%'); i >= 0; {
		if i+2 >= len(v) {
			return false
		}
		hi, ok1 := fromHex(v[i+1])
		_, ok2 := fromHex(v[i+2])
		if !ok1 || !ok2 {
			return false
		}
		if hi >= 8 {
			var scratch [512]byte
			d, ok := appendUnescaped(scratch[:0], v)
			return ok && utf8.Valid(d)
		}
		j := bytes.IndexByte(v[i+3:], '%')
		if j < 0 {
			break
		}
		i += 3 + j
	}
	return utf8.Valid(v)
}

// appendUnescaped appends the form value v, decoded (+ is a space, %XX a
// byte), to dst; ok is false for an invalid escape. It does not check UTF-8.
func appendUnescaped(dst, v []byte) (out []byte, ok bool) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '+':
			dst = append(dst, ' ')
		case '%':
			if i+2 >= len(v) {
				return dst, false
			}
			hi, ok1 := fromHex(v[i+1])
			lo, ok2 := fromHex(v[i+2])
			if !ok1 || !ok2 {
				return dst, false
			}
			dst = append(dst, hi<<4|lo)
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return dst, true
}

// nextField splits the first key=value pair off a form body, still
// escaped, and returns the rest.
func nextField(body []byte) (key, value, rest []byte) {
	pair, rest, _ := bytes.Cut(body, []byte{'&'})
	key, value, _ = bytes.Cut(pair, []byte{'='})
	return key, value, rest
}

// formValue returns the value of key in a form body, unescaped.
func formValue(body []byte, key string) (string, bool) {
	for len(body) > 0 {
		var k, v []byte
		k, v, body = nextField(body)
		if string(k) == key {
			return unescapeForm(v)
		}
	}
	return "", false
}

// unescapeForm decodes one form value: + is a space, %XX a byte. Invalid
// escapes and invalid UTF-8 fail.
func unescapeForm(v []byte) (string, bool) {
	if bytes.IndexByte(v, '%') < 0 && bytes.IndexByte(v, '+') < 0 {
		if !utf8.Valid(v) {
			return "", false
		}
		return string(v), true
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+2 >= len(v) {
				return "", false
			}
			hi, ok1 := fromHex(v[i+1])
			lo, ok2 := fromHex(v[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			b.WriteByte(hi<<4 | lo)
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	if !utf8.ValidString(s) {
		return "", false
	}
	return s, true
}
