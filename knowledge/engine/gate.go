package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// answerGate answers `gate NAME`, in any case: the KEP that owns the
// feature gate (in Answer.KEP, with its stages and what documents said of
// it) and the notices that name the gate. The store finds the owner by its
// gate index. It fails with ENOTFOUND and "did you mean" the nearest known
// gates when neither a KEP nor a notice names it.
func (e *Engine) answerGate(ctx context.Context, name string) (*knowledge.Answer, error) {
	k, err := e.kb.FindKEPByGate(ctx, name)
	switch code := knowledge.ErrorCode(err); {
	case code == knowledge.ENOTFOUND:
		k = nil
	case code == knowledge.EBADINPUT:
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("find feature gate %s: %w", knowledge.Echo(name), err)
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	named := c.gateKEPs[strings.ToLower(name)]
	if len(named) > 0 {
		k = named[0] // several KEPs may name it: the live one first
	}
	notices := append([]knowledge.Notice(nil), c.gateNotices[strings.ToLower(name)]...)
	if k == nil && len(notices) == 0 {
		return nil, e.unknownGate(ctx, c, name)
	}
	gate := gateSpelling(k, notices, name)
	for i := range notices {
		notices[i].Text = knowledge.Quote(knowledge.NoticeWords(notices[i]), e.maxQuote)
	}
	a := &knowledge.Answer{Kind: knowledge.KindGate, Title: "Feature gate " + gate, Notices: notices}
	var ids []string
	if k != nil {
		ids = kepSourceIDs(k)
	}
	for _, n := range notices {
		ids = append(ids, n.Source)
	}
	a.Sources = c.sourceRefs(ids)
	if k == nil {
		a.Text = fmt.Sprintf("%s belongs to no KEP I know; %s.", gate, knowledge.Plural(len(notices), "notice names it", "notices name it"))
		return a, nil
	}
	ka := e.kepAnswer(k, c.sources) // what `kep N` says of k
	a.KEP, a.Items, a.Notes = ka.KEP, ka.Items, ka.Notes
	a.Text = fmt.Sprintf("%s is the feature gate of %s.", gate, kepTitle(a.KEP))
	if a.KEP.Stage != knowledge.StageNone {
		a.Text += " It is " + a.KEP.Stage.Label()
		if r := knowledge.ReachedList(a.KEP.Milestones); r != "" {
			a.Text += ": " + r
		}
		a.Text += "."
	}
	if t := knowledge.ReachedList(a.KEP.Targets); t != "" {
		a.Text += " Planned: " + t + "."
	}
	if len(notices) > 0 {
		a.Text += " " + capitalize(knowledge.Plural(len(notices), "notice names", "notices name")) + " it."
	}
	if len(named) > 1 {
		a.Text += " " + sharedGate(gate, named)
		for _, o := range named[1:] {
			a.Suggest = append(a.Suggest, "kep "+strconv.Itoa(o.Number))
		}
	}
	return a, nil
}

// sharedGate says which other KEPs name a gate, each with its status and
// stage, so that a withdrawn or replaced KEP is never taken for the one
// that carries the feature now.
func sharedGate(gate string, named []*knowledge.KEP) string {
	var others []string
	for _, o := range named[1:] {
		what := "KEP-" + strconv.Itoa(o.Number) + " (" + o.Title
		if o.Status != "" {
			what += ", " + strings.ToLower(strings.TrimSpace(o.Status))
		}
		if st := o.CurrentStage(); st != knowledge.StageNone {
			what += ", " + st.Label()
		}
		others = append(others, what+")")
	}
	verb := "name"
	if len(others) == 1 {
		verb = "names"
	}
	return fmt.Sprintf("%s also %s %s: %s. I answer with KEP-%d, whose work went furthest.",
		knowledge.Plural(len(others), "other KEP", "other KEPs"), verb, gate, strings.Join(others, ", "), named[0].Number)
}

// gateSpelling is the gate's own spelling: the KEP's, else a notice's,
// else as asked.
func gateSpelling(k *knowledge.KEP, notices []knowledge.Notice, name string) string {
	if k != nil {
		for _, g := range k.Gates() {
			if strings.EqualFold(g, name) {
				return g
			}
		}
	}
	for _, n := range notices {
		for _, g := range n.FeatureGates {
			if strings.EqualFold(g, name) {
				return g
			}
		}
	}
	return name
}

// unknownGate is the ENOTFOUND error for a gate nothing names, with the
// nearest gates of the store's index and of notices as suggestions.
func (e *Engine) unknownGate(ctx context.Context, c *catalog, name string) error {
	gates, err := e.kb.ListGates(ctx)
	if err != nil {
		return fmt.Errorf("list feature gates: %w", err)
	}
	all := append(append([]string(nil), gates...), c.noticeGates...)
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I don't know a feature gate named %s.", knowledge.Echo(name)),
		Suggestions: prose.PrefixAll("gate ", closestFold(name, all))}
}

// lastRelease is the release of the last step of k's timeline.
func lastRelease(k *knowledge.KEP) knowledge.Version {
	tl := k.Timeline()
	if len(tl) == 0 {
		return knowledge.Version{}
	}
	return tl[len(tl)-1].Release
}

// closestFold is closest ignoring case, answering with vocab's spelling.
func closestFold(w string, vocab []string) []string {
	lower := make([]string, 0, len(vocab))
	back := map[string]string{}
	for _, v := range vocab {
		l := strings.ToLower(v)
		if _, dup := back[l]; dup {
			continue
		}
		back[l] = v
		lower = append(lower, l)
	}
	var out []string
	for _, c := range knowledge.ClosestWords(strings.ToLower(w), lower) {
		out = append(out, back[c])
		if len(out) == knowledge.MaxSuggestions {
			break
		}
	}
	return out
}
