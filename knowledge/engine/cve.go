package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// cveFeed is where Kubernetes lists its own CVEs: answers point at it, as
// the Go vulnerability database holds only what concerns Go modules.
const cveFeed = "https://kubernetes.io/docs/reference/issues-security/official-cve-feed/"

// answerCVEs answers `cves 1.30.2`: every record that affects that patch
// release of Kubernetes itself (k8s.io/kubernetes, or a staging module
// read as v0.30.2), newest record first, each with the first 1.30 patch
// that fixes it, or the fixes of other lines, or no fix; `cves 1.30`: the
// same across every patch of 1.30 the patch list knows, with which are
// affected. Records of the project's other products are counted apart.
func (e *Engine) answerCVEs(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if len(c.vulns.all) == 0 {
		return nil, noVulns()
	}
	v := q.Version
	if err := c.releasedForCVEs(v); err != nil {
		return nil, err
	}
	nums, known := c.knownPatches(v)
	asked := nums
	what := "any patch of Kubernetes " + v.String()
	if q.Patch != nil {
		asked, what = []int{*q.Patch}, "Kubernetes "+patchName(v, *q.Patch)
	}
	a := &knowledge.Answer{Kind: knowledge.KindCVEs}
	if q.Patch != nil {
		a.Title = "Known vulnerabilities of Kubernetes " + patchName(v, *q.Patch)
	} else {
		a.Title = "Known vulnerabilities of Kubernetes " + v.String()
	}
	list := &knowledge.CVEs{List: []knowledge.CVEItem{}}
	var hit []*knowledge.Vuln
	others := map[string]int{}
	unreadable := 0
	open, noFix, withdrawn := 0, 0, 0
	for i := len(c.vulns.all) - 1; i >= 0; i-- { // newest record first
		vu := &c.vulns.all[i]
		if !vu.IsKubernetes() {
			for _, p := range vu.Products() {
				others[p]++
			}
			continue
		}
		affected := vu.AffectedPatches(v, asked)
		if len(affected) == 0 {
			if _, ok := vu.Affects(patchName(v, asked[0])); !ok {
				unreadable++
			}
			continue
		}
		it := cveItem(vu, v, nums, affected, q.Patch == nil)
		list.List = append(list.List, it)
		hit = append(hit, vu)
		switch {
		case it.Withdrawn != "":
			withdrawn++
		case it.NoFix:
			noFix++
		case it.FixedIn == "":
			open++
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: cveFactName(vu), Value: cveFactValue(it, v)})
	}
	a.CVEs = list
	src := c.vulnSource()
	a.Text = cvesSummary(what, len(list.List), noFix, open, withdrawn, src)
	if q.Patch == nil && known {
		latest := nums[len(nums)-1]
		if n := c.openCVEs(v, latest); n >= 0 {
			a.Text += fmt.Sprintf(" Its latest patch, %s, still has %d.", patchName(v, latest), n)
		}
	} else if q.Patch != nil && known && *q.Patch < nums[len(nums)-1] {
		latest := nums[len(nums)-1]
		if n := c.openCVEs(v, latest); n >= 0 {
			a.Text += fmt.Sprintf(" The latest patch of %s, %s, still has %d.", v, patchName(v, latest), n)
		}
	}
	if !known {
		a.Notes = append(a.Notes, fmt.Sprintf("I hold no list of %s's patch releases, so only %s.0 was read against the records.", v, v))
	}
	if withdrawn > 0 {
		a.Notes = append(a.Notes, "A record marked withdrawn was withdrawn from the Go vulnerability database (low severity, no fix planned); its range still covers every version.")
	}
	if unreadable > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%s of Kubernetes could not be read for this release (ranges of commits, or versions that are not semantic versions): cve ID shows them.", knowledge.Plural(unreadable, "record", "records")))
	}
	if n := otherProducts(others); n != "" {
		a.Notes = append(a.Notes, "Not counted: records of other products of the Kubernetes project ("+n+"); they have releases of their own. cve ID shows one.")
	}
	a.Notes = append(a.Notes, "The Go vulnerability database holds the CVEs of Go modules; Kubernetes' official CVE feed may list more: "+cveFeed)
	ids := vulnSources(hit)
	if len(ids) == 0 && src != nil {
		ids = []string{src.ID}
	}
	if known {
		ids = append(ids, patchSources(c.patches[v])...)
	}
	a.Sources = c.sourceRefs(ids)
	a.Links = []knowledge.Link{{Title: "Kubernetes official CVE feed", URL: cveFeed}}
	return a, nil
}

// cveItem is vu as a line of cves V: the patches of v it affects (those
// asked about: affected) and where it is fixed.
func cveItem(vu *knowledge.Vuln, v knowledge.Version, nums, affected []int, minor bool) knowledge.CVEItem {
	last := patchName(v, affected[len(affected)-1])
	it := vu.Item(v, last)
	if minor {
		it.Affected = knowledge.PatchSpans(v, nums, affected)
	} else {
		it.Affected = patchName(v, affected[0])
	}
	if it.FixedIn != "" && len(nums) > 0 {
		it.Unreleased = knowledge.CompareVersions(it.FixedIn, patchName(v, nums[len(nums)-1])) > 0
	}
	return it
}

// cveFactName is how a record heads its line: its CVE ID, else its ID.
func cveFactName(vu *knowledge.Vuln) string { return vu.Name() }

// cveFactValue writes a record's line: where it is fixed, its title and
// ID.
func cveFactValue(it knowledge.CVEItem, v knowledge.Version) string {
	s := it.FixWords(v) + " · " + it.Summary
	if it.Affected != "" && strings.Contains(it.Affected, "–") || strings.Contains(it.Affected, ",") {
		s = "affects " + it.Affected + " · " + s
	}
	if name := it.ID; !strings.Contains(s, name) {
		s += " (" + name + ")"
	}
	return s
}

// cvesSummary is the answer's first line.
func cvesSummary(what string, n, noFix, open, withdrawn int, src *knowledge.Source) string {
	db := "the Go vulnerability database"
	if src != nil && src.AsOf != "" {
		db += " (as of " + src.AsOf + ")"
	}
	if n == 0 {
		return fmt.Sprintf("No record of %s affects %s.", db, what)
	}
	minor := strings.HasPrefix(what, "any patch")
	var s string
	if minor {
		s = fmt.Sprintf("%s of %s affect patches of %s", knowledge.Plural(n, "known vulnerability", "known vulnerabilities"), db, strings.TrimPrefix(what, "any patch of "))
	} else {
		s = fmt.Sprintf("%s is affected by %s of %s", what, knowledge.Plural(n, "known vulnerability", "known vulnerabilities"), db)
	}
	var parts []string
	if fixed := n - noFix - open - withdrawn; fixed > 0 {
		parts = append(parts, fmt.Sprintf("%d fixed in a later patch of the same release", fixed))
	}
	if open > 0 {
		parts = append(parts, fmt.Sprintf("%d fixed only in later releases", open))
	}
	if noFix > 0 {
		parts = append(parts, fmt.Sprintf("%d with no fixed version", noFix))
	}
	if withdrawn > 0 {
		parts = append(parts, fmt.Sprintf("%d withdrawn by the database", withdrawn))
	}
	return s + ": " + strings.Join(parts, ", ") + "."
}

// openCVEs counts the records (not withdrawn) that affect patch p of v,
// -1 when no record of Kubernetes is known.
func (c *catalog) openCVEs(v knowledge.Version, p int) int {
	if len(c.vulns.all) == 0 {
		return -1
	}
	n := 0
	for i := range c.vulns.all {
		vu := &c.vulns.all[i]
		if vu.Withdrawn != "" || !vu.IsKubernetes() {
			continue
		}
		if in, _ := vu.Affects(patchName(v, p)); in {
			n++
		}
	}
	return n
}

// vulnSource is the database's Source, nil when none is known.
func (c *catalog) vulnSource() *knowledge.Source {
	for _, vu := range c.vulns.all {
		if s, ok := c.sources[vu.Source]; ok {
			return &s
		}
	}
	return nil
}

// otherProducts writes "ingress-nginx 11, kops 1, …", most records first.
func otherProducts(m map[string]int) string {
	type pc struct {
		p string
		n int
	}
	var l []pc
	for p, n := range m {
		l = append(l, pc{p, n})
	}
	sort.Slice(l, func(i, j int) bool {
		if l[i].n != l[j].n {
			return l[i].n > l[j].n
		}
		return l[i].p < l[j].p
	})
	var parts []string
	for _, x := range l {
		parts = append(parts, fmt.Sprintf("%s %d", x.p, x.n))
	}
	return strings.Join(parts, ", ")
}

// releasedForCVEs fails with ENOTFOUND for a release the knowledge does
// not know, or knows only as planned: no record can speak of a release
// that is not out.
func (c *catalog) releasedForCVEs(v knowledge.Version) error {
	out := func(k knowledge.Version) bool { return c.released.IsZero() || !c.released.Less(k) }
	if err := unknownRelease(c.versions, c.known, v, out, func(near knowledge.Version) string { return "cves " + near.String() }); err != nil {
		return err
	}
	if !out(v) {
		return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("Kubernetes %s is not out yet as far as my sources say (the newest release out is %s), so no vulnerability record can speak of it.", v, c.released),
			Suggestions: []string{"cves " + c.released.String()}}
	}
	return nil
}

// noVulns is the miss of a question about vulnerabilities with no record
// known.
func noVulns() error {
	return knowledge.Errorf(knowledge.ENOTFOUND, "I hold no vulnerability records yet: ingest ../shared/data/cves or sync the Go vulnerability database (bot sync --only cves) first.")
}
