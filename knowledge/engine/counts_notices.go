package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// One change told by several documents is one notice with several
// sources: the removal of an API version the release notes, the
// announcement, the Chinese notes and the deprecation guide all tell is
// one item of `1.32 removals`, and counts once. Every list, count and
// diff of a release's notices is made from groupNotices, so the release
// card, `1.32 removals`, `1.32 action required` and `upgrade` agree.

// toldNotices are a release's notices, each thing told once, and the
// sources that tell each (Source IDs, the shown one's first).
type toldNotices struct {
	notices []knowledge.Notice
	told    [][]string
}

// groupNotices keeps one notice per thing told, in first-told order:
//
//   - per kind and API group/version (the kinds of all its notices);
//   - per kind and release-note entry (its PR);
//   - a document's notice goes with the release-note entry of its kind
//     and release titled alike (the snapshot titles both from their typed
//     changes), else with the one that names more of its feature gates
//     than any other, else with the one whose title names the code names
//     its title names ("--keep-terminated-pod-volumes");
//     else, when it names a KEP (not found through a gate), with the one
//     entry of its kind linking that KEP; else per kind and KEP;
//   - otherwise per kind and title.
//
// The notice shown is the deprecation guide's, else a release-note
// entry's, else an English document's; it takes from the others what it
// lacks: the entry's PR, link and SIGs, action required, the feature
// gates, the API's kinds and replacement. ns is not changed.
func groupNotices(ns []knowledge.Notice, sources map[string]knowledge.Source) toldNotices {
	pref := func(n knowledge.Notice) int {
		s := sources[n.Source]
		switch {
		case s.Kind == knowledge.SourceDeprecationGuide:
			return 0
		case n.PR > 0:
			return 1
		case s.Lang == "en":
			return 2
		}
		return 3
	}
	entryOf := map[string]int{} // kind|KEP → PR of the one entry linking it, -1 for several
	for _, n := range ns {
		if n.PR > 0 && n.KEP > 0 && n.KEPVia == "" {
			k := fmt.Sprintf("%s|%d", n.Kind, n.KEP)
			if pr, ok := entryOf[k]; ok && pr != n.PR {
				entryOf[k] = -1
			} else {
				entryOf[k] = n.PR
			}
		}
	}
	// byTitle is the entry of a kind titled so (lower case), when one is:
	// a document's notice the snapshot titled from its typed changes
	// ("Removed the CephFS volume plugin") is the entry titled alike.
	byTitle := map[string]int{}
	for _, n := range ns {
		if n.PR > 0 {
			k := string(n.Kind) + "|" + strings.ToLower(n.Title)
			if pr, ok := byTitle[k]; ok && pr != n.PR {
				byTitle[k] = -1
			} else {
				byTitle[k] = n.PR
			}
		}
	}
	// byName is the entry of a kind whose title names a code name
	// ("--keep-terminated-pod-volumes", "CephFS") a document's title
	// names too (else its words), when its names lead to one entry only,
	// or to one whose owner ("of kube-apiserver") the document names
	// ("--master-service-namespace" is kube-apiserver's and kubelet's).
	nameOf := map[string][]knowledge.Notice{}
	for _, n := range ns {
		if n.PR > 0 {
			for _, w := range codeNames(n.Title) {
				k := string(n.Kind) + "|" + w
				if !slices.ContainsFunc(nameOf[k], func(o knowledge.Notice) bool { return o.PR == n.PR }) {
					nameOf[k] = append(nameOf[k], n)
				}
			}
		}
	}
	byName := func(d knowledge.Notice) int {
		names := codeNames(d.Title)
		if len(names) == 0 {
			names = codeNames(d.Text)
		}
		var cands []knowledge.Notice
		for _, w := range names {
			for _, n := range nameOf[string(d.Kind)+"|"+w] {
				if !slices.ContainsFunc(cands, func(o knowledge.Notice) bool { return o.PR == n.PR }) {
					cands = append(cands, n)
				}
			}
		}
		if len(cands) > 1 {
			words := strings.ToLower(d.Title + " " + d.Text)
			var owned []knowledge.Notice
			for _, n := range cands {
				if o := titleOwner(n.Title); o != "" && strings.Contains(words, o) {
					owned = append(owned, n)
				}
			}
			cands = owned
		}
		if len(cands) != 1 {
			return 0
		}
		return cands[0].PR
	}
	// byLink is the entry of a kind whose pull request a document's notice
	// links to ("[Removal of support for deprecated seccomp annotations]
	// (…/pull/114947)").
	entryPR := map[string]bool{}
	for _, n := range ns {
		if n.PR > 0 {
			entryPR[fmt.Sprintf("%s|%d", n.Kind, n.PR)] = true
		}
	}
	byLink := func(d knowledge.Notice) int {
		if pr := prOfURL(d.URL); d.PR == 0 && pr > 0 && entryPR[fmt.Sprintf("%s|%d", d.Kind, pr)] {
			return pr
		}
		return 0
	}
	// byGates is the entry a document's notice shares the most feature
	// gates with, of its kind, when one shares more than any other.
	byGates := func(d knowledge.Notice) int {
		best, most, tie := 0, 0, false
		gates := d.FeatureGates
		if len(gates) == 0 {
			gates = squashedNames(d.Title) // "the `CSI Migration` feature gate"
		}
		for _, n := range ns {
			if n.PR == 0 || n.Kind != d.Kind {
				continue
			}
			shared := 0
			for _, g := range gates {
				if slices.ContainsFunc(n.FeatureGates, func(x string) bool { return strings.EqualFold(x, g) }) {
					shared++
				}
			}
			switch {
			case shared > most:
				best, most, tie = n.PR, shared, false
			case shared == most && shared > 0 && n.PR != best:
				tie = true
			}
		}
		if tie {
			return 0
		}
		return best
	}
	// apiOfPR is the API group/version a notice (the API table's, a
	// document's) cites a release-note entry for: the entry is that API's.
	apiOfPR := map[string]string{}
	for _, n := range ns {
		if n.API != nil && n.API.GroupVersion != "" && n.PR > 0 {
			apiOfPR[fmt.Sprintf("%s|%d", n.Kind, n.PR)] = strings.ToLower(n.API.GroupVersion)
		}
	}
	key := func(n knowledge.Notice) string {
		switch {
		case n.API != nil && n.API.GroupVersion != "":
			return fmt.Sprintf("%s|api|%s", n.Kind, strings.ToLower(n.API.GroupVersion))
		case n.PR > 0 && apiOfPR[fmt.Sprintf("%s|%d", n.Kind, n.PR)] != "":
			return fmt.Sprintf("%s|api|%s", n.Kind, apiOfPR[fmt.Sprintf("%s|%d", n.Kind, n.PR)])
		case n.PR > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, n.PR)
		case byLink(n) > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, byLink(n))
		case byTitle[string(n.Kind)+"|"+strings.ToLower(n.Title)] > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, byTitle[string(n.Kind)+"|"+strings.ToLower(n.Title)])
		case byGates(n) > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, byGates(n))
		case n.API == nil && byName(n) > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, byName(n))
		case n.KEP > 0 && n.KEPVia == "" && entryOf[fmt.Sprintf("%s|%d", n.Kind, n.KEP)] > 0:
			return fmt.Sprintf("%s|pr|%d", n.Kind, entryOf[fmt.Sprintf("%s|%d", n.Kind, n.KEP)])
		case n.KEP > 0:
			return fmt.Sprintf("%s|kep|%d", n.Kind, n.KEP)
		}
		return titleKey(n)
	}
	// Documents that title a notice alike tell one thing: one tied to an
	// entry ties the others ("Removal of `--master-service-namespace`
	// command line argument", in the post before the release and in its
	// announcement).
	keys := make([]string, len(ns))
	sameTitle := map[string]string{}
	for i, n := range ns {
		keys[i] = key(n)
		if t := titleKey(n); n.PR == 0 && !strings.HasPrefix(keys[i], string(n.Kind)+"|title|") {
			if _, ok := sameTitle[t]; !ok {
				sameTitle[t] = keys[i]
			}
		}
	}
	var out toldNotices
	at := map[string]int{}
	// A document's paragraph is one notice, however many KEPs it names
	// ("KEP-3063/KEP-4381 DRA …" is one upgrade note, not two).
	place := map[string]string{}
	for i, n := range ns {
		k := keys[i]
		if k2, ok := sameTitle[titleKey(n)]; ok && k == titleKey(n) {
			k = k2
		}
		if n.PR == 0 && n.Line > 0 {
			p := fmt.Sprintf("%s|%s#%d", n.Kind, n.Source, n.Line)
			if first, ok := place[p]; ok {
				k = first
			} else {
				place[p] = k
			}
		}
		i, dup := at[k]
		if !dup {
			at[k] = len(out.notices)
			if n.API != nil {
				api := *n.API
				api.Kinds = append([]string(nil), api.Kinds...)
				api.ReplacedFor = append([]string(nil), api.ReplacedFor...)
				n.API = &api
			}
			n.FeatureGates = append([]string(nil), n.FeatureGates...)
			out.notices = append(out.notices, n)
			out.told = append(out.told, []string{n.Source})
			continue
		}
		kept := &out.notices[i]
		out.told[i] = prose.AddNames(out.told[i], []string{n.Source})
		if pref(n) < pref(*kept) {
			other := *kept
			*kept = n
			if kept.API != nil {
				api := *kept.API
				api.Kinds = append([]string(nil), api.Kinds...)
				api.ReplacedFor = append([]string(nil), api.ReplacedFor...)
				kept.API = &api
			}
			kept.FeatureGates = append([]string(nil), kept.FeatureGates...)
			out.told[i] = append([]string{n.Source}, without(out.told[i], n.Source)...)
			fillNotice(kept, other)
		} else {
			fillNotice(kept, n)
		}
	}
	return out
}

// fillNotice gives kept, the notice shown for a thing, what the other
// notice of it knows and it does not.
func fillNotice(kept *knowledge.Notice, other knowledge.Notice) {
	if kept.PR == 0 && other.PR > 0 {
		kept.PR, kept.URL, kept.SIGs = other.PR, other.URL, other.SIGs
	}
	if kept.KEP == 0 && other.KEP > 0 {
		kept.KEP, kept.KEPVia = other.KEP, other.KEPVia
	}
	kept.Action = kept.Action || other.Action
	switch {
	case kept.LabelOnly() && other.Kind == kept.Kind && other.Label == "":
		kept.Label = "" // another document reads it as what upstream labelled it
	case kept.Label == "" && other.Label != "" && !other.LabelOnly() && other.Label != kept.Kind:
		kept.Label = other.Label // the guide's removal of an API the notes label deprecation
	}
	kept.FeatureGates = prose.AddNames(kept.FeatureGates, other.FeatureGates)
	switch {
	case kept.API != nil && other.API != nil:
		kept.API.Join(other.API)
	case kept.API == nil && other.API != nil:
		api := *other.API // the entry the API table cites is that API's removal
		api.Kinds = append([]string(nil), api.Kinds...)
		api.ReplacedFor = append([]string(nil), api.ReplacedFor...)
		kept.API = &api
	}
}

// without returns ss without s.
func without(ss []string, s string) []string {
	var out []string
	for _, x := range ss {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// ofKindTold is ofKind over grouped notices, with the sources of each.
func (t toldNotices) ofKind(kind knowledge.NoticeKind) toldNotices {
	var out toldNotices
	for i, n := range t.notices {
		if n.Lists(kind) {
			out.notices = append(out.notices, n)
			out.told = append(out.told, t.told[i])
		}
	}
	return out
}

// noticeCounts are a release's notices counted once each, by the lists
// that show them: `deprecations`, `removals`, `action required` (upgrade
// notes and every notice marked action required).
type noticeCounts struct {
	Deprecations, Removals, Upgrades int
}

// count counts t as the lists do.
func (t toldNotices) count() noticeCounts {
	var c noticeCounts
	for _, n := range t.notices {
		if n.Lists(knowledge.NoticeDeprecation) {
			c.Deprecations++
		}
		if n.Lists(knowledge.NoticeRemoval) {
			c.Removals++
		}
		if n.Lists(knowledge.NoticeUpgrade) {
			c.Upgrades++
		}
	}
	return c
}

// of is the count of the list of kind.
func (c noticeCounts) of(kind knowledge.NoticeKind) int {
	switch kind {
	case knowledge.NoticeDeprecation:
		return c.Deprecations
	case knowledge.NoticeRemoval:
		return c.Removals
	case knowledge.NoticeUpgrade:
		return c.Upgrades
	}
	return 0
}

// maxToldNotes is how many "told by" notes a list carries before "and N more".
const maxToldNotes = 4

// toldNotes says, for each notice several sources tell, which: "Removed
// in 1.32: flowcontrol.apiserver.k8s.io/v1beta3 (FlowSchema, …) is one
// change told by 5 sources, shown once: …".
func toldNotes(t toldNotices, sources map[string]knowledge.Source) []string {
	var out []string
	more := 0
	for i, n := range t.notices {
		if len(t.told[i]) < 2 {
			continue
		}
		if len(out) == maxToldNotes {
			more++
			continue
		}
		var names []string
		for _, id := range t.told[i] {
			name := id
			if s, ok := sources[id]; ok {
				name = knowledge.SourceName(s)
			}
			names = append(names, name)
		}
		what := prose.ClipRunes(n.Title, 70)
		if n.API != nil {
			what = n.API.GroupVersion
		}
		out = append(out, fmt.Sprintf("%s in %s: %s is one change told by %d sources, shown once: %s.",
			n.Kind.Label(), n.Release, what, len(names), strings.Join(names, "; ")))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("And %d more told by several sources.", more))
	}
	return out
}

// codeNames are the words of a title written like code: a flag
// ("--x"), a name with a capital inside (CephFS, EtcdLearnerMode), a
// snake_case metric, a group/version. Other words say too little to tie
// two documents together.
func codeNames(title string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if strings.HasPrefix(w, "--") && len(w) > 4 {
			out = append(out, strings.TrimRight(w, ".-/"))
			continue
		}
		w = strings.Trim(w, ".-/")
		switch {
		case len(w) < 4:
		case strings.Count(w, "_") > 0 && strings.ToLower(w) == w:
			out = append(out, w)
		case strings.Contains(w, "/") && strings.Contains(w, "."):
			out = append(out, strings.ToLower(w))
		case prose.LooksGate(w) && knowledge.InnerCapital(w):
			out = append(out, w)
		}
	}
	return out
}

// titleOwner is the program an entry's title gives what it acts on to:
// "kube-apiserver" of "Removed the flag --x of kube-apiserver"; "" when
// it names none.
func titleOwner(title string) string {
	i := strings.LastIndex(title, " of ")
	if i < 0 {
		return ""
	}
	o := title[i+len(" of "):]
	if j := strings.IndexAny(o, " (;"); j >= 0 {
		o = o[:j]
	}
	return strings.ToLower(o)
}

// prOfURL is the kubernetes/kubernetes pull request a link names, or 0.
func prOfURL(u string) int {
	const prefix = "github.com/kubernetes/kubernetes/pull/"
	i := strings.Index(u, prefix)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range u[i+len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// squashedNames are the code names a title writes as words: capitalised
// words next to each other joined ("CSI Migration" is CSIMigration).
func squashedNames(title string) []string {
	var out []string
	run, words := "", 0
	flush := func() {
		if words > 1 {
			out = append(out, run)
		}
		run, words = "", 0
	}
	for _, w := range strings.Fields(strings.NewReplacer("`", " ", "\"", " ").Replace(title)) {
		if w[0] >= 'A' && w[0] <= 'Z' && words < 4 {
			run += w
			words++
			continue
		}
		flush()
	}
	flush()
	return out
}

// titleKey is the key of a notice known by its title alone: its kind and
// its title's words, in lower case, without markup.
func titleKey(n knowledge.Notice) string {
	t := strings.NewReplacer("`", "", "*", "").Replace(n.Title)
	return fmt.Sprintf("%s|title|%s", n.Kind, strings.ToLower(strings.Join(strings.Fields(t), " ")))
}
