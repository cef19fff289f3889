package kepyaml

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// Result is what one read returns: the corpus, and a report of how the
// files read.
type Result struct {
	Corpus *knowledge.Corpus
	Report Report
	// LatestMilestones is each KEP's latest-milestone, by KEP number, for
	// the KEPs whose value names a release (knowledge.KEP has no field for it).
	LatestMilestones map[int]knowledge.Version
}

// Report counts what a read found, for `bot ingest` and its logs.
type Report struct {
	Files      int            `json:"files"`   // entries named kep.yaml, of any type: KEPs + their skips
	KEPs       int            `json:"keps"`    // KEPs in the corpus
	Skipped    map[string]int `json:"skipped"` // by Kind: "duplicate KEP number" → 1
	Milestones MilestoneStats `json:"milestones"`
	Notes      []Note         `json:"notes,omitempty"` // values read with a fix-up or dropped
}

// Note is one value of a file that was fixed up or dropped, and why.
type Note struct {
	Path    string `json:"path"`
	Field   string `json:"field"`
	Value   string `json:"value,omitempty"`
	Problem string `json:"problem"`
}

func (n Note) String() string {
	if n.Value == "" {
		return fmt.Sprintf("%s: %s %s", n.Path, n.Field, n.Problem)
	}
	return fmt.Sprintf("%s: %s %q %s", n.Path, n.Field, n.Value, n.Problem)
}

// String summarises the report in a few lines, skip kinds in a fixed order.
func (r Report) String() string {
	var b strings.Builder
	skipped := 0
	for _, n := range r.Skipped {
		skipped += n
	}
	fmt.Fprintf(&b, "kep.yaml: %d files, %d KEPs, %d skipped", r.Files, r.KEPs, skipped)
	if skipped > 0 {
		kinds := make([]string, 0, len(r.Skipped))
		for k := range r.Skipped {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%s %d", k, r.Skipped[k])
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	m := r.Milestones
	fmt.Fprintf(&b, "\nmilestones: %d read, %d empty, %d placeholders (TBD, never, x.y, 0.0), %d unparseable, %d naming several releases (earliest taken), %d with extra words, %d under keys that are not stages",
		m.Read, m.Empty, m.Placeholder, m.Unparseable, m.Multiple, m.ExtraText, m.NotAStage)
	fmt.Fprintf(&b, "\nnotes: %d values fixed up or dropped", len(r.Notes))
	return b.String()
}
