package question

import (
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// cve reads a question about vulnerabilities: one by its ID (and whether
// a release is affected by it: is 1.30.2 affected by CVE-2024-10220), or
// those of a release (which CVEs affect 1.30.2, 1.30 有哪些漏洞).
func (r *reading) cve(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	switch {
	case len(r.vulnIDs) > 1:
		var alts []string
		for _, id := range r.vulnIDs[:min(len(r.vulnIDs), maxChoices)] {
			alts = append(alts, "cve "+id)
		}
		return q, r.unsure("Ask about one vulnerability at a time.", alts)
	case len(r.versions) > 1:
		return q, r.unsure("Give one release, e.g. cves 1.30.2; upgrade FROM TO says what an upgrade fixes.", nil)
	case len(r.vulnIDs) == 1:
		q.Kind, q.Words = knowledge.AskCVE, r.vulnIDs[0]
		if len(r.versions) == 1 {
			q.Version, q.Patch = r.versions[0], r.patches[r.versions[0]]
		}
	case len(r.versions) == 1:
		q.Kind, q.Version, q.Patch = knowledge.AskCVEs, r.versions[0], r.patches[r.versions[0]]
	default:
		return q, r.unsure("Which release? Ask e.g. cves 1.30.2 for a patch release, or cve CVE-2024-10220 for one vulnerability.", []string{"help cves"})
	}
	if r.stage() != knowledge.StageNone || r.intents&^(intentCVE|intentNew|intentLatest|intentPatches) != 0 {
		return q, r.notAll(q)
	}
	return r.only(q)
}

// patchUpgrade reads an upgrade between two patches of one release
// (upgrading from 1.30.2 to 1.30.8): what the later patch fixes.
func (r *reading) patchUpgrade(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	v := r.versions[0]
	from, to := r.patches[v], r.laterPatch
	q.Kind, q.Version, q.To, q.Patch, q.ToPatch = knowledge.AskUpgrade, v, v, from, to
	if *to < *from {
		q.Patch, q.ToPatch = to, from
		return q, r.unsure(patchWord(v, *to)+" is older than "+patchWord(v, *from)+": I answer upgrades, from the patch you run to a later one.", []string{q.Canonical()})
	}
	if r.stage() != knowledge.StageNone || r.intents&^(intentUpgrade|intentCVE|intentAction|intentBreak) != 0 {
		return q, r.notAll(q)
	}
	return r.only(q)
}

func patchWord(v knowledge.Version, p int) string { return v.String() + "." + strconv.Itoa(p) }
