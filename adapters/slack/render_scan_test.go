package slack

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// bigScan is a scan answer with n findings whose values are long and try
// markup, and many notes.
func bigScan(n int) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindScan, Title: "Scan for Kubernetes 1.36", Query: "scan 1.36",
		Text:    strconv.Itoa(n) + " objects: " + strconv.Itoa(n) + " removed by 1.36, 0 deprecated, 0 not built-in.",
		Sources: []knowledge.SourceRef{{Name: "Kubernetes deprecated API migration guide (en)"}, {Name: "k8s.io/api v0.37.2", AsOf: "2026-10-28"}}}
	for i := range n {
		a.Facts = append(a.Facts, knowledge.Fact{Name: fmt.Sprintf("Removed in 1.%d: group%d.example.io/v1beta1 Kind%d <!channel>", 16+i%20, i, i),
			Value: "use group.example.io/v1 Kind (served since 1.19) · per the deprecated API migration guide · 8 objects: " +
				strings.Repeat("ns/name-with-a-long-name-<@U1> (document 12), ", 40)})
	}
	for i := range 60 {
		a.Notes = append(a.Notes, fmt.Sprintf("document %d, line %d: a value is missing where YAML expects one & more", i, i*7))
	}
	return a
}

// TestScanPartsWithinLimits: a scan answer of any size is drawn in at
// most maxScanParts messages, each within Slack's limits, numbered, the
// summary first and the sources last, and what does not fit counted.
func TestScanPartsWithinLimits(t *testing.T) {
	for _, n := range []int{0, 1, 5, 12, 40, 400} {
		for _, o := range []RenderOptions{{}, {Slash: true}, {Slash: true, Public: true}} {
			a := bigScan(n)
			parts := RenderParts(a, o)
			if len(parts) == 0 || len(parts) > maxScanParts {
				t.Fatalf("%d findings: %d parts", n, len(parts))
			}
			var all strings.Builder
			for i, m := range parts {
				if p := CheckLimits(m); p != nil {
					t.Errorf("%d findings, part %d: %s", n, i+1, strings.Join(p, "; "))
				}
				if len(parts) > 1 && !strings.Contains(string(m.BlocksJSON()), fmt.Sprintf("Part %d of %d", i+1, len(parts))) {
					t.Errorf("%d findings, part %d is not numbered", n, i+1)
				}
				if o.Slash && m.ResponseType != map[bool]string{false: Ephemeral, true: InChannel}[o.Public] {
					t.Errorf("part %d response_type %q with %+v", i+1, m.ResponseType, o)
				}
				all.WriteString(string(m.BlocksJSON()))
			}
			out := all.String()
			if !strings.Contains(string(parts[0].BlocksJSON()), "removed by 1.36") || !strings.Contains(string(parts[len(parts)-1].BlocksJSON()), "Sources:") {
				t.Errorf("%d findings: the summary does not lead or the sources do not end", n)
			}
			shown := strings.Count(out, "group.example.io/v1 Kind")
			if shown < n && !strings.Contains(out, fmt.Sprintf("… and %d more that do not fit", n-shown)) {
				t.Errorf("%d findings, %d shown, and the rest not counted", n, shown)
			}
			if n <= 12 && shown != n {
				t.Errorf("%d findings but %d shown", n, shown)
			}
			if strings.Contains(out, "<!channel>") || strings.Contains(out, "<@U1>") {
				t.Errorf("markup from the answer came through unescaped")
			}
		}
	}
	// Render, where a single message is wanted, draws the first part.
	if m := Render(bigScan(40), RenderOptions{Slash: true}); CheckLimits(m) != nil || !strings.Contains(string(m.BlocksJSON()), "Part 1 of") {
		t.Errorf("Render of a long scan is not its first part")
	}
}

// TestAPIPagesWithinLimits: an api answer draws each API version as a
// section, five a page, with page buttons that ask the question again.
func TestAPIPagesWithinLimits(t *testing.T) {
	a := &knowledge.Answer{Kind: knowledge.KindAPI, Title: "API v1", Query: "api v1", Text: "v1: served in 1.37: " + strings.Repeat("v1 Kind, ", 200)}
	for i := range 23 {
		a.Facts = append(a.Facts, knowledge.Fact{Name: fmt.Sprintf("v1 Kind%d", i), Value: strings.Repeat("GA · introduced 1.0 · served in 1.37 · ", 60)})
	}
	a.Notes = []string{strings.Repeat("sources disagree & ", 100)}
	for page := range 5 {
		m := Render(a, RenderOptions{Slash: true, Page: page})
		if p := CheckLimits(m); p != nil {
			t.Errorf("page %d: %s", page, strings.Join(p, "; "))
		}
		js := string(m.BlocksJSON())
		if !strings.Contains(js, fmt.Sprintf("Page %d of 5 · 23 API versions", page+1)) || strings.Count(js, "*v1 Kind") != min(5, 23-page*5) {
			t.Errorf("page %d: %s", page, js)
		}
		if page < 4 && !strings.Contains(js, pageValue("api v1", page+1, false)) {
			t.Errorf("page %d has no Next button", page)
		}
	}
}

// TestRealAPIAndScanAnswersFit asks the real engine api questions and a
// scan of many objects, and checks every page and part.
func TestRealAPIAndScanAnswersFit(t *testing.T) {
	eng, _ := realEngine(t)
	ask := question.NewAsker(nil, eng)
	ctx := context.Background()
	for _, q := range []string{"api Ingress", "api CronJob", "api batch/v1beta1", "api v1", "api apps/v1", "api Ingress in 1.21", "api Nope"} {
		ans := ask.Ask(ctx, q, knowledge.Origin{})
		for page, pages := 0, 1; page < pages; page++ {
			m := Render(ans, RenderOptions{Slash: true, Page: page})
			if p := CheckLimits(m); p != nil {
				t.Errorf("%q page %d: %s", q, page, strings.Join(p, "; "))
			}
			pages = pageCount(m)
		}
	}
	var b strings.Builder
	b.WriteString("scan 1.30\n")
	for i := range 600 {
		gv := []string{"extensions/v1beta1", "batch/v1beta1", "policy/v1beta1", "apps/v1", "example.com/v1", "flowcontrol.apiserver.k8s.io/v1beta2"}[i%6]
		kind := []string{"Ingress", "CronJob", "PodSecurityPolicy", "Deployment", "Widget" + strconv.Itoa(i%50), "FlowSchema"}[i%6]
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: %s\nmetadata:\n  name: object-%d\n  namespace: team-%d\n", gv, kind, i, i%9)
	}
	ans := ask.Ask(ctx, b.String(), knowledge.Origin{})
	if ans.Kind != knowledge.KindScan {
		t.Fatalf("scan answer: %s %s", ans.Kind, ans.Text)
	}
	parts := RenderParts(ans, RenderOptions{Slash: true})
	for i, m := range parts {
		if p := CheckLimits(m); p != nil {
			t.Errorf("part %d: %s", i+1, strings.Join(p, "; "))
		}
	}
	t.Logf("%d facts in %d parts", len(ans.Facts), len(parts))
}
