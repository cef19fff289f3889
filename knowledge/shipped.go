package knowledge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// ShippedStage is one stage of a KEP as what shipped says it: the code of
// a release declaring one of the KEP's own feature gates at the stage, and
// the release-note entries that date it. kep.yaml's milestone is a plan;
// where it disagrees the answer says both.
type ShippedStage struct {
	Stage   Stage   `json:"stage"`
	Release Version `json:"release"`
	// Gate is the KEP's own gate the code of Release declares at Stage
	// (for GA, those that went GA in Release, when every own gate is GA:
	// "A, B"); "" when release notes alone date it.
	Gate string `json:"gate,omitempty"`
	// PRs are the release-note entries that date Stage in Release.
	PRs []int `json:"prs,omitempty"`
	// Sources are where it is read: the code's (feature-gates/1.30), the
	// notes' (release-notes/1.31).
	Sources []string `json:"sources,omitempty"`
}

// ShippedAt returns what shipped says of stage s of k.
func (k *KEP) ShippedAt(s Stage) (ShippedStage, bool) {
	for _, sh := range k.Shipped {
		if sh.Stage == s {
			return sh, true
		}
	}
	return ShippedStage{}, false
}

// ownGates maps each feature gate (lower case) that exactly one KEP's
// kep.yaml names (yamlGates: kep.yaml's gates by KEP, not the ones
// documents add) to that KEP: a gate several KEPs name
// (CPUManagerPolicyAlphaOptions) dates none of them.
func ownGates(yamlGates map[int][]string) map[string]int {
	by := map[string][]int{}
	for n, gs := range yamlGates {
		for _, g := range gs {
			k := strings.ToLower(g)
			if !slices.Contains(by[k], n) {
				by[k] = append(by[k], n)
			}
		}
	}
	out := map[string]int{}
	for g, ns := range by {
		if len(ns) == 1 {
			out[g] = ns[0]
		}
	}
	return out
}

// stageDate is one dating of a KEP's stage.
type stageDate struct {
	release Version
	gate    string // the code's: the own gate
	born    bool   // the code's: the gate was born at the stage (never declared lower)
	pr      int    // a note's
	source  string
}

// addShipped sets each kep.yaml KEP's Shipped stages (see decideStage):
// the code's date of alpha and beta (the first release from which one of
// its own gates is declared at it for good: a gate that stepped back to
// alpha reached beta only when it came back; a gate born at beta beside an
// own gate still alpha dates nothing, see siblingBelow) and of GA (the
// first release from which every own gate declared is GA: kepGA), and the
// release-note entries that date a stage where the code cannot speak (no
// own gate declared in that release: a gate renamed,
// UserNamespacesStatelessPodsSupport 1.25-1.27 before
// UserNamespacesSupport, or none yet). A gate several KEPs name, a gate
// born GA or deprecated (an off switch) and a policy-options gate
// (CPUManagerPolicyBetaOptions, whose stage is its options' level, not a
// KEP's) date nothing. behind are, by KEP, the beta and GA kep.yaml dates
// in a release whose code still declares its own gates below them
// (stageBehind).
func addShipped(keps map[int]*KEP, yamlGates map[int][]string, gates []FeatureGate, reads []GatesRead, changes []Change) (behind map[int][]Disagreement) {
	own := ownGates(yamlGates)
	byKEP := map[int][]*FeatureGate{}
	for i := range gates {
		g := &gates[i]
		n, ok := own[strings.ToLower(g.Name)]
		if !ok || !datesStages(g, gates, reads) {
			continue
		}
		byKEP[n] = append(byKEP[n], g)
	}
	dates := map[int]map[Stage][]stageDate{}
	add := func(n int, s Stage, d stageDate) {
		if dates[n] == nil {
			dates[n] = map[Stage][]stageDate{}
		}
		dates[n][s] = append(dates[n][s], d)
	}
	for n, gs := range byKEP {
		for _, g := range gs {
			codeDates(g, reads, func(s Stage, d stageDate) {
				if d.born && siblingBelow(gs, g, d.release, s) {
					return // a part of the work born at s, beside a gate still below it
				}
				add(n, s, d)
			})
		}
		if d, ok := kepGA(gs, reads); ok {
			add(n, StageStable, d)
		}
	}
	noteDates(changes, own, keps, add)
	for n, byStage := range dates {
		kp := keps[n]
		kp.Shipped = nil
		for _, s := range GraduationStages {
			if sh, ok := decideStage(kp, s, byStage[s], byKEP[n]); ok {
				kp.Shipped = append(kp.Shipped, sh)
			}
		}
		inOrder(kp, byStage)
	}
	behind = map[int][]Disagreement{}
	for n, gs := range byKEP {
		for _, s := range []Stage{StageBeta, StageStable} {
			if d, ok := stageBehind(keps[n], s, gs, reads, dates[n][s]); ok {
				behind[n] = append(behind[n], d)
			}
		}
	}
	return behind
}

// inOrder drops a shipped date that puts a stage out of order with the
// KEP's other stages (beta before alpha): a gate born at a stage
// (ServiceAccountNodeAudienceRestriction, born beta in 1.32, for a KEP alpha
// in 1.33) or at a lower stage after the KEP was past it (an auxiliary gate
// born alpha in 1.26 for a KEP beta since 1.24) dates a part of the work,
// not the KEP. kep.yaml then dates the stage, or nothing does.
func inOrder(kp *KEP, byStage map[Stage][]stageDate) {
	for changed := true; changed; {
		changed = false
		reached := kp.Reached()
		for i, sh := range kp.Shipped {
			bad := false
			born := bornAt(byStage[sh.Stage], sh.Release)
			for s, v := range reached {
				_, shippedToo := kp.ShippedAt(s)
				otherBorn := shippedToo && bornAt(byStage[s], v)
				switch {
				case s < sh.Stage && born && (sh.Release.Less(v) || sh.Release == v && kp.Stage < sh.Stage):
					bad = true // a born gate dates it before a lower stage, or with it where kep.yaml has it lower
				case s > sh.Stage && v.Less(sh.Release):
					bad = true // dated after a higher stage
				case s > sh.Stage && v == sh.Release && born && !otherBorn:
					bad = true // with a higher stage dated otherwise, by a gate born at the lower one
				}
			}
			if bad {
				kp.Shipped = slices.Delete(kp.Shipped, i, i+1)
				changed = true
				break
			}
		}
	}
}

// bornAt reports whether the datings of release v are only the code's of
// gates born at the stage.
func bornAt(ds []stageDate, v Version) bool {
	any := false
	for _, d := range ds {
		if d.release != v {
			continue
		}
		if !d.born {
			return false
		}
		any = true
	}
	return any
}

// datesStages reports whether g's stages may date its KEP's: a components'
// gate (or kubeadm's where no components' gate has its name), declared
// somewhere, not born GA or deprecated after the oldest release read, not
// a policy-options gate.
func datesStages(g *FeatureGate, gates []FeatureGate, reads []GatesRead) bool {
	if len(g.Releases) == 0 || len(reads) == 0 {
		return false
	}
	if g.Kubeadm && hasComponentGate(gates, g.Name) {
		return false // the components' gate of that name is the KEP's
	}
	if strings.HasSuffix(g.Name, "AlphaOptions") || strings.HasSuffix(g.Name, "BetaOptions") {
		return false
	}
	first := g.Releases[0]
	return first.Release == reads[0].Release || (first.Stage != GateGA && first.Stage != GateDeprecated)
}

// codeDates dates alpha and beta by gate g: the first release from
// which it is declared at that stage and never below it after (deprecated
// declarations aside). GA is dated for the KEP as a whole (kepGA). A stage it was at already in the oldest release
// read is not dated: since when is not known.
func codeDates(g *FeatureGate, reads []GatesRead, add func(Stage, stageDate)) {
	var ds []GateRelease
	for _, r := range g.Releases {
		if r.Stage != GateDeprecated {
			ds = append(ds, r)
		}
	}
	oldest := reads[0].Release
	for _, st := range []GateStage{GateAlpha, GateBeta} { // GA is the KEP's: kepGA
		at := -1
		for i := len(ds) - 1; i >= 0 && ds[i].Stage.Rank() >= st.Rank(); i-- {
			if ds[i].Stage == st {
				at = i
			}
		}
		if at < 0 || ds[at].Release == oldest {
			continue
		}
		born := ds[0].Stage == st && at == 0
		add(st.Stage(), stageDate{release: ds[at].Release, gate: g.Spelling(ds[at]), born: born, source: gateSource(reads, ds[at].Release)})
	}
}

func hasComponentGate(gates []FeatureGate, name string) bool {
	for i := range gates {
		if !gates[i].Kubeadm && strings.EqualFold(gates[i].Name, name) {
			return true
		}
	}
	return false
}

// gateSource is the first source of the gates read of release v.
func gateSource(reads []GatesRead, v Version) string {
	for _, r := range reads {
		if r.Release == v && len(r.Sources) > 0 {
			return r.Sources[0]
		}
	}
	return ""
}

// Spelling is the name release r of g gives it.
func (g *FeatureGate) Spelling(r GateRelease) string {
	if r.Spelling != "" {
		return r.Spelling
	}
	return g.Name
}

// The words of a release-note entry that date a stage: "… `X` feature
// gate graduated to beta in 1.30", "Promoted X to Stable in v1.33" (the
// release named, unless "or earlier" follows), "Added alpha support …"
// (the entry's own release).
var (
	datedStageRe  = lazyre.New(`(?i)\b(?:graduated|promoted|moved|went)\b([^.;]{0,80}?)\bto\s+(alpha|beta|ga|stable|general availability)\s+in\s+v?(1\.\d{1,3})\b(\s+or\s+earlier)?`)
	addedStageRe  = lazyre.New(`(?i)\badded\s+(alpha|beta)\s+support\b`)
	stageOfPhrase = map[string]Stage{"alpha": StageAlpha, "beta": StageBeta, "ga": StageStable, "stable": StageStable, "general availability": StageStable}
)

// noteDates dates stages from the release notes as data: an entry's typed
// change "graduated to S" of the KEP (EffectEnhancement) or of one of its
// own gates dates S in the entry's release; its words "X graduated to S in
// 1.N" or "Promoted X to S in 1.N" date S in 1.N for the own gates X names
// (see subjectGates), and "Added alpha support" in an entry linking the
// KEP dates alpha in the entry's release.
func noteDates(changes []Change, own map[string]int, keps map[int]*KEP, add func(int, Stage, stageDate)) {
	for _, ch := range changes {
		if ch.Release.IsZero() || ch.PR <= 0 {
			continue
		}
		for _, e := range ch.Effects {
			if e.Action != EffectGraduated || !e.Stage.IsGraduation() {
				continue
			}
			n := 0
			switch e.What {
			case EffectEnhancement:
				fmt.Sscanf(e.Name, "KEP-%d", &n)
			case EffectGate, EffectFeature:
				n = own[strings.ToLower(e.Name)]
			}
			if kp := keps[n]; kp != nil && kp.HasYAML() {
				add(n, e.Stage, stageDate{release: ch.Release, pr: ch.PR, source: ch.Source})
			}
		}
		if ch.Text == "" {
			continue
		}
		for _, sent := range strings.Split(ch.Text, "\n") {
			for _, m := range datedStageRe().FindAllStringSubmatchIndex(sent, -1) {
				if m[8] >= 0 { // "or earlier": no date
					continue
				}
				v, err := ParseVersion(sent[m[6]:m[7]])
				if err != nil {
					continue
				}
				s := stageOfPhrase[strings.ToLower(sent[m[4]:m[5]])]
				names := append(subjectGates(sent[:m[0]], own), wordsIn(sent[m[2]:m[3]], own)...)
				for _, g := range names {
					add(own[strings.ToLower(g)], s, stageDate{release: v, pr: ch.PR, source: ch.Source})
				}
			}
		}
		if m := addedStageRe().FindStringSubmatch(ch.Text); m != nil {
			for _, n := range ch.KEPs {
				if kp := keps[n]; kp != nil && kp.HasYAML() {
					add(n, stageOfPhrase[strings.ToLower(m[1])], stageDate{release: ch.Release, pr: ch.PR, source: ch.Source})
				}
			}
		}
	}
}

// gateFiller are the words that may stand between gates a sentence lists
// and the verb that dates them: "`A`, `B` and `C` feature gates that
// graduated", "`X` feature gate (for the feature which graduated".
var gateFiller = map[string]bool{"feature": true, "gate": true, "gates": true, "featuregate": true, "feature-gate": true, "that": true, "which": true,
	"has": true, "have": true, "was": true, "were": true, "is": true, "are": true, "been": true, "and": true, "or": true, "the": true, "for": true}

// subjectGates are the own gates written right before the verb that
// dates them, with nothing but gateFiller between: the subject of "X
// graduated to beta in 1.30", never a gate earlier in the sentence that
// something else is said of.
func subjectGates(prefix string, own map[string]int) []string {
	var out []string
	rest := prefix
	for {
		words := tokens(rest)
		i := len(words) - 1
		for i >= 0 && gateFiller[strings.ToLower(words[i])] {
			i--
		}
		if i < 0 {
			return out
		}
		if _, ok := own[strings.ToLower(words[i])]; !ok {
			return out
		}
		out = append(out, words[i])
		rest = rest[:strings.LastIndex(rest, words[i])]
	}
}

// wordsIn are the own gates s names as words (in backticks or not).
func wordsIn(s string, own map[string]int) []string {
	var out []string
	for _, w := range tokens(s) {
		if _, ok := own[strings.ToLower(w)]; ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// tokens splits s into words of letters, digits, _ and -, dropping
// backticks, commas and brackets.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
}

// decideStage is the shipped date of stage s of kp: the earliest of the
// code's date and the notes' dates where the code cannot speak (no own gate
// declared in their release). kep.yaml's milestone, when kep.yaml has
// reached s and its release is out, stands where it is earlier: the code
// shows a stage reached by a release, never that it was not reached
// before (by another gate, or with none), and the answer then goes by
// kep.yaml. Every dating of the chosen release is its evidence, a note
// that agrees with the code included.
func decideStage(kp *KEP, s Stage, ds []stageDate, gates []*FeatureGate) (ShippedStage, bool) {
	var result Version
	for _, d := range ds {
		if d.pr > 0 && codeSpeaks(gates, d.release) {
			continue
		}
		if result.IsZero() || d.release.Less(result) {
			result = d.release
		}
	}
	if result.IsZero() {
		return ShippedStage{}, false
	}
	if y := kp.Milestones[s.String()]; !y.IsZero() && y.Less(result) && kp.yamlReaches(s) {
		return ShippedStage{}, false // kep.yaml's earlier date stands
	}
	sh := ShippedStage{Stage: s, Release: result}
	for _, d := range ds {
		if d.release != result {
			continue
		}
		if d.gate != "" && sh.Gate == "" {
			sh.Gate = d.gate
		}
		if d.pr > 0 && !slices.Contains(sh.PRs, d.pr) {
			sh.PRs = append(sh.PRs, d.pr)
		}
		if d.source != "" && !slices.Contains(sh.Sources, d.source) {
			sh.Sources = append(sh.Sources, d.source)
		}
	}
	slices.Sort(sh.PRs)
	return sh, true
}

// codeSpeaks reports whether the code of release v declares one of gates.
func codeSpeaks(gates []*FeatureGate, v Version) bool {
	for _, g := range gates {
		if _, ok := g.At(v); ok {
			return true
		}
	}
	return false
}

// yamlReaches reports whether kep.yaml alone has k reach stage s: k is
// approved, its stage is s or later, and its milestone for s is a release
// that is out.
func (k *KEP) yamlReaches(s Stage) bool {
	v := k.Milestones[s.String()]
	return k.HasYAML() && !k.Provisional() && !v.IsZero() && s.Reached(k.yamlStage()) && !k.afterOut(v)
}

// yamlThrough is the newest release whose day (its support record's
// release day, or its tag's, the day its code's gates are dated by) is not
// after the day of the corpus's kep.yaml: a milestone after it was a plan
// when kep.yaml was written. Zero when kep.yaml or the days are not known.
func yamlThrough(c *Corpus) Version {
	asOf := ""
	days := map[Version]string{}
	for _, s := range c.Sources {
		if s.Kind == SourceKEPYAML && s.AsOf > asOf {
			asOf = s.AsOf
		}
	}
	byID := map[string]string{}
	for _, s := range c.Sources {
		byID[s.ID] = s.AsOf
	}
	for _, l := range c.Lifecycles {
		if l.Released != "" {
			days[l.Release] = l.Released
		}
	}
	for _, t := range c.GateTables {
		if d := byID[t.Source]; d != "" && days[t.Release] == "" {
			days[t.Release] = d
		}
	}
	if asOf == "" || len(days) == 0 {
		return Version{}
	}
	var out Version
	for v, d := range days {
		if d <= asOf && out.Less(v) {
			out = v
		}
	}
	return out
}

// DisagreeShipped: kep.yaml dates a stage otherwise than what shipped (the
// code's gates, the release notes), or plans a stage that shipped.
const DisagreeShipped DisagreementKind = "stage_shipped"

// Evidence says what dates sh: "the code of 1.30 (UserNamespacesSupport)
// and PR #124997", "PR #130135".
func (sh ShippedStage) Evidence() string {
	var parts []string
	if sh.Gate != "" {
		parts = append(parts, fmt.Sprintf("the code of %s (%s)", sh.Release, sh.Gate))
	}
	var prs []string
	for _, pr := range sh.PRs {
		prs = append(prs, fmt.Sprintf("PR #%d", pr))
	}
	if len(prs) > 0 {
		parts = append(parts, strings.Join(prs, ", "))
	}
	return strings.Join(parts, " and ")
}

// shippedDisagree records where kep.yaml's milestone of a stage is not the
// release what shipped dates it in: "kep.yaml says beta in 1.35" against
// "beta in 1.30 by the code of 1.30 (UserNamespacesSupport)".
func shippedDisagree(kp *KEP, behind []Disagreement) {
	for _, sh := range kp.Shipped {
		planned := kp.Milestones[sh.Stage.String()]
		if planned == sh.Release || planned.IsZero() {
			continue // agreed, or nothing to disagree with
		}
		claim := fmt.Sprintf("kep.yaml says %s in %s", sh.Stage.Label(), planned)
		switch {
		case !kp.Released.IsZero() && kp.Released.Less(planned):
			claim = fmt.Sprintf("kep.yaml plans %s for %s", sh.Stage.Label(), planned)
		case !kp.yamlReaches(sh.Stage):
			claim = fmt.Sprintf("kep.yaml planned %s for %s (its stage is %s)", sh.Stage.Label(), planned, orNone(kp.Stage.Label()))
		}
		kp.Disagreements = append(kp.Disagreements, Disagreement{
			Kind: DisagreeShipped, KEP: kp.Number, Source: kp.Source, Release: planned, Stage: sh.Stage,
			Claim:   claim,
			Trusted: fmt.Sprintf("%s in %s by %s", sh.Stage.Label(), sh.Release, sh.Evidence()),
		})
	}
	kp.Disagreements = append(kp.Disagreements, behind...)
}

// trustedWords says what the trusted record says of stage s of kp, for a
// disagreement: "shipped: beta in 1.30 (the code of 1.30 (X))", "kep.yaml:
// beta in 1.34", or that it is not reached.
func trustedWords(kp *KEP, s Stage, reached map[Stage]Version) string {
	if sh, ok := kp.ShippedAt(s); ok {
		return fmt.Sprintf("shipped: %s in %s (%s)", s.Label(), sh.Release, sh.Evidence())
	}
	if v, ok := reached[s]; ok {
		return fmt.Sprintf("kep.yaml: %s in %s", s.Label(), v)
	}
	t := fmt.Sprintf("kep.yaml: %s not reached (stage %s)", s.Label(), orNone(kp.Stage.Label()))
	if p := kp.Milestones[s.String()]; !p.IsZero() {
		t += fmt.Sprintf(", planned for %s", p)
	}
	return t
}
