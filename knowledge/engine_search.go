package knowledge

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// maxSearchItems is how many KEPs a search answer ranks.
const maxSearchItems = 10

// allKEPs reads every KEP the store knows, by number.
func (e *Engine) allKEPs(ctx context.Context) ([]*KEP, error) {
	nums, err := e.kb.ListKEPNumbers(ctx)
	if err != nil {
		return nil, fmt.Errorf("list KEPs: %w", err)
	}
	out := make([]*KEP, 0, len(nums))
	for _, n := range nums {
		k, err := e.kb.FindKEPByNumber(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("find KEP-%d: %w", n, err)
		}
		out = append(out, k)
	}
	return out, nil
}

// searchScore scores k for the query words: a word in the name or a
// feature gate counts 3, in the SIG 2, in a document's words about it 1.
// matched is how many words were found anywhere.
func searchScore(k *KEP, words []string) (score, matched int) {
	title := strings.ToLower(k.Title)
	gates := strings.ToLower(strings.Join(kepGates(k), " "))
	sig := strings.ToLower(k.SIG)
	var text strings.Builder
	for _, m := range k.History {
		text.WriteString(strings.ToLower(m.Title + " " + m.Text + " "))
	}
	said := text.String()
	for _, w := range words {
		s := 0
		if strings.Contains(title, w) {
			s += 3
		}
		if strings.Contains(gates, w) {
			s += 3
		}
		if strings.Contains(sig, w) {
			s += 2
		}
		if strings.Contains(said, w) {
			s++
		}
		if s > 0 {
			matched++
			score += s
		}
	}
	return score, matched
}

// answerSearch answers `search WORDS`: KEPs ranked by how many of the words
// they hold, then by where (name and gates before SIG before notes' words).
func (e *Engine) answerSearch(ctx context.Context, words string) (*Answer, error) {
	ws := strings.Fields(strings.ToLower(words))
	if n, ok, _ := kepToken(words); ok && n > 0 {
		ws = append(ws, fmt.Sprint(n))
	}
	keps, err := e.allKEPs(ctx)
	if err != nil {
		return nil, err
	}
	type hit struct {
		k              *KEP
		score, matched int
	}
	var hits []hit
	for _, k := range keps {
		if s, m := searchScore(k, ws); m > 0 {
			hits = append(hits, hit{k, s, m})
		}
	}
	if len(hits) == 0 {
		return nil, Errorf(ENOTFOUND, "I found no KEP matching those words. Try fewer words, a feature gate name or a SIG.")
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].matched != hits[j].matched {
			return hits[i].matched > hits[j].matched
		}
		return hits[i].score > hits[j].score
	})
	a := &Answer{Kind: KindSearch, Title: "Search: " + short(words)}
	var ids []string
	for i, h := range hits {
		if i == maxSearchItems {
			a.Notes = append(a.Notes, fmt.Sprintf("Showing the best %d of %d matches; add words to narrow it.", maxSearchItems, len(hits)))
			break
		}
		f := kepFacts(h.k)
		a.Items = append(a.Items, Item{KEP: h.k.Number, Title: f.Title, Stage: f.Stage, Release: lastRelease(h.k), SIG: f.SIG, Rank: i + 1})
		ids = append(ids, kepSourceIDs(h.k)...)
	}
	a.Text = fmt.Sprintf("%s match.", capitalize(plural(len(hits), "KEP", "KEPs")))
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	return a, nil
}

// answerDiff answers `diff A B` and `upgrade A B`: what graduated in each
// known release after A up to B, and the notices of those releases.
func (e *Engine) answerDiff(ctx context.Context, q Question) (*Answer, error) {
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	var in, known []Version
	for _, r := range rels {
		known = append(known, r.Version)
		if q.Version.Less(r.Version) && !q.To.Less(r.Version) {
			in = append(in, r.Version)
		}
	}
	if len(in) == 0 {
		return nil, Errorf(ENOTFOUND, "I know no release after %s up to %s. I know %s.", q.Version, q.To, versionList(known))
	}
	a := &Answer{Kind: KindDiff, Title: fmt.Sprintf("Kubernetes %s → %s", q.Version, q.To)}
	if q.Words == "upgrade" {
		a.Title = fmt.Sprintf("Upgrading from %s to %s", q.Version, q.To)
	}
	var ids []string
	count := map[Stage]int{}
	kinds := map[NoticeKind]int{}
	keps := map[int]*KEP{}
	for _, v := range in {
		items, err := e.kb.FindReleaseItems(ctx, v, StageNone)
		if err != nil {
			return nil, fmt.Errorf("find items of %s: %w", v, err)
		}
		sort.SliceStable(items, func(i, j int) bool { return items[i].Stage > items[j].Stage })
		for _, it := range items {
			repeat, err := e.isRepeat(ctx, keps, it)
			if err != nil {
				return nil, err
			}
			if repeat {
				continue
			}
			it.Text = quote(it.Text, e.maxQuote)
			it.Rank = len(a.Items) + 1
			a.Items = append(a.Items, it)
			count[it.Stage]++
			ids = append(ids, it.Source)
		}
		ns, err := e.kb.FindNotices(ctx, v, "")
		if err != nil {
			return nil, fmt.Errorf("find notices of %s: %w", v, err)
		}
		for _, n := range ns {
			n.Text = quote(n.Text, e.maxQuote)
			a.Notices = append(a.Notices, n)
			kinds[n.Kind]++
			ids = append(ids, n.Source)
		}
	}
	a.Text = fmt.Sprintf("After %s up to %s (%s): %d GA, %d beta, %d alpha; %s, %s.", q.Version, q.To, versionList(in),
		count[StageStable], count[StageBeta], count[StageAlpha],
		plural(kinds[NoticeDeprecation], "deprecation", "deprecations"), plural(kinds[NoticeRemoval], "removal", "removals"))
	if missing := missingReleases(q.Version, q.To, known); len(missing) > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("I have no documents for %s, so what changed there is missing.", versionList(missing)))
	}
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	return a, nil
}

// isRepeat reports whether item it only restates a stage its KEP had
// already reached (a Repeat step of the KEP's timeline): not a graduation.
// keps caches the KEPs read.
func (e *Engine) isRepeat(ctx context.Context, keps map[int]*KEP, it Item) (bool, error) {
	if it.KEP == 0 {
		return false, nil
	}
	k, ok := keps[it.KEP]
	if !ok {
		var err error
		if k, err = e.kb.FindKEPByNumber(ctx, it.KEP); err != nil && ErrorCode(err) != ENOTFOUND {
			return false, fmt.Errorf("find KEP-%d: %w", it.KEP, err)
		}
		keps[it.KEP] = k
	}
	if k == nil || k.HasYAML() {
		return false, nil
	}
	for _, st := range k.Timeline() {
		if st.Release == it.Release && st.Stage == it.Stage {
			return st.Repeat, nil
		}
	}
	return false, nil
}

// missingReleases lists the minors after from up to to that are not known,
// within one major version.
func missingReleases(from, to Version, known []Version) []Version {
	if from.Major != to.Major || to.Minor-from.Minor > 100 {
		return nil
	}
	have := map[Version]bool{}
	for _, v := range known {
		have[v] = true
	}
	var out []Version
	for v := from.Next(); !to.Less(v); v = v.Next() {
		if !have[v] {
			out = append(out, v)
		}
	}
	return out
}

// answerSIG answers `sig NAME [VERSION]`: the SIG's KEPs with their stage
// now, or its items in one release.
func (e *Engine) answerSIG(ctx context.Context, name string, v Version) (*Answer, error) {
	sig := "sig-" + strings.TrimPrefix(strings.ToLower(name), "sig-")
	keps, err := e.allKEPs(ctx)
	if err != nil {
		return nil, err
	}
	var mine []*KEP
	var sigs []string
	for _, k := range keps {
		f := kepFacts(k)
		if f.SIG != "" && !contains(sigs, strings.ToLower(f.SIG)) {
			sigs = append(sigs, strings.ToLower(f.SIG))
		}
		if strings.EqualFold(f.SIG, sig) {
			mine = append(mine, k)
		}
	}
	if len(mine) == 0 {
		sort.Strings(sigs)
		bare := make([]string, len(sigs))
		for i, s := range sigs {
			bare[i] = strings.TrimPrefix(s, "sig-")
		}
		return nil, &Error{Code: ENOTFOUND, Message: fmt.Sprintf("I know no KEP of %s. SIGs I know: %s.", echo(sig), strings.Join(sigs, ", ")),
			Suggestions: prefixAll("sig ", closest(strings.TrimPrefix(sig, "sig-"), bare))}
	}
	a := &Answer{Kind: KindList, Title: sig}
	if v.IsZero() {
		for _, k := range mine {
			f := kepFacts(k)
			a.Items = append(a.Items, Item{KEP: k.Number, Title: f.Title, Stage: f.Stage, Release: lastRelease(k), SIG: f.SIG})
		}
		a.Text = fmt.Sprintf("I know %s of %s.", plural(len(mine), "KEP", "KEPs"), sig)
		return a, nil
	}
	r, err := e.findRelease(ctx, v, func(w Version) string { return "sig " + strings.TrimPrefix(sig, "sig-") + " " + w.String() })
	if err != nil {
		return nil, err
	}
	items, err := e.kb.FindReleaseItems(ctx, v, StageNone)
	if err != nil {
		return nil, fmt.Errorf("find items of %s: %w", v, err)
	}
	ids := append([]string{}, r.Sources...)
	for _, it := range items {
		if strings.EqualFold(it.SIG, sig) {
			it.Text = quote(it.Text, e.maxQuote)
			a.Items = append(a.Items, it)
			ids = append(ids, it.Source)
		}
	}
	sortItemsByKEP(a.Items)
	a.Title = fmt.Sprintf("%s in Kubernetes %s", sig, v)
	a.Text = fmt.Sprintf("%s of %s reached a stage in Kubernetes %s.", capitalize(plural(len(a.Items), "item", "items")), sig, v)
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	return a, nil
}
