package question

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// TestParseCVEs reads the vulnerability questions of the grammar, and
// each canonical form back to the same question.
func TestParseCVEs(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  knowledge.Question
		canon string
	}{
		{"cves 1.30.2", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30"), Patch: patchNum(2)}, "cves 1.30.2"},
		{"CVEs v1.30", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30")}, "cves 1.30"},
		{"vulnerabilities 1.31.0", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.31"), Patch: patchNum(0)}, "cves 1.31.0"},
		{"1.30.2 cves", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30"), Patch: patchNum(2)}, "cves 1.30.2"},
		{"1.30.2 有哪些漏洞", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30"), Patch: patchNum(2)}, "cves 1.30.2"},
		{"1.30 漏洞", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30")}, "cves 1.30"},
		{"is 1.30.2 vulnerable", knowledge.Question{Kind: knowledge.AskCVEs, Version: v("1.30"), Patch: patchNum(2)}, "cves 1.30.2"},
		{"cve CVE-2024-10220", knowledge.Question{Kind: knowledge.AskCVE, Words: "CVE-2024-10220"}, "cve CVE-2024-10220"},
		{"cve cve-2024-10220", knowledge.Question{Kind: knowledge.AskCVE, Words: "CVE-2024-10220"}, "cve CVE-2024-10220"},
		{"cve GHSA-27WF-5967-98GX", knowledge.Question{Kind: knowledge.AskCVE, Words: "GHSA-27wf-5967-98gx"}, "cve GHSA-27wf-5967-98gx"},
		{"CVE-2024-10220", knowledge.Question{Kind: knowledge.AskCVE, Words: "CVE-2024-10220"}, "cve CVE-2024-10220"},
		{"go-2024-3286", knowledge.Question{Kind: knowledge.AskCVE, Words: "GO-2024-3286"}, "cve GO-2024-3286"},
		{"is 1.30.2 affected by CVE-2024-10220", knowledge.Question{Kind: knowledge.AskCVE, Version: v("1.30"), Patch: patchNum(2), Words: "CVE-2024-10220"},
			"is 1.30.2 affected by CVE-2024-10220"},
		{"is v1.30.3 vulnerable to cve-2024-10220?", knowledge.Question{Kind: knowledge.AskCVE, Version: v("1.30"), Patch: patchNum(3), Words: "CVE-2024-10220"},
			"is 1.30.3 affected by CVE-2024-10220"},
		{"upgrade 1.30.2 1.30.8", knowledge.Question{Kind: knowledge.AskUpgrade, Version: v("1.30"), To: v("1.30"), Patch: patchNum(2), ToPatch: patchNum(8)}, "upgrade 1.30.2 1.30.8"},
		{"upgrade 1.30.2 1.32", knowledge.Question{Kind: knowledge.AskUpgrade, Version: v("1.30"), To: v("1.32"), Patch: patchNum(2)}, "upgrade 1.30.2 1.32"},
		{"upgrade 1.29 1.32", knowledge.Question{Kind: knowledge.AskUpgrade, Version: v("1.29"), To: v("1.32")}, "upgrade 1.29 1.32"},
	} {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		got.Text = ""
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
		}
		if c := got.Canonical(); c != tc.canon {
			t.Errorf("Parse(%q).Canonical() = %q, want %q", tc.in, c, tc.canon)
		}
		back, err := Parse(tc.canon)
		back.Text = ""
		if err != nil || !cmp.Equal(back, got) {
			t.Errorf("Parse(%q) = %+v, %v; want the question it writes", tc.canon, back, err)
		}
	}
}

func TestParseCVEsRefusesWithUsage(t *testing.T) {
	for in, want := range map[string]string{
		"cves":                           "Which release?",
		"cve":                            "Which vulnerability?",
		"cve CVE-24-1":                   "is not a CVE ID",
		"cves 1.30 1.31":                 "Give one release",
		"is 1.30.2 affected by kep 3203": "affected by one vulnerability",
		"upgrade 1.30.8 1.30.2":          "1.30.2 is older than 1.30.8",
		"is 1.30.2 affected by CVE-2024-10220 and CVE-2025-1974": "affected by one vulnerability",
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want an error saying %q", in, err, want)
		}
	}
}
