package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// sigKey turns what people call a SIG (network, sig-network, SIG Network,
// api machinery) into the name kep.yaml gives it: sig-network.
func sigKey(name string) string {
	n := strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(name, "_", " "))), "-")
	return "sig-" + strings.TrimPrefix(n, "sig-")
}

// answerSIG answers `sig NAME [VERSION]`: the SIG's KEPs with their stage
// now, by number, or with a version the SIG's KEPs that reached a stage in
// that release (kep.yaml's record for the KEPs it knows). It fails with
// ENOTFOUND naming the known SIGs, and the nearest, for a SIG it does not
// know.
func (e *Engine) answerSIG(ctx context.Context, name string, v knowledge.Version) (*knowledge.Answer, error) {
	sig := sigKey(name)
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	mine := c.sigs[sig]
	if len(mine) == 0 {
		return nil, unknownSIG(c, sig)
	}
	a := &knowledge.Answer{Kind: knowledge.KindSIG, Title: sig}
	if v.IsZero() {
		var ids []string
		count := map[knowledge.Stage]int{}
		for _, k := range mine {
			it := kepItem(k)
			a.Items = append(a.Items, it)
			count[it.Stage]++
			ids = append(ids, k.Source)
		}
		a.Text = fmt.Sprintf("I know %s of %s: %s.", knowledge.Plural(len(mine), "KEP", "KEPs"), sig, stageCounts(count))
		a.Sources = c.sourceRefs(ids)
		return a, nil
	}
	r, err := e.findRelease(ctx, v, func(w knowledge.Version) string { return "sig " + strings.TrimPrefix(sig, "sig-") + " " + w.String() })
	if err != nil {
		return nil, err
	}
	ids := append([]string{}, r.Sources...)
	for _, it := range c.items[v] {
		if !strings.EqualFold(it.SIG, sig) || !it.Stage.IsGraduation() {
			continue
		}
		it.Text = knowledge.Quote(it.Text, e.maxQuote)
		a.Items = append(a.Items, it)
		ids = append(ids, it.Source)
	}
	sort.SliceStable(a.Items, func(i, j int) bool {
		x, y := a.Items[i], a.Items[j]
		if x.Stage != y.Stage {
			return x.Stage > y.Stage
		}
		if (x.KEP == 0) != (y.KEP == 0) {
			return x.KEP != 0
		}
		return x.KEP < y.KEP
	})
	a.Title = fmt.Sprintf("%s in Kubernetes %s", sig, v)
	count := map[knowledge.Stage]int{}
	for _, it := range a.Items {
		count[it.Stage]++
	}
	if len(a.Items) == 0 {
		a.Text = fmt.Sprintf("I know of nothing of %s that reached a stage in Kubernetes %s.", sig, v)
	} else {
		a.Text = fmt.Sprintf("In Kubernetes %s, %s of %s reached a stage: %d GA, %d beta, %d alpha.", v,
			knowledge.Plural(len(a.Items), "enhancement", "enhancements"), sig, count[knowledge.StageStable], count[knowledge.StageBeta], count[knowledge.StageAlpha])
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// stageCounts writes the stages KEPs are at now, leaving out those none is
// at: "3 GA, 1 deprecated, 2 at no stage yet".
func stageCounts(n map[knowledge.Stage]int) string {
	var parts []string
	for _, s := range []knowledge.Stage{knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha, knowledge.StageDeprecated, knowledge.StageRemoved} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s.Label()))
		}
	}
	if n[knowledge.StageNone] > 0 {
		parts = append(parts, fmt.Sprintf("%d at no stage yet", n[knowledge.StageNone]))
	}
	return strings.Join(parts, ", ")
}

// unknownSIG is the ENOTFOUND error for a SIG no KEP names.
func unknownSIG(c *catalog, sig string) error {
	var sigs, bare []string
	for s := range c.sigs {
		sigs = append(sigs, s)
	}
	sort.Strings(sigs)
	for _, s := range sigs {
		bare = append(bare, strings.TrimPrefix(s, "sig-"))
	}
	msg := fmt.Sprintf("I know no KEP of %s.", knowledge.Echo(sig))
	if len(sigs) > 0 {
		msg += " SIGs I know: " + strings.Join(bare, ", ") + "."
	}
	want := strings.TrimPrefix(sig, "sig-")
	near := knowledge.ClosestWords(want, bare)
	for _, b := range bare { // networking is network, net is network
		if len(near) < knowledge.MaxSuggestions && len(want) >= 3 && (strings.HasPrefix(want, b) || strings.HasPrefix(b, want)) && !slices.Contains(near, b) {
			near = append(near, b)
		}
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: msg, Suggestions: prose.PrefixAll("sig ", near)}
}

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }
