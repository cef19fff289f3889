package kepyaml

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// builder gathers the files of one read and makes the Result.
type builder struct {
	lim    Limits
	files  []File
	skips  []knowledge.Skip
	report Report
	stamp  provenance.Stamp // the commit read and its date, from what the source says
}

func newBuilder(lim Limits) *builder {
	return &builder{lim: lim.withDefaults(), report: Report{Skipped: map[string]int{}}}
}

// IsKEPYAML reports whether rel (slash-separated, relative to the
// repository root) is a kep.yaml this package reads (under keps/), and
// whether it is named kep.yaml at all.
func IsKEPYAML(rel string) (read, named bool) {
	if path.Base(rel) != "kep.yaml" {
		return false, false
	}
	return strings.HasPrefix(rel, "keps/"), true
}

func (b *builder) skip(rel, kind, msg string) {
	b.skips = append(b.skips, knowledge.Skip{Path: rel, Reason: kind + ": " + msg, Source: SourceID})
	b.report.Skipped[kind]++
}

// outside records a kep.yaml outside keps/, such as a tooling test fixture.
func (b *builder) outside(rel string) {
	b.report.Files++
	b.skip(rel, KindOutside, "only keps/**/kep.yaml are KEPs; this one is elsewhere (a test fixture?)")
}

// add parses one kep.yaml; a file that fails becomes a Skip.
func (b *builder) add(rel string, data []byte) {
	b.report.Files++
	f, err := parseFile(rel, data, b.lim.MaxFileBytes)
	b.addParsed(rel, f, err)
}

func (b *builder) addParsed(rel string, f File, err error) {
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			b.skip(rel, pe.Kind, pe.Msg)
		} else {
			b.skip(rel, KindUnreadable, err.Error())
		}
		return
	}
	b.files = append(b.files, f)
}

// finish settles duplicate numbers and makes the Result. Of the files that
// claim one number, one is kept and every other becomes a Skip naming the
// kept one; see better for the order of preference.
func (b *builder) finish(where string) (*Result, error) {
	sort.Slice(b.files, func(i, j int) bool {
		if b.files[i].KEP.Number != b.files[j].KEP.Number {
			return b.files[i].KEP.Number < b.files[j].KEP.Number
		}
		return b.files[i].KEP.Path < b.files[j].KEP.Path
	})
	res := &Result{LatestMilestones: map[int]knowledge.Version{}}
	c := &knowledge.Corpus{}
	for i := 0; i < len(b.files); {
		j := i + 1
		for j < len(b.files) && b.files[j].KEP.Number == b.files[i].KEP.Number {
			j++
		}
		group := b.files[i:j]
		keep := 0
		for k := range group {
			if better(group[k], group[keep]) {
				keep = k
			}
		}
		for k, f := range group {
			if k == keep {
				continue
			}
			b.skip(f.KEP.Path+"/kep.yaml", KindDuplicate, fmt.Sprintf("KEP-%d is also %s/kep.yaml, which is kept because %s",
				f.KEP.Number, group[keep].KEP.Path, whyBetter(group[keep], f)))
		}
		kept := group[keep]
		c.KEPs = append(c.KEPs, kept.KEP)
		if !kept.LatestMilestone.IsZero() {
			res.LatestMilestones[kept.KEP.Number] = kept.LatestMilestone
		}
		b.report.Milestones.add(kept.MilestoneStats)
		for _, f := range group {
			b.report.Notes = append(b.report.Notes, f.Notes...)
		}
		i = j
	}
	sort.SliceStable(b.skips, func(i, j int) bool { return b.skips[i].Path < b.skips[j].Path })
	c.Skipped = b.skips
	if b.report.Files == 0 {
		return nil, fmt.Errorf("read %s: found no keps/**/kep.yaml; give a kubernetes/enhancements checkout or its GitHub .tar.gz", where)
	}
	src := knowledge.Source{
		ID:   SourceID,
		Name: "kubernetes/enhancements kep.yaml",
		Kind: knowledge.SourceKEPYAML,
		Path: where,
		URL:  "https://github.com/kubernetes/enhancements",
		// Never a file time: the commit's date when the source says it,
		// else unknown.
		AsOf:   b.stamp.Date,
		Commit: b.stamp.Commit,
	}
	c.Sources = []knowledge.Source{src}
	res.Corpus = c
	res.Report = b.report
	res.Report.KEPs = len(c.KEPs)
	sort.SliceStable(res.Report.Notes, func(i, j int) bool { return res.Report.Notes[i].Path < res.Report.Notes[j].Path })
	return res, nil
}

// inactive are the statuses of a KEP that another took over or dropped.
var inactive = map[string]bool{"replaced": true, "withdrawn": true, "rejected": true, "deferred": true, "superseded": true}

// better reports whether a should be kept over b when both claim a number:
// first the file whose kep-number matches its folder, then the one not
// replaced, withdrawn, rejected or deferred, then the one with more
// milestones, then the one whose folder sorts first.
func better(a, b File) bool {
	if am, bm := agrees(a), agrees(b); am != bm {
		return am
	}
	if ai, bi := inactive[a.KEP.Status], inactive[b.KEP.Status]; ai != bi {
		return !ai
	}
	if len(a.KEP.Milestones) != len(b.KEP.Milestones) {
		return len(a.KEP.Milestones) > len(b.KEP.Milestones)
	}
	return a.KEP.Path < b.KEP.Path
}

// whyBetter says which rule of better kept kept over lost.
func whyBetter(kept, lost File) string {
	switch {
	case agrees(kept) != agrees(lost):
		return fmt.Sprintf("its kep-number matches its folder and this one's %d does not", lost.FieldNumber)
	case inactive[kept.KEP.Status] != inactive[lost.KEP.Status]:
		return fmt.Sprintf("this one's status is %s", lost.KEP.Status)
	case len(kept.KEP.Milestones) != len(lost.KEP.Milestones):
		return "it gives more milestones"
	}
	return "its folder sorts first"
}

func agrees(f File) bool { return f.FieldNumber == f.KEP.Number && f.FolderNumber == f.KEP.Number }
