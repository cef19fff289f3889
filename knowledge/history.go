package knowledge

import (
	"sort"
	"strings"
)

// Step is one point of a KEP's stage timeline: the stage a source put it at
// in a release.
type Step struct {
	Stage   Stage   `json:"stage"`
	Release Version `json:"release"`
	Source  string  `json:"source,omitempty"`
	// Back is true when this step returns to an earlier stage than the one
	// already reached (beta back to alpha).
	Back bool `json:"back,omitempty"`
	// Repeat is true when a later document names the stage the KEP is
	// already at; it does not move the graduation.
	Repeat bool `json:"repeat,omitempty"`
}

// HasYAML reports whether kep.yaml metadata is known for k. When it is,
// kep.yaml is trusted for stages and names; otherwise the release notes are.
func (k *KEP) HasYAML() bool { return k.Source != "" }

// Reached returns the release in which k reached each graduation stage.
//
// With kep.yaml: what shipped dates a stage (k.Shipped: the code of a
// release declaring one of its own gates at it, release notes that date
// it); else its milestone is a target, and the stage is reached when the
// KEP's current stage is that stage or a later one, its KEP is approved
// (not provisional) and its milestone is a release that is out (not after
// k.Released). Without it: the first release a document put the KEP at
// each stage, up to the stage it is at now (a stage it stepped back from
// is not reached).
func (k *KEP) Reached() map[Stage]Version {
	out := map[Stage]Version{}
	if k.HasYAML() {
		for _, sh := range k.Shipped {
			out[sh.Stage] = sh.Release
		}
		if k.Provisional() {
			return out
		}
		for _, s := range GraduationStages {
			if _, shipped := out[s]; shipped {
				continue
			}
			if k.yamlReaches(s) {
				out[s] = k.Milestones[s.String()]
			}
		}
		return out
	}
	cur := StageNone
	for _, st := range k.NoteTimeline() {
		if !st.Stage.IsGraduation() {
			continue
		}
		cur = st.Stage
		for s := range out {
			if s > cur { // stepped back: the later stage is no longer reached
				delete(out, s)
			}
		}
		if _, ok := out[st.Stage]; !ok {
			out[st.Stage] = st.Release
		}
	}
	return out
}

// Provisional reports whether kep.yaml says k is not yet approved for
// implementation: whatever stage it names is a plan.
func (k *KEP) Provisional() bool { return strings.EqualFold(k.Status, "provisional") }

// StagePlanned reports whether kep.yaml puts k at a graduation stage it
// has not reached: provisional, or its milestone for that stage is a
// release that is not out yet. The stage and its milestone are returned.
func (k *KEP) StagePlanned() (Stage, Version, bool) {
	if !k.HasYAML() {
		return StageNone, Version{}, false
	}
	ys := k.yamlStage()
	if !ys.IsGraduation() {
		return StageNone, Version{}, false
	}
	v := k.Milestones[ys.String()]
	if _, shipped := k.ShippedAt(ys); shipped {
		return StageNone, Version{}, false
	}
	if k.Provisional() || (!v.IsZero() && k.afterOut(v)) {
		return ys, v, true
	}
	return StageNone, Version{}, false
}

// afterOut reports whether a kep.yaml milestone v is still a plan by the
// releases out: after the newest out (k.Released), or after the newest out
// by kep.yaml's own date (k.YAMLThrough) and not confirmed by what shipped.
func (k *KEP) afterOut(v Version) bool {
	if !k.Released.IsZero() && k.Released.Less(v) {
		return true
	}
	return !k.YAMLThrough.IsZero() && k.YAMLThrough.Less(v)
}

// Targets returns the kep.yaml milestones of stages k has not reached: plans,
// not outcomes.
func (k *KEP) Targets() map[Stage]Version {
	out := map[Stage]Version{}
	if !k.HasYAML() {
		return out
	}
	reached := k.Reached()
	for _, s := range GraduationStages {
		if v := k.Milestones[s.String()]; !v.IsZero() {
			if _, ok := reached[s]; !ok {
				out[s] = v
			}
		}
	}
	return out
}

// CurrentStage is the stage k is at now: kep.yaml's when known (but for a
// graduation stage it names that is only planned: then the last stage it
// reached, or none; and a later stage what shipped dates), else the last
// stage the documents put it at.
func (k *KEP) CurrentStage() Stage {
	if k.HasYAML() {
		cur := k.Stage
		if _, _, planned := k.StagePlanned(); planned && k.Stage.IsGraduation() {
			cur = StageNone
			for s := range k.Reached() {
				cur = max(cur, s)
			}
		}
		if cur < StageDeprecated {
			for _, sh := range k.Shipped {
				cur = max(cur, sh.Stage)
			}
		}
		return cur
	}
	cur := StageNone
	for _, st := range k.Timeline() {
		cur = st.Stage
	}
	return cur
}

// yamlStage is the graduation stage kep.yaml's stage implies. A deprecated or
// removed KEP counts as having reached every stage it has a milestone for up
// to stable, so its history still answers "when did it go GA".
func (k *KEP) yamlStage() Stage {
	if k.Stage >= StageDeprecated {
		return StageStable
	}
	return k.Stage
}

// Timeline is k's trusted stage history: from kep.yaml when it is known (the
// stages reached, in order, and deprecated or removed when kep.yaml says so),
// else from what the documents said (NoteTimeline).
func (k *KEP) Timeline() []Step {
	if !k.HasYAML() {
		return k.NoteTimeline()
	}
	var steps []Step
	reached := k.Reached()
	for _, s := range GraduationStages {
		if v, ok := reached[s]; ok {
			src := k.Source
			if sh, ok := k.ShippedAt(s); ok && len(sh.Sources) > 0 {
				src = sh.Sources[0]
			}
			steps = append(steps, Step{Stage: s, Release: v, Source: src})
		}
	}
	for _, s := range []Stage{StageDeprecated, StageRemoved} {
		if v := k.Milestones[s.String()]; !v.IsZero() && k.Stage >= s {
			steps = append(steps, Step{Stage: s, Release: v, Source: k.Source})
		}
	}
	return steps
}

// NoteTimeline orders what the documents said of k, release by release. A later
// mention of the stage the KEP is already at is a Repeat and does not move
// its graduation; a mention of an earlier stage after a later one is a Back
// step and is shown. Several documents saying the same of one release make
// one step.
func (k *KEP) NoteTimeline() []Step {
	ms := make([]Mention, 0, len(k.History))
	for _, m := range k.History {
		if m.Stage != StageNone {
			ms = append(ms, m)
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if c := ms[i].Release.Compare(ms[j].Release); c != 0 {
			return c < 0
		}
		return ms[i].Stage < ms[j].Stage
	})
	var steps []Step
	cur := StageNone
	ended := map[Stage]bool{}
	for _, m := range ms {
		if !m.Stage.IsGraduation() {
			if !ended[m.Stage] {
				ended[m.Stage] = true
				steps = append(steps, Step{Stage: m.Stage, Release: m.Release, Source: m.Source})
			}
			continue
		}
		if n := len(steps); n > 0 && steps[n-1].Stage == m.Stage && steps[n-1].Release == m.Release {
			continue // another document saying the same of the same release
		}
		st := Step{Stage: m.Stage, Release: m.Release, Source: m.Source}
		switch {
		case m.Stage == cur:
			st.Repeat = true
		case m.Stage < cur:
			st.Back = true
			cur = m.Stage
		default:
			cur = m.Stage
		}
		steps = append(steps, st)
	}
	return steps
}
