package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// KindLifecycle is the kind of answers about support dates and patch
// releases: eol, patches, supported, latest.
const KindLifecycle knowledge.Kind = "lifecycle"

// maxPatchFacts is how many patch releases a patches answer lists, newest
// first, before "and N older".
const maxPatchFacts = 12

// WithClock sets what "today" is for answers that depend on it (which
// releases are supported, whether an end of life is past). The default is
// time.Now; tests set a fixed day.
func WithClock(now func() time.Time) Option {
	return func(e *Engine) {
		if now != nil {
			e.now = now
		}
	}
}

// today is the Engine's day, 2006-01-02 in UTC.
func (e *Engine) today() string { return e.now().UTC().Format(time.DateOnly) }

// answerLifecycle answers `1.31 eol`: when the release came out, until when
// it has standard support, when it reaches end of life, its latest patch,
// and where it stands today.
func (e *Engine) answerLifecycle(ctx context.Context, v knowledge.Version) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	r := c.release[v]
	if r != nil && r.Lifecycle == nil && slices.Contains(c.unlisted(), v) {
		return c.unlistedLifecycle(v), nil // out, newer than the lifecycle data
	}
	if r == nil || r.Lifecycle == nil { // suggest a release that has support dates
		return nil, c.noLifecycle(v, "eol")
	}
	l := r.Lifecycle
	patch := ""
	ids := append([]string{l.Source}, patchSources(c.patches[v])...)
	best, others, ok := c.latestPatch(v)
	if ok {
		patch = best.name(v, c.sources)
		ids = append(ids, best.source)
	}
	a := &knowledge.Answer{Kind: KindLifecycle, Title: "Kubernetes " + v.String() + ": support", Text: e.standing(l, patch),
		Facts: lifecycleFacts(l, patch, c.releaseDay(r)), Sources: c.sourceRefs(ids)}
	if ok {
		if note := olderPatchesNote(v, best, others, c.sources); note != "" {
			a.Notes = append(a.Notes, note)
		}
	}
	if note := c.releaseDayNote(v); note != "" {
		a.Notes = append(a.Notes, note)
	}
	return a, nil
}

// unlistedLifecycle answers `1.37 eol` for a release out that the
// lifecycle data does not list yet: what says it is out, its newest patch,
// and that its support dates are not known.
func (c *catalog) unlistedLifecycle(v knowledge.Version) *knowledge.Answer {
	newest, asOf := c.lifecycleNewest()
	a := &knowledge.Answer{Kind: KindLifecycle, Title: "Kubernetes " + v.String() + ": support",
		Text: fmt.Sprintf("Kubernetes %s is %s. My lifecycle data (endoflife.date%s) stops at %s, so I hold no support dates for it yet; bot sync brings them.",
			v, c.outWords(v), asOfWords(asOf), newest)}
	var ids []string
	if _, _, src := c.dayOf(v); src != "" {
		ids = append(ids, src) // what gives its day
	}
	if best, _, ok := c.latestPatch(v); ok {
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Latest patch", Value: best.name(v, c.sources)})
		ids = append(ids, best.source)
	}
	if r := c.release[newest]; r != nil && r.Lifecycle != nil {
		ids = append(ids, r.Lifecycle.Source)
	}
	a.Sources = c.sourceRefs(ids)
	return a
}

// standing says where release l stands on the Engine's day; patch names
// its newest patch and the source that says so ("" when none does).
func (e *Engine) standing(l *knowledge.Lifecycle, patch string) string {
	v, today := l.Release, e.today()
	latest := ""
	if patch != "" {
		latest = " Its latest patch I know is " + patch + "."
	}
	switch {
	case l.Released != "" && l.Released > today:
		return fmt.Sprintf("Kubernetes %s is planned for %s.", v, l.Released)
	case l.EOL != "" && l.EOL <= today:
		s := fmt.Sprintf("Kubernetes %s reached end of life on %s: it gets no more patches.", v, l.EOL)
		if patch != "" {
			s += " Its last patch I know is " + patch + "."
		}
		return s
	case l.EndOfSupport != "" && l.EndOfSupport <= today:
		s := fmt.Sprintf("Kubernetes %s is in maintenance mode since %s (critical fixes only)", v, l.EndOfSupport)
		if l.EOL != "" {
			s += " and reaches end of life on " + l.EOL
		}
		return s + "." + latest
	}
	s := fmt.Sprintf("Kubernetes %s is supported", v)
	switch {
	case l.EndOfSupport != "" && l.EOL != "":
		s += fmt.Sprintf(": standard support until %s, end of life on %s", l.EndOfSupport, l.EOL)
	case l.EOL != "":
		s += ": end of life on " + l.EOL
	}
	return s + "." + latest
}

// lifecycleFacts lists a release's support dates; patch names its newest
// patch ("" for the lifecycle record's own), day the day it came out as
// every answer gives it (releaseEvidence.dayOf; the record's own when "").
func lifecycleFacts(l *knowledge.Lifecycle, patch, day string) []knowledge.Fact {
	var out []knowledge.Fact
	add := func(name, value string) {
		if value != "" {
			out = append(out, knowledge.Fact{Name: name, Value: value})
		}
	}
	if day == "" {
		day = l.Released
	}
	add("Released", day)
	add("Standard support until", l.EndOfSupport)
	add("End of life", l.EOL)
	if patch == "" && l.Latest != "" {
		patch = l.Latest
		if l.LatestDate != "" {
			patch += " (" + l.LatestDate + ")"
		}
	}
	add("Latest patch", patch)
	return out
}

// releaseDay is the day release r came out (dayOf); "" when no source
// says.
func (c *releaseEvidence) releaseDay(r *knowledge.Release) string {
	day, _, _ := c.dayOf(r.Version)
	return day
}

// releaseDaySaid is one source's day for a release: the day, how an
// answer names what gives it, and the source's ID.
type releaseDaySaid struct {
	day, by, source string
}

// daysOf are the days the sources give release v, in the order they are
// trusted: its v.0 tag's day in the patch list; the lifecycle record's;
// the time of its k8s.io/kubernetes v1.N.0 tag from the Go module proxy
// (the day the feature gates read from it are dated: UTC, so a tag of a US
// evening is the next day); the day its announcement or release page
// gives.
func (c *releaseEvidence) daysOf(v knowledge.Version) []releaseDaySaid {
	var out []releaseDaySaid
	for _, p := range c.patches[v] {
		if p.Number == 0 && p.Date != "" {
			out = append(out, releaseDaySaid{p.Date, "the day of its " + v.String() + ".0 tag in the patch list", p.Source})
			break
		}
	}
	r := c.release[v]
	if r != nil && r.Lifecycle != nil && r.Lifecycle.Released != "" {
		out = append(out, releaseDaySaid{r.Lifecycle.Released, "the day the lifecycle record gives", r.Lifecycle.Source})
	}
	if t, ok := c.tags[v]; ok {
		out = append(out, releaseDaySaid{t.AsOf, "the UTC day of its k8s.io/kubernetes v" + v.String() + ".0 tag, per the Go module proxy", t.ID})
	}
	if r != nil && r.Date != "" {
		src := ""
		if len(r.Sources) > 0 {
			src = r.Sources[0]
		}
		out = append(out, releaseDaySaid{r.Date, "the day its announcement or release page gives", src})
	}
	return out
}

// dayOf is the day release v came out, what gives it (for an answer to
// say) and that source's ID: the first of daysOf; "" when no source says.
func (c *releaseEvidence) dayOf(v knowledge.Version) (day, by, source string) {
	if ds := c.daysOf(v); len(ds) > 0 {
		return ds[0].day, ds[0].by, ds[0].source
	}
	return "", "", ""
}

// releaseDayNote says where sources disagree on the day release v came
// out: the day answers give and what gives it, against every other
// source's; "" when they agree or only one says.
func (c *releaseEvidence) releaseDayNote(v knowledge.Version) string {
	ds := c.daysOf(v)
	if len(ds) < 2 {
		return ""
	}
	var days []string
	bys := map[string][]string{}
	for _, d := range ds[1:] {
		if d.day == ds[0].day {
			continue
		}
		if bys[d.day] == nil {
			days = append(days, d.day)
		}
		bys[d.day] = append(bys[d.day], d.by)
	}
	if len(days) == 0 {
		return ""
	}
	var other []string
	for _, d := range days {
		other = append(other, d+" ("+strings.Join(bys[d], "; ")+")")
	}
	return fmt.Sprintf("Kubernetes %s came out on %s (%s); other sources give %s.", v, ds[0].day, ds[0].by, strings.Join(other, ", and "))
}

// noLifecycle is the miss of a lifecycle question about a release that has
// no support dates: it names the releases that have.
func (c *catalog) noLifecycle(v knowledge.Version, word string) error {
	var with []knowledge.Version
	for _, r := range c.releases {
		if r.Lifecycle != nil {
			with = append(with, r.Version)
		}
	}
	if len(with) == 0 {
		return knowledge.Errorf(knowledge.ENOTFOUND, "I have no support dates for any release yet: ingest or sync the lifecycle data (endoflife.date) first.")
	}
	near := with[0]
	for _, w := range with {
		if distance(w, v) <= distance(near, v) {
			near = w
		}
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I have no support dates for Kubernetes %s; the lifecycle data I hold covers %s.", v, versionRanges(with)),
		Suggestions: []string{near.String() + " " + word}}
}

// answerPatches answers `1.30 patches`: the release's patch releases,
// newest first, with their dates.
func (e *Engine) answerPatches(ctx context.Context, v knowledge.Version) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	r, ps := c.release[v], c.patches[v]
	best, others, named := c.latestPatch(v)
	if r == nil || !named { // suggest a release that has patches
		return nil, c.noPatches(v)
	}
	a := &knowledge.Answer{Kind: KindLifecycle, Title: "Kubernetes " + v.String() + ": patch releases"}
	switch {
	case len(ps) == 0:
		a.Text = fmt.Sprintf("The latest patch of Kubernetes %s I know is %s; I hold no list of its patch releases.", v, best.name(v, c.sources))
		if r.Lifecycle != nil {
			a.Facts = lifecycleFacts(r.Lifecycle, best.name(v, c.sources), c.releaseDay(r))
		}
	case best.number == 0:
		a.Text = fmt.Sprintf("Kubernetes %s has no patch release yet: %s.0 came out on %s.", v, v, best.date)
	default:
		a.Text = fmt.Sprintf("The latest patch of Kubernetes %s is %s.", v, best.name(v, c.sources))
	}
	if note := olderPatchesNote(v, best, others, c.sources); note != "" {
		a.Notes = append(a.Notes, note)
	}
	if r.Lifecycle != nil && r.Lifecycle.EOL != "" {
		if r.Lifecycle.EOL <= e.today() {
			a.Text += fmt.Sprintf(" It reached end of life on %s.", r.Lifecycle.EOL)
		} else {
			a.Text += fmt.Sprintf(" It gets patches until %s.", r.Lifecycle.EOL)
		}
	}
	listed := 0
	for i := len(ps) - 1; i >= 0 && listed < maxPatchFacts; i-- {
		a.Facts = append(a.Facts, knowledge.Fact{Name: ps[i].String(), Value: ps[i].Date})
		listed++
	}
	if n := len(ps) - listed; n > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("And %d older: %s (%s) was the first.", n, ps[0], ps[0].Date))
	}
	if n := c.patchCVEsNote(v, best.number); n != "" {
		a.Notes = append(a.Notes, n)
	}
	ids := append(patchSources(ps), best.source)
	if r.Lifecycle != nil {
		ids = append(ids, r.Lifecycle.Source)
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// noPatches is the miss of `VERSION patches` for a release without any.
func (c *catalog) noPatches(v knowledge.Version) error {
	var with []knowledge.Version
	for _, r := range c.releases {
		if _, _, ok := c.latestPatch(r.Version); ok {
			with = append(with, r.Version)
		}
	}
	if len(with) == 0 {
		return knowledge.Errorf(knowledge.ENOTFOUND, "I have no patch releases for any release yet: ingest or sync the patch list (endoflife.date release-data) first.")
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I know no patch release of Kubernetes %s; I have them for %s.", v, versionRanges(with)),
		Suggestions: []string{with[len(with)-1].String() + " patches"}}
}

// patchSources are the sources of ps, each once.
func patchSources(ps []knowledge.Patch) []string {
	var ids []string
	for _, p := range ps {
		if len(ids) == 0 || ids[len(ids)-1] != p.Source {
			ids = append(ids, p.Source)
		}
	}
	return ids
}

// answerSupported answers `supported`: the releases out and not past their
// end of life on the Engine's day, newest first, with how long each has.
func (e *Engine) answerSupported(ctx context.Context) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	today := e.today()
	var live, maint []string
	var ids []string
	a := &knowledge.Answer{Kind: KindLifecycle, Title: "Supported Kubernetes releases"}
	unlisted := c.unlisted()
	for i := len(unlisted) - 1; i >= 0; i-- { // out, newer than the lifecycle data: supported, dates unknown
		v := unlisted[i]
		val := c.outWords(v) + "; support dates not in my lifecycle data yet"
		if _, _, src := c.dayOf(v); src != "" {
			ids = append(ids, src) // what gives its day
		}
		if best, _, ok := c.latestPatch(v); ok {
			val += "; latest " + best.name(v, c.sources)
			ids = append(ids, best.source)
		}
		live = append(live, v.String())
		a.Facts = append(a.Facts, knowledge.Fact{Name: v.String(), Value: val})
	}
	known := false
	for i := len(c.releases) - 1; i >= 0; i-- {
		r := c.releases[i]
		l := r.Lifecycle
		if l == nil {
			continue
		}
		known = true
		if l.Released == "" || l.Released > today || (l.EOL != "" && l.EOL <= today) {
			continue
		}
		ids = append(ids, l.Source)
		val := "until " + orUnknown(l.EOL)
		if l.EndOfSupport != "" && l.EndOfSupport <= today {
			val = "maintenance mode, end of life " + orUnknown(l.EOL)
			maint = append(maint, r.Version.String())
		} else {
			if l.EndOfSupport != "" {
				val = "standard support until " + l.EndOfSupport + ", end of life " + orUnknown(l.EOL)
			}
			live = append(live, r.Version.String())
		}
		if best, _, ok := c.latestPatch(r.Version); ok {
			val += "; latest " + best.name(r.Version, c.sources)
			ids = append(ids, best.source)
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: r.Version.String(), Value: val})
	}
	if !known {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I have no support dates yet: ingest or sync the lifecycle data (endoflife.date) first.")
	}
	if note := c.lifecycleAge(ids, today); note != "" {
		a.Notes = append(a.Notes, note)
	}
	switch {
	case len(live)+len(maint) == 0:
		a.Text = fmt.Sprintf("As of %s no release I know is supported: every one has reached its end of life. Run bot sync for newer releases.", today)
	default:
		all := append(live, maint...)
		a.Text = fmt.Sprintf("As of %s, Kubernetes %s %s supported", today, prose.JoinAnd(all), isAre(len(all)))
		if len(maint) > 0 {
			a.Text += fmt.Sprintf("; %s %s in maintenance mode (critical fixes only)", prose.JoinAnd(maint), isAre(len(maint)))
		}
		a.Text += "."
	}
	if len(unlisted) > 0 {
		newest, asOf := c.lifecycleNewest()
		a.Notes = append(a.Notes, fmt.Sprintf("%s %s out, newer than my lifecycle data (endoflife.date%s, which stops at %s): a new release is supported from its release day.",
			capitalize(prose.JoinAnd(versionStrings(unlisted))), isAre(len(unlisted)), asOfWords(asOf), newest))
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// answerLatest answers `latest`: the newest release out (as every source
// says, whatever the day) and the newest patch of each release still
// supported on the Engine's day, each with its source and date.
func (e *Engine) answerLatest(ctx context.Context) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	today := e.today()
	newest := c.released
	if newest.IsZero() {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I know no release that is out yet: ingest or sync the release notes or the lifecycle data first.")
	}
	a := &knowledge.Answer{Kind: KindLifecycle, Title: "Latest Kubernetes releases"}
	var ids []string
	a.Text = fmt.Sprintf("The newest Kubernetes release out is %s, %s", newest, c.outWords(newest))
	if _, _, src := c.dayOf(newest); src != "" {
		ids = append(ids, src) // what gives its day
	}
	if best, _, ok := c.latestPatch(newest); ok {
		a.Text += "; its latest patch I know is " + best.name(newest, c.sources)
		ids = append(ids, best.source)
	}
	a.Text += "."
	for i := len(c.releases) - 1; i >= 0; i-- {
		r := &c.releases[i]
		if !c.out(r.Version) {
			continue
		}
		l := r.Lifecycle
		unlisted := l == nil && slices.Contains(c.unlisted(), r.Version)
		if !unlisted && (l == nil || l.EOL != "" && l.EOL <= today) {
			continue
		}
		best, _, ok := c.latestPatch(r.Version)
		if !ok {
			continue
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: r.Version.String(), Value: best.name(r.Version, c.sources)})
		ids = append(ids, best.source)
		if l != nil {
			ids = append(ids, l.Source)
		}
	}
	if next := c.nextPlanned(today); next != "" {
		a.Notes = append(a.Notes, next)
	}
	if n := c.latestCVEsNote(a.Facts); n != "" {
		a.Notes = append(a.Notes, n)
	}
	if note := c.lifecycleAge(ids, today); note != "" {
		a.Notes = append(a.Notes, note)
	}
	if r := c.release[newest]; r != nil {
		ids = append(ids, r.Sources...)
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// nextPlanned says which release the knowledge expects next, when one is
// dated after today: "Kubernetes 1.37 is planned for 2026-08-26."
func (c *catalog) nextPlanned(today string) string {
	for _, r := range c.releases {
		day := r.Date
		if r.Lifecycle != nil && r.Lifecycle.Released != "" {
			day = r.Lifecycle.Released
		}
		if day > today {
			return fmt.Sprintf("Kubernetes %s is planned for %s.", r.Version, day)
		}
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// staleLifecycle is how old the lifecycle data may be before answers that
// count on it being current (supported, latest) say how old it is: about a
// release cycle.
const staleLifecycle = 90 * 24 * time.Hour

// lifecycleAge says, when the newest of the given sources speaks for a day
// more than staleLifecycle before today, that releases and patches after
// it are missing; "" otherwise.
func (c *catalog) lifecycleAge(ids []string, today string) string {
	newest := ""
	for _, id := range ids {
		newest = max(newest, c.sources[id].AsOf)
	}
	asOf, err1 := time.Parse(time.DateOnly, newest)
	now, err2 := time.Parse(time.DateOnly, today)
	if err1 != nil || err2 != nil || now.Sub(asOf) <= staleLifecycle {
		return ""
	}
	return fmt.Sprintf("My lifecycle data is as of %s: releases and patches after that day are missing until bot sync brings them.", newest)
}

// versionStrings writes versions as strings.
func versionStrings(vs []knowledge.Version) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}
