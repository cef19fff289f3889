package engine

import (
	"context"
	"fmt"
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// The answers to yes/no questions: "is kep 753 ga", "is kep 753 beta in
// 1.30" (a KEP at a stage, now or in a release) and "is 1.31 supported". They
// are the KEP's card or the release's support dates, with a text that
// starts with the answer ("Yes — ", "No — ") and the evidence in one
// sentence, before the card's own summary.

// answerKEPClaim answers whether KEP q.KEP is at q.Stage, now or, when
// q.Version is set, in that release. It fails as answerKEP does.
func (e *Engine) answerKEPClaim(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	a, err := e.answerKEP(ctx, q.KEP)
	if err != nil {
		return nil, err
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	a.Text = claimVerdict(a.KEP, q.Stage, q.Version, c.released) + otherWord(c, q) + " " + kepSummarySaid(a.KEP, q.Stage)
	a.Verdict = verdictOf(a.Text)
	return a, nil
}

// notOutVerdict answers whether the KEP of f is at stage s in release v,
// which is not out: no, not yet; where it stands now and what is planned.
func notOutVerdict(f *knowledge.KEPFacts, s knowledge.Stage, v, released knowledge.Version) string {
	name := "KEP-" + strconv.Itoa(f.Number)
	now := "has reached no stage yet"
	if f.Stage.IsGraduation() {
		now = "is " + f.Stage.Label() + since(f, f.Stage)
	}
	if !f.Stage.IsGraduation() || f.Stage < s {
		return fmt.Sprintf("Not yet — %s is not out as far as my sources say (the newest release out is %s). %s %s; %s, and plans move.",
			v, released, name, now, plannedFor(f, s))
	}
	if f.Stage == knowledge.StageStable && s == knowledge.StageStable && len(f.Targets) == 0 {
		return fmt.Sprintf("Yes — %s is GA since %s, and nothing is planned to change that; %s is not out as far as my sources say (the newest release out is %s).",
			name, f.Milestones[knowledge.StageStable.String()], v, released)
	}
	planned := "nothing else is planned"
	if p := knowledge.ReachedList(f.Targets); p != "" {
		planned = "planned: " + p + ", and plans move"
	}
	return fmt.Sprintf("I can't say yet — %s is not out as far as my sources say (the newest release out is %s). %s %s; %s.",
		v, released, name, now, planned)
}

// otherWord says, after the verdict, where a document puts the KEP at the
// stage asked about in the release asked about though kep.yaml does not:
// " The 1.33 release notes (PR #130135) say beta in 1.33; I go by
// kep.yaml." "" when none does.
func otherWord(c *catalog, q knowledge.Question) string {
	k := c.byNum[q.KEP]
	if q.Version.IsZero() || k == nil {
		return ""
	}
	for _, d := range k.Disagreements {
		if d.Kind == knowledge.DisagreeRelease && d.Stage == q.Stage && d.Release == q.Version {
			if _, shipped := k.ShippedAt(q.Stage); shipped {
				return " " + capitalize(d.Claim) + "; I go by what shipped."
			}
			return " " + capitalize(d.Claim) + "; I go by kep.yaml."
		}
	}
	return ""
}

// claimVerdict says whether the KEP of f is at stage s (in release v, when
// v is set): yes or no, then the evidence from its stages reached, planned
// and its deprecation or removal. A release after released (the newest
// out; zero when unknown) is not out: only plans are said of it.
func claimVerdict(f *knowledge.KEPFacts, s knowledge.Stage, v, released knowledge.Version) string {
	name := "KEP-" + strconv.Itoa(f.Number)
	if f.Title != "" {
		name += " (" + f.Title + ")"
	}
	if !s.IsGraduation() {
		return endingVerdict(f, name, s, v)
	}
	if v.IsZero() {
		cur := f.Stage
		switch {
		case cur == knowledge.StageNone && f.Status == "provisional":
			return "No — " + name + " is provisional (not yet approved for implementation), so it has reached no stage; " + plannedFor(f, s) + "."
		case cur == knowledge.StageNone && len(f.Targets) > 0:
			return "No — " + name + " has reached no stage yet; " + plannedFor(f, s) + "."
		case cur == knowledge.StageNone:
			return "I can't say: the documents I have give " + name + " no stage."
		case cur == s:
			return "Yes — " + name + " is " + s.Label() + since(f, s) + shippedWords(f, s) + "."
		case !cur.IsGraduation():
			return "No — " + name + " is " + cur.Label() + " now."
		case cur > s:
			return "No — " + name + " is past " + s.Label() + ": it is " + cur.Label() + since(f, cur) + "."
		}
		return "No — " + name + " is " + cur.Label() + since(f, cur) + "; " + plannedFor(f, s) + "."
	}
	if !released.IsZero() && released.Less(v) {
		return notOutVerdict(f, s, v, released) // a release not out: plans, not stages
	}
	at, from := stageIn(f, v)
	switch {
	case at == s:
		return fmt.Sprintf("Yes — in %s %s was %s (since %s%s).", v, name, s.Label(), from, shippedWords(f, s))
	case at == knowledge.StageNone:
		return fmt.Sprintf("No — in %s %s had reached no stage yet; %s.", v, name, plannedFor(f, s))
	}
	return fmt.Sprintf("No — in %s %s was %s (since %s), not %s; %s.", v, name, at.Label(), from, s.Label(), plannedFor(f, s))
}

// endingVerdict answers whether the KEP was deprecated or removed (s), by
// release v when v is set, from its timeline.
func endingVerdict(f *knowledge.KEPFacts, name string, s knowledge.Stage, v knowledge.Version) string {
	for _, st := range f.Timeline {
		if st.Stage == s && (v.IsZero() || !v.Less(st.Release)) {
			return fmt.Sprintf("Yes — %s was %s in %s.", name, s.Label(), st.Release)
		}
	}
	for _, st := range f.Timeline {
		if st.Stage == s {
			return fmt.Sprintf("No — in %s %s was not %s yet: that came in %s.", v, name, s.Label(), st.Release)
		}
	}
	now := ""
	if f.Stage.IsGraduation() {
		now = "; it is " + f.Stage.Label() + since(f, f.Stage)
	}
	return "No — the documents I have do not say " + name + " was " + s.Label() + now + "."
}

// stageIn is the graduation stage f held in release v and the release it
// reached it in; StageNone when it had reached none by then.
func stageIn(f *knowledge.KEPFacts, v knowledge.Version) (knowledge.Stage, string) {
	at, from := knowledge.StageNone, ""
	for _, s := range knowledge.GraduationStages {
		if r, ok := f.Milestones[s.String()]; ok {
			if rv, err := knowledge.ParseVersion(r); err == nil && !v.Less(rv) {
				at, from = s, r
			}
		}
	}
	return at, from
}

// since is ", since 1.33" for a stage f reached, or "".
func since(f *knowledge.KEPFacts, s knowledge.Stage) string {
	if r, ok := f.Milestones[s.String()]; ok {
		return " since " + r
	}
	return ""
}

// plannedFor says when f reached or plans stage s: "GA came in 1.33", "GA is
// planned for 1.35", "GA was planned for 1.28, not reached" (a plan for a
// release that is out), "no release is planned for GA yet".
func plannedFor(f *knowledge.KEPFacts, s knowledge.Stage) string {
	if r, ok := f.Milestones[s.String()]; ok {
		return s.Label() + " came in " + r + shippedWords(f, s)
	}
	if r, ok := f.Missed[s.String()]; ok {
		return s.Label() + " was planned for " + r + ", not reached"
	}
	if r, ok := f.Unconfirmed[s.String()]; ok {
		return s.Label() + " was planned for " + r + ", which is out, and nothing that shipped confirms it"
	}
	if r, ok := f.Targets[s.String()]; ok {
		return s.Label() + " is planned for " + r
	}
	return "no release is planned for " + s.Label() + " yet"
}

// shippedWords says, after a stage's release, what shipped dates it and
// what kep.yaml says where it differs: ", by the code of 1.30
// (UserNamespacesSupport) and PR #124997; kep.yaml says 1.35"; "" when
// kep.yaml alone dates it.
func shippedWords(f *knowledge.KEPFacts, s knowledge.Stage) string {
	if w := f.Disputed[s.String()]; w != "" {
		return ", " + w
	}
	for _, sh := range f.Shipped {
		if sh.Stage == s {
			return ", by " + sh.Evidence()
		}
	}
	return ""
}

// answerSupportedRelease answers `is 1.31 supported`: the release's
// support dates, with a text that starts with yes or no. It fails as
// answerLifecycle does.
func (e *Engine) answerSupportedRelease(ctx context.Context, v knowledge.Version) (*knowledge.Answer, error) {
	a, err := e.answerLifecycle(ctx, v)
	if err != nil {
		return nil, err
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	today := e.today()
	r := c.release[v]
	if r == nil || r.Lifecycle == nil {
		// out, newer than the lifecycle data (answerLifecycle answered so):
		// a new release is supported from its release day
		day, _, _ := c.dayOf(v)
		switch {
		case day == "":
			a.Text = "I can't say: I have no release day for " + v.String() + ". " + a.Text
		case day > today:
			a.Text = "No — not yet. " + a.Text
		default:
			a.Text = "Yes — " + a.Text + " A new release is supported from its release day."
		}
		a.Verdict = verdictOf(a.Text)
		return a, nil
	}
	l := r.Lifecycle
	switch {
	case l.Released == "":
		a.Text = "I can't say: I have no release day for " + v.String() + ". " + a.Text
	case l.Released > today:
		a.Text = "No — not yet. " + a.Text
	case l.EOL != "" && l.EOL <= today:
		a.Text = "No — " + a.Text
	default:
		a.Text = "Yes — " + a.Text
	}
	a.Verdict = verdictOf(a.Text)
	return a, nil
}
