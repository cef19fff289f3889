package discord

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
)

// Embed colours by kind of answer.
const (
	colorKEP     = 0x326CE5 // Kubernetes blue
	colorRelease = 0x2E9E5B
	colorList    = 0x5865F2
	colorHelp    = 0x99AAB5
	colorError   = 0xED4245
)

// Render draws a as Discord messages within Discord's limits: how free
// text was read ("Read as `1.30 ga`", above the first message), a KEP or
// gate as an embed with its stage timeline, gates, links and a sources
// footer; a release with its facts and highlights; the releases answer as
// one line a release (version — date · theme · counts) with those not
// announced in a field; lists, searches and a SIG's KEPs as lines; diffs
// and upgrades with the APIs no longer served first, in a red embed of
// their own; api and scan answers with a bold line for each API (and
// each group of objects not built in) over what it says. Lines continue
// across embeds and messages (at most
// MaxMessagesAnswer, then "…and N more"). Help is an embed and errors a
// short text, both ephemeral where the platform allows. All text from the
// answer is escaped; the messages carry no mentions. "Did you mean"
// questions come with a button each, which asks it. A nil answer is an
// apology.
func Render(a *knowledge.Answer) []Message {
	long := a != nil && a.BreaksFirst && len(a.Notices)+len(a.Items) > fileLines
	max := MaxMessagesAnswer
	if long {
		max-- // the last message carries the file
	}
	msgs := render(a, max)
	if long {
		// a long upgrade: the whole list, in the order every platform draws it, as a file
		name, data := knowledge.AnswerFile(a)
		msgs = append(msgs, Message{Content: "The whole list, " + knowledge.Plural(len(a.Notices), "notice", "notices") + " and " +
			knowledge.Plural(len(a.Items), "graduation", "graduations") + ", in " + code(name) + ".", File: &File{Name: name, Data: data}})
	}
	if a != nil && a.UnderstoodAs != "" && len(msgs) > 0 {
		line := "Read as " + code(truncate(a.UnderstoodAs, 80))
		if msgs[0].Content != "" {
			line += "\n" + msgs[0].Content
		}
		msgs[0].Content = truncate(line, MaxContent)
	}
	return msgs
}

// fileLines is how many notices and items an upgrade answer has before it
// comes with its whole list as a file: more than a message shows.
const fileLines = 40

// render is Render in at most max messages.
func render(a *knowledge.Answer, max int) []Message {
	if a == nil {
		return []Message{textMessage("Sorry, I have no answer to that.", true)}
	}
	switch a.Kind {
	case knowledge.KindError:
		return []Message{errorMessage(a)}
	case knowledge.KindHelp:
		d := baseDoc(a, colorHelp)
		d.ephemeral = true
		d.fields = factFields(a.Facts, false)
		return d.messages(1)
	}
	var d *doc
	switch {
	case a.KEP != nil:
		d = kepDoc(a)
	case a.Release != nil:
		d = releaseDoc(a)
	case a.Kind == knowledge.KindDiff:
		return diffDoc(a).messages(max)
	case a.Kind == knowledge.KindReleases:
		d = releasesDoc(a)
	case a.Kind == knowledge.KindAPI || a.Kind == knowledge.KindScan:
		return factDoc(a).messages(max)
	default: // lists, searches, a SIG's KEPs
		d = baseDoc(a, colorList)
		d.fields = factFields(a.Facts, len(a.Facts) <= 6)
		d.lines = append(d.lines, itemLines(a.ItemsWithoutSharedSIG(), nil)...)
	}
	if a.Kind == knowledge.KindGate || a.Kind == knowledge.KindGateChanges {
		d.addGates(a)
	}
	d.addNotices(a.Notices, a.Notes)
	return d.messages(max)
}

// baseDoc lays out what every answer has: title, summary, sources.
func baseDoc(a *knowledge.Answer, color int) *doc {
	return &doc{title: esc(a.Title, MaxTitle), text: esc(a.Text, maxText), color: color, footer: sourcesFooter(a.Sources)}
}

// errorMessage is an error answer as a short text with "did you mean".
func errorMessage(a *knowledge.Answer) Message {
	text := a.Text
	if text == "" && a.Error != nil {
		text = a.Error.Message
	}
	if text == "" {
		text = knowledge.ErrorMessage(fmt.Errorf("unknown"))
	}
	s := "⚠️ " + esc(text, MaxContent-400)
	var sugg []string
	for _, q := range a.Suggest {
		if c := code(truncate(q, 80)); c != "" {
			sugg = append(sugg, c)
		}
		if len(sugg) == 3 {
			break
		}
	}
	if len(sugg) > 0 {
		s += "\nDid you mean " + strings.Join(sugg, " or ") + "?"
	}
	m := textMessage(s, true)
	m.Components = askButtons(a.Suggest)
	return m
}

// askPrefix starts the custom_id of a suggestion button; the question
// follows it.
const askPrefix = "kepbot:ask:"

// askButtons is one action row with a button for each suggested question
// (at most MaxRowButtons): pressing one asks it (interaction.go). A
// question too long for a custom_id gets no button.
func askButtons(suggest []string) []discordgo.MessageComponent {
	var row []discordgo.MessageComponent
	for _, q := range suggest {
		if len(row) == MaxRowButtons {
			break
		}
		id := askPrefix + q
		if !knowledge.PlainQuestion(q) || length(id) > MaxCustomID {
			continue // only kepbot's own questions get a button, never a mention
		}
		row = append(row, discordgo.Button{Label: truncate(q, MaxButtonText), Style: discordgo.SecondaryButton, CustomID: id})
	}
	if len(row) == 0 {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

func kepDoc(a *knowledge.Answer) *doc {
	d := baseDoc(a, colorKEP)
	f := a.KEP
	for _, l := range f.Links {
		if u := safeURL(l.URL); u != "" {
			d.url = u
			break
		}
	}
	add := func(name, value string, inline bool) {
		if value != "" {
			d.fields = append(d.fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: inline})
		}
	}
	add("Stage", f.Stage.Label(), true)
	add("SIG", esc(f.SIG, maxWord), true)
	add("Status", esc(f.Status, maxWord), true)
	add("Reached", stageMap(f.Milestones), true)
	add("Planned", stageMap(knowledge.Without(f.Targets, f.Missed)), true)
	add("Not reached", stageMap(f.Missed), true)
	add("Timeline", timeline(f.Timeline), false)
	var gates []string
	for _, g := range f.FeatureGates {
		gates = append(gates, esc(g, maxWord))
	}
	add("Feature gates", strings.Join(gates, ", "), false)
	links := append(append([]knowledge.Link(nil), f.Links...), a.Links...)
	add("Links", strings.Join(linkLines(links), "\n"), false)
	d.fields = append(d.fields, factFields(a.Facts, false)...)
	d.addTitled("What the documents said", itemLines(a.Items, f))
	return d
}

func releaseDoc(a *knowledge.Answer) *doc {
	d := baseDoc(a, colorRelease)
	r := a.Release
	add := func(name, value string) {
		if value != "" {
			d.fields = append(d.fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: true})
		}
	}
	add("Date", esc(r.Date, maxWord))
	add("Theme", esc(r.Theme, maxWord))
	if c := r.Enhancements; !c.IsZero() {
		add("Enhancements", c.FieldText())
	}
	d.fields = append(d.fields, factFields(a.Facts, true)...)
	d.lines = append(d.lines, linkLines(a.Links)...)
	d.addTitled("Highlights", itemLines(a.Items, nil))
	return d
}

// releasesDoc lays out the releases answer: one line a release, as the
// engine orders them, and the facts (the releases no document announces)
// as fields.
func releasesDoc(a *knowledge.Answer) *doc {
	d := baseDoc(a, colorRelease)
	d.fields = factFields(a.Facts, false)
	for _, r := range a.Releases {
		d.lines = append(d.lines, releaseLine(r))
	}
	return d
}

// releaseLine writes one release: "**1.29** — 2023-12-13 · Kite · 5
// enhancements: 3 GA, 1 beta, 1 alpha", leaving out what is not known.
func releaseLine(r knowledge.ReleaseFacts) string {
	var parts []string
	for _, s := range []string{r.Date, r.Theme} {
		if e := esc(s, maxWord); e != "" {
			parts = append(parts, e)
		}
	}
	if c := r.Enhancements; !c.IsZero() {
		parts = append(parts, c.LineText())
	}
	line := "**" + esc(r.Version, maxWord) + "**"
	if len(parts) > 0 {
		line += " — " + strings.Join(parts, " · ")
	}
	return line
}

// factFields turns facts into embed fields (the packer makes lines of
// those that do not fit).
func factFields(facts []knowledge.Fact, inline bool) []*discordgo.MessageEmbedField {
	var out []*discordgo.MessageEmbedField
	for _, f := range facts {
		out = append(out, &discordgo.MessageEmbedField{Name: esc(f.Name, MaxFieldName), Value: esc(f.Value, MaxFieldValue), Inline: inline})
	}
	return out
}

// stageMap writes "alpha 1.29, beta 1.31" in stage order.
func stageMap(m map[string]string) string {
	var parts []string
	for _, s := range knowledge.GraduationStages {
		if v, ok := m[s.String()]; ok && v != "" {
			parts = append(parts, s.Label()+" "+esc(v, maxWord))
		}
	}
	return strings.Join(parts, ", ")
}

// timeline writes "alpha 1.29 → beta 1.31 → back to alpha 1.32", without
// the repeats that do not move the graduation.
func timeline(steps []knowledge.Step) string {
	var parts []string
	for _, s := range steps {
		switch {
		case s.Repeat:
		case s.Back:
			parts = append(parts, "back to "+s.Stage.Label()+" "+s.Release.String())
		default:
			parts = append(parts, s.Stage.Label()+" "+s.Release.String())
		}
	}
	return strings.Join(parts, " → ")
}

// linkLines writes each link with a safe URL as "title: URL", the URL
// shown as it is rather than behind a masked link.
func linkLines(links []knowledge.Link) []string {
	var out []string
	for _, l := range links {
		u := safeURL(l.URL)
		if u == "" {
			continue
		}
		if t := esc(l.Title, maxWord); t != "" {
			out = append(out, t+": "+u)
		} else {
			out = append(out, u)
		}
	}
	return out
}
