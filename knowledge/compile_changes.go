package knowledge

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// maxChangeTitle is how many runes of a release-note entry's first sentence
// become its notice's title.
const maxChangeTitle = 120

// addChanges files each release-note entry under its release (one per
// release and PR, the first kept), adds its source to the release's, makes
// the notice its class asks for, and links it from each known KEP it names.
//
// A notice's feature gates are the code names the entry's words call
// feature gates; its KEP, when the entry links none, the KEP owning one
// of them (gates maps lower-case gate names to owners).
func addChanges(changes []Change, keps map[int]*KEP, gates map[string]int, rel func(Version) *ReleaseRecord) {
	type key struct {
		v  Version
		pr int
	}
	seen := map[key]bool{}
	for _, ch := range changes {
		if ch.Release.IsZero() || ch.PR <= 0 || seen[key{ch.Release, ch.PR}] {
			continue
		}
		seen[key{ch.Release, ch.PR}] = true
		ch.Kinds = append([]string(nil), ch.Kinds...)
		r := rel(ch.Release)
		r.Changes = append(r.Changes, ch)
		r.Sources = prose.AddNames(r.Sources, []string{ch.Source})
		if n, ok := noticeOf(ch); ok {
			if n.KEP == 0 {
				if n.KEP = ownerOf(gates, n.FeatureGates); n.KEP > 0 {
					n.KEPVia = KEPViaGate
				}
			}
			r.Notices = append(r.Notices, n)
		}
		for _, n := range ch.KEPs {
			if kp := keps[n]; kp != nil {
				kp.Changes = append(kp.Changes, ch)
			}
		}
	}
	for _, kp := range keps {
		sortChanges(kp.Changes)
	}
}

// sortChanges orders entries by release, then PR number.
func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		if c := cs[i].Release.Compare(cs[j].Release); c != 0 {
			return c < 0
		}
		return cs[i].PR < cs[j].PR
	})
}

// noticeOf is the notice a release-note entry makes, if its class makes
// one or upstream labelled it one. Upstream's label is the floor: an entry
// the notes label kind/deprecation is a deprecation notice whatever its
// words read as; where kepbot reads it as a removal or an upgrade note,
// that is its kind and Label keeps the deprecation, and where kepbot reads
// no notice in it, it is one by its label alone (Label and Kind both
// deprecation).
func noticeOf(ch Change) (Notice, bool) {
	kind, label := ch.Notice, NoticeKind("")
	if ch.HasKind(string(NoticeDeprecation)) && kind != NoticeDeprecation {
		label = NoticeDeprecation
		if kind == "" {
			kind = NoticeDeprecation
		}
	}
	switch kind {
	case NoticeDeprecation, NoticeRemoval, NoticeUpgrade:
	default:
		return Notice{}, false
	}
	n := Notice{Kind: kind, Label: label, Release: ch.Release, Title: ChangeTitle(ch), Text: ch.Text,
		Source: ch.Source, PR: ch.PR, URL: ch.URL, SIGs: sigNames(ch.SIGs), FeatureGates: ChangeGates(ch), Action: ch.Action,
		API: noticeAPI(ch, kind)}
	if len(ch.KEPs) > 0 {
		n.KEP = ch.KEPs[0]
	}
	return n, true
}

// noticeAPI is the API version a notice of kind made from entry ch is
// about: the one a removal stops serving (removedAPI), or the one an
// upgrade note turns off by default.
func noticeAPI(ch Change, kind NoticeKind) *APIChange {
	if kind == NoticeUpgrade {
		for _, e := range ch.Effects {
			if e.What == EffectAPI && e.Action == EffectDefault && e.Value == "false" && strings.Contains(e.Name, "/") && e.Of == "" {
				return &APIChange{GroupVersion: e.Name, Kinds: e.Kinds}
			}
		}
		return nil
	}
	return removedAPI(ch)
}

// removedAPI is the API version a removal entry stops serving, when that
// is all it removes: one group/version (with the kinds its effects name)
// removed from the API server (no Of: not kubectl's support for it).
// Its notice then is one with the guide's and the posts' notices of that
// version.
func removedAPI(ch Change) *APIChange {
	if ch.Notice != NoticeRemoval {
		return nil
	}
	var api *APIChange
	for _, e := range ch.Effects {
		if e.Action != EffectRemoved {
			continue
		}
		if e.What != EffectAPI || e.Of != "" || !strings.Contains(e.Name, "/") || api != nil && api.GroupVersion != e.Name {
			return nil
		}
		if api == nil {
			api = &APIChange{GroupVersion: e.Name}
		}
		api.Kinds = prose.AddNames(api.Kinds, e.Kinds)
		if api.ReplacedBy == "" {
			api.ReplacedBy = e.Replacement
		}
	}
	return api
}

// gateNames are the code names an entry says are feature gates: those its
// typed changes take for gates, and those its words call one — written
// next to "feature gate" ("the feature gate `X`", "`X` feature gate",
// "feature gates `A`, `B` and `C`"). Other names written like a gate
// (`ContainerStatus`, a field's type; `CrashLoopBackOff`, a state) are not.
func gateNames(ch Change) []string {
	var out []string
	for _, e := range ch.Effects {
		if e.What == EffectGate && prose.LooksGate(e.Name) {
			out = prose.AddNames(out, []string{e.Name})
		}
	}
	for _, n := range ch.Names {
		if prose.LooksGate(n) && calledGate(ch.Text, n) {
			out = prose.AddNames(out, []string{n})
		}
	}
	return out
}

// calledGate reports whether text calls the code name a feature gate:
// "feature gate(s)" (or feature-gate, featuregate) stands right before it,
// or before a list of code names it belongs to, or right after it.
func calledGate(text, name string) bool {
	low := strings.ToLower(text)
	for i := 0; ; {
		j := strings.Index(text[i:], "`"+name+"`")
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(name)+2
		if gateWordAfter(low[end:]) || gateWordBefore(low[:at]) {
			return true
		}
		i = end
	}
}

// gateWordAfter reports whether s starts with " feature gate" (after
// spaces).
func gateWordAfter(s string) bool {
	s = strings.TrimLeft(s, " ")
	for _, w := range []string{"feature gate", "feature-gate", "featuregate"} {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// gateWordBefore reports whether s ends with "feature gate(s)", followed
// only by other code names and list words (", ", "and", "or", "the").
func gateWordBefore(s string) bool {
	for {
		s = strings.TrimRight(s, " ,")
		switch {
		case strings.HasSuffix(s, "`"):
			k := strings.LastIndex(s[:len(s)-1], "`")
			if k < 0 {
				return false
			}
			s = s[:k]
			continue
		case strings.HasSuffix(s, " and"), strings.HasSuffix(s, " or"):
			s = s[:strings.LastIndex(s, " ")]
			continue
		}
		for _, w := range []string{"feature gate", "feature gates", "feature-gate", "feature-gates", "featuregate", "featuregates"} {
			if strings.HasSuffix(s, w) {
				return true
			}
		}
		return false
	}
}

// ChangeTitle is the title of an entry's notice: what its effects say it
// does, the same wherever the entry is known (see EffectsTitle); without
// effects that say it, the first sentence of its words, cut at
// maxChangeTitle runes; without words either (the built-in snapshot
// keeps none), its pull request alone, never a fragment of its words.
func ChangeTitle(ch Change) string {
	if t := EffectsTitle(ch.Effects, ch.Notice); t != "" {
		return t
	}
	if t := prose.FirstSentence(ch.Text); t != "" {
		return prose.ClipRunes(t, maxChangeTitle)
	}
	return PRTitle(ch.PR)
}

// PRTitle titles an entry known by its pull request alone: "Pull request
// #131961".
func PRTitle(pr int) string { return "Pull request #" + strconv.Itoa(pr) }

// sigNames turns the notes' SIG names ("node", "api-machinery") into the
// form KEPs use ("sig-node").
func sigNames(sigs []string) []string {
	if len(sigs) == 0 {
		return nil
	}
	out := make([]string, 0, len(sigs))
	for _, s := range sigs {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" {
			continue
		}
		if !strings.HasPrefix(s, "sig-") {
			s = "sig-" + s
		}
		out = append(out, s)
	}
	return out
}

// addLifecycles puts each minor release's support dates on its release
// (the first given for a release wins), and every patch release under its
// minor, oldest first, each once.
func addLifecycles(ls []Lifecycle, ps []Patch, rel func(Version) *ReleaseRecord) {
	for _, l := range ls {
		if l.Release.IsZero() {
			continue
		}
		r := rel(l.Release)
		if r.Lifecycle == nil {
			l := l
			r.Lifecycle = &l
		}
	}
	type key struct {
		v Version
		n int
	}
	seen := map[key]bool{}
	touched := map[Version]*ReleaseRecord{}
	for _, p := range ps {
		if p.Release.IsZero() || p.Number < 0 || seen[key{p.Release, p.Number}] {
			continue
		}
		seen[key{p.Release, p.Number}] = true
		r := rel(p.Release)
		r.Patches = append(r.Patches, p)
		touched[p.Release] = r
	}
	for _, r := range touched {
		sort.SliceStable(r.Patches, func(i, j int) bool { return r.Patches[i].Number < r.Patches[j].Number })
	}
}

// NoticeWords are the words a notice quotes under its title: its text,
// without the sentence its title already says (a release-note entry's
// notice is titled with its first sentence).
func NoticeWords(n Notice) string {
	if n.PR > 0 {
		if rest, ok := strings.CutPrefix(strings.Join(strings.Fields(n.Text), " "), n.Title); ok {
			return strings.TrimSpace(rest)
		}
	}
	return n.Text
}

// InnerCapital reports whether s has a capital after a small letter
// (digits between them aside): CephFS, EtcdLearnerMode, IPv6DualStack,
// PodOS; a word opening a sentence (Kubernetes) or an acronym's plural
// (SLIs) has none.
func InnerCapital(s string) bool {
	lower := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			if lower {
				return true
			}
		}
	}
	return false
}
