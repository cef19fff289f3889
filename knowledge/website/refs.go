package website

import (
	"regexp"
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

// kepRefRe finds KEP numbers in Markdown: kep.k8s.io/N, enhancements issue
// links, enhancements keps/sig-x/N-name folder links, and "KEP-N", "KEP N",
// "KEP #N" in the text.
var kepRefRe = regexp.MustCompile(`(?i)(https?://)?kep\.k8s\.io/0*(\d+)` +
	`|(https?://)?github\.com/kubernetes/enhancements/issues/(\d+)` +
	`|(https?://)?github\.com/kubernetes/enhancements/(?:tree|blob)/[^/\s)]+/keps/(sig-[a-z0-9-]+)/0*(\d+)-` +
	`|\bKEP[-‐ ]?#?\s?0*(\d+)\b`)

// urlRe finds the whole link target a kepRefRe URL match sits in.
var urlAt = regexp.MustCompile(`^[^\s)>\]]*`)

// kepRefs returns the KEPs a Markdown text names, first mention first, each once.
func kepRefs(md string) []kepRef {
	var out []kepRef
	seen := map[int]int{}
	for _, m := range kepRefRe.FindAllStringSubmatchIndex(md, -1) {
		var ref kepRef
		group := func(g int) string {
			if m[2*g] < 0 {
				return ""
			}
			return md[m[2*g]:m[2*g+1]]
		}
		switch {
		case group(2) != "":
			ref.Num, _ = strconv.Atoi(group(2))
		case group(4) != "":
			ref.Num, _ = strconv.Atoi(group(4))
		case group(7) != "":
			ref.Num, _ = strconv.Atoi(group(7))
			ref.SIG = strings.ToLower(group(6))
		default:
			ref.Num, _ = strconv.Atoi(group(8))
		}
		if group(8) == "" {
			ref.URL = md[m[0]:m[1]] + urlAt.FindString(md[m[1]:])
			if !strings.HasPrefix(strings.ToLower(ref.URL), "http") {
				ref.URL = "https://" + ref.URL
			}
		}
		if ref.Num <= 0 || ref.Num > 99999 {
			continue
		}
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

var (
	sigLinkRe = regexp.MustCompile(`(?i)github\.com/kubernetes/community/(?:tree|blob)/[^/\s)]+/(sig-[a-z0-9-]+)`)
	sigTextRe = regexp.MustCompile(`\bSIG ([A-Z][A-Za-z0-9-]*(?: [A-Z][A-Za-z0-9-]*)*)`)
)

// sigOf returns the first SIG a Markdown text names, as "sig-network": from
// a kubernetes/community sig-x link, a keps/sig-x link, or "SIG Network".
func sigOf(md string) string {
	if m := sigLinkRe.FindStringSubmatch(md); m != nil {
		return strings.ToLower(m[1])
	}
	for _, r := range kepRefs(md) {
		if r.SIG != "" {
			return r.SIG
		}
	}
	if m := sigTextRe.FindStringSubmatch(plain(md)); m != nil {
		return "sig-" + strings.ToLower(strings.ReplaceAll(m[1], " ", "-"))
	}
	return ""
}

var (
	codeSpanRe   = regexp.MustCompile("`([^`]+)`")
	gateNameRe   = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$`)
	featureGate  = regexp.MustCompile(`(?i)\bfeature[- ]gates?\b`)
	leadingGate  = regexp.MustCompile("^\\s*`([A-Z][A-Za-z0-9]+)`")
	inlineLinkRe = regexp.MustCompile(`\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)`)

	// gateRunRe is one or more code spans in a row: "`A`", "`A` and `B`", "`A`, `B`, and `C`".
	gateRun = "`[A-Z][A-Za-z0-9]*`(?:\\s*(?:,\\s*and|,\\s*or|,|and|or)\\s*`[A-Z][A-Za-z0-9]*`)*"
	// gateBeforeRe: "the `FooBar` feature gate".
	gateBeforeRe = regexp.MustCompile(`(?i)(` + gateRun + `)\s+feature[- ]gates?\b`)
	// gateAfterRe: "feature gate `X`", "feature gate named `X`", "feature gates `A` and `B`".
	gateAfterRe = regexp.MustCompile(`(?i)\bfeature[- ]gates?\s*[,:]?\s*(?:(?:called|named|is|are|to|change|option|both)\s+){0,4}(` + gateRun + `)`)
)

// gatesIn returns the feature gates a body names: gate-shaped code spans
// right before or after the words "feature gate" ("the `FooBar` feature
// gate", "a feature gate called `BazQux`"), and
// the entries of a list a sentence about feature gates introduces with a colon.
func gatesIn(body []block) []string {
	var out []string
	listing := false
	for _, b := range textBlocks(body) {
		text := inlineLinkRe.ReplaceAllString(b.text, "$1") // keep code spans, drop link targets
		if listing {
			if m := leadingGate.FindStringSubmatch(text); m != nil {
				out = addName(out, m[1])
				continue
			}
			listing = false
		}
		for _, re := range []*regexp.Regexp{gateBeforeRe, gateAfterRe} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				for _, c := range codeSpanRe.FindAllStringSubmatch(m[1], -1) {
					if gateNameRe.MatchString(c[1]) && len(c[1]) >= 4 {
						out = addName(out, c[1])
					}
				}
			}
		}
		listing = false
		if ss := sentences(text); len(ss) > 0 {
			last := ss[len(ss)-1]
			listing = featureGate.MatchString(last) && strings.HasSuffix(last, ":")
		}
	}
	return out
}

// gatesInHeading returns gate-shaped code spans of a feature's heading
// ("`FooDefault` graduates to stable").
func gatesInHeading(title string) []string {
	var out []string
	for _, m := range codeSpanRe.FindAllStringSubmatch(title, -1) {
		if gateNameRe.MatchString(m[1]) && len(m[1]) >= 4 {
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
var versionRe = regexp.MustCompile(`\bv?(1)\.(\d{1,2})\b`)

// versionsIn returns the versions a text names, in order.
func versionsIn(text string) []knowledge.Version {
	var out []knowledge.Version
	for _, m := range versionRe.FindAllStringSubmatch(text, -1) {
		minor, _ := strconv.Atoi(m[2])
		out = append(out, knowledge.Version{Major: 1, Minor: minor})
	}
	return out
}
