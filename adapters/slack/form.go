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
}

var errBadForm = errors.New("malformed form body")

// parseSlashForm reads the fields kepbot uses from an
// application/x-www-form-urlencoded body, without building a url.Values:
// this is the hot path of the HTTP endpoint.
func parseSlashForm(body []byte) (slashCommand, error) {
	var c slashCommand
	for len(body) > 0 {
		var pair []byte
		if i := bytes.IndexByte(body, '&'); i >= 0 {
			pair, body = body[:i], body[i+1:]
		} else {
			pair, body = body, nil
		}
		k, v, _ := bytes.Cut(pair, []byte{'='})
		var dst *string
		switch string(k) { // no allocation: the compiler matches on the bytes
		case "team_id":
			dst = &c.Team
		case "channel_id":
			dst = &c.Channel
		case "user_id":
			dst = &c.User
		case "user_name":
			dst = &c.UserName
		case "command":
			dst = &c.Command
		case "text":
			dst = &c.Text
		case "response_url":
			dst = &c.ResponseURL
		default:
			continue
		}
		s, ok := unescapeForm(v)
		if !ok {
			return slashCommand{}, errBadForm
		}
		*dst = s
	}
	return c, nil
}

// formValue returns the value of key in a form body, unescaped.
func formValue(body []byte, key string) (string, bool) {
	for len(body) > 0 {
		var pair []byte
		if i := bytes.IndexByte(body, '&'); i >= 0 {
			pair, body = body[:i], body[i+1:]
		} else {
			pair, body = body, nil
		}
		k, v, _ := bytes.Cut(pair, []byte{'='})
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
