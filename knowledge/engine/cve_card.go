package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// answerCVE answers `cve CVE-2024-10220` (or its GHSA or GO ID): the
// record's card, with every version that fixes it and what it affects in
// each minor line the patch list knows; a record of another product says
// which. With a release (`is 1.30.2 affected by CVE-2024-10220`) it
// answers yes or no first (Verdict) and says which patch fixes it.
func (e *Engine) answerCVE(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if len(c.vulns.all) == 0 {
		return nil, noVulns()
	}
	vu := c.vuln(q.Words)
	if vu == nil {
		return nil, c.unknownVuln(q.Words)
	}
	card := c.cveCard(vu)
	a := &knowledge.Answer{Kind: knowledge.KindCVE, Title: vulnTitle(vu), CVE: card}
	a.Text = cardText(vu, card)
	a.Facts = cardFacts(vu, card)
	if !q.Version.IsZero() {
		p := q.Version.String() + ".0"
		if q.Patch != nil {
			p = patchName(q.Version, *q.Patch)
		}
		verdict, lead := c.cveVerdict(vu, q.Version, p, q.Patch != nil)
		a.Verdict = verdict
		a.Text = lead + "\n" + a.Text
	}
	if vu.Withdrawn != "" {
		a.Notes = append(a.Notes, fmt.Sprintf("The Go vulnerability database withdrew this record on %s (low severity, no fix available or planned); its range covers every version, and the advisory's mitigation is what helps.", day(vu.Withdrawn)))
	}
	if adv := vu.Advisory(); adv != "" {
		a.Links = append(a.Links, knowledge.Link{Title: "Advisory", URL: adv})
	}
	for _, r := range vu.References {
		if r.URL != vu.Advisory() {
			a.Links = append(a.Links, knowledge.Link{Title: refTitle(r), URL: r.URL})
		}
	}
	if vu.URL != "" {
		a.Links = append(a.Links, knowledge.Link{Title: "Go vulnerability database", URL: vu.URL})
	}
	ids := []string{vu.Source}
	if len(card.Lines) > 0 {
		for _, l := range card.Lines {
			if v, err := knowledge.ParseVersion(l.Release); err == nil {
				ids = append(ids, patchSources(c.patches[v])...)
			}
		}
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// cveCard builds the card of vu.
func (c *catalog) cveCard(vu *knowledge.Vuln) *knowledge.CVEFacts {
	card := &knowledge.CVEFacts{ID: vu.ID, Aliases: vu.Aliases, Summary: vu.Summary, Modules: vu.Modules(), FixedIn: []string{},
		Published: day(vu.Published), Modified: day(vu.Modified), Withdrawn: day(vu.Withdrawn), Review: vu.Review, URL: vu.URL, Details: vu.Details}
	for _, a := range vu.Affected {
		card.Packages = append(card.Packages, a.Packages...)
		var words []string
		for _, r := range a.Ranges {
			words = append(words, rangeWords(r))
		}
		versions := ""
		switch knowledge.RoleOf(a.Module) {
		case knowledge.RoleKubernetes:
			versions = "Kubernetes releases"
		case knowledge.RoleStaging:
			versions = a.Module + " versions: v0.N.P is Kubernetes 1.N.P"
		default:
			versions = a.Module + " versions"
			if len(a.Custom) > 0 {
				versions = knowledge.ProductOf(a.Module) + " releases (the record's custom ranges)"
				words = words[:0]
				for _, r := range a.Custom {
					words = append(words, rangeWords(r))
				}
			}
		}
		card.Ranges = append(card.Ranges, knowledge.CVERange{Module: a.Module, Ranges: strings.Join(words, "; "), Versions: versions})
	}
	if vu.IsKubernetes() {
		card.FixedIn = append(card.FixedIn, vu.KubernetesFixes()...)
		for _, r := range c.releases {
			nums, known := c.knownPatches(r.Version)
			if !known {
				continue
			}
			if l, ok := vu.Line(r.Version, nums); ok {
				card.Lines = append(card.Lines, l)
			}
		}
	} else {
		card.Product = strings.Join(vu.Products(), ", ")
		card.FixedIn = append(card.FixedIn, productFixes(vu)...)
	}
	return card
}

// The verdicts of a yes/no answer (knowledge.Answer.Verdict).
const (
	verdictYes     = "yes"
	verdictNo      = "no"
	verdictUnknown = "unknown"
)

// cveVerdict says whether Kubernetes patch release p (of v) is affected by
// vu: the verdict and the line the answer leads with. exact is false when
// the question named no patch (p is v.0).
func (c *catalog) cveVerdict(vu *knowledge.Vuln, v knowledge.Version, p string, exact bool) (string, string) {
	name := vulnName(vu)
	if !vu.IsKubernetes() {
		return verdictNo, fmt.Sprintf("No: %s is a vulnerability of %s, a separate product with releases of its own, not of Kubernetes itself; Kubernetes %s is not affected by it. Check the %s version you run.", name, strings.Join(vu.Products(), ", "), p, strings.Join(vu.Products(), ", "))
	}
	if !exact {
		nums, _ := c.knownPatches(v)
		hit := vu.AffectedPatches(v, nums)
		if len(hit) == 0 {
			return verdictNo, fmt.Sprintf("No: no patch of Kubernetes %s that I know is affected by %s.", v, name)
		}
		lead := fmt.Sprintf("Yes: %s of Kubernetes %s %s affected by %s", knowledge.PatchSpans(v, nums, hit), v, isAre(len(hit)), name)
		if f, ok := vu.FixIn(v, patchName(v, hit[len(hit)-1])); ok {
			return verdictYes, lead + fmt.Sprintf("; %s fixes it.", f)
		}
		return verdictYes, lead + "; " + noFixWords(vu, v) + "."
	}
	in, known := vu.Affects(p)
	switch {
	case !known:
		return verdictUnknown, fmt.Sprintf("I can't tell: the ranges of %s cannot be read for Kubernetes %s (they are not in semantic versions).", name, p)
	case in && vu.Withdrawn != "":
		return verdictYes, fmt.Sprintf("Yes, by its range: %s covers every version of Kubernetes, %s too; the database withdrew the record on %s and no fix is planned.", name, p, day(vu.Withdrawn))
	case in:
		if f, ok := vu.FixIn(v, p); ok {
			return verdictYes, fmt.Sprintf("Yes: Kubernetes %s is affected by %s; %s is the first %s patch that fixes it.", p, name, f, v)
		}
		return verdictYes, fmt.Sprintf("Yes: Kubernetes %s is affected by %s; %s.", p, name, noFixWords(vu, v))
	}
	// Not affected: say why, by the fix at or before p, or by the ranges.
	for _, f := range vu.KubernetesFixes() {
		if strings.HasPrefix(f, v.String()+".") && knowledge.CompareVersions(f, p) <= 0 {
			return verdictNo, fmt.Sprintf("No: Kubernetes %s is not affected by %s: it was fixed in %s.", p, name, f)
		}
	}
	return verdictNo, fmt.Sprintf("No: Kubernetes %s is not affected by %s: its ranges do not hold %s.", p, name, p)
}

// noFixWords says where vu is fixed when line v has no fix: "no 1.27 patch
// fixes it; 1.28.12, 1.29.7 and 1.30.3 do", or "no version fixes it".
func noFixWords(vu *knowledge.Vuln, v knowledge.Version) string {
	fixes := vu.KubernetesFixes()
	if len(fixes) == 0 {
		return "no version fixes it: see the advisory for what helps"
	}
	var later []string
	for _, f := range fixes {
		if knowledge.CompareVersions(f, v.String()+".0") > 0 {
			later = append(later, f)
		}
	}
	if len(later) == 0 {
		later = fixes
	}
	return fmt.Sprintf("no %s patch fixes it; %s %s", v, prose.JoinAnd(later), doDoes(len(later)))
}

func doDoes(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}

// vulnTitle is a card's title: "CVE-2024-10220 (GO-2024-3286)".
func vulnTitle(vu *knowledge.Vuln) string { return vulnName(vu) }

// cardText says what the record is and where it is fixed.
func cardText(vu *knowledge.Vuln, card *knowledge.CVEFacts) string {
	s := vu.Summary
	if s == "" {
		s = vu.ID
	}
	s = strings.TrimSuffix(s, ".") + "."
	if card.Product != "" {
		s += fmt.Sprintf(" This is a vulnerability of %s, a separate product of the Kubernetes project with releases of its own, not of Kubernetes itself.", card.Product)
		switch {
		case len(card.FixedIn) > 0:
			s += fmt.Sprintf(" Fixed in %s %s.", card.Product, prose.JoinAnd(card.FixedIn))
		default:
			if d, ok := pseudoFix(vu); ok {
				s += fmt.Sprintf(" Its record names the fix only as a commit of %s, in no release.", d)
			} else {
				s += " Its record names no fixed version."
			}
		}
		return s
	}
	if len(card.FixedIn) == 0 {
		if d, ok := vu.PseudoFix(); ok {
			return s + fmt.Sprintf(" Its record names the fix only as a commit of %s (a pseudo-version, from before the module's versions followed Kubernetes'), so no Kubernetes release can be named for it; every release whose module is tagged v0.N.P is past that commit.", d)
		}
		return s + " No version of Kubernetes fixes it: the advisory's mitigation is what helps."
	}
	return s + " Fixed in " + prose.JoinAnd(card.FixedIn) + "."
}

// cardFacts are the card's lines: names, modules, where each minor line
// stands, the ranges, packages and dates.
func cardFacts(vu *knowledge.Vuln, card *knowledge.CVEFacts) []knowledge.Fact {
	var fs []knowledge.Fact
	add := func(n, v string) {
		if v != "" {
			fs = append(fs, knowledge.Fact{Name: n, Value: v})
		}
	}
	add("IDs", strings.Join(vu.Names(), ", "))
	add("Product", card.Product)
	add("Modules", strings.Join(card.Modules, ", "))
	add("Fixed in", prose.JoinAnd(card.FixedIn))
	for _, g := range lineGroups(card.Lines) {
		add(g.name, g.value)
	}
	for _, r := range card.Ranges {
		add("Range", r.Module+" ("+r.Versions+"): "+r.Ranges)
	}
	add("Packages", strings.Join(card.Packages, ", "))
	add("Published", card.Published)
	add("Modified", card.Modified)
	add("Withdrawn", card.Withdrawn)
	add("Review", strings.ToLower(card.Review))
	return fs
}

// refTitle names a reference by its OSV type and host.
func refTitle(r knowledge.VulnReference) string {
	host := r.URL
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexByte(host, '/'); i >= 0 {
		host = host[:i]
	}
	t := strings.ToLower(r.Type)
	if t == "" || t == "web" {
		return host
	}
	return t + " (" + host + ")"
}

// unknownVuln is the miss of cve ID.
func (c *catalog) unknownVuln(id string) error {
	as := ""
	if s := c.vulnSource(); s != nil && s.AsOf != "" {
		as = " (as of " + s.AsOf + ")"
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I know no record %s in the Go vulnerability database%s, which holds the CVEs of Go modules: Kubernetes' official CVE feed may list it (%s).", knowledge.Echo(id), as, cveFeed)}
}

// lineGroup is one fact of a card's lines: a minor line, or a run of lines
// whose every known patch is affected and that have no fix ("1.0–1.27").
type lineGroup struct{ name, value string }

// lineGroups writes a card's lines as facts, a run of whole lines without
// a fix as one.
func lineGroups(lines []knowledge.CVELine) []lineGroup {
	var out []lineGroup
	whole := func(l knowledge.CVELine) bool {
		return l.FixedIn == "" && strings.HasPrefix(l.Affected, l.Release+".0") && !strings.Contains(l.Affected, ",")
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !whole(l) {
			out = append(out, lineGroup{l.Release, l.Affected + " affected; " + l.FixWords()})
			continue
		}
		j := i
		for j+1 < len(lines) && whole(lines[j+1]) && adjacentMinor(lines[j].Release, lines[j+1].Release) {
			j++
		}
		if i == j {
			out = append(out, lineGroup{l.Release, l.Affected + " affected; no fix in " + l.Release})
		} else {
			out = append(out, lineGroup{l.Release + "–" + lines[j].Release, "every known patch affected; no fix in these releases"})
		}
		i = j
	}
	return out
}

// adjacentMinor reports whether release b follows release a.
func adjacentMinor(a, b string) bool {
	va, err1 := knowledge.ParseVersion(a)
	vb, err2 := knowledge.ParseVersion(b)
	return err1 == nil && err2 == nil && va.Next() == vb
}
