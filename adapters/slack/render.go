package slack

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// Character caps of each part of a rendered answer. Together they keep a
// message under MaxMessageChars whatever the answer holds; the limits test
// renders huge synthetic answers to prove it.
const (
	capSummary    = 1200 // the answer's summary text
	capField      = 200  // one field of a card
	capTimeline   = 1000 // a KEP's stage timeline
	capLinks      = 800
	capNotes      = 800
	capSuggest    = 300
	capSources    = 600
	capLine       = 240 // one entry line of a list
	capHelp       = 2800
	pageSize      = 12 // entry lines a page shows
	maxPages      = 1000
	maxLinks      = 12 // links a message shows
	pageBlockID   = "kepbot_page"
	actionPrev    = "kepbot_page_prev"
	actionNext    = "kepbot_page_next"
	actionFile    = "kepbot_file" // post the whole list as a file
	askBlockID    = "kepbot_ask"
	actionAsk     = "kepbot_ask_" // and the suggestion's place: kepbot_ask_0
	shareBlockID  = "kepbot_share"
	actionShare   = "kepbot_share"
	shareText     = "Share in channel"
	maxAskButtons = 5 // suggestion buttons an answer offers
	publicFlag    = "--public"
	publicHint    = "Add `" + publicFlag + "` to a question to post the answer to the channel for everyone."
	internalSorry = "Sorry, something went wrong on my side. Try again in a moment."
)

// RenderOptions say how to draw an answer.
type RenderOptions struct {
	// Slash makes a slash-command response: it sets response_type.
	Slash bool
	// Public asks for in_channel; errors and help stay ephemeral anyway.
	// A private (ephemeral) answer ends with a "Share in channel" button.
	Public bool
	// Page is the 0-based page of a long list.
	Page int
	// Replace marks a page-button answer that replaces its message.
	Replace bool
	// Whole draws every line the message can hold instead of a page, with
	// no page buttons and longer lines: a digest posted with
	// chat.postMessage, which has no one to press a button for the next
	// page.
	Whole bool
	// Files says the adapter can post a file (it has a bot token): a long
	// upgrade answer offers its whole list as one (files.uploadV2).
	Files bool
}

// Render draws a as a Slack message within Slack's limits. Every string
// taken from a is escaped, so nothing in it can mention or link. A nil
// answer renders as the generic apology.
func Render(a *knowledge.Answer, o RenderOptions) *Message {
	m, _ := render(a, o)
	return m
}

// render is Render; cut reports whether lines of a were left out (or, on
// a page, sit on other pages).
//
// A subscription change that was made (subscribe, unsubscribe) is shown to
// the whole channel, as Discord shows it: the channel should know who set
// up its digests. Refusals stay with the person who asked.
func render(a *knowledge.Answer, o RenderOptions) (m *Message, cut bool) {
	if a == nil {
		a = &knowledge.Answer{Kind: knowledge.KindError, Title: "Sorry", Text: internalSorry}
	}
	m = &Message{Text: fallback(a), ReplaceOriginal: o.Replace}
	if o.Slash {
		m.ResponseType = Ephemeral
		if o.Public && a.Kind != knowledge.KindError && a.Kind != knowledge.KindHelp || changedSubscription(a) {
			m.ResponseType = InChannel
		}
	}
	if a.Kind == knowledge.KindScan {
		parts := scanParts(a, o)
		return parts[0], len(parts) > 1
	}
	r := &renderer{a: a, o: o, blocks: make([]Block, 0, 10)}
	switch a.Kind {
	case knowledge.KindError:
		r.error()
	case knowledge.KindHelp:
		r.help()
	default:
		r.answer()
		if m.ResponseType == Ephemeral {
			// the answer's follow-up questions (see also, as the terminal
			// shows them): a press replaces this private message
			r.askButtons()
			r.shareButton()
		}
	}
	m.Blocks = r.blocks
	return m, r.cut
}

// shareButton ends a private answer to a slash command with the button
// that posts it to the channel for everyone: it asks the question again
// (the page shown) and the answer replaces the private one (events.go).
// An answer without its question, or with no room left, gets none.
func (r *renderer) shareButton() {
	v := pageValue(r.a.Query, max(r.o.Page, 0), true)
	if r.a.Query == "" || runes(v) > MaxButtonValue || len(r.blocks) >= MaxBlocks {
		return
	}
	r.add(&Actions{ID: shareBlockID, Buttons: []Button{{ActionID: actionShare, Text: shareText, Value: v, Style: "primary"}}})
}

// fallback is the message's top-level text: title and summary.
func fallback(a *knowledge.Answer) string {
	if a.Kind == knowledge.KindError {
		msg := a.Text
		if a.Error != nil && a.Error.Message != "" {
			msg = a.Error.Message
		}
		if strings.TrimSpace(msg) == "" {
			msg = internalSorry
		}
		return truncate(escCut(msg, MaxFallbackText), MaxFallbackText)
	}
	s := escCut(a.Title, MaxFallbackText)
	if a.Text != "" {
		if s != "" {
			s += ": "
		}
		s += escCut(a.Text, MaxFallbackText)
	}
	if strings.TrimSpace(s) == "" {
		s = "kepbot"
	}
	return truncate(s, MaxFallbackText)
}

// renderer accumulates the blocks of one answer.
type renderer struct {
	a      *knowledge.Answer
	o      RenderOptions
	blocks []Block
	cut    bool // lines were left out
}

func (r *renderer) add(b Block) { r.blocks = append(r.blocks, b) }

func (r *renderer) header(title string) {
	title = strings.Join(strings.Fields(title), " ") // a header is one line
	if title == "" {
		return
	}
	r.add(&Header{Text: truncate(escCut(title, MaxHeaderText), MaxHeaderText)})
}

// section adds mrkdwn text cut to max characters; empty text adds nothing.
func (r *renderer) section(text string, max int) {
	if strings.TrimSpace(text) == "" {
		return
	}
	r.add(&Section{Text: truncate(text, min(max, MaxSectionText))})
}

// lines adds lines as one section, cut to max characters, with "… and N
// more" when lines had to be left out. Each line is already escaped.
func (r *renderer) lines(head string, lines []string, max int) {
	if len(lines) == 0 {
		return
	}
	var b strings.Builder
	if head != "" {
		b.WriteString(head)
	}
	for i, l := range lines {
		more := "\n… and " + strconv.Itoa(len(lines)-i) + " more"
		if b.Len() > 0 && runes(b.String())+1+runes(l)+len(more) > max {
			b.WriteString(more)
			r.cut = true
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	r.section(b.String(), max)
}

// understood draws how free text was read ("Read as `1.30 ga`"), when it
// was.
func (r *renderer) understood() {
	if r.a.UnderstoodAs != "" {
		r.add(&Context{Elements: []string{"Read as " + code(cut(r.a.UnderstoodAs, capSuggest))}})
	}
}

// askButtons draws a button for each suggested question (at most
// maxAskButtons): pressing one asks it, and its answer replaces this
// message (onInteraction). Only questions written as kepbot writes them get
// one (knowledge.PlainQuestion), and a posted message (Whole) gets none.
func (r *renderer) askButtons() {
	if r.o.Whole {
		return
	}
	var buttons []Button
	for _, q := range r.a.Suggest {
		if len(buttons) == maxAskButtons {
			break
		}
		v := pageValue(q, 0, r.public())
		if !knowledge.PlainQuestion(q) || runes(v) > MaxButtonValue {
			continue
		}
		buttons = append(buttons, Button{ActionID: actionAsk + strconv.Itoa(len(buttons)), Text: truncate(q, MaxButtonText), Value: v})
	}
	if len(buttons) > 0 {
		r.add(&Actions{ID: askBlockID, Buttons: buttons})
	}
}

// error draws an error answer: how free text was read, the message, "did
// you mean" with a button for each, and help.
func (r *renderer) error() {
	r.understood()
	msg := r.a.Text
	if r.a.Error != nil && r.a.Error.Message != "" {
		msg = r.a.Error.Message
	}
	if strings.TrimSpace(msg) == "" {
		msg = internalSorry
	}
	r.section(":warning: "+escCut(msg, capSummary), capSummary)
	if len(r.a.Suggest) > 0 {
		var s []string
		for _, q := range r.a.Suggest {
			s = append(s, code(cut(q, capSuggest)))
		}
		r.section("Did you mean "+strings.Join(s, " or ")+"?", capSuggest)
		r.askButtons()
	}
	r.add(&Context{Elements: []string{"Try `/k8s help` to see every question I answer."}})
}

// help draws the help answer: every usage line, and the --public hint.
func (r *renderer) help() {
	r.header(r.a.Title)
	r.understood()
	r.section(escCut(r.a.Text, capSummary), capSummary)
	var ls []string
	for _, f := range r.a.Facts {
		ls = append(ls, "*"+escCut(f.Name, capLine)+"*  "+escCut(f.Value, capLine))
	}
	r.lines("", ls, capHelp)
	r.add(&Context{Elements: []string{publicHint}})
}

// answer draws every other kind: a card's fields, a KEP's timeline, the
// entries (paged), links, notes and sources.
func (r *renderer) answer() {
	a := r.a
	r.header(a.Title)
	r.understood()
	r.section(escCut(a.Text, capSummary), capSummary)
	if a.Kind == knowledge.KindAPI && !r.o.Whole {
		r.factPage()
		r.tail()
		return
	}
	fields, extra := r.cardFields()
	if len(fields) > 0 {
		r.add(&Section{Fields: fields})
	}
	if a.KEP != nil {
		r.timeline(a.KEP.Timeline)
	}
	if !a.BreaksFirst { // an upgrade's gates go among what breaks (render_entries.go)
		extra = append(gateEntries(a), extra...) // render_gates.go
	}
	all := newEntryList(a, extra, r.o.Whole)
	if !r.o.Whole {
		r.entries(all)
		r.tail()
		return
	}
	end := &renderer{a: a, o: r.o}
	end.tail()
	r.cut = r.cut || end.cut
	r.allEntries(all, MaxBlocks-len(r.blocks)-len(end.blocks), MaxMessageChars-blockChars(r.blocks)-blockChars(end.blocks))
	r.blocks = append(r.blocks, end.blocks...)
}

// tail draws what ends every answer: links, notes and sources.
func (r *renderer) tail() {
	r.links()
	if len(r.a.Notes) > 0 {
		var ns []string
		for _, n := range r.a.Notes {
			ns = append(ns, ":information_source: "+escCut(n, capNotes))
		}
		r.lines("", ns, capNotes)
	}
	r.sources()
}

// entries draws one page of lines, and the page buttons when there are
// more pages.
func (r *renderer) entries(all entryList) {
	n := all.len()
	if n == 0 {
		return
	}
	pages := min((n+pageSize-1)/pageSize, maxPages)
	page := min(max(r.o.Page, 0), pages-1)
	if page == 0 && pages > 1 && all.breaks != nil {
		// an upgrade's counts and where each group starts, on its first page
		r.add(&Context{Elements: []string{truncate(all.headings(pageSize), MaxContextText)}})
	}
	from, to := page*pageSize, min((page+1)*pageSize, n)
	ls := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		ls = append(ls, all.line(i))
	}
	r.lines("", ls, MaxSectionText)
	r.pager(page, pages, n, "lines", r.o.Files && all.breaks != nil)
}

// pager ends a page of a long answer: which page of how many, and the
// buttons that ask for the page before and after. One page needs neither.
//
// file adds a button that posts the whole list to the channel as a file.
func (r *renderer) pager(page, pages, n int, unit string, file bool) {
	if pages <= 1 {
		return
	}
	r.cut = true
	r.add(&Context{Elements: []string{"Page " + strconv.Itoa(page+1) + " of " + strconv.Itoa(pages) +
		" · " + strconv.Itoa(n) + " " + unit}})
	q := r.a.Query
	var buttons []Button
	if page > 0 {
		buttons = append(buttons, Button{ActionID: actionPrev, Text: "◀ Previous", Value: pageValue(q, page-1, r.public())})
	}
	if page < pages-1 {
		buttons = append(buttons, Button{ActionID: actionNext, Text: "Next ▶", Value: pageValue(q, page+1, r.public())})
	}
	if file {
		buttons = append(buttons, Button{ActionID: actionFile, Text: "Post the whole list as a file", Value: pageValue(q, 0, r.public())})
	}
	if q == "" || runes(buttons[0].Value) > MaxButtonValue {
		return // no way to ask for another page: the context line says there are more
	}
	r.add(&Actions{ID: pageBlockID, Buttons: buttons})
}

func (r *renderer) public() bool { return r.o.Public }

// links draws the KEP's links and the answer's.
func (r *renderer) links() {
	var ls []knowledge.Link
	if r.a.KEP != nil {
		ls = append(ls, r.a.KEP.Links...)
	}
	ls = append(ls, r.a.Links...)
	if len(ls) == 0 {
		return
	}
	var parts []string
	seen := map[string]bool{}
	for _, l := range ls {
		if seen[l.URL] {
			continue
		}
		if len(parts) == maxLinks {
			parts = append(parts, "… and more")
			break
		}
		seen[l.URL] = true
		parts = append(parts, link(l.URL, l.Title))
	}
	text := ":link: " + strings.Join(parts, " · ")
	if runes(text) > capLinks { // a cut link would be broken markup: drop whole links
		text = ":link: "
		for i, p := range parts {
			if runes(text)+runes(p)+3 > capLinks-20 {
				text += " … and " + strconv.Itoa(len(parts)-i) + " more"
				break
			}
			if i > 0 {
				text += " · "
			}
			text += p
		}
	}
	r.section(text, capLinks)
}

// sources draws the context line: where the answer came from and as of when.
func (r *renderer) sources() {
	if len(r.a.Sources) == 0 {
		return
	}
	var parts []string
	for _, s := range r.a.Sources {
		p := escCut(s.Name, capSources)
		if s.AsOf != "" {
			p += " (as of " + escCut(s.AsOf, 40) + ")"
		} else {
			p += " (date unknown)"
		}
		parts = append(parts, p)
	}
	r.add(&Context{Elements: []string{truncate("Sources: "+strings.Join(parts, " · "), capSources)}})
}

// changedSubscription reports whether a is the confirmation of a
// subscribe or unsubscribe, not a listing or a refusal.
func changedSubscription(a *knowledge.Answer) bool {
	return a.Kind == knowledge.KindSubscription && question.ChangesSubscription(a.Query)
}
