package question

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// cveHeads are the first words of the grammar's vulnerability questions.
var cveHeads = map[string]bool{"cves": true, "cve": true, "vulnerabilities": true, "vulnerability": true, "vulns": true, "vuln": true, "漏洞": true}

// cveWords are the words after a release that ask its vulnerabilities
// (1.30.2 cves, 1.30.2 有哪些漏洞).
var cveWords = []string{"cves", "cve", "vulnerabilities", "vulns", "security", "漏洞", "有哪些漏洞", "有什么漏洞", "安全漏洞", "哪些漏洞"}

// parseCVE reads what follows cves or cve: a release (cves 1.30.2, cves
// 1.30) or a vulnerability's ID (cve CVE-2024-10220, GHSA-…, GO-…).
func parseCVE(head string, args []string) (knowledge.Question, error) {
	topic := "cves"
	if len(args) == 0 {
		if head == "cve" || head == "vulnerability" || head == "vuln" {
			return knowledge.Question{}, knowledge.BadInput("cve", "Which vulnerability? Give its CVE, GHSA or GO ID.")
		}
		return knowledge.Question{}, knowledge.BadInput(topic, "Which release? Give a patch release like 1.30.2, or a release like 1.30.")
	}
	if len(args) == 1 && knowledge.IsVulnID(args[0]) {
		return knowledge.Question{Kind: knowledge.AskCVE, Words: knowledge.NormVulnID(args[0])}, nil
	}
	if len(args) == 1 && looksVersion(strings.ToLower(args[0])) {
		v, err := knowledge.ParseVersion(args[0])
		if err != nil {
			return knowledge.Question{}, knowledge.BadInput(topic, "%q is not a release like 1.30.2.", knowledge.Echo(args[0]))
		}
		return knowledge.Question{Kind: knowledge.AskCVEs, Version: v, Patch: patchOf(strings.ToLower(args[0]))}, nil
	}
	if len(args) == 1 && strings.HasPrefix(strings.ToUpper(args[0]), "CVE") {
		return knowledge.Question{}, knowledge.BadInput("cve", "%q is not a CVE ID like CVE-2024-10220.", knowledge.Echo(args[0]))
	}
	return knowledge.Question{}, knowledge.BadInput(topic, "Give one release (cves 1.30.2) or one vulnerability's ID (cve CVE-2024-10220).")
}

// parseIsAffected reads "is VERSION affected by ID" (also vulnerable to,
// impacted by) and "is VERSION vulnerable" (its vulnerabilities); ok is
// false when toks (after "is") ask something else.
func parseIsAffected(toks []string) (knowledge.Question, bool, error) {
	if len(toks) < 2 || !looksVersion(toks[0]) {
		return knowledge.Question{}, false, nil
	}
	switch toks[1] {
	case "affected", "vulnerable", "impacted", "exposed":
	default:
		return knowledge.Question{}, false, nil
	}
	v, err := knowledge.ParseVersion(toks[0])
	if err != nil {
		return knowledge.Question{}, true, knowledge.BadInput("is", "%q is not a release like 1.30.2.", knowledge.Echo(toks[0]))
	}
	patch := patchOf(toks[0])
	rest := toks[2:]
	if len(rest) > 0 && (rest[0] == "by" || rest[0] == "to") {
		rest = rest[1:]
	}
	switch {
	case len(rest) == 0:
		return knowledge.Question{Kind: knowledge.AskCVEs, Version: v, Patch: patch}, true, nil
	case len(rest) == 1 && knowledge.IsVulnID(rest[0]):
		return knowledge.Question{Kind: knowledge.AskCVE, Version: v, Patch: patch, Words: knowledge.NormVulnID(rest[0])}, true, nil
	}
	return knowledge.Question{}, true, knowledge.BadInput("is", "Ask whether a release is affected by one vulnerability, e.g. is 1.30.2 affected by CVE-2024-10220.")
}
