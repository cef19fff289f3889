package manifest

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// charFlags says what one line (or document) holds besides printable
// ASCII and spaces.
type charFlags uint8

const (
	hasTab      charFlags = 1 << iota // a tab: the fast reader checks where it is
	hasNonASCII                       // valid UTF-8 beyond ASCII
	hasOdd                            // a lone CR, NEL, LS, PS or BOM inside a line: YAML treats some as line breaks, so the slow path reads it
	hasControl                        // a control character YAML refuses
	hasInvalid                        // bytes that are not UTF-8
	hasNUL                            // a NUL byte: the stream is binary
)

// bad is what makes a document unreadable before any parsing.
const bad = hasControl | hasInvalid | hasNUL

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// checkLine classifies the bytes of one line (without its line break).
// Printable ASCII is checked eight bytes at a time; only a word with a
// tab, a control character or a byte over 0x7F is looked at closely.
func checkLine(b []byte) charFlags {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if w&hi8 != 0 || (w-0x20*lo8)&^w&hi8 != 0 {
			break
		}
		if x := w ^ 0x7f*lo8; (x-lo8)&^x&hi8 != 0 {
			break
		}
	}
	var f charFlags
	for i < len(b) {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			switch c {
			case '\t':
				f |= hasTab
			case '\r':
				f |= hasOdd
			case 0:
				f |= hasNUL
			default:
				f |= hasControl
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			f |= hasInvalid
		case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF:
			f |= hasOdd
		case r < 0xA0 || r == 0xFFFE || r == 0xFFFF:
			f |= hasControl
		default:
			f |= hasNonASCII
		}
		i += n
	}
	return f
}

// hasNULByte reports whether b holds a NUL byte; it is all that is
// checked of a line too long to keep.
func hasNULByte(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

// indentOf counts the spaces that start b.
func indentOf(b []byte) int {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

// trimRight drops trailing spaces and tabs.
func trimRight(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}
