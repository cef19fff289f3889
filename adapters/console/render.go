package console

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// Width is the column at which Render wraps long lines.
const Width = 78

// Render writes a readable plain-text view of a for a terminal: how free
// text was read, title, summary, facts, timeline, items, notices, links,
// notes, sources and "did you mean". It fails only when writing to w fails.
func Render(w io.Writer, a *knowledge.Answer) error {
	bw := bufio.NewWriter(w)
	r := &renderer{w: bw}
	if a == nil {
		r.line("", "Sorry, I have no answer.")
	} else {
		r.answer(a)
	}
	return bw.Flush()
}

type renderer struct {
	w       *bufio.Writer
	started bool // a section was written: the next one starts with a blank line
	col     int  // where fact values start; 0 is factCol
}

// Where fact values start: factCol, or as far as maxFactCol when an
// answer's fact names need it.
const (
	factCol    = 16
	maxFactCol = 26
)

func (r *renderer) answer(a *knowledge.Answer) {
	if a.UnderstoodAs != "" {
		r.line("", "(read as: "+a.UnderstoodAs+")")
	}
	if a.Kind == knowledge.KindError {
		r.wrap("", "", a.Text)
		r.suggestions(a.Suggest)
		return
	}
	if a.Title != "" {
		r.line("", a.Title)
	}
	for _, para := range strings.Split(a.Text, "\n") {
		if strings.TrimSpace(para) != "" {
			r.wrap("", "", para) // a lead line (the attribute asked) keeps its own line
		}
	}
	r.started = true
	gatesFirst := a.Kind == knowledge.KindGate || a.Kind == knowledge.KindGateChanges
	if gatesFirst {
		r.gates(a) // a gate's card: the code's table before its KEP
	}
	headFacts := !a.BreaksFirst // an upgrade's facts (its vulnerabilities) are a part of their own
	if a.KEP != nil || hasReleaseFacts(a.Release) || headFacts && len(a.Facts) > 0 || len(a.Releases) > 0 {
		r.section()
		r.col = factColumn(a.Facts)
		if a.KEP != nil {
			r.kepFacts(a.KEP)
		}
		if a.Release != nil {
			r.releaseFacts(a.Release)
		}
		for _, rf := range a.Releases {
			r.fact(rf.Version, releaseLine(rf))
		}
		if headFacts {
			for _, f := range a.Facts {
				r.fact(f.Name, f.Value)
			}
		}
		r.started = true
	}
	apis, others := knowledge.SplitAPIRemovals(a.Notices)
	switch {
	case a.BreaksFirst:
		// An upgrade: what breaks a cluster or needs doing comes before
		// what graduated, in the parts every platform draws.
		for _, p := range knowledge.BreakParts(a) {
			switch p.Kind {
			case knowledge.PartNotices:
				r.notices(p.Group.Heading()+":", p.Group.Notices)
			case knowledge.PartGates:
				r.gates(a) // render_gates.go
			case knowledge.PartVulns:
				r.section()
				r.line("", fmt.Sprintf("%s (%d):", knowledge.VulnsTitle, len(a.Facts)))
				r.col = factColumn(a.Facts)
				for _, f := range a.Facts {
					r.fact(f.Name, f.Value)
				}
				r.started = true
			case knowledge.PartItems:
				r.items(a)
			}
		}
	case len(apis) > 0 && a.Notices[0].API != nil:
		r.notices("APIs that stop being served:", apis)
		r.notices("Removals, deprecations and upgrade notes:", others)
		r.items(a)
	default:
		r.items(a)
		r.notices("APIs that stop being served:", apis)
		r.notices("Notices:", others)
	}
	var links []knowledge.Link
	if a.KEP != nil {
		links = append(links, a.KEP.Links...)
	}
	r.links(append(links, a.Links...))
	if len(a.Notes)+len(a.Sources)+len(a.Suggest) > 0 {
		r.section()
	}
	for _, n := range a.Notes {
		r.wrap("Note: ", "      ", n)
	}
	for _, s := range a.Sources {
		src := "Source: " + s.Name
		if s.AsOf != "" {
			src += ", as of " + s.AsOf
		} else {
			src += ", date unknown"
		}
		r.wrap("", "  ", src)
	}
	if len(a.Suggest) > 0 {
		r.wrap("", "  ", "See also: "+strings.Join(a.Suggest, ", "))
	}
}

// suggestions is an error's "did you mean": the questions it may have
// been. An answer's own follow-ups are "see also" (answer).
func (r *renderer) suggestions(s []string) {
	if len(s) > 0 {
		r.wrap("", "  ", "Did you mean: "+strings.Join(s, " or ")+"?")
	}
}

// section starts a new block with a blank line, once something came before.
func (r *renderer) section() {
	if r.started {
		r.w.WriteString("\n")
		r.started = false
	}
}

func (r *renderer) line(indent, s string) {
	r.w.WriteString(strings.TrimRight(indent+s, " ") + "\n")
}

// wrap writes s after first, wrapping at Width with later lines after rest.
func (r *renderer) wrap(first, rest, s string) {
	for i, l := range wrapText(s, Width-displayWidth(first)) {
		if i == 0 {
			r.line(first, l)
		} else {
			r.line(rest, l)
		}
	}
}

// factColumn is where the values of facts start: past the widest name
// when every name fits before maxFactCol, else at factCol (long names,
// like help's, then put their values on the next line).
func factColumn(facts []knowledge.Fact) int {
	col := factCol
	for _, f := range facts {
		w := displayWidth(f.Name) + 2
		if w > maxFactCol {
			return factCol
		}
		col = max(col, w)
	}
	return col
}

// fact writes an aligned "name  value" line; a long name puts the value on
// the next line.
func (r *renderer) fact(name, value string) {
	col := max(r.col, factCol)
	if value == "" {
		return
	}
	if displayWidth(name) >= col-1 {
		r.line("  ", name)
		r.wrap("      ", "      ", value)
		return
	}
	pad := "  " + name + strings.Repeat(" ", col-displayWidth(name))
	r.wrap(pad, strings.Repeat(" ", col+2), value)
}

func (r *renderer) kepFacts(f *knowledge.KEPFacts) {
	r.fact("SIG", f.SIG)
	r.fact("Stage", f.Stage.Label())
	r.fact("Status", f.Status)
	r.fact("Reached", stageMap(f.Milestones))
	r.fact("Planned", stageMap(knowledge.Without(f.Targets, f.Missed)))
	r.fact("Not reached", stageMap(f.Missed))
	r.fact("Feature gates", strings.Join(f.FeatureGates, ", "))
	r.fact("Timeline", Timeline(f.Timeline))
}

func (r *renderer) releaseFacts(f *knowledge.ReleaseFacts) {
	r.fact("Date", f.Date)
	r.fact("Theme", f.Theme)
	if c := f.Enhancements; !c.IsZero() {
		r.fact("Enhancements", c.FieldText())
	}
}

// hasReleaseFacts reports whether releaseFacts would write a line of f.
func hasReleaseFacts(f *knowledge.ReleaseFacts) bool {
	return f != nil && (f.Date != "" || f.Theme != "" || !f.Enhancements.IsZero())
}

// stageMap writes a stage map as "alpha 1.29, beta 1.31", in stage order.
func stageMap(m map[string]string) string {
	var parts []string
	for _, s := range knowledge.GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// Timeline writes steps as "alpha 1.29 → beta 1.31 → back to alpha 1.32".
// Repeats (a later document naming the stage already reached) are left
// out: they do not move the graduation.
func Timeline(steps []knowledge.Step) string {
	var parts []string
	for _, s := range steps {
		switch {
		case s.Repeat:
			continue
		case s.Back:
			parts = append(parts, "back to "+s.Stage.Label()+" "+s.Release.String())
		default:
			parts = append(parts, s.Stage.Label()+" "+s.Release.String())
		}
	}
	return strings.Join(parts, " → ")
}

// items writes an answer's items under a heading that suits its kind.
func (r *renderer) items(a *knowledge.Answer) {
	if len(a.Items) == 0 {
		return
	}
	r.section()
	oneKEP := a.KEP != nil
	switch {
	case oneKEP:
		r.line("", "What the documents said:")
	case a.Kind == knowledge.KindRelease:
		r.line("", "Highlights:")
	case a.Kind == knowledge.KindDiff:
		r.line("", "What reached a stage or ended, ranked:")
	}
	for _, it := range a.ItemsWithoutSharedSIG() {
		bullet := "  - "
		if it.Rank > 0 {
			bullet = fmt.Sprintf("  %d. ", it.Rank)
		}
		r.wrap(bullet, "    ", itemLine(it, oneKEP))
		if it.Text != "" {
			r.wrap("      “", "       ", it.Text+"”")
		}
	}
	r.started = true
}

// itemLine writes one item: "KEP-3866 nftables backend (alpha in 1.29,
// sig-network)", or "1.29 alpha: nftables backend" in a KEP's own answer.
func itemLine(it knowledge.Item, oneKEP bool) string {
	var b strings.Builder
	if oneKEP {
		b.WriteString(strings.TrimSpace(it.Release.String() + " " + it.Stage.Label()))
		if it.Title != "" {
			b.WriteString(": " + it.Title)
		}
		return b.String()
	}
	if it.KEP > 0 {
		fmt.Fprintf(&b, "KEP-%d ", it.KEP)
	}
	b.WriteString(it.Title)
	var tags []string
	switch {
	case it.Stage != knowledge.StageNone && !it.Release.IsZero():
		tags = append(tags, it.Stage.Label()+" in "+it.Release.String())
	case it.Stage != knowledge.StageNone:
		tags = append(tags, it.Stage.Label())
	case !it.Release.IsZero():
		tags = append(tags, it.Release.String())
	}
	if it.SIG != "" {
		tags = append(tags, it.SIG)
	}
	if len(tags) > 0 {
		b.WriteString(" (" + strings.Join(tags, ", ") + ")")
	}
	return strings.TrimSpace(b.String())
}

// releaseLine writes one release of the releases answer: "2023-12-13 ·
// Mandala · 49 enhancements (11 GA, 19 beta, 19 alpha)".
func releaseLine(f knowledge.ReleaseFacts) string {
	var parts []string
	if f.Date != "" {
		parts = append(parts, f.Date)
	}
	if f.Theme != "" {
		parts = append(parts, f.Theme)
	}
	if c := f.Enhancements; !c.IsZero() {
		if c.Total > 0 {
			parts = append(parts, fmt.Sprintf("%d enhancements (%s)", c.Total, c.StageText()))
		} else {
			parts = append(parts, c.StageText())
		}
	}
	if len(parts) == 0 {
		return "announced, no date known"
	}
	return strings.Join(parts, " · ")
}

// notices writes notices under heading, with the API each stops serving.
func (r *renderer) notices(heading string, ns []knowledge.Notice) {
	if len(ns) == 0 {
		return
	}
	r.section()
	r.line("", heading)
	for _, n := range ns {
		head := fmt.Sprintf("%s in %s: %s", n.Heading(), n.Release, n.Title)
		var tags []string
		if n.KEP > 0 {
			tags = append(tags, fmt.Sprintf("KEP-%d", n.KEP))
		}
		if len(n.FeatureGates) > 0 {
			tags = append(tags, "gates: "+strings.Join(n.FeatureGates, ", "))
		}
		if n.PR > 0 && n.Title != knowledge.PRTitle(n.PR) { // a title that is the PR says it already
			tags = append(tags, fmt.Sprintf("PR #%d", n.PR))
		}
		if n.ActionTagged() {
			tags = append(tags, "action required")
		}
		if l := n.LabelTag(); l != "" {
			tags = append(tags, l)
		}
		if len(n.SIGs) > 0 {
			tags = append(tags, strings.Join(n.SIGs, ", "))
		}
		if len(tags) > 0 {
			head += " (" + strings.Join(tags, "; ") + ")"
		}
		r.wrap("  - ", "    ", head)
		if n.URL != "" {
			r.wrap("      ", "      ", n.URL)
		}
		if api := n.API; api != nil {
			s := "API " + api.GroupVersion
			if len(api.Kinds) > 0 {
				s += " (" + strings.Join(api.Kinds, ", ") + ")"
			}
			if api.ReplacedBy != "" {
				s += ": use " + api.Replacement()
			}
			r.wrap("      ", "      ", s)
		}
		if n.Text != "" {
			r.wrap("      “", "       ", n.Text+"”")
		}
	}
	r.started = true
}

func (r *renderer) links(ls []knowledge.Link) {
	if len(ls) == 0 {
		return
	}
	r.section()
	r.line("", "Links:")
	for _, l := range ls {
		r.line("  ", l.Title+": "+l.URL)
	}
	r.started = true
}

// wrapText breaks s into lines of at most width columns, at spaces where it
// can and between wide (CJK) characters where it must. A word longer than
// width stays whole on its own line.
func wrapText(s string, width int) []string {
	s = strings.Join(strings.Fields(s), " ")
	if width < 20 {
		width = 20
	}
	var lines []string
	var cur strings.Builder
	curW := 0
	flush := func() {
		lines = append(lines, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		curW = 0
	}
	for _, tok := range tokens(s) {
		tw := displayWidth(tok)
		if tok == " " {
			if curW > 0 && curW < width {
				cur.WriteString(" ")
				curW++
			}
			continue
		}
		if curW > 0 && curW+tw > width {
			flush()
		}
		cur.WriteString(tok)
		curW += tw
	}
	if cur.Len() > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// tokens splits s into words, single spaces, and single wide characters,
// the units wrapText may not break.
func tokens(s string) []string {
	var out []string
	start := -1
	for i, c := range s {
		if c == ' ' || isWide(c) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(c))
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// displayWidth counts the terminal columns of s: two for wide characters.
func displayWidth(s string) int {
	n := 0
	for _, c := range s {
		switch {
		case isWide(c):
			n += 2
		case unicode.Is(unicode.Mn, c):
		default:
			n++
		}
	}
	return n
}

// isWide reports whether c takes two terminal columns (CJK and full-width).
func isWide(c rune) bool {
	return unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6)
}
