package relnotes

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The KEP references an entry carries, in the forms the notes of 1.25 to
// 1.36 use.
var (
	// kepIssueRe is the KEP's tracking issue, whose number is the KEP's:
	// github.com/kubernetes/enhancements/issues/3902 (also the misspelt
	// .../issue/4193), and its short form features.k8s.io/2845. Issues of
	// forks are other numbers and are not read.
	kepIssueRe = lazyre.New(`(?i)(?:github\.com/kubernetes/enhancements/issues?/|features\.k8s\.io/|kep\.k8s\.io/)0*(\d{1,5})\b`)
	// kepFolderRe is a KEP's folder in kubernetes/enhancements or a fork of
	// it, at any branch or commit, through github.com or git.k8s.io:
	// .../keps/sig-node/2400-node-swap, .../keps/sig-cluster-lifecycle/kubeadm/4656-x/README.md.
	// The folder is NNNN-name; a file such as 0034-distributed-tracing-kep.md
	// is a provisional KEP of the old numbering, not a KEP number, and is
	// not read.
	kepFolderRe = lazyre.New(`(?i)(?:github\.com/[\w.-]+/enhancements|git\.k8s\.io/enhancements)/(?:[^\s)\]>]*?/)?keps/(?:[\w.-]+/){0,2}?0*(\d{1,5})-[a-z0-9-]+(?:[/#?)\]>\s]|$)`)
	// kepTextRe is a KEP named in words: "KEP-3178", "KEP 127", "KEP #2008".
	kepTextRe = lazyre.New(`\bKEP[- ]*#?\s?0*(\d{1,5})\b`)
)

// keps returns the KEP numbers of the links and text, in order of first
// appearance, once each. Links to pull requests or commits of
// kubernetes/enhancements name no KEP and give none.
func keps(links []string, text string) []int {
	var out []int
	seen := map[int]bool{}
	add := func(s string) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
	}
	scan := func(s string) {
		type hit struct {
			at  int
			num string
		}
		var hits []hit
		var res []*regexp.Regexp
		// Both expressions need one of these words: most texts (an API
		// group's k8s.io/ among them) hold none and cost no match.
		if containsFoldAny(s, "enhancements/", "features.k8s.io/", "kep.k8s.io/") {
			res = append(res, kepIssueRe(), kepFolderRe())
		}
		if strings.Contains(s, "KEP") {
			res = append(res, kepTextRe())
		}
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
				hits = append(hits, hit{m[0], s[m[2]:m[3]]})
			}
		}
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
		for _, h := range hits {
			add(h.num)
		}
	}
	for _, l := range links {
		scan(l)
	}
	scan(text)
	return out
}

// maxNameBytes caps one code name; longer backticked spans are code, not names.
const maxNameBytes = 100

var codeSpanRe = lazyre.New("`([^`\n]{1,200})`")

// names returns the code names a text puts in backticks — flags, fields,
// feature gates, API versions, metrics — in order, once each, at most
// maxListLen. A span with a space in it is a command or a snippet, not a
// name; bare values (true, false, nil, numbers) and expressions are not
// names either.
func names(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range codeSpanRe().FindAllStringSubmatch(text, -1) {
		s := strings.TrimSpace(m[1])
		if s == "" || len(s) > maxNameBytes || strings.ContainsAny(s, " \t") || seen[s] || !nameStart(s) || isValue(s) {
			continue
		}
		seen[s] = true
		out = append(out, s)
		if len(out) == maxListLen {
			break
		}
	}
	return out
}

// nameStart reports whether s starts as a name does: a letter, a digit,
// or one of - . _ / $ (flags, fields, paths, variables); "(a/b)*c" is an
// expression.
func nameStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-._/$", r)
}

// isValue reports whether s is a literal value rather than a name.
func isValue(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "nil", "null", "none", "":
		return true
	}
	return strings.Trim(s, "0123456789.,:+-*/%=<>!()[]{}'\"") == ""
}
