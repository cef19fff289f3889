package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// LooksGate reports whether s is written like a feature gate: an upper-case
// letter first, then letters and digits, with a lower-case letter among
// them (so API versions, flags, fields and constants are not).
func LooksGate(s string) bool {
	if len(s) < 3 || len(s) > 100 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	lower := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return lower
}

// FirstSentence returns s up to the end of its first sentence: a period,
// question or exclamation mark followed by a space or the end, outside
// backticks.
func FirstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	code := false
	for i, r := range s {
		switch {
		case r == '`':
			code = !code
		case !code && (r == '.' || r == '!' || r == '?'):
			if j := i + 1; j == len(s) || s[j] == ' ' {
				return s[:j]
			}
		case !code && r == '。':
			return s[:i+len("。")]
		}
	}
	return s
}

// ClipRunes cuts s to max runes, marking a cut with "…".
func ClipRunes(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}

// AddNames appends the names in add that list does not hold yet, ignoring case.
func AddNames(list, add []string) []string {
	for _, a := range add {
		found := false
		for _, l := range list {
			if strings.EqualFold(l, a) {
				found = true
				break
			}
		}
		if !found && a != "" {
			list = append(list, a)
		}
	}
	return list
}

// PrefixAll puts p before each of ss.
func PrefixAll(p string, ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, p+s)
	}
	return out
}

// CamelParts splits a CamelCase name into its parts, lower case:
// NFTablesProxyMode gives nf, tables, proxy, mode; a run of capitals is one
// part (DRAAdminAccess gives dra, admin, access), and letters and digits
// part (CSIMigrationvSphere2 gives csi, migrationv, sphere, 2).
func CamelParts(w string) []string {
	rs := []rune(w)
	var out []string
	start := 0
	for i := 1; i <= len(rs); i++ {
		cut := i == len(rs)
		if !cut {
			up, prevUp := unicode.IsUpper(rs[i]), unicode.IsUpper(rs[i-1])
			nextLow := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			digit := unicode.IsDigit(rs[i]) != unicode.IsDigit(rs[i-1])
			cut = up && (!prevUp || nextLow) || digit
		}
		if cut {
			out = append(out, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	return out
}

// JoinAnd writes a list as prose: "a", "a and b", "a, b and c".
func JoinAnd(ss []string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return ss[0]
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}
