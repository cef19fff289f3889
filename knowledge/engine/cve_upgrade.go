package engine

import (
	"context"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
)

// aboutPatch reports whether an answer of kind k is about the patch
// release its question names, not the minor as a whole: such an answer
// needs no note that it speaks for the minor.
func aboutPatch(k knowledge.QuestionKind) bool {
	return k == knowledge.AskCVEs || k == knowledge.AskCVE || k == knowledge.AskUpgrade
}

// answerUpgrade answers `upgrade A B`: the diff read as an upgrade, with
// the vulnerabilities the upgrade fixes and those it leaves open
// (Answer.CVEs). Between two patches of one release (`upgrade 1.30.2
// 1.30.8`) the vulnerabilities are the whole answer. A release written
// without its patch is counted at its latest known patch, and a note says
// so.
func (e *Engine) answerUpgrade(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	if q.Version == q.To {
		return e.answerPatchUpgrade(ctx, q)
	}
	a, err := e.answerDiff(ctx, q.Version, q.To, true, q.Filters["sig"])
	if err != nil {
		return nil, err
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if len(c.vulns.all) == 0 {
		return a, nil
	}
	cp := *a // a may be shared (the answer parts)
	if err := c.addUpgradeCVEs(&cp, q); err != nil {
		return nil, err
	}
	return &cp, nil
}

// answerPatchUpgrade answers an upgrade within one release: nothing
// graduates or goes, so the answer is what the newer patch fixes.
func (e *Engine) answerPatchUpgrade(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	from, to := patchOr(q.Patch, -1), patchOr(q.ToPatch, -1)
	if from < 0 || to < 0 || from >= to {
		fix := fmt.Sprintf("upgrade %s.%d %s.%d", q.Version, max(from, 0), q.Version, max(to, from+1))
		return nil, &knowledge.Error{Code: knowledge.EBADINPUT, Message: fmt.Sprintf("An upgrade within %s goes from one patch to a later one, e.g. %s.", q.Version, fix)}
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if len(c.vulns.all) == 0 {
		return nil, noVulns()
	}
	a := &knowledge.Answer{Kind: knowledge.KindDiff, Title: fmt.Sprintf("Upgrading from %s to %s", patchName(q.Version, from), patchName(q.Version, to))}
	if err := c.addUpgradeCVEs(a, q); err != nil {
		return nil, err
	}
	a.Notes = append(a.Notes, fmt.Sprintf("Within %s nothing graduates, is deprecated or removed: patches carry fixes. %s patches lists them.", q.Version, q.Version))
	return a, nil
}

// addUpgradeCVEs adds to a the records the upgrade q fixes and those it
// leaves open, as CVEs, facts, a line of text and the database's source.
func (c *catalog) addUpgradeCVEs(a *knowledge.Answer, q knowledge.Question) error {
	from, fromNote, err := c.upgradeEnd(q.Version, q.Patch, "from")
	if err != nil {
		return err
	}
	to, toNote, err := c.upgradeEnd(q.To, q.ToPatch, "to")
	if err != nil {
		return err
	}
	fromV, toV := patchName(q.Version, from), patchName(q.To, to)
	fromNums, _ := c.knownPatches(q.Version)
	toNums, _ := c.knownPatches(q.To)
	out := &knowledge.CVEs{Upgrade: true, Fixed: []knowledge.CVEItem{}, StillOpen: []knowledge.CVEItem{}}
	var hit []*knowledge.Vuln
	newIn := 0
	for i := len(c.vulns.all) - 1; i >= 0; i-- {
		vu := &c.vulns.all[i]
		if !vu.IsKubernetes() {
			continue
		}
		inFrom, _ := vu.Affects(fromV)
		inTo, _ := vu.Affects(toV)
		switch {
		case inFrom && !inTo:
			it := cveItem(vu, q.Version, fromNums, []int{from}, false)
			out.Fixed = append(out.Fixed, it)
			hit = append(hit, vu)
		case inTo:
			it := cveItem(vu, q.To, toNums, []int{to}, false)
			out.StillOpen = append(out.StillOpen, it)
			hit = append(hit, vu)
			if !inFrom {
				newIn++
			}
		}
	}
	a.CVEs = out
	withdrawn := 0
	for _, it := range out.StillOpen {
		if it.Withdrawn != "" {
			withdrawn++
		}
	}
	line := fmt.Sprintf("Vulnerabilities: going from %s to %s fixes %s and leaves %d open", fromV, toV,
		knowledge.Plural(len(out.Fixed), "known one", "known ones"), len(out.StillOpen)-withdrawn)
	if withdrawn > 0 {
		// As openCVEs counts: a withdrawn record is no open vulnerability,
		// though its range still covers toV.
		covers := "cover"
		if withdrawn == 1 {
			covers = "covers"
		}
		line += fmt.Sprintf(" (and %s the database withdrew, low severity with no fix planned, still %s it)",
			knowledge.Plural(withdrawn, "record", "records"), covers)
	}
	line += "."
	if a.Text == "" {
		a.Text = line
	} else {
		a.Text += "\n" + line
	}
	for _, it := range out.Fixed {
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Fixed: " + it.Name(), Value: it.Summary + " (" + it.ID + ")"})
	}
	for _, it := range out.StillOpen {
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Still open: " + it.Name(), Value: cveFactValue(it, q.To)})
	}
	for _, n := range []string{fromNote, toNote} {
		if n != "" {
			a.Notes = append(a.Notes, n)
		}
	}
	if newIn > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%s among those still open %s %s but not %s.", knowledge.Plural(newIn, "record", "records"), affectsWord(newIn), toV, fromV))
	}
	ids := vulnSources(hit)
	if len(ids) == 0 {
		if s := c.vulnSource(); s != nil {
			ids = []string{s.ID}
		}
	}
	a.Sources = append(a.Sources, c.sourceRefs(ids)...)
	return nil
}

func affectsWord(n int) string {
	if n == 1 {
		return "affects"
	}
	return "affect"
}

// upgradeEnd is the patch an end of an upgrade is counted at: the one it
// names, which must be known, else the latest known patch of v (with a
// note saying so), else v.0.
func (c *catalog) upgradeEnd(v knowledge.Version, patch *int, end string) (int, string, error) {
	nums, known := c.knownPatches(v)
	if patch != nil {
		return *patch, "", c.unknownPatch(v, *patch)
	}
	latest := nums[len(nums)-1]
	if !known {
		return latest, fmt.Sprintf("Vulnerabilities %s %s are counted at %s.0: I hold no list of its patches.", end, v, v), nil
	}
	name := patchName(v, latest)
	if best, _, ok := c.latestPatch(v); ok && best.number == latest && best.how != howPatchList {
		name = best.name(v, c.sources) // not the patch list's: "1.36.6 (per the k8s.io/api v0.36.6 tag, as of …)"
	}
	return latest, fmt.Sprintf("Vulnerabilities %s %s are counted at its latest patch, %s; name your patch (e.g. %s.%d) to count from it.", end, v, name, v, nums[0]), nil
}

func patchOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
