package manifest

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
)

// Problems from the YAML library are told in fixed sentences of this
// package: the library's own text can quote the document (an anchor's
// name, for one), so none of it reaches a Problem.

// yamlMessages maps what the library says to what the user is told.
// scanner says the library counts that error's line from 0 (after the
// reader's leading '\n', so the number is one past the line).
var yamlMessages = []struct {
	says    string
	scanner bool
	msg     string
}{
	{"found a tab character", true, msgTab},
	{"found character that cannot start any token", true, "a line starts with a character that cannot begin a YAML value (such as @ or `)"},
	{"found unexpected end of stream", true, "a quoted value is not closed"},
	{"found unexpected document indicator", true, "a quoted value is not closed before the next --- or ... line"},
	{"found unknown escape character", true, msgEscape},
	{"did not find expected hexdecimal number", true, msgEscape},
	{"found invalid Unicode character escape code", true, msgEscape},
	{"mapping values are not allowed in this context", true, `a value holds ": " where YAML does not allow a key there: quote the value, or fix the indentation`},
	{"block sequence entries are not allowed in this context", true, `a list item ("- ") starts on the line of a key's value`},
	{"mapping keys are not allowed in this context", true, `a "? " key is not allowed here`},
	{"could not find expected ':'", true, `a line is neither "key: value" nor a list item (is a ':' missing, or a key too long?)`},
	{"did not find expected alphabetic or numeric character", true, "an anchor, alias or tag has no name"},
	{"did not find expected comment or line break", true, "something follows a | or > (or a directive) on its line"},
	{"found an indentation indicator equal to 0", true, "a block scalar's indentation indicator is 0"},
	{"did not find expected whitespace", true, "an anchor, tag or directive is not followed by a space"},
	{"did not find expected tag URI", true, msgTag},
	{"did not find URI escaped octet", true, msgTag},
	{"did not find expected '!'", true, msgTag},
	{"did not find the expected '>'", true, msgTag},
	{"found an incorrect leading UTF-8 octet", true, msgUTF8},
	{"found an incorrect trailing UTF-8 octet", true, msgUTF8},
	{"found unexpected non-alphabetical character", true, msgDirective},
	{"found unknown directive name", true, msgDirective},
	{"could not find expected directive name", true, msgDirective},
	{"did not find expected version number", true, msgDirective},
	{"did not find expected digit or '.' character", true, msgDirective},
	{"found extremely long version number", true, msgDirective},
	{"did not find expected key", false, "bad indentation: a line does not line up with the keys of its mapping"},
	{"did not find expected '-' indicator", false, "bad indentation: a line does not line up with the items of its list"},
	{"did not find expected node content", false, "a value is missing where YAML expects one"},
	{"did not find expected ',' or ']'", false, "a [ list is not closed with ]"},
	{"did not find expected ',' or '}'", false, "a { mapping is not closed with }"},
	{"did not find expected <document start>", false, msgMoreThanOne},
	{"found undefined tag handle", false, msgTag},
	{"found duplicate %", false, msgDirective},
	{"found incompatible YAML document", false, msgDirective},
	{"unknown anchor", false, "an alias (*name) names an anchor (&name) that is not defined before it"},
	{"exceeded max depth", false, "the document nests more than 10000 levels deep"},
	{"control characters are not allowed", false, msgControl},
	{"UTF-8", false, msgUTF8},
	{"UTF-16", false, msgUTF8},
}

const (
	msgTab         = "a line is indented with a tab; YAML indents with spaces only"
	msgEscape      = `a double-quoted value holds a backslash escape YAML does not know (write \\ for a backslash, or use single quotes)`
	msgTag         = "a tag (!...) is not valid"
	msgDirective   = "a % directive is not valid"
	msgControl     = "the document holds a control character, which YAML does not allow"
	msgUTF8        = "the document is not UTF-8 text"
	msgInvalid     = "the document is not valid YAML"
	msgPanic       = "the YAML library failed on this document"
	msgJSONEscape  = `a string holds an escape YAML does not read (\/, or a \u surrogate pair): write the character itself`
	msgOpenQuote   = "a quoted value is not closed on its line (YAML reads on past it, and fails further down)"
	msgMoreThanOne = "the document has more than one value at its top (is a --- missing?)"
)

// yamlProblem turns an error of the library on document text (without
// the reader's leading '\n') into a document line (0: unknown) and a
// message.
func yamlProblem(err error, text []byte) (int, string) {
	switch {
	case errors.Is(err, errInternalPanic):
		return 0, msgPanic
	case errors.Is(err, errMoreThanOne):
		return 0, msgMoreThanOne
	}
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	n := 0
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			n, _ = strconv.Atoi(rest[:i])
			s = rest[i+1:]
		}
	}
	for _, m := range yamlMessages {
		if !strings.Contains(s, m.says) {
			continue
		}
		line := n
		if m.scanner && n > 0 {
			line = n - 1
		}
		msg := m.msg
		switch {
		case m.says == "found character that cannot start any token" && tabIndented(text, line):
			msg = msgTab
		case m.says == "unknown anchor":
			line = aliasLine(text, s)
		}
		if msg == msgTab {
			// The library may place it at the scalar before the tab.
			line = tabLineFrom(text, max(line, 1))
		}
		return line, msg
	}
	return n, msgInvalid
}

// tabIndented reports whether document line n starts with a tab after
// its spaces.
func tabIndented(text []byte, n int) bool {
	b := lineAt(text, n)
	i := indentOf(b)
	return i < len(b) && b[i] == '\t'
}

// tabLineFrom returns the first document line from line n on whose
// indentation holds a tab (n if none does).
func tabLineFrom(text []byte, n int) int {
	rest := text
	for l := 1; len(rest) > 0; l++ {
		b := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			b, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if l < n {
			continue
		}
		for i := 0; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
			if b[i] == '\t' {
				return l
			}
		}
	}
	return n
}

// aliasLine finds the line of the alias that an "unknown anchor 'x'
// referenced" error is about (the name is used only to find it).
func aliasLine(text []byte, s string) int {
	i := strings.IndexByte(s, '\'')
	j := strings.LastIndexByte(s, '\'')
	if i < 0 || j <= i+1 {
		return 0
	}
	at := bytes.Index(text, []byte("*"+s[i+1:j]))
	if at < 0 {
		return 0
	}
	return 1 + bytes.Count(text[:at], []byte{'\n'})
}

// lineAt returns document line n (1-based) of text.
func lineAt(text []byte, n int) []byte {
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return nil
		}
		text = text[i+1:]
	}
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		return text[:i]
	}
	return text
}

// placedByBlock reports whether the library places err at the start of
// the block mapping or sequence it is in, rather than at the line that
// is wrong.
func placedByBlock(err error) bool {
	s := err.Error()
	return strings.Contains(s, "did not find expected key") || strings.Contains(s, "did not find expected '-' indicator")
}
