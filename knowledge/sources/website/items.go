package website

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// doc is one parsed post: its name (the Source ID), front matter, outline
// and the release it is about.
type doc struct {
	name  string
	fm    frontMatter
	o     outline
	rel   knowledge.Version
	title string
}

// context is what the headings above an item (and the item's own) say it is.
type context struct {
	notice  bool            // under a deprecations/removals/upgrade heading
	stage   knowledge.Stage // under a stage heading, when not a notice
	heading string          // every heading from the top down to the item, plain, for notice kinds
}

// contextOf walks from section s up: the nearest heading that announces
// notices or names a stage decides.
func (d *doc) contextOf(s int) context {
	var c context
	var path []string
	for _, j := range append([]int{s}, d.o.ancestors(s)...) {
		h := d.o.heading(j)
		path = append([]string{h}, path...)
		if c.notice || c.stage != knowledge.StageNone {
			continue
		}
		if has(noticeHeadingRe(), h, "deprecat", "remov", "withdraw", "upgrade", "action") {
			c.notice = true
		} else if st := headingStage(d.o[j].title); st != knowledge.StageNone {
			c.stage = st
		}
	}
	c.heading = strings.Join(path, " / ")
	return c
}

// parentHeading is the plain heading of the section s sits in, or "".
func (d *doc) parentHeading(s int) string {
	if p := d.o[s].parent; p > 0 {
		return d.o.heading(p)
	}
	return ""
}

// mentionsOf makes the mentions of one feature section: one per KEP its
// heading and body name, or one without a number when they name none and
// withoutKEP is set.
func (d *doc) mentionsOf(s int, st knowledge.Stage, withoutKEP bool) []knowledge.Mention {
	sec := d.o[s]
	raw := sec.title + "\n" + rawBody(sec.body)
	text := plain(sec.title) + "\n" + strings.Join(paragraphs(sec.body), "\n")
	base := knowledge.Mention{
		Title: featureName(sec.title), Stage: st, Release: d.rel,
		SIG:          sigOf(raw, text),
		FeatureGates: mergeNames(gatesInHeading(sec.title), gatesIn(sec.body)),
		Section:      d.parentHeading(s), Text: itemText(sec.body),
		Source: d.name, Line: sec.line,
	}
	refs := kepRefs(raw)
	if len(refs) == 0 {
		if !withoutKEP {
			return nil
		}
		return []knowledge.Mention{base}
	}
	var out []knowledge.Mention
	for _, r := range refs {
		m := base
		m.FeatureGates = append([]string(nil), base.FeatureGates...)
		m.KEP, m.Link = r.Num, r.URL
		m.Via = viaOf(r, text)
		out = append(out, m)
	}
	return out
}

// entryMentions makes one mention per entry of a list of linked features
// ("* [Widget support](https://github.com/kubernetes/enhancements/issues/NNNN)").
func (d *doc) entryMentions(s int, st knowledge.Stage) []knowledge.Mention {
	entries, _ := listEntries(d.o[s].body)
	var out []knowledge.Mention
	for _, e := range entries {
		ls := links(e.text)
		m := knowledge.Mention{
			Title: ls[0].Text, Stage: st, Release: d.rel,
			SIG: sigOf(e.text, e.plain), FeatureGates: gatesIn([]block{e}),
			Section: d.o.heading(s), Text: plain(e.text),
			Source: d.name, Line: e.line,
		}
		if refs := kepRefs(e.text); len(refs) > 0 {
			m.KEP, m.Link, m.Via = refs[0].Num, refs[0].URL, viaOf(refs[0], plain(e.text))
		}
		out = append(out, m)
	}
	return out
}

// viaOf is "link" when a KEP's number shows only in a link target, not in
// the words; "" when the words carry it.
func viaOf(r kepRef, text string) string {
	if r.URL == "" || hasNumber(text, r.Num) {
		return ""
	}
	return "link"
}

// hasNumber reports whether text holds n as a whole number.
func hasNumber(text string, n int) bool {
	s := strconv.Itoa(n)
	for i := 0; ; {
		j := strings.Index(text[i:], s)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(s)
		if (at == 0 || !isDigit(text[at-1])) && (end == len(text) || !isDigit(text[end])) {
			return true
		}
		i = at + 1
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// noticesOf makes the notices of one section: one per entry of a list of
// linked items, else one for the section (or one per API version a removal
// section names).
func (d *doc) noticesOf(s int, c context, rel knowledge.Version) []knowledge.Notice {
	sec := d.o[s]
	if entries, labels := listEntries(sec.body); len(entries) > 0 {
		var out []knowledge.Notice
		for i, e := range entries {
			l := links(e.text)[0]
			n := knowledge.Notice{
				Kind:    noticeKind(l.Text, labels[i]+" / "+c.heading, plain(e.text)),
				Release: rel, Title: l.Text, Text: plain(e.text),
				FeatureGates: gatesIn([]block{e}), Source: d.name, Line: e.line,
			}
			if strings.HasPrefix(l.URL, "https://github.com/kubernetes/kubernetes/pull/") {
				n.URL = l.URL // the pull request the post links the item to
			}
			if refs := kepRefs(e.text); len(refs) > 0 {
				n.KEP = refs[0].Num
			}
			out = append(out, withAPI(n, plain(e.text))...)
		}
		return out
	}
	heading := d.o.heading(s)
	body := strings.Join(paragraphs(sec.body), "\n")
	n := knowledge.Notice{
		Kind:    noticeKind(heading, c.heading, body),
		Release: rel, Title: noticeTitle(sec.title), Text: itemText(sec.body),
		FeatureGates: mergeNames(gatesIn([]block{{kind: blockParagraph, text: sec.title}}), gatesIn(sec.body)),
		Source:       d.name, Line: sec.line,
	}
	if refs := kepRefs(sec.title + "\n" + rawBody(sec.body)); len(refs) > 0 {
		n.KEP = refs[0].Num
	}
	return withAPI(n, heading+".\n"+body)
}

// withAPI gives a removal notice the API versions its text says stop being
// served, one notice per version, each titled by its kinds and version.
func withAPI(n knowledge.Notice, text string) []knowledge.Notice {
	if n.Kind != knowledge.NoticeRemoval {
		return []knowledge.Notice{n}
	}
	apis := apiRemovals(text)
	if len(apis) == 0 {
		return []knowledge.Notice{n}
	}
	out := make([]knowledge.Notice, 0, len(apis))
	for i := range apis {
		m := n
		m.API = &apis[i]
		m.Title = apiTitle(apis[i])
		out = append(out, m)
	}
	return out
}

// noticeTitle is a heading without its trailing "(KEP 4004)" or "(SIG ...)".
func noticeTitle(title string) string {
	t := trailerRe().ReplaceAllString(plain(title), "")
	if t == "" {
		return plain(title)
	}
	return t
}

func mergeNames(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, n := range b {
		out = addName(out, n)
	}
	return out
}
