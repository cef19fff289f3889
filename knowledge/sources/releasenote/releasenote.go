package releasenote

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// MaxSize is the largest document Parse reads. Release notes are tens of
// kilobytes; anything past this is not one.
const MaxSize = 4 << 20

// Errors Parse wraps with the document's name; test with errors.Is.
var (
	ErrEmpty     = errors.New("the document is empty; expected the Markdown text of a Kubernetes release note")
	ErrBinary    = errors.New("the document holds NUL bytes, so it is binary data; expected UTF-8 Markdown text")
	ErrNotUTF8   = errors.New("the document is not valid UTF-8; expected UTF-8 Markdown text (convert it with iconv first)")
	ErrTooLarge  = fmt.Errorf("the document is larger than %d MiB; expected a release note of a few dozen KiB", MaxSize>>20)
	ErrNoVersion = errors.New(`no Kubernetes version found; expected a title or sentence such as "Kubernetes v1.29"`)
	ErrNoName    = errors.New("the document has no name; expected its file name, which becomes the source ID")
)

// Parse reads one release-note document. name is the document's file base
// name and becomes Source.ID. It fails on an empty, binary, non-UTF-8 or
// oversized document and on one that names no Kubernetes version; a document
// cut short parses as far as it goes.
func Parse(name string, data []byte) (*knowledge.Corpus, error) {
	if name == "" {
		return nil, fmt.Errorf("release note: %w", ErrNoName)
	}
	data, err := checkText(data)
	if err != nil {
		return nil, fmt.Errorf("release note %s: %w", name, err)
	}
	fm, blocks := splitBlocks(string(data))
	v, err := docVersion(fm, blocks)
	if err != nil {
		return nil, fmt.Errorf("release note %s: %w", name, err)
	}
	preamble, items := walk(blocks)
	var pre, paras []string
	for _, b := range preamble {
		if b.kind == blockParagraph || b.kind == blockQuote {
			pre = append(pre, inline(b.text))
		}
	}
	for _, b := range blocks {
		if b.kind == blockParagraph || b.kind == blockQuote {
			paras = append(paras, inline(b.text))
		}
	}
	date := releaseDate(fm, pre, v)
	lg := lang(string(data))

	bd := &builder{name: name, rel: v}
	for _, it := range items {
		bd.add(it)
	}
	fixEchoes(bd.found)

	return &knowledge.Corpus{
		Sources: []knowledge.Source{{
			ID: name, Name: sourceName(v, lg), Kind: knowledge.SourceReleaseNote,
			Lang: lg, AsOf: date,
		}},
		Releases: []knowledge.Release{{
			Version: v, Date: date, Theme: releaseTheme(paras),
			Enhancements: releaseCounts(pre), Sources: []string{name},
		}},
		Mentions: mergeMentions(bd.found),
		Notices:  bd.notices,
	}, nil
}

// checkText rejects what is not a text document. A document cut in the
// middle of a character, at its start or its end (a truncated download),
// loses that partial character and is read as far as it goes.
func checkText(data []byte) ([]byte, error) {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return nil, ErrEmpty
	case len(data) > MaxSize:
		return nil, ErrTooLarge
	case bytes.IndexByte(data, 0) >= 0:
		return nil, ErrBinary
	}
	if utf8.Valid(data) {
		return data, nil
	}
	for i := 0; i < utf8.UTFMax-1 && len(data) > 0 && !utf8.RuneStart(data[0]); i++ {
		data = data[1:] // the rest of a character cut at the start
	}
	bad := firstInvalid(data)
	if bad == len(data) {
		return data, nil
	}
	if tail := data[bad:]; len(tail) < utf8.UTFMax && !utf8.FullRune(tail) {
		return data[:bad], nil
	}
	return nil, fmt.Errorf("%w: the first bad byte is at offset %d", ErrNotUTF8, bad)
}

func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}
