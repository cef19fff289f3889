package digest

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// DigestVuln is one vulnerability record in a digest: a record of
// Kubernetes itself (not withdrawn) that affects a release supported as of
// the lifecycle data, with what it affects in each such release and the
// patch that fixes it there.
type DigestVuln struct {
	ID       string              `json:"id"`
	Aliases  []string            `json:"aliases,omitempty"`
	Summary  string              `json:"summary"`
	Modules  []string            `json:"modules"`
	Lines    []knowledge.CVELine `json:"lines"` // the supported releases it affects, oldest first
	Advisory string              `json:"advisory,omitempty"`
}

// Name is how a digest heads the record: its CVE ID, else its ID.
func (v DigestVuln) Name() string {
	for _, a := range v.Aliases {
		if strings.HasPrefix(strings.ToUpper(a), "CVE-") {
			return a
		}
	}
	return v.ID
}

// cveItem is one record in a NoticeSet, known to the ledger by its ID.
type cveItem struct {
	key string
	v   DigestVuln
	id  NoticeIdentity
}

// vulnAlias is what the ledger knows a record by: "cve||id=GO-2024-3286".
// The record's ID never changes when the record is modified, so a record
// told once is never new again.
func vulnAlias(id string) string { return "cve||id=" + id }

// vulnSource is what LoadNoticeSet reads of the knowledge for records.
type vulnSource interface {
	ListVulns(ctx context.Context) ([]knowledge.Vuln, error)
	ListSources(ctx context.Context) ([]knowledge.Source, error)
	FindPatches(ctx context.Context, v knowledge.Version) ([]knowledge.Patch, error)
}

// loadVulns returns the digest items of the records of Kubernetes (not
// withdrawn) that affect a release supported as of the lifecycle data
// (rels' lifecycles, read at their source's as-of day, never the clock),
// by ID. With no lifecycle known, every release with a patch list counts.
func loadVulns(ctx context.Context, kb vulnSource, rels []knowledge.Release) ([]cveItem, error) {
	vs, err := kb.ListVulns(ctx)
	if err != nil {
		return nil, fmt.Errorf("vulnerability records: %w", err)
	}
	if len(vs) == 0 {
		return nil, nil
	}
	srcs, err := kb.ListSources(ctx)
	if err != nil {
		return nil, fmt.Errorf("sources: %w", err)
	}
	supported := supportedReleases(rels, srcs)
	patches := map[knowledge.Version][]int{}
	for _, v := range supported {
		ps, err := kb.FindPatches(ctx, v)
		if err != nil && knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
			return nil, fmt.Errorf("patch releases of %s: %w", v, err)
		}
		for _, p := range ps {
			patches[v] = append(patches[v], p.Number)
		}
		if len(patches[v]) == 0 {
			patches[v] = []int{0}
		}
		sort.Ints(patches[v])
	}
	var out []cveItem
	for i := range vs {
		vu := &vs[i]
		if vu.Withdrawn != "" || !vu.IsKubernetes() {
			continue
		}
		dv := DigestVuln{ID: vu.ID, Aliases: vu.Aliases, Summary: vu.Summary, Modules: vu.Modules(), Advisory: vu.Advisory()}
		for _, v := range supported {
			if l, ok := vu.Line(v, patches[v]); ok {
				dv.Lines = append(dv.Lines, l)
			}
		}
		if len(dv.Lines) == 0 {
			continue
		}
		key := vulnAlias(vu.ID)
		out = append(out, cveItem{key: key, v: dv, id: NoticeIdentity{Aliases: []string{key}}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

// supportedReleases are the releases out and not past their end of life
// on the day their lifecycle record speaks for, oldest first; when no
// release has a lifecycle record, every release.
func supportedReleases(rels []knowledge.Release, srcs []knowledge.Source) []knowledge.Version {
	asOf := map[string]string{}
	for _, s := range srcs {
		asOf[s.ID] = s.AsOf
	}
	var out, all []knowledge.Version
	known := false
	for _, r := range rels {
		all = append(all, r.Version)
		l := r.Lifecycle
		if l == nil {
			continue
		}
		known = true
		day := asOf[l.Source]
		if l.Released == "" || day == "" || l.Released > day || (l.EOL != "" && l.EOL <= day) {
			continue
		}
		out = append(out, r.Version)
	}
	if !known {
		return all
	}
	return out
}

// newVulns returns the records of set new to a subscription that has
// seen through seenCVEs, affecting a release after from (zero: any).
func (s *NoticeSet) newVulns(seenCVEs uint64, from knowledge.Version) []DigestVuln {
	var out []DigestVuln
	for _, it := range s.cves {
		if q, ok := s.seq[it.key]; ok && q <= seenCVEs {
			continue
		}
		if !from.IsZero() && !affectsAfter(it.v, from) {
			continue
		}
		out = append(out, it.v)
	}
	return out
}

// affectsAfter reports whether v affects a release after from.
func affectsAfter(v DigestVuln, from knowledge.Version) bool {
	for _, l := range v.Lines {
		if r, err := knowledge.ParseVersion(l.Release); err == nil && from.Less(r) {
			return true
		}
	}
	return false
}

// vulnFacts are a digest's lines for its records: the record's name, then
// where each supported release stands and its title.
func vulnFacts(vs []DigestVuln) []knowledge.Fact {
	var out []knowledge.Fact
	for _, v := range vs {
		var lines []string
		for _, l := range v.Lines {
			lines = append(lines, l.Release+": "+l.Affected+" ("+l.FixWords()+")")
		}
		out = append(out, knowledge.Fact{Name: v.Name(), Value: strings.Join(lines, "; ") + " · " + v.Summary + " (" + v.ID + ")"})
	}
	return out
}

// vulnItems are the records as an answer's CVEs.
func vulnItems(vs []DigestVuln) *knowledge.CVEs {
	c := &knowledge.CVEs{List: []knowledge.CVEItem{}}
	for _, v := range vs {
		it := knowledge.CVEItem{ID: v.ID, Aliases: v.Aliases, Summary: v.Summary, Modules: v.Modules, Advisory: v.Advisory}
		var spans []string
		for _, l := range v.Lines {
			spans = append(spans, l.Affected)
		}
		it.Affected = strings.Join(spans, ", ")
		c.List = append(c.List, it)
	}
	return c
}
