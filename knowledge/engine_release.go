package knowledge

import (
	"context"
	"fmt"
	"strings"
)

// findRelease returns release v, or an ENOTFOUND error naming the releases
// that are known, suggesting the same question of the nearest one.
func (e *Engine) findRelease(ctx context.Context, v Version, ask func(Version) string) (*Release, error) {
	r, err := e.kb.FindReleaseByVersion(ctx, v)
	if err == nil {
		return r, nil
	}
	if ErrorCode(err) != ENOTFOUND {
		return nil, fmt.Errorf("find release %s: %w", v, err)
	}
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	if len(rels) == 0 {
		return nil, Errorf(ENOTFOUND, "I don't know Kubernetes %s. I know no releases yet.", v)
	}
	vs := make([]Version, len(rels))
	near := rels[0].Version
	for i, r := range rels {
		vs[i] = r.Version
		if distance(r.Version, v) <= distance(near, v) {
			near = r.Version
		}
	}
	return nil, &Error{Code: ENOTFOUND, Message: fmt.Sprintf("I don't know Kubernetes %s. I know %s.", v, versionList(vs)),
		Suggestions: []string{ask(near)}}
}

// distance is how many minor releases apart v and w are (majors count 100).
func distance(v, w Version) int {
	d := (v.Major-w.Major)*100 + v.Minor - w.Minor
	if d < 0 {
		return -d
	}
	return d
}

// answerRelease answers `1.29`: the release's facts, a few highlights,
// how many notices it carries.
func (e *Engine) answerRelease(ctx context.Context, v Version) (*Answer, error) {
	r, err := e.findRelease(ctx, v, func(w Version) string { return w.String() })
	if err != nil {
		return nil, err
	}
	items, err := e.kb.FindReleaseItems(ctx, v, StageNone)
	if err != nil {
		return nil, fmt.Errorf("find items of %s: %w", v, err)
	}
	notices, err := e.kb.FindNotices(ctx, v, "")
	if err != nil {
		return nil, fmt.Errorf("find notices of %s: %w", v, err)
	}
	refs, _, err := e.sourceRefs(ctx, r.Sources)
	if err != nil {
		return nil, err
	}
	a := &Answer{Kind: KindRelease, Title: "Kubernetes " + v.String(), Sources: refs,
		Release: &ReleaseFacts{Version: v.String(), Date: r.Date, Theme: r.Theme, Enhancements: r.Enhancements}}
	a.Text = releaseSummary(r)
	a.Facts = noticeFacts(notices)
	if a.Items, err = e.highlightItems(ctx, items); err != nil {
		return nil, err
	}
	if len(a.Items) < len(items) {
		a.Notes = append(a.Notes, fmt.Sprintf("Showing %d highlights; ask %s ga, %s beta or %s alpha for each list.", len(a.Items), v, v, v))
	}
	return a, nil
}

// releaseSummary is "Kubernetes 1.29 (Mandala), released 2023-12-13: 49
// enhancements: 11 GA, 19 beta, 19 alpha." with what is unknown left out.
func releaseSummary(r *Release) string {
	var b strings.Builder
	b.WriteString("Kubernetes " + r.Version.String())
	if r.Theme != "" {
		b.WriteString(" (" + r.Theme + ")")
	}
	if r.Date != "" {
		b.WriteString(", released " + r.Date)
	}
	if c := r.Enhancements; !c.IsZero() {
		b.WriteString(": " + countsText(c))
	}
	b.WriteString(".")
	return b.String()
}

// countsText writes counts as the announcement gives them: "49 enhancements
// (11 GA, 19 beta, 19 alpha)", or without a total when it gives none.
func countsText(c Counts) string {
	if c.Total == 0 {
		return fmt.Sprintf("%d GA, %d beta, %d alpha enhancements", c.Stable, c.Beta, c.Alpha)
	}
	return fmt.Sprintf("%d enhancements (%d GA, %d beta, %d alpha)", c.Total, c.Stable, c.Beta, c.Alpha)
}

// noticeFacts counts a release's notices by kind.
func noticeFacts(notices []Notice) []Fact {
	var facts []Fact
	kinds := map[NoticeKind]int{}
	for _, n := range notices {
		kinds[n.Kind]++
	}
	for _, k := range []struct {
		kind NoticeKind
		name string
	}{{NoticeDeprecation, "Deprecations"}, {NoticeRemoval, "Removals"}, {NoticeUpgrade, "Upgrade notes"}} {
		if kinds[k.kind] > 0 {
			facts = append(facts, Fact{Name: k.name, Value: fmt.Sprint(kinds[k.kind])})
		}
	}
	return facts
}

// highlightItems picks up to e.highlights items, GA first, then beta, then
// alpha, keeping the documents' order within a stage and passing over
// repeats (a stage reached in an earlier release, restated).
func (e *Engine) highlightItems(ctx context.Context, items []Item) ([]Item, error) {
	var out []Item
	keps := map[int]*KEP{}
	for _, s := range []Stage{StageStable, StageBeta, StageAlpha} {
		for _, it := range items {
			if len(out) == e.highlights {
				return out, nil
			}
			if it.Stage != s {
				continue
			}
			rep, err := e.isRepeat(ctx, keps, it)
			if err != nil {
				return nil, err
			}
			if !rep {
				it.Text = quote(it.Text, e.maxQuote)
				out = append(out, it)
			}
		}
	}
	return out, nil
}

// answerReleaseStage answers `1.29 ga`: every item of the release at that
// stage, by KEP number, items without one last.
func (e *Engine) answerReleaseStage(ctx context.Context, v Version, s Stage) (*Answer, error) {
	r, err := e.findRelease(ctx, v, func(w Version) string { return w.String() + " " + strings.ToLower(s.Label()) })
	if err != nil {
		return nil, err
	}
	items, err := e.kb.FindReleaseItems(ctx, v, s)
	if err != nil {
		return nil, fmt.Errorf("find %s items of %s: %w", s, v, err)
	}
	sortItemsByKEP(items)
	seen, err := e.keptBefore(ctx, v, s)
	if err != nil {
		return nil, err
	}
	items, repeats, err := e.dropRepeats(ctx, items, seen)
	if err != nil {
		return nil, err
	}
	ids := append([]string{}, r.Sources...)
	for i := range items {
		items[i].Text = quote(items[i].Text, e.maxQuote)
		ids = append(ids, items[i].Source)
	}
	refs, byID, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a := &Answer{Kind: KindList, Title: fmt.Sprintf("Kubernetes %s: %s", v, s.Label()), Items: items, Sources: refs}
	switch len(items) {
	case 0:
		a.Text = fmt.Sprintf("I know of nothing that %s in Kubernetes %s.", stageVerb(s), v)
	case 1:
		a.Text = fmt.Sprintf("1 enhancement %s in Kubernetes %s.", stageVerb(s), v)
	default:
		a.Text = fmt.Sprintf("%d enhancements %s in Kubernetes %s.", len(items), stageVerb(s), v)
	}
	for _, it := range repeats {
		who := "A document of " + v.String()
		if src, ok := byID[it.Source]; ok {
			who = sourceName(src)
		}
		a.Notes = append(a.Notes, fmt.Sprintf("%s also lists KEP-%d as %s, but it was %s in %s already; a repeat does not move its graduation.",
			who, it.KEP, s.Label(), s.Label(), it.Release))
	}
	if n := announced(r.Enhancements, s); n > 0 && n != len(items) {
		a.Notes = append(a.Notes, fmt.Sprintf("The release announcement counts %d %s; the documents I have name %d.", n, s.Label(), len(items)))
	}
	return a, nil
}

// keptBefore returns the KEPs that have an item at stage s in a release
// older than v. Only those can repeat s in v: a repeat restates a stage a
// document gave the KEP in an earlier release, and Compile makes an item of
// every such statement.
func (e *Engine) keptBefore(ctx context.Context, v Version, s Stage) (map[int]bool, error) {
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	seen := map[int]bool{}
	for _, r := range rels {
		if !r.Version.Less(v) {
			continue
		}
		items, err := e.kb.FindReleaseItems(ctx, r.Version, s)
		if err != nil {
			return nil, fmt.Errorf("find %s items of %s: %w", s, r.Version, err)
		}
		for _, it := range items {
			seen[it.KEP] = true
		}
	}
	return seen, nil
}

// dropRepeats splits items into graduations and repeats: items that only
// restate a stage their KEP reached in an earlier release (by the KEP's
// timeline). Only KEPs in maybe are looked at. Each repeat comes back with
// Release set to where the KEP reached that stage.
func (e *Engine) dropRepeats(ctx context.Context, items []Item, maybe map[int]bool) (kept, repeats []Item, err error) {
	keps := map[int]*KEP{}
	for _, it := range items {
		if it.KEP == 0 || !maybe[it.KEP] {
			kept = append(kept, it)
			continue
		}
		rep, err := e.isRepeat(ctx, keps, it)
		if err != nil {
			return nil, nil, err
		}
		if !rep {
			kept = append(kept, it)
			continue
		}
		if v, ok := keps[it.KEP].Reached()[it.Stage]; ok {
			it.Release = v
		}
		repeats = append(repeats, it)
	}
	return kept, repeats, nil
}

// announced is the count the announcement gives for stage s.
func announced(c Counts, s Stage) int {
	switch s {
	case StageStable:
		return c.Stable
	case StageBeta:
		return c.Beta
	case StageAlpha:
		return c.Alpha
	}
	return 0
}

// answerNotices answers `1.29 deprecations`: the release's notices of one
// kind ("" for all).
func (e *Engine) answerNotices(ctx context.Context, v Version, kind NoticeKind) (*Answer, error) {
	word := noticeWord(kind)
	r, err := e.findRelease(ctx, v, func(w Version) string { return w.String() + " " + word })
	if err != nil {
		return nil, err
	}
	ns, err := e.kb.FindNotices(ctx, v, kind)
	if err != nil {
		return nil, fmt.Errorf("find notices of %s: %w", v, err)
	}
	ids := append([]string{}, r.Sources...)
	for i := range ns {
		ns[i].Text = quote(ns[i].Text, e.maxQuote)
		ids = append(ids, ns[i].Source)
	}
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a := &Answer{Kind: KindList, Title: fmt.Sprintf("Kubernetes %s: %s", v, word), Notices: ns, Sources: refs}
	if len(ns) == 0 {
		a.Text = fmt.Sprintf("I know of no %s in Kubernetes %s.", word, v)
	} else {
		a.Text = fmt.Sprintf("%s in Kubernetes %s.", capitalize(plural(len(ns), strings.TrimSuffix(word, "s"), word)), v)
	}
	return a, nil
}

// noticeWord names notices of a kind in the plural.
func noticeWord(kind NoticeKind) string {
	switch kind {
	case NoticeDeprecation:
		return "deprecations"
	case NoticeRemoval:
		return "removals"
	case NoticeUpgrade:
		return "upgrade notes"
	}
	return "notices"
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// answerReleases answers `releases`: every known release, oldest first.
func (e *Engine) answerReleases(ctx context.Context) (*Answer, error) {
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	if len(rels) == 0 {
		return nil, Errorf(ENOTFOUND, "I know no releases yet.")
	}
	var ids []string
	vs := make([]Version, len(rels))
	a := &Answer{Kind: KindReleases, Title: "Known releases"}
	for i, r := range rels {
		vs[i] = r.Version
		ids = append(ids, r.Sources...)
		var parts []string
		if r.Date != "" {
			parts = append(parts, r.Date)
		}
		if r.Theme != "" {
			parts = append(parts, r.Theme)
		}
		if c := r.Enhancements; !c.IsZero() {
			parts = append(parts, countsText(c))
		}
		a.Facts = append(a.Facts, Fact{Name: r.Version.String(), Value: strings.Join(parts, " · ")})
	}
	a.Text = fmt.Sprintf("I know %s: %s.", plural(len(rels), "release", "releases"), versionList(vs))
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	return a, nil
}
