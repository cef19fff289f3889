package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
)

// section is one heading and the blocks up to the next heading.
type section struct {
	level    int
	title    string // the heading as written, Markdown included
	name     string // the heading as plain text
	line     int
	parent   int // index in the outline, -1 at the top
	children int // how many headings sit directly under it
	body     []block
}

// outline is a document's headings in order, each with its body.
type outline []section

// buildOutline groups blocks under their headings. Blocks before the first
// heading belong to a level-0 section at index 0 titled "". A heading that
// asks a question under another ("### What does this change mean?") is folded
// into its parent's body: it explains the parent, it is not an item.
func buildOutline(blocks []block) outline {
	out := outline{{level: 0, parent: -1}}
	stack := []int{0}
	for _, b := range blocks {
		if b.kind != blockHeading {
			out[len(out)-1].body = append(out[len(out)-1].body, b)
			continue
		}
		for len(stack) > 1 && out[stack[len(stack)-1]].level >= b.level {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1]
		if parent > 0 && b.level >= 3 && strings.HasSuffix(b.plain, "?") {
			last := &out[len(out)-1]
			last.body = append(last.body, block{kind: blockParagraph, text: b.text, plain: b.plain, line: b.line})
			continue
		}
		out = append(out, section{level: b.level, title: b.text, name: b.plain, line: b.line, parent: parent})
		out[parent].children++
		stack = append(stack, len(out)-1)
	}
	return out
}

// ancestors returns the indexes from s's parent up to the top.
func (o outline) ancestors(s int) []int {
	var out []int
	for p := o[s].parent; p > 0; p = o[p].parent {
		out = append(out, p)
	}
	return out
}

// heading returns a section's title as plain text.
func (o outline) heading(s int) string { return o[s].name }

// boilerplateRe matches the headings of a post's standing parts: the theme,
// the policy explainer, availability, the team, velocity, events, webinar,
// how to get involved. Nothing under them is a feature or a notice.
var boilerplateRe = lazyre.New(`(?i)^(release theme|the kubernetes api removal and deprecation process|want to know more|availability|release team|project velocity|ecosystem update|event update|upcoming release webinar|get involved|a quick look)`)

// itemOnlySkipRe matches headings that hold pointers, not facts, but whose
// children can still be items ("Release notes and upgrade actions required").
var itemOnlySkipRe = lazyre.New(`(?i)^release notes\b`)

// inBoilerplate reports whether s or an ancestor is a standing part.
func (o outline) inBoilerplate(s int) bool {
	if boilerplateRe().MatchString(o.heading(s)) {
		return true
	}
	for _, a := range o.ancestors(s) {
		if boilerplateRe().MatchString(o.heading(a)) {
			return true
		}
	}
	return false
}

// paragraphs returns the text blocks of a body up to a thematic break, in
// order, as plain text. A paragraph that only names SIGs in parentheses
// ("([SIG Auth](...), [SIG Security](...))") is left out.
func paragraphs(body []block) []string {
	var out []string
	for i, b := range textBlocks(body) {
		t := b.plain
		if i == 0 {
			t = dropSIGPrefix(t)
		}
		if b.kind == blockItem {
			t = "- " + t
		}
		out = append(out, t)
	}
	return out
}

// textBlocks returns the paragraphs and list items of a body up to its first
// thematic break, SIG-only paragraphs left out.
func textBlocks(body []block) []block {
	var out []block
	for _, b := range body {
		if b.kind == blockBreak {
			break
		}
		if b.kind != blockParagraph && b.kind != blockItem {
			continue
		}
		if isSIGNote(b.plain) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// dropSIGPrefix removes a leading "(SIG Auth, SIG Security ...)" that
// continues a heading onto the first line of its body.
func dropSIGPrefix(t string) string {
	if !strings.HasPrefix(t, "(") {
		return t
	}
	end := strings.Index(t, ")")
	if end < 0 || !strings.Contains(t[:end], "SIG ") {
		return t
	}
	return strings.TrimSpace(t[end+1:])
}

// isSIGNote reports whether a plain paragraph only names SIGs in parentheses.
func isSIGNote(t string) bool {
	return strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && strings.Contains(t, "SIG ")
}

// rawBody joins the Markdown of a body's text blocks, for reading links.
func rawBody(body []block) string {
	var b strings.Builder
	for _, bl := range textBlocks(body) {
		b.WriteString(bl.text)
		b.WriteString("\n")
	}
	return b.String()
}

// itemText is "a paragraph or so" of a body: paragraphs and list items in
// order until about 400 characters, clipped at 1200.
func itemText(body []block) string {
	var parts []string
	n := 0
	for _, p := range paragraphs(body) {
		if n >= 400 {
			break
		}
		parts = append(parts, p)
		n += len(p)
	}
	return clip(strings.Join(parts, "\n"), 1200)
}

// trackerRe matches a link to a KEP, an issue or a pull request of the
// Kubernetes project: what a list of graduations or removals links to.
var trackerRe = lazyre.New(`(?i)kep\.k8s\.io/\d|github\.com/kubernetes/[\w.-]+/(?:issues|pull)/\d|/keps/sig-`)

// listEntries returns the list items of a body that start with a link to a
// KEP, issue or pull request ("* [Widget support](https://kep.k8s.io/NNNN)"),
// with the plain text of
// the paragraph before each run of them ("Removals:"), or nil when the body
// is not such a list.
func listEntries(body []block) (entries []block, labels []string) {
	label := ""
	for _, b := range body {
		switch b.kind {
		case blockParagraph:
			label = b.plain
		case blockItem:
			if ls := links(b.text); len(ls) > 0 && strings.HasPrefix(strings.TrimSpace(b.text), "[") && trackerRe().MatchString(ls[0].URL) {
				entries = append(entries, b)
				labels = append(labels, label)
			}
		}
	}
	return entries, labels
}
