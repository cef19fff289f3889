package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// kepRef is one reference to a KEP: its number, the link that gave it (""
// for a bare "KEP-1234") and the SIG folder of a keps/sig-x/ link.
type kepRef struct {
	Num int
	URL string
	SIG string
}

// The places a KEP number is read from, lower case.
const (
	kepShortLink = "kep.k8s.io/"
	enhIssueLink = "github.com/kubernetes/enhancements/issues/"
	enhTreeLink  = "github.com/kubernetes/enhancements/"
)

// kepRefs returns the KEPs a Markdown text names, first mention first, each
// once: kep.k8s.io/N, enhancements issue links, enhancements
// keps/sig-x/N-name folder links, and "KEP-N", "KEP N", "KEP #N" in the
// text. It scans by hand: it runs on every section of every document.
func kepRefs(md string) []kepRef {
	low := asciiLower(md)
	type hit struct {
		at  int
		ref kepRef
	}
	var hits []hit
	for from := 0; ; {
		i := strings.Index(low[from:], kepShortLink)
		if i < 0 {
			break
		}
		at := from + i
		if n, _, ok := number(low, at+len(kepShortLink)); ok {
			hits = append(hits, hit{at, kepRef{Num: n, URL: urlAround(md, at)}})
		}
		from = at + 1
	}
	for from := 0; ; {
		i := strings.Index(low[from:], enhTreeLink)
		if i < 0 {
			break
		}
		at := from + i
		rest := low[at+len(enhTreeLink):]
		switch {
		case strings.HasPrefix(rest, "issues/"):
			if n, _, ok := number(low, at+len(enhTreeLink)+len("issues/")); ok {
				hits = append(hits, hit{at, kepRef{Num: n, URL: urlAround(md, at)}})
			}
		case strings.HasPrefix(rest, "tree/") || strings.HasPrefix(rest, "blob/"):
			if r, ok := kepFolder(md, low, at); ok {
				hits = append(hits, hit{at, r})
			}
		}
		from = at + 1
	}
	for from := 0; ; {
		i := strings.Index(low[from:], "kep")
		if i < 0 {
			break
		}
		at := from + i
		from = at + 1
		if at > 0 && isWordByte(low[at-1]) {
			continue
		}
		j := at + 3
		if j < len(low) && (low[j] == '-' || low[j] == ' ') {
			j++
		} else if strings.HasPrefix(low[j:], "‐") {
			j += len("‐")
		}
		if j < len(low) && low[j] == '#' {
			j++
		}
		if j < len(low) && (low[j] == ' ' || low[j] == '\t' || low[j] == '\n') {
			j++
		}
		if n, end, ok := number(low, j); ok && (end == len(low) || !isWordByte(low[end])) {
			hits = append(hits, hit{at, kepRef{Num: n}})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].at < hits[b].at })
	var out []kepRef
	seen := map[int]int{}
	for _, h := range hits {
		ref := h.ref
		if i, dup := seen[ref.Num]; dup {
			if out[i].URL == "" {
				out[i].URL = ref.URL
			}
			if out[i].SIG == "" {
				out[i].SIG = ref.SIG
			}
			continue
		}
		seen[ref.Num] = len(out)
		out = append(out, ref)
	}
	return out
}

// kepFolder reads ".../enhancements/tree/<branch>/keps/sig-x/NNNN-name"
// starting at the "github.com" at md[at].
func kepFolder(md, low string, at int) (kepRef, bool) {
	rest := low[at+len(enhTreeLink)+len("tree/"):]
	slash := strings.IndexByte(rest, '/')
	if slash <= 0 || strings.ContainsAny(rest[:slash], " )\n") || !strings.HasPrefix(rest[slash:], "/keps/sig-") {
		return kepRef{}, false
	}
	sigAt := slash + len("/keps/")
	sigEnd := sigAt
	for sigEnd < len(rest) && (isLowerAlnum(rest[sigEnd]) || rest[sigEnd] == '-') {
		sigEnd++
	}
	if sigEnd >= len(rest) || rest[sigEnd] != '/' {
		return kepRef{}, false
	}
	base := len(low) - len(rest)
	n, end, ok := number(low, base+sigEnd+1)
	if !ok || end >= len(low) || low[end] != '-' {
		return kepRef{}, false
	}
	return kepRef{Num: n, URL: urlAround(md, at), SIG: rest[sigAt:sigEnd]}, true
}

// number reads digits at s[i:], leading zeros skipped, as a KEP number
// (1 to 99999); it returns where the digits end.
func number(s string, i int) (int, int, bool) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i || j-i > 9 {
		return 0, j, false
	}
	n, err := strconv.Atoi(s[i:j])
	if err != nil || n <= 0 || n > 99999 {
		return 0, j, false
	}
	return n, j, true
}

// urlAround returns the whole URL a host name at md[at] sits in, with
// "https://" when the text left the scheme out.
func urlAround(md string, at int) string {
	start := at
	for start > 0 && !isURLStop(md[start-1]) {
		start--
	}
	end := at
	for end < len(md) && !isURLStop(md[end]) {
		end++
	}
	u := md[start:end]
	if !strings.HasPrefix(strings.ToLower(u), "http") {
		u = "https://" + u
	}
	return u
}

func isURLStop(c byte) bool {
	return c <= ' ' || c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' || c == '"'
}

func isWordByte(c byte) bool { return isDigit(c) || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func isLowerAlnum(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'z') }

// asciiLower lower-cases ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var (
	sigLinkRe = lazyre.New(`^(?:tree|blob)/[^/\s)]+/(sig-[a-z0-9-]+)`)
	sigTextRe = lazyre.New(`\bSIG ([A-Z][A-Za-z0-9-]*(?: [A-Z][A-Za-z0-9-]*)*)`)
)

// sigOf returns the first SIG a Markdown text (md, and text, its plain
// rendering) names, as "sig-network": from a kubernetes/community sig-x
// link, a keps/sig-x link, or "SIG Network".
func sigOf(md, text string) string {
	low := asciiLower(md)
	const community = "github.com/kubernetes/community/"
	for from := 0; ; {
		i := strings.Index(low[from:], community)
		if i < 0 {
			break
		}
		from += i + len(community)
		if m := sigLinkRe().FindStringSubmatch(low[from:]); m != nil {
			return m[1]
		}
	}
	for _, r := range kepRefs(md) {
		if r.SIG != "" {
			return r.SIG
		}
	}
	if !strings.Contains(text, "SIG ") {
		return ""
	}
	if m := sigTextRe().FindStringSubmatch(text); m != nil {
		return "sig-" + strings.ToLower(strings.ReplaceAll(m[1], " ", "-"))
	}
	return ""
}

var (
	codeSpanRe  = lazyre.New("`([^`]+)`")
	gateNameRe  = lazyre.New(`^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$`)
	featureGate = lazyre.New(`(?i)\bfeature[- ]gates?\b`)
	leadingGate = lazyre.New("^\\s*`([A-Z][A-Za-z0-9]+)`")

	// gateRunRe is one or more code spans in a row: "`A`", "`A` and `B`", "`A`, `B`, and `C`".
	gateRun = "`[A-Z][A-Za-z0-9]*`(?:\\s*(?:,\\s*and|,\\s*or|,|and|or)\\s*`[A-Z][A-Za-z0-9]*`)*"
	// gateBeforeRe: "the `FooBar` feature gate".
	gateBeforeRe = lazyre.New(`(?i)(` + gateRun + `)\s+feature[- ]gates?\b`)
	// gateAfterRe: "feature gate `X`", "feature gate named `X`", "feature gates `A` and `B`".
	gateAfterRe = lazyre.New(`(?i)\bfeature[- ]gates?\s*[,:]?\s*(?:(?:called|named|is|are|to|change|option|both)\s+){0,4}(` + gateRun + `)`)
)

// gatesIn returns the feature gates a body names: gate-shaped code spans
// right before or after the words "feature gate" ("the `FooBar` feature
// gate", "a feature gate called `BazQux`"), and
// the entries of a list a sentence about feature gates introduces with a colon.
func gatesIn(body []block) []string {
	var out []string
	seen := map[string]bool{}
	add := func(g string) {
		if k := strings.ToLower(g); !seen[k] {
			seen[k] = true
			out = append(out, g)
		}
	}
	listing := false
	for _, b := range textBlocks(body) {
		hasCode := strings.Contains(b.text, "`")
		if listing && hasCode {
			if m := leadingGate().FindStringSubmatch(b.text); m != nil {
				add(m[1])
				continue
			}
		}
		if hasCode && containsFold(b.text, "feature") && featureGate().MatchString(b.text) {
			text := linkTexts(b.text) // keep code spans, drop link targets
			for _, re := range []*regexp.Regexp{gateBeforeRe(), gateAfterRe()} {
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					for _, c := range codeSpanRe().FindAllStringSubmatch(m[1], -1) {
						if gateNameRe().MatchString(c[1]) && len(c[1]) >= 4 {
							add(c[1])
						}
					}
				}
			}
		}
		listing = false
		if ss := sentences(b.plain); len(ss) > 0 {
			last := ss[len(ss)-1]
			listing = strings.HasSuffix(last, ":") && featureGate().MatchString(last)
		}
	}
	return out
}

// gatesInHeading returns gate-shaped code spans of a feature's heading
// ("`FooDefault` graduates to stable").
func gatesInHeading(title string) []string {
	var out []string
	for _, m := range codeSpanRe().FindAllStringSubmatch(title, -1) {
		if gateNameRe().MatchString(m[1]) && len(m[1]) >= 4 {
			out = addName(out, m[1])
		}
	}
	return out
}

func addName(list []string, name string) []string {
	for _, l := range list {
		if strings.EqualFold(l, name) {
			return list
		}
	}
	return append(list, name)
}

// versionRe finds Kubernetes minor versions in text: "v1.29", "1.29",
// "Kubernetes 1.29". "go1.24" is not one (no word boundary).
var versionRe = lazyre.New(`\bv?(1)\.(\d{1,2})\b`)

// versionsIn returns the versions a text names, in order.
func versionsIn(text string) []knowledge.Version {
	var out []knowledge.Version
	for _, m := range versionRe().FindAllStringSubmatch(text, -1) {
		minor, _ := strconv.Atoi(m[2])
		out = append(out, knowledge.Version{Major: 1, Minor: minor})
	}
	return out
}
