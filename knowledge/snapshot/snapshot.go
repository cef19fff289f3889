// Package snapshot is the compact set of facts built into the binary, so a
// fresh clone answers before anything is ingested. It holds numbers, stages,
// releases, dates, counts, SIGs, feature-gate names and KEP names; never a
// sentence of any document (Build strips them).
//
// Rebuild it from ../shared with `go generate ./knowledge/snapshot` (or
// `bot snapshot`); TestSnapshotIsCurrent fails when the committed file
// differs from a rebuild.
package snapshot

//go:generate go run ../../cmd/bot snapshot --out snapshot.json ../../../shared

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// SourceID names the snapshot among a knowledge's sources.
const SourceID = "kepbot-snapshot"

//go:embed snapshot.json
var embedded []byte

// Load returns the built-in knowledge.
func Load() (*knowledge.Knowledge, error) {
	var k knowledge.Knowledge
	if err := json.Unmarshal(embedded, &k); err != nil {
		return nil, fmt.Errorf("read the built-in snapshot: %w", err)
	}
	return &k, nil
}

// Sources lists the folders of the shared tree a snapshot is built from.
func Sources(sharedRoot string) []string {
	return []string{filepath.Join(sharedRoot, "seeds")}
}

// Build returns the snapshot file for k: facts only, one record a line so
// that a rebuild's diff reads well.
func Build(k *knowledge.Knowledge) ([]byte, error) {
	f := factsOnly(k)
	var b bytes.Buffer
	b.WriteString("{\n")
	sections := []struct {
		name string
		n    int
		item func(int) any
	}{
		{"sources", len(f.Sources), func(i int) any { return f.Sources[i] }},
		{"releases", len(f.Releases), func(i int) any { return f.Releases[i] }},
		{"keps", len(f.KEPs), func(i int) any { return f.KEPs[i] }},
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

// factsOnly copies k without any document's sentences: texts, section
// headings and local paths go; names, numbers, stages, dates and links stay.
func factsOnly(k *knowledge.Knowledge) *knowledge.Knowledge {
	out := &knowledge.Knowledge{}
	for _, s := range k.Sources {
		s.Path = ""
		out.Sources = append(out.Sources, s)
	}
	out.Sources = append(out.Sources, knowledge.Source{ID: SourceID, Name: "kepbot built-in snapshot (facts only)", Kind: knowledge.SourceSnapshot})
	for _, r := range k.Releases {
		items := r.Items
		r.Items = nil
		for _, it := range items {
			if it.KEP == 0 { // its only name is a sentence of the note
				continue
			}
			it.Text = ""
			r.Items = append(r.Items, it)
		}
		notices := r.Notices
		r.Notices = nil
		for _, n := range notices {
			if n, ok := noticeFacts(n); ok {
				r.Notices = append(r.Notices, n)
			}
		}
		out.Releases = append(out.Releases, r)
	}
	for _, kp := range k.KEPs {
		kp.History = append([]knowledge.Mention(nil), kp.History...)
		for i := range kp.History {
			kp.History[i].Text, kp.History[i].Section = "", ""
		}
		out.KEPs = append(out.KEPs, kp)
	}
	return out
}

// noticeFacts keeps a notice by its facts alone: an API version, a KEP or
// feature gates. Its title is rebuilt from them; the document's own heading
// is a sentence and stays out. A notice with none of these facts is dropped.
func noticeFacts(n knowledge.Notice) (knowledge.Notice, bool) {
	n.Text, n.Line = "", 0
	switch {
	case n.API != nil:
		n.Title = n.API.GroupVersion
		if len(n.API.Kinds) > 0 {
			n.Title = strings.Join(n.API.Kinds, ", ") + " (" + n.API.GroupVersion + ")"
		}
	case n.KEP > 0:
		n.Title = fmt.Sprintf("KEP-%d", n.KEP)
	case len(n.FeatureGates) > 0:
		n.Title = "feature gate " + strings.Join(n.FeatureGates, ", ")
	default:
		return n, false
	}
	return n, true
}

// Bytes returns the embedded snapshot file as committed.
func Bytes() []byte { return bytes.Clone(embedded) }
