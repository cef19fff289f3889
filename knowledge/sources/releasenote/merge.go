package releasenote

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// echoSimilarity is how much of a heading's title must appear in a list
// entry's words for the heading to be that entry's detailed write-up.
const echoSimilarity = 0.6

// fixEchoes corrects a detail heading whose KEP number lost a digit. Stage
// sections list their KEPs with links and then write some of them up under
// headings; a heading that names, in text only, a number the section's list
// does not have, while one listed number starts with it and the entry says
// the same thing ("KEP-283" over the list's linked KEP-2837), is that entry:
// the linked number wins, as it does where a line and its link disagree.
func fixEchoes(fs []found) {
	type key struct{ sec, kep int }
	listed := map[key]int{} // the first list entry of each KEP in each section
	for j, f := range fs {
		if k := (key{f.secID, f.m.KEP}); f.list && f.m.KEP != 0 {
			if _, ok := listed[k]; !ok {
				listed[k] = j
			}
		}
	}
	for i := range fs {
		h := &fs[i]
		if !h.heading || !h.textOnly || h.m.KEP == 0 || h.m.KEP*10 > maxKEP {
			continue
		}
		if _, ok := listed[key{h.secID, h.m.KEP}]; ok {
			continue
		}
		match := -1
		for d := range 10 { // the listed numbers that start with the heading's
			j, ok := listed[key{h.secID, h.m.KEP*10 + d}]
			if !ok || similarity(h.m.Title, fs[j].m.Text) < echoSimilarity {
				continue
			}
			if match >= 0 {
				match = -2 // two candidates: leave it as written
				break
			}
			match = j
		}
		if match >= 0 {
			h.m.KEP, h.m.Link, h.textOnly = fs[match].m.KEP, fs[match].m.Link, false
		}
	}
}

// similarity is the share of a's character pairs (letters and digits only)
// that also occur in b.
func similarity(a, b string) float64 {
	pairs := func(s string) []string {
		var rs []rune
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				rs = append(rs, r)
			}
		}
		var out []string
		for i := 0; i+1 < len(rs); i++ {
			out = append(out, string(rs[i:i+2]))
		}
		return out
	}
	pa := pairs(a)
	if len(pa) == 0 {
		return 0
	}
	pb := map[string]bool{}
	for _, p := range pairs(b) {
		pb[p] = true
	}
	n := 0
	for _, p := range pa {
		if pb[p] {
			n++
		}
	}
	return float64(n) / float64(len(pa))
}

// mergeMentions keeps one Mention per (KEP, stage) in a document. A KEP a
// highlight heading describes and a stage list names again is one Mention:
// it keeps the richer text, the stage, the link, and every gate and SIG
// either gave. A mention without a stage joins the first staged mention of
// its KEP. Items without a KEP (KEP 0) are each their own. The result is in
// document order.
func mergeMentions(fs []found) []knowledge.Mention {
	var out []knowledge.Mention
	byKey := map[[2]int]int{} // (KEP, stage) -> index in out
	var unstaged []knowledge.Mention
	for _, f := range fs {
		m := f.m
		switch {
		case m.KEP == 0:
			out = append(out, m)
		case m.Stage == knowledge.StageNone:
			unstaged = append(unstaged, m)
		default:
			k := [2]int{m.KEP, int(m.Stage)}
			if i, ok := byKey[k]; ok {
				out[i] = merged(out[i], m)
			} else {
				byKey[k] = len(out)
				out = append(out, m)
			}
		}
	}
	firstStaged := map[int]int{}
	for i, m := range out {
		if _, ok := firstStaged[m.KEP]; !ok && m.KEP != 0 {
			firstStaged[m.KEP] = i
		}
	}
	for _, m := range unstaged {
		if i, ok := firstStaged[m.KEP]; ok {
			st := out[i].Stage
			out[i] = merged(out[i], m)
			out[i].Stage = st
			continue
		}
		firstStaged[m.KEP] = len(out)
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].KEP < out[j].KEP
	})
	return out
}

// merged joins two mentions of one KEP: the one with more words leads.
func merged(a, b knowledge.Mention) knowledge.Mention {
	rich, other := a, b
	if utf8.RuneCountInString(b.Text) > utf8.RuneCountInString(a.Text) {
		rich, other = b, a
	}
	out := rich
	out.Stage = a.Stage
	if out.Stage == knowledge.StageNone {
		out.Stage = b.Stage
	}
	out.SIG = firstNonEmpty(rich.SIG, other.SIG)
	out.Link = firstNonEmpty(rich.Link, other.Link)
	out.FeatureGates = append([]string(nil), rich.FeatureGates...)
	for _, g := range other.FeatureGates {
		if !hasString(out.FeatureGates, g) {
			out.FeatureGates = append(out.FeatureGates, g)
		}
	}
	if len(out.FeatureGates) == 0 {
		out.FeatureGates = nil
	}
	return out
}
