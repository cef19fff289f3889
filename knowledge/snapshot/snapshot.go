package snapshot

//go:generate go run ../../cmd/bot snapshot --out snapshot.json ../../../shared

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// SourceID names the snapshot among a knowledge's sources.
const SourceID = "kepbot-snapshot"

//go:embed snapshot.json
var embedded []byte

// Load returns the built-in knowledge, compiled from the embedded facts.
// Its Corpus is set, so a sync can build on it.
func Load() (*knowledge.Knowledge, error) {
	var raw struct {
		knowledge.Corpus
		GateSpans []gateLine
	}
	if err := json.Unmarshal(embedded, &raw); err != nil {
		return nil, fmt.Errorf("read the built-in snapshot: %w", err)
	}
	c := raw.Corpus
	expandGates(c.GateTables, raw.GateSpans)
	for i := range c.Changes {
		restoreChange(&c.Changes[i])
	}
	k := knowledge.Compile(&c)
	k.Corpus = &c
	return k, nil
}

// Build returns the snapshot file for a corpus: facts only, one record a
// line so that a rebuild's diff reads well.
func Build(c *knowledge.Corpus) ([]byte, error) {
	f := factsOnly(c)
	tables, spans, err := gateSpans(c.GateTables)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	sections := []struct {
		name string
		n    int
		item func(int) any
	}{
		{"Sources", len(f.Sources), func(i int) any { return f.Sources[i] }},
		{"Releases", len(f.Releases), func(i int) any { return f.Releases[i] }},
		{"KEPs", len(f.KEPs), func(i int) any { return f.KEPs[i] }},
		{"Mentions", len(f.Mentions), func(i int) any { return f.Mentions[i] }},
		{"Notices", len(f.Notices), func(i int) any { return f.Notices[i] }},
		{"Changes", len(f.Changes), func(i int) any { return f.Changes[i] }},
		{"Lifecycles", len(f.Lifecycles), func(i int) any { return f.Lifecycles[i] }},
		{"Patches", len(f.Patches), func(i int) any { return f.Patches[i] }},
		{"APITypes", len(f.APITypes), func(i int) any { return f.APITypes[i] }},
		{"APIClaims", len(f.APIClaims), func(i int) any { return f.APIClaims[i] }},
		{"GateTables", len(tables), func(i int) any { return tables[i] }},
		{"GateSpans", len(spans), func(i int) any { return spans[i] }},
		{"Vulns", len(f.Vulns), func(i int) any { return f.Vulns[i] }},
		{"Skipped", len(f.Skipped), func(i int) any { return f.Skipped[i] }},
	}
	for si, s := range sections {
		fmt.Fprintf(&b, "%q: [", s.name)
		for i := 0; i < s.n; i++ {
			line, err := json.Marshal(s.item(i))
			if err != nil {
				return nil, fmt.Errorf("encode %s: %w", s.name, err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n")
			b.Write(line)
		}
		b.WriteString("\n]")
		if si < len(sections)-1 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// factsOnly copies c without any document's sentences: texts, section
// headings and local paths go; names, numbers, stages, dates, gates and
// links stay, and so do the API modules' types and documents' claims about
// API versions, which are facts only, and the vulnerability records
// without their details (their IDs, one-line titles, modules, ranges and
// links; the database's Source names it and its CC-BY-4.0 license). A
// mention without a KEP number keeps its place only by the
// feature gates it names (its title is rebuilt from them): its own title is
// a sentence of the note.
func factsOnly(c *knowledge.Corpus) *knowledge.Corpus {
	out := &knowledge.Corpus{Releases: c.Releases, KEPs: c.KEPs, Lifecycles: c.Lifecycles, Patches: c.Patches,
		APITypes: c.APITypes, APIClaims: c.APIClaims}
	for _, ch := range c.Changes {
		if ch, ok := changeFacts(ch); ok {
			out.Changes = append(out.Changes, ch)
		}
	}
	newest := ""
	for _, s := range c.Sources {
		s.Path = ""
		out.Sources = append(out.Sources, s)
		newest = max(newest, s.AsOf)
	}
	// The snapshot speaks for the newest of its sources' own dates: a fact
	// of the sources, the same whatever day it is built.
	out.Sources = append(out.Sources, knowledge.Source{ID: SourceID, Name: "kepbot built-in snapshot (facts only)", Kind: knowledge.SourceSnapshot, AsOf: newest})
	for _, m := range c.Mentions {
		m.Text, m.Section = "", ""
		if m.KEP == 0 {
			if len(m.FeatureGates) == 0 {
				continue
			}
			m.Title = "feature gate " + strings.Join(m.FeatureGates, ", ")
		}
		out.Mentions = append(out.Mentions, m)
	}
	names := kepNames(c.KEPs)
	langOf := map[string]string{}
	for _, s := range c.Sources {
		langOf[s.ID] = s.Lang
	}
	seen := map[string]int{}
	for _, n := range c.Notices {
		n, ok := noticeFacts(n, names, langOf[n.Source])
		if !ok {
			continue
		}
		// Without their words, notices of several documents about one
		// thing are the same fact: keep it once, with every gate named.
		key := fmt.Sprintf("%s|%s|%d|%s", n.Kind, n.Release, n.KEP, n.Title)
		if i, ok := seen[key]; ok {
			kept := &out.Notices[i]
			if n.KEPVia == "" {
				kept.KEPVia = "" // one of the documents names the KEP
			}
			for _, g := range n.FeatureGates {
				if !slices.Contains(kept.FeatureGates, g) {
					kept.FeatureGates = append(kept.FeatureGates, g)
				}
			}
			continue
		}
		seen[key] = len(out.Notices)
		out.Notices = append(out.Notices, n)
	}
	for _, v := range c.Vulns {
		v.Details = "" // the record's own words; its summary is its title
		out.Vulns = append(out.Vulns, v)
	}
	knowledge.SortVulns(out.Vulns)
	for _, sk := range c.Skipped {
		if filepath.IsAbs(sk.Path) || strings.HasPrefix(sk.Path, "..") {
			sk.Path = filepath.Base(sk.Path) // where the tree was read from is no fact
		}
		out.Skipped = append(out.Skipped, knowledge.Skip{Path: sk.Path, Reason: sk.Reason})
	}
	return out
}

// changeFacts keeps every release-note entry by its facts alone: its
// release, PR, kinds, linked KEPs, notice, the feature gates it names,
// its typed changes (Effects) and, when it makes a notice or upstream
// labels it a deprecation, its SIGs, so
// that the release cards count
// every entry and `kep N` lists every entry linking the KEP, as on a full
// ingest. Its words, sentences of the notes, stay out, and so do the code
// names that are not gates. Its link and source, which its release and
// PR give, are written only when they are not those (restoreChange puts
// them back).
func changeFacts(ch knowledge.Change) (knowledge.Change, bool) {
	ch.Names = knowledge.ChangeGates(ch)
	ch.Text = ""
	if ch.Notice == "" && !ch.HasKind(string(knowledge.NoticeDeprecation)) {
		ch.SIGs = nil // shown only beside a notice (upstream's label makes one)
	}
	if ch.URL == prURL(ch.PR) {
		ch.URL = ""
	}
	if ch.Source == relnotes.NotesSourceID(ch.Release) {
		ch.Source = ""
	}
	return ch, true
}

// restoreChange gives an entry of the snapshot the link and source
// changeFacts left out.
func restoreChange(ch *knowledge.Change) {
	if ch.URL == "" && ch.PR > 0 {
		ch.URL = prURL(ch.PR)
	}
	if ch.Source == "" {
		ch.Source = relnotes.NotesSourceID(ch.Release)
	}
}

// prURL is a kubernetes/kubernetes pull request's link.
func prURL(pr int) string { return "https://github.com/kubernetes/kubernetes/pull/" + strconv.Itoa(pr) }

// kepNames maps KEP numbers and feature gates (lower case) to KEP names,
// from kep.yaml.
type kepIndex struct {
	title map[int]string
	gate  map[string]int
}

func kepNames(keps []knowledge.KEP) kepIndex {
	ix := kepIndex{title: map[int]string{}, gate: map[string]int{}}
	for _, k := range keps {
		ix.title[k.Number] = k.Title
		for _, g := range k.FeatureGates {
			if _, ok := ix.gate[strings.ToLower(g)]; !ok {
				ix.gate[strings.ToLower(g)] = k.Number
			}
		}
	}
	return ix
}

// noticeFacts keeps a notice by its facts alone: an API version, what an
// English document's words say it changes (its typed effects, read with
// the release notes' rules), a KEP or feature gates. Its title is rebuilt
// from them: the API, the effects written out, the feature gates, else
// the KEP's name where kep.yaml gives one; the document's own heading is
// a sentence and stays out. A notice with none of these facts is dropped.
func noticeFacts(n knowledge.Notice, ix kepIndex, lang string) (knowledge.Notice, bool) {
	var effects []knowledge.Effect
	if lang == "en" && n.API == nil {
		effects = relnotes.Effects(n.Release, n.Text)
	}
	n.Text = "" // its place (Line) stays: one paragraph is one notice
	if n.KEP == 0 && n.API == nil {
		for _, g := range n.FeatureGates {
			if k, ok := ix.gate[strings.ToLower(g)]; ok {
				n.KEP, n.KEPVia = k, knowledge.KEPViaGate // found, not named by the document
				break
			}
		}
	}
	title := knowledge.EffectsTitle(effects, n.Kind)
	switch {
	case n.API != nil:
		n.Title = n.API.GroupVersion
		if len(n.API.Kinds) > 0 {
			n.Title = strings.Join(n.API.Kinds, ", ") + " (" + n.API.GroupVersion + ")"
		}
	case title != "":
		n.Title = title
		for _, e := range effects {
			if e.What == knowledge.EffectGate && !slices.Contains(n.FeatureGates, e.Name) {
				n.FeatureGates = append(n.FeatureGates, e.Name)
			}
		}
	case len(n.FeatureGates) > 0 && n.KEPVia != "":
		n.Title = "feature gates " + strings.Join(n.FeatureGates, ", ")
		if len(n.FeatureGates) == 1 {
			n.Title = "feature gate " + n.FeatureGates[0]
		}
	case n.KEP > 0:
		n.Title = ix.title[n.KEP]
		if n.Title == "" {
			n.Title = fmt.Sprintf("KEP-%d", n.KEP)
		}
	case len(n.FeatureGates) > 0:
		n.Title = "feature gates"
		if len(n.FeatureGates) == 1 {
			n.Title = "feature gate " + n.FeatureGates[0]
		}
	default:
		return n, false
	}
	return n, true
}

// Bytes returns the embedded snapshot file as committed.
func Bytes() []byte { return bytes.Clone(embedded) }
