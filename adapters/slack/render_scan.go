package slack

import (
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// How api and scan answers are drawn. Each of their facts is one API (or
// one group of objects not built in) with a long value: what replaces
// it, the release and source that say so, and the objects that use it.
const (
	// capFact bounds one fact's section: its name and its value.
	capFact = 1200
	// factsPerPage is how many facts a page of an api answer shows; with
	// the summary, notes and sources it stays under MaxMessageChars.
	factsPerPage = 5
	// maxScanParts is how many messages one scan answer may take. A scan
	// cannot be asked again for its next page (its manifests are not kept),
	// so it is sent whole, in parts; a slash command's response_url takes
	// five posts (https://docs.slack.dev/interactivity/handling-user-interaction#message_responses).
	maxScanParts = 4
	// partChars and partBlocks bound one part, with room for "Part 2 of 3".
	partChars  = MaxMessageChars - 200
	partBlocks = MaxBlocks - 3
)

// factSection draws one fact of an api or scan answer: its name in bold on
// a line of its own, then its value, escaped and cut to capFact.
func factSection(f knowledge.Fact) string {
	v := escCut(oneLine(f.Value, capFact), capFact)
	name := oneLine(f.Name, capField)
	if name == "" {
		return truncate("• "+v, capFact)
	}
	return truncate("*"+escCut(name, capField)+"*\n"+v, capFact)
}

// factPage draws one page of an api answer's facts, a section each, and
// the page buttons when there are more pages (the question asked again
// gives the same facts).
func (r *renderer) factPage() {
	fs := r.a.Facts
	n := len(fs)
	if n == 0 {
		return
	}
	pages := min((n+factsPerPage-1)/factsPerPage, maxPages)
	page := min(max(r.o.Page, 0), pages-1)
	for i := page * factsPerPage; i < min((page+1)*factsPerPage, n); i++ {
		r.add(&Section{Text: factSection(fs[i])})
	}
	r.pager(page, pages, n, "API versions", false)
}

// RenderParts draws a as the messages to send, in order. A scan answer
// is drawn whole, in up to maxScanParts messages each within Slack's
// limits (scanParts); any other answer is the one message Render draws,
// paged with buttons when long.
func RenderParts(a *knowledge.Answer, o RenderOptions) []*Message {
	if a == nil || a.Kind != knowledge.KindScan {
		return []*Message{Render(a, o)}
	}
	return scanParts(a, o)
}

// scanParts draws a scan answer: the title and the summary line ("14
// objects: 2 removed by 1.36, …"), then a section for each API the
// manifests use that breaks or is deprecated (with its replacement, the
// release and source, and the objects) and each group not built in, then
// the notes (documents that could not be read) and sources. Facts that do
// not fit in maxScanParts messages are counted in a last line.
func scanParts(a *knowledge.Answer, o RenderOptions) []*Message {
	head := &renderer{a: a, o: o}
	head.header(a.Title)
	head.understood()
	head.section(escCut(a.Text, capSummary), capSummary)
	end := &renderer{a: a, o: o}
	end.tail()
	endChars, endBlocks := blockChars(end.blocks), len(end.blocks)
	const moreChars = 200

	var parts [][]Block
	cur := head.blocks
	dropped := 0
	for i := 0; i < len(a.Facts); i++ {
		s := &Section{Text: factSection(a.Facts[i])}
		chars, blocks := partChars, partBlocks
		last := len(parts) == maxScanParts-1
		if last {
			chars -= endChars + moreChars
			blocks -= endBlocks + 1
		}
		if blockChars(cur)+runes(s.Text) <= chars && len(cur)+1 <= blocks {
			cur = append(cur, s)
			continue
		}
		if last || len(cur) == 0 {
			dropped = len(a.Facts) - i
			break
		}
		parts, cur = append(parts, cur), nil
		i-- // this fact starts the next part
	}
	if dropped > 0 {
		cur = append(cur, &Section{Text: "… and " + strconv.Itoa(dropped) + " more that do not fit in " +
			strconv.Itoa(maxScanParts) + " messages. Scan fewer manifests at a time to see them all."})
	}
	if endBlocks > 0 {
		if len(cur) > 0 && (blockChars(cur)+endChars > partChars || len(cur)+endBlocks > partBlocks) {
			parts, cur = append(parts, cur), nil
		}
		cur = append(cur, end.blocks...)
	}
	if len(cur) > 0 {
		parts = append(parts, cur)
	}

	msgs := make([]*Message, len(parts))
	for i, blocks := range parts {
		m := &Message{Text: fallback(a), Blocks: blocks}
		if len(parts) > 1 {
			of := "Part " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(parts))
			m.Blocks = append(m.Blocks, &Context{Elements: []string{of}})
			if i > 0 {
				m.Text = truncate(escCut(a.Title, MaxFallbackText-40)+" ("+of+")", MaxFallbackText)
			}
		}
		if o.Slash {
			m.ResponseType = Ephemeral
			if o.Public {
				m.ResponseType = InChannel
			}
		}
		msgs[i] = m
	}
	return msgs
}
