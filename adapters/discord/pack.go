package discord

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Packing budgets, below the limits in limits.go so that what is added
// last (the "…and N more" line) always fits.
const (
	headerBudget = 4500 // the first embed's title, text, fields and footer
	maxLine      = 1000 // one line of a list
	moreReserve  = 40   // room kept for "…and N more"
)

// doc is an answer laid out for Discord before it is cut into messages:
// a header embed (title, link, summary, fields, sources footer), lines
// (items, notices, notes) that continue it, and sections, each of which
// starts an embed of its own. Lines continue across embeds and messages.
// Every string in it is already escaped.
type doc struct {
	title, url, text string
	color            int
	fields           []*discordgo.MessageEmbedField
	lines            []string
	sections         []section
	footer           string
	ephemeral        bool
}

// section is a run of lines that starts a new embed, under its own title
// (if any) and in its own colour: what must stand apart, such as the APIs
// an upgrade stops serving. When it runs over, it continues in embeds of
// the same colour without the title.
type section struct {
	title string
	color int
	lines []string
}

// addSection appends a section of lines; one without lines adds nothing.
func (d *doc) addSection(title string, color int, lines []string) {
	if len(lines) > 0 {
		d.sections = append(d.sections, section{title: title, color: color, lines: lines})
	}
}

// addTitled appends a bold title and lines under it to the doc's lines;
// no lines add nothing.
func (d *doc) addTitled(title string, lines []string) {
	if len(lines) > 0 {
		d.lines = append(append(d.lines, "**"+title+"**"), lines...)
	}
}

// entry is one line to pack; start is set on the first line of a section.
type entry struct {
	text  string
	start *section
}

// entries lists the doc's lines, then each section's, in order.
func (d *doc) entries() []entry {
	out := make([]entry, 0, len(d.lines))
	for _, l := range d.lines {
		out = append(out, entry{text: l})
	}
	for i := range d.sections {
		s := &d.sections[i]
		for j, l := range s.lines {
			e := entry{text: l}
			if j == 0 {
				e.start = s
			}
			out = append(out, e)
		}
	}
	return out
}

// page is one embed being filled: the embed itself, its lines (kept apart
// until the description is joined) and the description's length so far.
type page struct {
	embed *discordgo.MessageEmbed
	lines []string
	n     int
}

func newPage(e *discordgo.MessageEmbed) *page { return &page{embed: e, n: length(e.Description)} }

// cost is what adding line adds to the description: the line and the
// break before it.
func (p *page) cost(line string) int {
	switch {
	case len(p.lines) > 0:
		return length(line) + 1
	case p.embed.Description != "":
		return length(line) + 2
	}
	return length(line)
}

func (p *page) add(line string, cost int) {
	p.lines = append(p.lines, line)
	p.n += cost
}

func (p *page) description() string {
	body := strings.Join(p.lines, "\n")
	switch {
	case p.embed.Description == "":
		return body
	case body == "":
		return p.embed.Description
	}
	return p.embed.Description + "\n\n" + body
}

// messages cuts d into at most max messages within Discord's limits. Lines
// that do not fit are dropped from the end and counted in a last line
// "…and N more".
func (d *doc) messages(max int) []Message {
	if max < 1 {
		max = 1
	}
	header := d.header()
	var msgs [][]*page
	cur := []*page{newPage(header)}
	total := embedSize(header) // of the embeds of the current message
	dropped := 0
	color := d.color
	entries := d.entries()
	for i, en := range entries {
		line := truncate(en.text, maxLine)
		last := cur[len(cur)-1]
		onLastMessage := len(msgs) == max-1
		reserve := 0
		if onLastMessage && i < len(entries)-1 {
			reserve = moreReserve
		}
		if en.start == nil {
			if c := last.cost(line); last.n+c+reserve <= MaxDescription && total+c+reserve <= MaxEmbedTotal {
				last.add(line, c)
				total += c
				continue
			}
		}
		// A new embed in this message, or a new message. A section's
		// first line always starts one, under the section's title.
		fresh := newPage(&discordgo.MessageEmbed{Color: color})
		if en.start != nil {
			color = en.start.color
			fresh.embed.Color = color
			fresh.embed.Title = truncate(en.start.title, MaxTitle)
		}
		dc := fresh.cost(line)              // to the description
		c := dc + length(fresh.embed.Title) // to the message's total
		if len(cur) < MaxEmbeds && total+c+reserve <= MaxEmbedTotal {
			fresh.add(line, dc)
			cur = append(cur, fresh)
			total += c
			continue
		}
		if onLastMessage {
			dropped = len(entries) - i
			break
		}
		fresh.add(line, dc)
		msgs = append(msgs, cur)
		cur = []*page{fresh}
		total = c
	}
	if dropped > 0 {
		last := cur[len(cur)-1]
		more := fmt.Sprintf("*…and %d more*", dropped)
		last.add(more, last.cost(more))
	}
	msgs = append(msgs, cur)
	out := make([]Message, 0, len(msgs))
	for _, pages := range msgs {
		m := Message{Ephemeral: d.ephemeral}
		for _, p := range pages {
			p.embed.Description = p.description()
			m.Embeds = append(m.Embeds, p.embed)
		}
		out = append(out, m)
	}
	return out
}

// header builds the first embed: title, URL, summary, as many fields as fit
// its budget (the rest become lines) and the footer.
func (d *doc) header() *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{
		Title:       truncate(d.title, MaxTitle),
		URL:         d.url,
		Description: truncate(d.text, 2000),
		Color:       d.color,
	}
	if d.footer != "" {
		e.Footer = &discordgo.MessageEmbedFooter{Text: truncate(d.footer, 1000)}
	}
	if e.Title == "" && e.Description == "" {
		e.Description = "…"
	}
	size := embedSize(e)
	var rest []string
	for _, f := range d.fields {
		name := truncate(f.Name, MaxFieldName)
		value := truncate(f.Value, MaxFieldValue)
		if name == "" || value == "" {
			continue
		}
		if len(e.Fields) < MaxFields && size+length(name)+length(value) <= headerBudget {
			e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: f.Inline})
			size += length(name) + length(value)
			continue
		}
		rest = append(rest, "**"+f.Name+"**: "+f.Value)
	}
	d.lines = append(rest, d.lines...)
	return e
}
