package knowledge

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"
)

// checkDisagreements records on each KEP the claims documents make that the
// trusted record does not support: a stage put in another release than
// kep.yaml's, a KEP number that points at a KEP of another name, and one
// stage stated in two releases; behind are addShipped's stages kep.yaml
// dates where the code still declares the KEP's own gates below them.
// names maps source IDs to what answers call them.
func checkDisagreements(keps map[int]*KEP, gates map[string]int, names map[string]string, behind map[int][]Disagreement) {
	idents := identifierOwners(keps, gates)
	// at says which KEPs a document names at one line: a heading that names
	// two KEPs is not a wrong number for either.
	at := map[string]map[int]bool{}
	for _, kp := range keps {
		for _, m := range kp.History {
			key := fmt.Sprintf("%s:%d", m.Source, m.Line)
			if at[key] == nil {
				at[key] = map[int]bool{}
			}
			at[key][kp.Number] = true
		}
	}
	for _, kp := range keps {
		kp.Disagreements = nil
		misnamed := map[string]bool{} // source IDs whose number points elsewhere
		if kp.HasYAML() {
			for _, m := range kp.History {
				likely := likelyOther(kp, m, idents)
				if likely > 0 && !at[fmt.Sprintf("%s:%d", m.Source, m.Line)][likely] {
					misnamed[m.Source] = true
					kp.Disagreements = append(kp.Disagreements, Disagreement{
						Kind: DisagreeName, KEP: kp.Number, Source: m.Source, Release: m.Release, Stage: m.Stage,
						Claim:   fmt.Sprintf("%s calls KEP-%d %q", nameOf(names, m.Source), kp.Number, m.Title),
						Trusted: fmt.Sprintf("kep.yaml names KEP-%d %q; the note likely means KEP-%d", kp.Number, kp.Title, likely),
						Likely:  likely,
					})
				}
			}
			reached := kp.Reached()
			for _, m := range kp.History {
				if !m.Stage.IsGraduation() || m.Release.IsZero() || misnamed[m.Source] {
					continue
				}
				if v, ok := reached[m.Stage]; ok && v == m.Release {
					continue
				}
				kp.Disagreements = append(kp.Disagreements, Disagreement{
					Kind: DisagreeRelease, KEP: kp.Number, Source: m.Source, Release: m.Release, Stage: m.Stage,
					Claim:   fmt.Sprintf("%s says %s in %s", nameOf(names, m.Source), m.Stage.Label(), m.Release),
					Trusted: trustedWords(kp, m.Stage, reached),
				})
			}
			shippedDisagree(kp, behind[kp.Number])
		}
		stageTwice(kp, names, misnamed)
	}
}

// checkReleaseNotes records, on each KEP kep.yaml knows, where the
// release-note entries linked to it disagree with kep.yaml on a stage's
// release (see notesDisagree). It runs once the entries are joined.
func checkReleaseNotes(keps map[int]*KEP, names map[string]string) {
	for _, kp := range keps {
		if kp.HasYAML() {
			notesDisagree(kp, kp.Reached(), names)
		}
	}
}

// notesDisagree records where a release-note entry that links kp says it
// (or one of its feature gates) graduated to a stage in another release
// than kep.yaml's: "the 1.33 release notes (PR #130135) say beta in 1.33"
// against "kep.yaml: beta in 1.34". One disagreement per release and
// stage.
func notesDisagree(kp *KEP, reached map[Stage]Version, names map[string]string) {
	gates := map[string]bool{}
	for _, g := range kp.Gates() {
		gates[strings.ToLower(g)] = true
	}
	self := "KEP-" + fmt.Sprint(kp.Number)
	seen := map[[2]int]bool{}
	for _, ch := range kp.Changes {
		for _, e := range ch.Effects {
			if e.Action != EffectGraduated || !e.Stage.IsGraduation() {
				continue
			}
			// A gate's graduation is the KEP's only when the KEP has that one
			// gate: KEPs with several graduate them at their own pace.
			mine := (e.What == EffectEnhancement && e.Name == self) ||
				((e.What == EffectGate || e.What == EffectFeature) && len(gates) == 1 && gates[strings.ToLower(e.Name)])
			key := [2]int{int(e.Stage), ch.Release.Major<<16 | ch.Release.Minor}
			if !mine || seen[key] {
				continue
			}
			seen[key] = true
			if v, ok := reached[e.Stage]; ok && v == ch.Release {
				continue
			}
			kp.Disagreements = append(kp.Disagreements, Disagreement{
				Kind: DisagreeRelease, KEP: kp.Number, Source: ch.Source, Release: ch.Release, Stage: e.Stage,
				Claim:   fmt.Sprintf("%s (PR #%d) says %s in %s", nameOf(names, ch.Source), ch.PR, e.Stage.Label(), ch.Release),
				Trusted: trustedWords(kp, e.Stage, reached),
			})
		}
	}
}

// stageTwice records each stage documents put the KEP at in more than one
// release: GA for any KEP, and beta and alpha too when no kep.yaml knows
// it. The notes are then the only record, each release lists the KEP as its
// own note does, and the card says the notes disagree.
func stageTwice(kp *KEP, names map[string]string, misnamed map[string]bool) {
	for _, s := range GraduationStages {
		if s != StageStable && kp.HasYAML() {
			continue
		}
		first := map[Version]string{}
		for _, m := range kp.History {
			if m.Stage == s && !m.Release.IsZero() && !misnamed[m.Source] {
				if _, ok := first[m.Release]; !ok {
					first[m.Release] = m.Source
				}
			}
		}
		rels := twice(kp, s, first)
		if len(rels) < 2 {
			continue
		}
		sort.Slice(rels, func(i, j int) bool { return rels[i].Less(rels[j]) })
		said := make([]string, 0, len(rels))
		for i, v := range rels {
			also := ""
			if i > 0 {
				also = "also "
			}
			said = append(said, fmt.Sprintf("the %s %slists it as %s in %s", noteName(names, first[v]), also, s.Label(), v))
		}
		trusted := fmt.Sprintf("I count it %s from %s, and each release lists it as its note does", s.Label(), rels[0])
		if kp.HasYAML() {
			if v, ok := kp.Reached()[s]; ok {
				trusted = fmt.Sprintf("kep.yaml: %s in %s", s.Label(), v)
			} else {
				trusted = fmt.Sprintf("kep.yaml: %s not reached", s.Label())
			}
		}
		last := rels[len(rels)-1]
		kp.Disagreements = append(kp.Disagreements, Disagreement{
			Kind: DisagreeStageTwice, KEP: kp.Number, Source: first[last], Release: last, Stage: s,
			Claim:   strings.Join(said, "; "),
			Trusted: trusted,
		})
	}
}

// twice returns the releases that list kp at stage s, given as the
// releases in first, when more than one does. For a KEP no kep.yaml knows,
// a release counts only while the KEP stays at s: one that lists it at s
// again after it stepped back from s re-graduates, and is no second claim.
func twice(kp *KEP, s Stage, first map[Version]string) []Version {
	var rels []Version
	if kp.HasYAML() {
		for v := range first {
			rels = append(rels, v)
		}
		return rels
	}
	for _, st := range kp.NoteTimeline() {
		if st.Stage != s {
			continue
		}
		if _, ok := first[st.Release]; !ok {
			continue
		}
		if !st.Repeat && len(rels) > 0 {
			if len(rels) > 1 {
				return rels
			}
			rels = rels[:0] // stepped back and reached s again: start over
		}
		rels = append(rels, st.Release)
	}
	return rels
}

// noteName is a source's name as a sentence goes on after "the": "Kubernetes
// 1.30 release note (zh)".
func noteName(names map[string]string, id string) string {
	n := nameOf(names, id)
	return strings.TrimPrefix(strings.TrimPrefix(n, "the "), "The ")
}

// likelyOther returns the KEP a mention of kp most likely means: when one of
// the mention's identifiers (feature gates, CamelCase names in its title)
// belongs to exactly one other KEP, and the mention shares no word with kp's
// own name and gates. Else 0.
func likelyOther(kp *KEP, m Mention, idents map[string]map[int]bool) int {
	own := map[string]bool{}
	for _, w := range words(kp.Title) {
		own[w] = true
	}
	for _, g := range kp.FeatureGates {
		for _, w := range words(g) {
			own[w] = true
		}
	}
	for _, w := range words(m.Title) {
		if own[w] {
			return 0
		}
	}
	for _, w := range append(identifiers(m.Title), lowerAll(m.FeatureGates)...) {
		owners := idents[w]
		if len(owners) != 1 {
			continue
		}
		for n := range owners {
			if n != kp.Number {
				return n
			}
		}
	}
	return 0
}

// words returns the lower-case English words of s worth comparing: four
// letters or more, CamelCase split into its parts, common words left out.
func words(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r >= unicode.MaxASCII || !unicode.IsLetter(r) }) {
		start := 0
		for i := 1; i <= len(f); i++ {
			if i == len(f) || (unicode.IsUpper(rune(f[i])) && unicode.IsLower(rune(f[i-1]))) {
				w := strings.ToLower(f[start:i])
				if len(w) >= 4 && !commonWords[w] {
					out = append(out, w)
				}
				start = i
			}
		}
	}
	return out
}

var commonWords = map[string]bool{
	"kubernetes": true, "support": true, "feature": true, "with": true, "from": true, "into": true,
	"added": true, "adds": true, "allow": true, "enable": true, "new": true, "for": true, "the": true,
}

// identifierOwners maps each identifier (lower case) in kep.yaml titles and
// every feature gate to the KEPs that carry it.
func identifierOwners(keps map[int]*KEP, gates map[string]int) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	add := func(w string, n int) {
		if out[w] == nil {
			out[w] = map[int]bool{}
		}
		out[w][n] = true
	}
	for n, kp := range keps {
		if kp.HasYAML() {
			for _, w := range identifiers(kp.Title) {
				add(w, n)
			}
		}
	}
	for g, n := range gates {
		add(g, n)
	}
	return out
}

// identifiers returns the code-like words of s, lower case: CamelCase names
// such as ReadWriteOncePod, at least 8 letters long. Ordinary words and
// Chinese text give none.
func identifiers(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))) }) {
		if len(f) < 8 {
			continue
		}
		upper, lowerAfterUpper := 0, false
		for i, r := range f {
			if unicode.IsUpper(r) {
				upper++
			} else if upper > 0 && i > 0 {
				lowerAfterUpper = true
			}
		}
		if upper >= 2 && lowerAfterUpper && unicode.IsLower(rune(f[1])) {
			out = append(out, strings.ToLower(f))
		}
	}
	return out
}

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

func nameOf(names map[string]string, id string) string {
	if n := names[id]; n != "" {
		return n
	}
	return id
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// disagreementTitles is the order `bot check` lists disagreements in, with
// headings.
var disagreementTitles = []struct {
	kind  DisagreementKind
	title string
}{
	{DisagreeName, "A note's KEP number points at a KEP of another name"},
	{DisagreeRelease, "A note puts a stage in another release than the trusted record"},
	{DisagreeShipped, "kep.yaml dates a stage otherwise than what shipped"},
	{DisagreeStageTwice, "Listed at one stage in two releases"},
	{DisagreeGATwice, "Listed as GA in two releases (made by an older kepbot; ingest again)"},
}

// WriteDisagreements writes `bot check`'s report of every disagreement
// among keps, by kind, for the database at db: as text, or as JSON.
func WriteDisagreements(w io.Writer, keps []*KEP, db string, asJSON bool) {
	byKind := map[DisagreementKind][]Disagreement{}
	all := []Disagreement{}
	for _, kp := range keps {
		for _, d := range kp.Disagreements {
			byKind[d.Kind] = append(byKind[d.Kind], d)
			all = append(all, d)
		}
	}
	if asJSON {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	fmt.Fprintf(w, "%d disagreement(s) among the sources of %s (what shipped is trusted for stages, then kep.yaml; kep.yaml for names).\n", len(all), db)
	for _, k := range disagreementTitles {
		ds := byKind[k.kind]
		if len(ds) == 0 {
			continue
		}
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].KEP < ds[j].KEP })
		fmt.Fprintf(w, "\n%s (%s, %d):\n", k.title, k.kind, len(ds))
		for _, d := range ds {
			fmt.Fprintf(w, "  KEP-%d: %s; %s.\n", d.KEP, d.Claim, d.Trusted)
		}
	}
}
