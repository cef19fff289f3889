package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestCVEQuestionsAsTyped reads the questions, and others typed in
// chat, with the reader that knows every KEP's name (cves matched KEP-3203
// "Auto-refreshing official CVE feed" before): each is read as the
// vulnerability question it asks.
func TestCVEQuestionsAsTyped(t *testing.T) {
	e := snapshotEngine(t)
	ask := question.NewAsker(question.NewReader(e), e)
	for in, want := range map[string]string{
		"cves 1.30.2":                                   "cves 1.30.2",
		"cves 1.30":                                     "cves 1.30",
		"which CVEs affect 1.30.2?":                     "cves 1.30.2",
		"is 1.30.2 vulnerable":                          "cves 1.30.2",
		"is 1.30.2 vulnerable?":                         "cves 1.30.2",
		"1.30.2 有哪些漏洞":                                  "cves 1.30.2",
		"1.30.2 有漏洞吗":                                   "cves 1.30.2",
		"what vulnerabilities does 1.30 have":           "cves 1.30",
		"security issues in 1.33.1":                     "cves 1.33.1",
		"cve CVE-2024-10220":                            "cve CVE-2024-10220",
		"tell me about GHSA-27wf-5967-98gx":             "cve GHSA-27wf-5967-98gx",
		"GO-2024-3286":                                  "cve GO-2024-3286",
		"is 1.30.2 affected by CVE-2024-10220":          "is 1.30.2 affected by CVE-2024-10220",
		"does CVE-2024-10220 affect 1.30.3?":            "is 1.30.3 affected by CVE-2024-10220",
		"am I exposed to CVE-2024-10220 on 1.29.6":      "is 1.29.6 affected by CVE-2024-10220",
		"upgrade 1.30.2 1.30.8":                         "upgrade 1.30.2 1.30.8",
		"what does upgrading from 1.30.2 to 1.30.8 fix": "upgrade 1.30.2 1.30.8",
		"upgrade 1.30.2 1.32":                           "upgrade 1.30.2 1.32",
	} {
		a := ask.Ask(context.Background(), in, knowledge.Origin{Platform: "console"})
		if a.Kind == knowledge.KindError || a.Query != want {
			t.Errorf("%q: read as %q (%s): %q; want %s", in, a.Query, a.Kind, a.Text, want)
		}
	}
}

// TestCVEAnswerShapes: the JSON of each answer names its parts as the
// issue does: cves a list, cve a card with every fixing version, verdict
// yes or no, an upgrade's cves {fixed, still_open}; a record of another
// product says which product; the latest patch answers count what their
// patch still has.
func TestCVEAnswerShapes(t *testing.T) {
	e := snapshotEngine(t)
	asJSON := func(q string) map[string]any {
		t.Helper()
		b, err := json.Marshal(ask(t, e, q))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := asJSON("cves 1.30.2")
	list, ok := m["cves"].([]any)
	if !ok || len(list) != 9 {
		t.Fatalf("cves 1.30.2: cves = %v; want a list of the 9 records", m["cves"])
	}
	first := list[0].(map[string]any)
	for _, k := range []string{"id", "aliases", "summary", "modules"} {
		if first[k] == nil {
			t.Errorf("cves 1.30.2: an item lacks %s: %v", k, first)
		}
	}
	m = asJSON("cve CVE-2024-10220")
	card := m["cve"].(map[string]any)
	if fixed := card["fixed_in"].([]any); len(fixed) != 3 || fixed[0] != "1.28.12" || fixed[2] != "1.30.3" || card["id"] != "GO-2024-3286" {
		t.Errorf("cve CVE-2024-10220: %v", card)
	}
	if m = asJSON("is 1.30.2 affected by CVE-2024-10220"); m["verdict"] != "yes" {
		t.Errorf("verdict %v", m["verdict"])
	}
	if m = asJSON("is 1.30.3 affected by GHSA-27wf-5967-98gx"); m["verdict"] != "no" {
		t.Errorf("verdict %v", m["verdict"])
	}
	m = asJSON("upgrade 1.30.2 1.30.8")
	up := m["cves"].(map[string]any)
	if f, o := up["fixed"].([]any), up["still_open"].([]any); len(f) != 2 || len(o) != 7 {
		t.Errorf("upgrade 1.30.2 1.30.8: fixed %d, still open %d; want 2 and 7", len(f), len(o))
	}
	a := ask(t, e, "cve CVE-2025-1974")
	if a.CVE.Product != "ingress-nginx" || !strings.Contains(a.Text, "ingress-nginx, a separate product") || strings.Join(a.CVE.FixedIn, " ") != "1.11.5 1.12.1" {
		t.Errorf("cve CVE-2025-1974: product %q, fixed %v, %q", a.CVE.Product, a.CVE.FixedIn, a.Text)
	}
	if a := ask(t, e, "is 1.30.2 affected by CVE-2025-1974"); a.Verdict != "no" || !strings.Contains(a.Text, "not of Kubernetes itself") {
		t.Errorf("another product's record: %s %q", a.Verdict, a.Text)
	}
	if a := ask(t, e, "1.30 patches"); !strings.Contains(strings.Join(a.Notes, "\n"), "1.30.14, the latest patch, still has 4") {
		t.Errorf("1.30 patches: notes %q", a.Notes)
	}
	if a := ask(t, e, "cves 1.30.2"); strings.Contains(a.Text+strings.Join(a.Notes, " "), "KEP-3203") || a.Sources[0].Name != "Go vulnerability database (vuln.go.dev, CC-BY-4.0)" {
		t.Errorf("cves 1.30.2: sources %v", a.Sources)
	}
	if a := ask(t, e, "cve CVE-2099-0001"); a.Kind != knowledge.KindError || !strings.Contains(a.Text, "official CVE feed") {
		t.Errorf("an unknown CVE: %s %q", a.Kind, a.Text)
	}
}
