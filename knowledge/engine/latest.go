package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// howPatchList is how answers name the patch list (patchWord.how).
const howPatchList = "the patch list"

// patchWord is one source's word on a release's newest patch.
type patchWord struct {
	number int
	date   string // the patch's day, or the day the source speaks for
	source string // Source.ID
	how    string // how answers name the source: "the patch list", …
}

// latestPatch is the newest patch of release v any source names: the
// patch list, the lifecycle record, or the tag of the API module read for
// v (k8s.io/api v0.34.13 is Kubernetes 1.34.13). The patch list wins a
// tie, for its exact day. others are what the other sources name, when
// older: answers say both, with each source's date. ok is false when no
// source names a patch of v.
func (c *releaseEvidence) latestPatch(v knowledge.Version) (best patchWord, others []patchWord, ok bool) {
	var words []patchWord
	if ps := c.patches[v]; len(ps) > 0 {
		p := ps[len(ps)-1]
		words = append(words, patchWord{number: p.Number, date: p.Date, source: p.Source, how: howPatchList})
	}
	if r := c.release[v]; r != nil && r.Lifecycle != nil && r.Lifecycle.Latest != "" {
		l := r.Lifecycle
		if n, err := patchNumber(l.Latest, v); err == nil {
			words = append(words, patchWord{number: n, date: l.LatestDate, source: l.Source, how: "the lifecycle record"})
		}
	}
	for id, s := range c.sources {
		if s.Kind != knowledge.SourceAPILifecycle || !strings.HasPrefix(id, "k8s.io/api@") {
			continue
		}
		if rv, ok := knowledge.APISourceRelease(id); ok && rv == v {
			tag := strings.TrimPrefix(id, "k8s.io/api@")
			if n, err := patchNumber(strings.Replace(tag, "v0.", "1.", 1), v); err == nil {
				// The module's publication day is not the patch's: no date.
				words = append(words, patchWord{number: n, source: id, how: "the " + knowledge.ModuleName(id) + " tag"})
			}
		}
	}
	if len(words) == 0 {
		return patchWord{}, nil, false
	}
	best = words[0]
	for _, w := range words[1:] {
		if w.number > best.number {
			best = w
		}
	}
	for _, w := range words {
		if w.number < best.number {
			others = append(others, w)
		}
	}
	return best, others, true
}

// patchNumber reads the patch of "1.34.11" for release v.
func patchNumber(s string, v knowledge.Version) (int, error) {
	rest, ok := strings.CutPrefix(s, v.String()+".")
	if !ok {
		return 0, fmt.Errorf("%q is not a patch of %s", s, v)
	}
	return strconv.Atoi(rest)
}

// name writes a patch word as "1.34.13 (2026-10-28, per the k8s.io/api
// v0.34.13 tag, as of 2026-10-28)".
func (w patchWord) name(v knowledge.Version, sources map[string]knowledge.Source) string {
	s := fmt.Sprintf("%s.%d", v, w.number)
	var tags []string
	if w.date != "" {
		tags = append(tags, w.date)
	}
	per := "per " + w.how
	if asOf := sources[w.source].AsOf; asOf != "" && asOf != w.date {
		per += ", as of " + asOf
	}
	tags = append(tags, per)
	return s + " (" + strings.Join(tags, ", ") + ")"
}

// olderPatchesNote says which sources name an older patch as the latest:
// "The lifecycle record (as of 2026-08-22) names 1.34.11." "" when none.
func olderPatchesNote(v knowledge.Version, best patchWord, others []patchWord, sources map[string]knowledge.Source) string {
	var parts []string
	for _, w := range others {
		p := w.how
		if asOf := sources[w.source].AsOf; asOf != "" {
			p += " (as of " + asOf + ")"
		}
		parts = append(parts, fmt.Sprintf("%s names %s.%d as the latest", p, v, w.number))
	}
	if len(parts) == 0 {
		return ""
	}
	return capitalize(strings.Join(parts, "; ")) + fmt.Sprintf("; %s.%d is newer, per %s.", v, best.number, best.how)
}
