package semver

import (
	"cmp"
	"strings"
)

// version is a parsed semantic version.
type version struct {
	core [3]string // numeric, without leading zeros
	pre  []string  // the dot-separated pre-release identifiers
}

// Valid reports whether s is a semantic version: 1.30.2, 1.30.0-alpha.0,
// 0.0.0-20190927203648-9ce6eca90e73, or OSV's "0".
func Valid(s string) bool {
	_, ok := parse(s)
	return ok
}

// Compare returns -1, 0 or +1 as a is older than, the same as or newer
// than b by semver precedence. OSV's "0" is older than every other
// version. A version that is not valid sorts before every valid one but
// "0" (such versions compare as strings among themselves); callers that
// must not use one check Valid first.
func Compare(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "0": // OSV's beginning of time, before even 0.0.0-pre
		return -1
	case b == "0":
		return 1
	}
	va, oka := parse(a)
	vb, okb := parse(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	for i := range va.core {
		if c := compareNum(va.core[i], vb.core[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(va.pre) == 0 && len(vb.pre) == 0:
		return 0
	case len(va.pre) == 0:
		return 1 // a release is newer than its pre-releases
	case len(vb.pre) == 0:
		return -1
	}
	for i := 0; i < len(va.pre) && i < len(vb.pre); i++ {
		if c := compareIdent(va.pre[i], vb.pre[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(va.pre), len(vb.pre))
}

// parse reads s; "0" is 0.0.0.
func parse(s string) (version, bool) {
	if s == "0" {
		return version{core: [3]string{"0", "0", "0"}}, true
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		if !identifiers(s[i+1:], false) {
			return version{}, false
		}
		s = s[:i]
	}
	var v version
	if i := strings.IndexByte(s, '-'); i >= 0 {
		if !identifiers(s[i+1:], true) {
			return version{}, false
		}
		v.pre = strings.Split(s[i+1:], ".")
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return version{}, false
	}
	for i, p := range parts {
		if !numeric(p) || (len(p) > 1 && p[0] == '0') {
			return version{}, false
		}
		v.core[i] = p
	}
	return v, true
}

// identifiers reports whether s is dot-separated identifiers of
// [0-9A-Za-z-], none empty; numeric pre-release identifiers have no
// leading zero.
func identifiers(s string, pre bool) bool {
	if s == "" {
		return false
	}
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		for _, r := range id {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
				return false
			}
		}
		if pre && numeric(id) && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// compareNum compares two numbers written without leading zeros, of any
// length.
func compareNum(a, b string) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareIdent compares pre-release identifiers: numbers numerically and
// before words, words in ASCII order.
func compareIdent(a, b string) int {
	na, nb := numeric(a), numeric(b)
	switch {
	case na && nb:
		return compareNum(a, b)
	case na:
		return -1
	case nb:
		return 1
	}
	return strings.Compare(a, b)
}
