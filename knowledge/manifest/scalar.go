package manifest

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// dquote scans a double-quoted scalar whose opening quote is b[i]. It
// returns the index after the closing quote and whether the scalar holds
// escapes; ok is false when it does not close on this line or holds an
// escape the fast path leaves to the slow one (\x, \u, \U, or unknown).
func dquote(b []byte, i int) (end int, esc, ok bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false, false
		}
		s := bytes.IndexByte(b[j:j+q], '\\')
		if s < 0 {
			return j + q + 1, esc, true
		}
		j += s
		if j+1 >= len(b) {
			return 0, false, false
		}
		switch b[j+1] {
		case '0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', '\'', '\\', 'N', '_', 'L', 'P':
		default:
			return 0, false, false
		}
		esc = true
		j += 2
	}
}

// squote scans a single-quoted scalar whose opening quote is b[i]. It
// returns the index after the closing quote and whether the scalar holds
// a doubled quote (”); ok is false when it does not close on this line.
func squote(b []byte, i int) (end int, esc, ok bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '\'')
		if q < 0 {
			return 0, false, false
		}
		j += q
		if j+1 < len(b) && b[j+1] == '\'' {
			esc = true
			j += 2
			continue
		}
		return j + 1, esc, true
	}
}

// unquoteSingle returns the value of a single-quoted scalar's inside.
func unquoteSingle(in []byte, esc bool) string {
	if !esc {
		return string(in)
	}
	return strings.ReplaceAll(string(in), "''", "'")
}

// commentAt returns the index of the '#' that starts a comment in b (a
// '#' after a space), or -1.
func commentAt(b []byte) int {
	for i := 0; ; {
		h := bytes.IndexByte(b[i:], '#')
		if h < 0 {
			return -1
		}
		i += h
		if i > 0 && (b[i-1] == ' ' || b[i-1] == '\t') {
			return i
		}
		i++
	}
}

// restIsEnd reports whether b[i:] is only spaces and maybe a comment:
// what may follow a quoted scalar or a flow collection on its line.
func restIsEnd(b []byte, i int) bool {
	j := skipSpaces(b, i)
	return j == len(b) || (b[j] == '#' && j > i)
}

// plainIsText reports whether go.yaml.in/yaml/v3 resolves plain scalar
// v to a string (and not null, a boolean, a number or a timestamp). The
// words are checked here; anything that may be a number or a timestamp
// is handed to the YAML library itself, so both paths resolve alike.
func plainIsText(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	switch v[0] {
	case '~':
		return len(v) > 1
	case 't', 'T', 'f', 'F', 'n', 'N':
		switch string(v) {
		case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
			return false
		}
		return true
	case '<':
		return string(v) != "<<"
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return resolvesToText(v)
	}
	return true
}

// resolvesToText asks the YAML library how it reads plain scalar v as
// the value of a key.
func resolvesToText(v []byte) bool {
	src := make([]byte, 0, len(v)+4)
	src = append(append(src, "k: "...), v...)
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil || len(n.Content) == 0 {
		return false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	return m.Content[1].ShortTag() == "!!str"
}
