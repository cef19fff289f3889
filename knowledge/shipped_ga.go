package knowledge

import (
	"fmt"
	"slices"
	"strings"
)

// A KEP with several own gates is GA when the enhancement is done, not when
// its first gate is: KEP-2799's LegacyServiceAccountTokenNoAutoGeneration
// went GA in 1.26, its LegacyServiceAccountTokenTracking in 1.28 and its
// LegacyServiceAccountTokenCleanUp (born alpha in 1.28) in 1.30, the
// release kep.yaml and the 1.30 release post give. Alpha and beta stay
// "the first own gate at the stage": KEP-127 went beta with
// UserNamespacesSupport in 1.30 while UserNamespacesPodSecurityStandards,
// an add-on born in 1.29, stayed alpha until it was removed.

// gaState is what the code of one release says of one own gate, for GA.
type gaState int

const (
	gaAbsent gaState = iota // not declared
	gaBelow                 // declared alpha or beta (or deprecated before it was ever GA)
	gaDone                  // declared GA, or deprecated after it was GA
)

// gaStateAt is what the code of release v says of g.
func gaStateAt(g *FeatureGate, v Version) gaState {
	d, ok := g.At(v)
	switch {
	case !ok:
		return gaAbsent
	case d.Stage == GateGA:
		return gaDone
	case d.Stage == GateDeprecated && !g.First(GateGA).IsZero() && g.First(GateGA).Less(v):
		return gaDone
	}
	return gaBelow
}

// gaCounts are the own gates (each dating stages, see datesStages) whose
// stages say whether the KEP is done: every one but a gate that never
// reaches GA in the code read and is no longer worked on (not declared in
// the newest release read, or deprecated there): an opt-in switch that left
// with what it switched (InTreePluginAWSUnregister, alpha 1.21-1.30, for
// KEP-1487, GA in 1.25), an add-on retired before it graduated
// (UserNamespacesPodSecurityStandards, alpha 1.29-1.34). A gate still
// alpha or beta in the newest release read is work left, and counts.
func gaCounts(gs []*FeatureGate, reads []GatesRead) []*FeatureGate {
	newest := reads[len(reads)-1].Release
	var out []*FeatureGate
	for _, g := range gs {
		if !g.First(GateGA).IsZero() {
			out = append(out, g)
			continue
		}
		if d, ok := g.At(newest); ok && d.Stage != GateDeprecated {
			out = append(out, g)
		}
	}
	return out
}

// kepGA dates a KEP's GA by its own gates gs: the first release from which,
// in it and in every release read after it, every own gate that counts (see
// gaCounts) and that the release declares is GA, and one is. A gate not
// declared yet, or removed already, does not count in that release; a gate
// born alpha after the others went GA puts GA off until it is GA too (the
// enhancement is not done while part of it is alpha: a kep.yaml that dates
// GA earlier stands, see decideStage, and the card says both). A KEP whose
// gates are all GA in the oldest release read is not dated: since when is
// not known. The gates named are those that went GA in that release (the
// last part done).
func kepGA(gs []*FeatureGate, reads []GatesRead) (stageDate, bool) {
	if len(reads) == 0 {
		return stageDate{}, false
	}
	counts := gaCounts(gs, reads)
	if len(counts) == 0 {
		return stageDate{}, false
	}
	lastBelow := -1
	done := make([]bool, len(reads))
	for i, r := range reads {
		for _, g := range counts {
			switch gaStateAt(g, r.Release) {
			case gaBelow:
				lastBelow = i
			case gaDone:
				done[i] = true
			}
		}
	}
	for i := lastBelow + 1; i < len(reads); i++ {
		if !done[i] {
			continue
		}
		if i == 0 {
			return stageDate{}, false // GA in the oldest release read already
		}
		v := reads[i].Release
		var named []string
		for _, g := range counts {
			if gaStateAt(g, v) == gaDone && gaStateAt(g, reads[i-1].Release) != gaDone {
				d, _ := g.At(v)
				named = append(named, g.Spelling(d))
			}
		}
		if len(named) == 0 { // done by a removal: name what is GA
			for _, g := range counts {
				if d, ok := g.At(v); ok && gaStateAt(g, v) == gaDone {
					named = append(named, g.Spelling(d))
				}
			}
		}
		return stageDate{release: v, gate: strings.Join(named, ", "), source: gateSource(reads, v)}, true
	}
	return stageDate{}, false
}

// siblingBelow reports whether an own gate of the KEP other than g is
// declared in release v at a graduation stage below s: a gate born at beta
// beside one still alpha (WatchListClient, born beta in client-go 1.30
// while WatchList was alpha until 1.32, for KEP-3157) is a part of the
// work that came in at beta, not the KEP going beta.
func siblingBelow(gs []*FeatureGate, g *FeatureGate, v Version, s Stage) bool {
	for _, o := range gs {
		if o == g {
			continue
		}
		if d, ok := o.At(v); ok && d.Stage != GateDeprecated && d.Stage.Stage() < s {
			return true
		}
	}
	return false
}

// stageBehind records, for a stage s (beta or GA) of a KEP that kep.yaml
// dates (a release out that nothing shipped dates otherwise, see
// decideStage), that the code of that release still declares the KEP's own
// gates below s: for beta, none of them at beta or later and one at alpha
// (KEP-2339: kep.yaml says beta in 1.30, the code of 1.30 declares
// StorageVersionAPI alpha); for GA, one that counts (gaCounts) at alpha or
// beta (KEP-1880: kep.yaml says GA in 1.33, when DisableAllocatorDualWrite
// was beta; it went GA in 1.34), or a gate born after it below GA in a
// later release. kep.yaml's date stands (a KEP goes GA
// with its main gate while an add-on is beta) and the card says both: a
// DisagreeShipped of the code's source, for checkDisagreements. ds are the code's datings of s (the
// release it gives, when it gives one).
func stageBehind(kp *KEP, s Stage, gs []*FeatureGate, reads []GatesRead, ds []stageDate) (Disagreement, bool) {
	y := kp.Milestones[s.String()]
	if _, shipped := kp.ShippedAt(s); shipped || len(reads) == 0 || y.IsZero() || !kp.yamlReaches(s) {
		return Disagreement{}, false
	}
	var below []string
	at := y // the release whose code declares below
	switch s {
	case StageBeta:
		for _, g := range gs {
			d, ok := g.At(y)
			switch {
			case !ok || d.Stage == GateDeprecated:
			case d.Stage.Rank() >= GateBeta.Rank():
				return Disagreement{}, false // an own gate is beta (or GA) there: the code agrees
			default:
				below = append(below, g.Spelling(d)+" "+d.Stage.Label())
			}
		}
	case StageStable:
		// in y, or (a gate born after) in the first release after y whose
		// code declares a gate that counts below GA
		for _, r := range reads {
			if r.Release.Less(y) {
				continue
			}
			for _, g := range gaCounts(gs, reads) {
				if gaStateAt(g, r.Release) == gaBelow {
					d, _ := g.At(r.Release)
					below = append(below, g.Spelling(d)+" "+d.Stage.Label())
				}
			}
			if len(below) > 0 {
				at = r.Release
				break
			}
		}
	default:
		return Disagreement{}, false
	}
	if len(below) == 0 {
		return Disagreement{}, false
	}
	slices.Sort(below)
	claim := fmt.Sprintf("the code of %s still declares %s", y, strings.Join(below, ", "))
	if at != y {
		claim = fmt.Sprintf("the code of %s declares %s", at, strings.Join(below, ", "))
	}
	var from Version
	for _, d := range ds {
		if d.gate != "" && y.Less(d.release) && (from.IsZero() || d.release.Less(from)) {
			from = d.release
		}
	}
	switch {
	case !from.IsZero() && s == StageStable:
		claim += fmt.Sprintf("; every own gate is GA from %s", from)
	case !from.IsZero():
		claim += fmt.Sprintf("; an own gate is beta from %s", from)
	case s == StageStable:
		claim += "; no release I read declares every own gate GA"
	default:
		claim += "; no release I read declares an own gate beta"
	}
	return Disagreement{
		Kind: DisagreeShipped, KEP: kp.Number, Source: gateSource(reads, at), Release: y, Stage: s,
		Claim: claim, Trusted: fmt.Sprintf("%s in %s by kep.yaml", s.Label(), y),
	}, true
}
