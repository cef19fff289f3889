package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// answerGate answers `gate NAME`, in any case: what each release's code
// declares about the gate (in Answer.Gate: its stage, default and lock
// release by release, when it came and went), the KEP that owns it (in
// Answer.KEP, with its stages and what documents said of it) and the
// notices that name it. The store finds the owner by its gate index. A
// kep.yaml placeholder (None, NA, TBD) is said to be none. It fails with
// ENOTFOUND and "did you mean" the nearest known gates when neither the
// code, a KEP nor a notice names it.
func (e *Engine) answerGate(ctx context.Context, name string) (*knowledge.Answer, error) {
	if knowledge.IsGatePlaceholder(name) {
		return nil, &knowledge.Error{Code: knowledge.ENOTFOUND, Suggestions: []string{"gate ImageVolume", "help gate"},
			Message: fmt.Sprintf("%s is not a feature gate: kep.yaml files write it where a KEP has no gate. Ask gate with a gate's name, e.g. gate ImageVolume.", knowledge.Echo(name))}
	}
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
	code := c.codeGate(name)
	byNotes := false // no kep.yaml names it; the release notes tie it to its KEP (a gate renamed since, a kep.yaml naming it otherwise)
	if k == nil && code != nil && len(code.KEPs) == 1 {
		if nk, ok := c.byNum[code.KEPs[0]]; ok {
			k, byNotes = nk, true
		}
	}
	if k == nil && len(notices) == 0 && code == nil {
		if g, ok := c.gates.ByConstant(name); ok {
			return nil, constantGate(name, g)
		}
		return nil, e.unknownGate(ctx, c, name)
	}
	gate := gateSpelling(k, notices, name)
	if code != nil {
		gate = code.Name
	}
	for i := range notices {
		notices[i].Text = knowledge.Quote(knowledge.NoticeWords(notices[i]), e.maxQuote)
	}
	a := &knowledge.Answer{Kind: knowledge.KindGate, Title: "Feature gate " + gate, Notices: notices}
	var ids []string
	var text []string
	if code != nil {
		a.Gate = c.gateFacts(code)
		ids = append(ids, gateSources(c, code)...)
		text = append(text, c.gateCodeText(code, a.Gate))
		if w := c.unusedWords(c.gateNotices[strings.ToLower(name)], gate); w != "" {
			text = append(text, w)
		}
		if other := c.otherGate(code); other != "" {
			a.Notes = append(a.Notes, other)
		}
	} else if c.gates.Known() {
		text = append(text, fmt.Sprintf("No release I read (%s-%s) declares %s in its code.", c.gates.Reads()[0].Release, c.gates.Newest(), gate))
	}
	if k != nil {
		ids = append(ids, kepSourceIDs(k)...)
	}
	for _, n := range notices {
		ids = append(ids, n.Source)
	}
	a.Sources = c.sourceRefs(ids)
	if k == nil {
		if code == nil || len(notices) > 0 {
			text = append(text, fmt.Sprintf("%s belongs to no KEP I know; %s.", gate, knowledge.Plural(len(notices), "notice names it", "notices name it")))
		}
		a.Text = strings.Join(text, " ")
		return a, nil
	}
	ka := e.kepAnswer(k, c.sources) // what `kep N` says of k
	a.KEP, a.Items = ka.KEP, ka.Items
	a.Notes = append(a.Notes, ka.Notes...)
	kt := fmt.Sprintf("It is the feature gate of %s.", kepTitle(a.KEP))
	if byNotes {
		kt = fmt.Sprintf("The release notes tie it to %s, whose kep.yaml does not name it.", kepTitle(a.KEP))
	}
	if a.KEP.Stage != knowledge.StageNone {
		kt += fmt.Sprintf(" KEP-%d is %s", a.KEP.Number, a.KEP.Stage.Label())
		if r := knowledge.ReachedWithSources(a.KEP.Milestones, a.KEP.Disputed, knowledge.StageNone); r != "" {
			kt += ": " + r
		}
		kt += "."
	}
	if t := knowledge.ReachedList(knowledge.Without(knowledge.Without(a.KEP.Targets, a.KEP.Missed), a.KEP.Unconfirmed)); t != "" {
		kt += " Planned: " + t + "."
	}
	if m := missedList(a.KEP.Missed); m != "" {
		kt += " " + m + "."
	}
	if u := unconfirmedList(a.KEP.Unconfirmed); u != "" {
		kt += " " + u + "."
	}
	if len(notices) > 0 {
		kt += " " + capitalize(knowledge.Plural(len(notices), "notice names", "notices name")) + " it."
	}
	if len(named) > 1 {
		kt += " " + sharedGate(gate, named)
		for _, o := range named[1:] {
			a.Suggest = append(a.Suggest, "kep "+strconv.Itoa(o.Number))
		}
	}
	if code == nil {
		kt = strings.Replace(kt, "It is the feature gate", gate+" is the feature gate", 1)
	}
	a.Text = strings.Join(append(text, kt), " ")
	return a, nil
}

// gateSources are the sources of g's declarations: the newest release's
// that declares it, and the oldest's.
func gateSources(c *catalog, g *knowledge.FeatureGate) []string {
	var ids []string
	for _, v := range []knowledge.Version{g.Last().Release, g.Releases[0].Release} {
		if r, ok := c.gates.Read(v); ok {
			ids = append(ids, r.Sources...)
		}
	}
	return ids
}

// otherGate says that kubeadm has its own gate of g's name (or the
// components have one of kubeadm's gate's name), with its runs; "" when
// not.
func (c *catalog) otherGate(g *knowledge.FeatureGate) string {
	o, ok := c.gates.Lookup(g.Name, !g.Kubeadm)
	if !ok {
		return ""
	}
	of := c.gateFacts(o)
	var spans []string
	for _, s := range of.Spans() {
		spans = append(spans, s.String())
	}
	if o.Kubeadm {
		return fmt.Sprintf("kubeadm has a gate of its own named %s (ClusterConfiguration.featureGates): %s.", o.Name, strings.Join(spans, ", "))
	}
	who := gateWho(o, of)
	if who == "" {
		who = "declared by several modules; ask gate " + o.Name
	}
	return fmt.Sprintf("The components have a gate of their own named %s (%s): %s.", o.Name, who, strings.Join(spans, ", "))
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

// constantGate is the ENOTFOUND error for a name that is the Go constant
// of gate g, not a gate's name: the name users set is g's
// (CPUCFSQuotaPeriod is the constant of CustomCPUCFSQuotaPeriod; a
// component given the constant does not start).
func constantGate(name string, g *knowledge.FeatureGate) error {
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Suggestions: []string{"gate " + g.Name},
		Message: fmt.Sprintf("%s is the Go constant of feature gate %s, not a gate's name: components take %s (--feature-gates=%s=true), and do not start when given %s (unrecognized feature gate).",
			knowledge.Echo(name), g.Name, g.Name, g.Name, knowledge.Echo(name))}
}

// unknownGate is the ENOTFOUND error for a gate nothing names, with the
// nearest gates of the store's index, of notices and of the code as
// suggestions.
func (e *Engine) unknownGate(ctx context.Context, c *catalog, name string) error {
	gates, err := e.kb.ListGates(ctx)
	if err != nil {
		return fmt.Errorf("list feature gates: %w", err)
	}
	all := append(append([]string(nil), gates...), c.noticeGates...)
	for _, g := range c.gates.All() {
		all = append(all, g.Name)
	}
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
