package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"sort"
	"strconv"
	"strings"
)

// maxKEP bounds what counts as a KEP number; larger numbers are noise.
const maxKEP = 99999

var (
	// reKEPText is a KEP named in text: KEP-3866, KEP 3866, KEP3141, KEP-0024.
	// Word boundaries are checked by kepsInText (RE2 has no look-around).
	reKEPText = lazyre.New(`(?i)KEP[-‐ ]?0*([0-9]{1,6})`)
	// reKEPURL is a link target that names a KEP: the kep.k8s.io short link,
	// an enhancements issue (issues carry the KEP's number) or a KEP folder.
	reKEPURL = lazyre.New(`(?i)(?:kep\.k8s\.io/0*([0-9]{1,5})(?:[^0-9]|$)|github\.com/kubernetes/enhancements/issues/([0-9]{1,5})(?:[^0-9]|$)|github\.com/kubernetes/enhancements/(?:tree|blob)/[^/\s]+/keps/[^/\s]+/0*([0-9]{1,5})-)`)
)

// kepRef is one KEP a piece of text names, and the link that named it.
type kepRef struct {
	num  int
	link string // the link target when a link gave the number
}

// kepFromURL returns the KEP number a link target names, or 0.
func kepFromURL(u string) int {
	m := reKEPURL().FindStringSubmatch(u)
	if m == nil {
		return 0
	}
	for _, g := range m[1:] {
		if n, err := strconv.Atoi(g); err == nil && n > 0 && n <= maxKEP {
			return n
		}
	}
	return 0
}

// kepsInText returns the KEP numbers written out in s ("KEP-2831 和 KEP-647"
// gives both), in order, without repeats.
func kepsInText(s string) []int {
	var out []int
	for _, p := range kepTextAt(s) {
		if !hasInt(out, p[0]) {
			out = append(out, p[0])
		}
	}
	return out
}

// kepTextAt returns each KEP number written out in s with its byte offset.
func kepTextAt(s string) [][2]int {
	var out [][2]int
	for _, m := range reKEPText().FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && isASCIIAlnum(s[m[0]-1]) {
			continue // "someKEP-1" is not a KEP reference
		}
		if m[1] < len(s) && s[m[1]] >= '0' && s[m[1]] <= '9' {
			continue // more digits than a KEP number has
		}
		if n, err := strconv.Atoi(s[m[2]:m[3]]); err == nil && n > 0 && n <= maxKEP {
			out = append(out, [2]int{n, m[0]})
		}
	}
	return out
}

// kepRefs returns the KEPs raw Markdown s names, in the order they appear.
// Where a link's text and its target disagree on the number, the target
// wins: the text of a link is written by hand, the target is what readers
// follow. Numbers in plain text outside links count too.
func kepRefs(s string) []kepRef {
	if !mayNameKEP(s) {
		return nil
	}
	type placed struct {
		kepRef
		pos int
	}
	var found []placed
	seen := map[int]int{} // number -> index in found
	add := func(r kepRef, pos int) {
		if i, ok := seen[r.num]; ok {
			if found[i].link == "" {
				found[i].link = r.link
			}
			found[i].pos = min(found[i].pos, pos)
			return
		}
		seen[r.num] = len(found)
		found = append(found, placed{r, pos})
	}
	for _, loc := range reLink().FindAllStringSubmatchIndex(s, -1) {
		text, url := s[loc[2]:loc[3]], s[loc[4]:loc[5]]
		if n := kepFromURL(url); n > 0 {
			add(kepRef{num: n, link: url}, loc[0])
			continue
		}
		for _, n := range kepsInText(text) {
			add(kepRef{num: n}, loc[0])
		}
	}
	// Outside links: blank the links out, keeping byte offsets.
	rest := reLink().ReplaceAllStringFunc(s, func(l string) string { return strings.Repeat(" ", len(l)) })
	for _, p := range kepTextAt(rest) {
		add(kepRef{num: p[0]}, p[1])
	}
	// Bare URLs outside Markdown links.
	if strings.Contains(rest, "kep.k8s.io/") || strings.Contains(rest, "enhancements/") {
		off := 0
		for _, f := range strings.Fields(rest) {
			i := strings.Index(rest[off:], f) + off
			off = i + len(f)
			if n := kepFromURL(f); n > 0 {
				add(kepRef{num: n, link: strings.Trim(f, "<>()（）")}, i)
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	out := make([]kepRef, len(found))
	for i, f := range found {
		out[i] = f.kepRef
	}
	return out
}

// stripKEPs removes KEP numbers, KEP links and their separators from a
// heading or item title, leaving the feature's name.
func stripKEPs(s string) string {
	s = reLink().ReplaceAllStringFunc(s, func(l string) string {
		m := reLink().FindStringSubmatch(l)
		if kepFromURL(m[2]) > 0 || len(kepsInText(m[1])) > 0 {
			return m[1] // the text may carry the title: [KEP-N title](url)
		}
		return l
	})
	s = reKEPList().ReplaceAllString(s, " ")
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), ":：-–—/ "))
}

// reKEPList is a run of KEP numbers with their joiners: "KEP-3063/KEP-4381",
// "KEP-2831 和 KEP-647", "KEP-3866：".
var reKEPList = lazyre.New(`(?i)KEP[-‐ ]?[0-9]{1,5}(?:\s*(?:和|与|及|/|,|、|and)\s*KEP[-‐ ]?[0-9]{1,5})*\s*[:：]?`)

func hasInt(xs []int, n int) bool {
	for _, x := range xs {
		if x == n {
			return true
		}
	}
	return false
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// mayNameKEP is a fast check that s contains "kep" in any case or an
// enhancements link; text without either names no KEP.
func mayNameKEP(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if (s[i]|0x20) == 'k' && (s[i+1]|0x20) == 'e' && (s[i+2]|0x20) == 'p' {
			return true
		}
	}
	return strings.Contains(s, "enhancements/")
}
