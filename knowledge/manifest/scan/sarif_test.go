package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
)

// checkSARIF checks a log against what the SARIF 2.1.0 schema
// (sarif-schema-2.1.0.json, OASIS) requires of the objects a report uses:
// sarifLog needs version "2.1.0" and runs; run needs tool; tool needs
// driver; toolComponent needs name; reportingDescriptor needs id;
// result needs message (with text or id); level is none, note, warning
// or error; ruleIndex is at least -1; physicalLocation has an
// artifactLocation; region.startLine is at least 1; partialFingerprints
// and the property bags are objects of strings (fingerprints) or any
// values; a uri is a URI reference. It also checks what GitHub code
// scanning needs: a ruleId naming a rule, at most 25,000 results.
func checkSARIF(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(raw, &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	errs := func(format string, a ...any) { t.Helper(); t.Errorf("SARIF: "+format, a...) }
	if log["version"] != "2.1.0" {
		errs("version %v; want 2.1.0", log["version"])
	}
	runs, ok := log["runs"].([]any)
	if !ok || len(runs) == 0 {
		t.Fatalf("SARIF: runs %v; want an array of runs", log["runs"])
	}
	uriRef := regexp.MustCompile(`^([a-z][a-z0-9+.-]*:)?[^\s]*$`)
	for _, r := range runs {
		run := r.(map[string]any)
		tool, ok := run["tool"].(map[string]any)
		if !ok {
			t.Fatal("SARIF: a run without tool")
		}
		driver, ok := tool["driver"].(map[string]any)
		if !ok || driver["name"] == nil || driver["name"] == "" {
			t.Fatal("SARIF: a tool without driver.name")
		}
		ids := map[string]int{}
		rules, _ := driver["rules"].([]any)
		for i, rl := range rules {
			rule := rl.(map[string]any)
			id, _ := rule["id"].(string)
			if id == "" {
				errs("rule %d has no id", i)
			}
			ids[id] = i
			if dc, ok := rule["defaultConfiguration"].(map[string]any); ok {
				checkLevel(t, dc["level"])
			}
		}
		results, ok := run["results"].([]any)
		if !ok {
			errs("a run without results")
		}
		if len(results) > githubMaxResults {
			errs("%d results; GitHub takes at most %d", len(results), githubMaxResults)
		}
		for i, rs := range results {
			res := rs.(map[string]any)
			msg, ok := res["message"].(map[string]any)
			if !ok || (msg["text"] == nil && msg["id"] == nil) {
				errs("result %d has no message text", i)
			}
			checkLevel(t, res["level"])
			id, _ := res["ruleId"].(string)
			idx, ok := ids[id]
			if !ok {
				errs("result %d: ruleId %q names no rule", i, id)
			}
			if ri, ok := res["ruleIndex"].(float64); !ok || int(ri) != idx {
				errs("result %d: ruleIndex %v; want %d", i, res["ruleIndex"], idx)
			}
			fps, ok := res["partialFingerprints"].(map[string]any)
			if !ok || len(fps) == 0 {
				errs("result %d has no partialFingerprints", i)
			}
			for k, v := range fps {
				if _, ok := v.(string); !ok {
					errs("result %d: fingerprint %s is not a string", i, k)
				}
			}
			locs, _ := res["locations"].([]any)
			if len(locs) == 0 {
				errs("result %d has no location", i)
			}
			for _, l := range locs {
				pl, ok := l.(map[string]any)["physicalLocation"].(map[string]any)
				if !ok {
					errs("result %d: a location without physicalLocation", i)
					continue
				}
				al, ok := pl["artifactLocation"].(map[string]any)
				if uri, _ := al["uri"].(string); !ok || uri == "" || !uriRef.MatchString(uri) {
					errs("result %d: artifactLocation %v is not a URI reference", i, al)
				}
				if base, ok := al["uriBaseId"].(string); ok {
					if _, known := run["originalUriBaseIds"].(map[string]any)[base]; !known {
						errs("result %d: uriBaseId %s is not in originalUriBaseIds", i, base)
					}
				}
				if reg, ok := pl["region"].(map[string]any); ok {
					if sl, ok := reg["startLine"].(float64); !ok || sl < 1 {
						errs("result %d: region.startLine %v; want at least 1", i, reg["startLine"])
					}
				}
			}
		}
	}
	return log
}

func checkLevel(t *testing.T, l any) {
	t.Helper()
	switch l {
	case "none", "note", "warning", "error":
	default:
		t.Errorf("SARIF: level %v is not none, note, warning or error", l)
	}
}

func runSARIF(t *testing.T, base string, paths ...string) (int, []byte) {
	t.Helper()
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code, err := Run(context.Background(), InMemory(k), Request{To: knowledge.Version{Major: 1, Minor: 25}, Paths: paths, Format: FormatSARIF, BaseDir: base}, &out)
	if err != nil {
		t.Fatal(err)
	}
	return code, out.Bytes()
}

// TestSARIF: a report as SARIF 2.1.0 holds the schema's required
// structure, one rule per kind of finding, a result per finding with its
// file (relative to the base folder) and line, level error for what breaks
// and warning for deprecations, and an unreadable input as a result.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("k8s/app one.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n  namespace: ops\n")
	write("k8s/flow.yaml", "apiVersion: flowcontrol.apiserver.k8s.io/v1beta1\nkind: FlowSchema\nmetadata:\n  name: fs\n")
	write("k8s/broken.yaml", "kind: [unclosed\n")
	code, raw := runSARIF(t, dir, filepath.Join(dir, "k8s"))
	if code != ExitRemoved {
		t.Errorf("exit %d; want 5", code)
	}
	log := checkSARIF(t, raw)
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	got := map[string]string{}
	for _, r := range results {
		res := r.(map[string]any)
		al := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := al["artifactLocation"].(map[string]any)["uri"].(string)
		line := 0
		if reg, ok := al["region"].(map[string]any); ok {
			line = int(reg["startLine"].(float64))
		}
		got[fmt.Sprintf("%s:%d", uri, line)] = res["ruleId"].(string) + " " + res["level"].(string)
	}
	want := map[string]string{
		"k8s/app%20one.yaml:6": "removed-api error",
		"k8s/flow.yaml:1":      "deprecated-api warning",
		"k8s/broken.yaml:1":    "unreadable-input error",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("result at %s: %q; want %q (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results %v; want %v", got, want)
	}
}

// TestSARIFFingerprintsAreStable: a finding keeps its fingerprint when its
// lines move or the path is given another way, and a different object gets
// another.
func TestSARIFFingerprintsAreStable(t *testing.T) {
	dir := t.TempDir()
	cron := "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n"
	p := filepath.Join(dir, "cron.yaml")
	fp := func(content string, path string) []string {
		t.Helper()
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, raw := runSARIF(t, dir, path)
		var log sarifLog
		if err := json.Unmarshal(raw, &log); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range log.Runs[0].Results {
			out = append(out, r.PartialFingerprints[fingerprintKey])
		}
		return out
	}
	a := fp(cron, p)
	b := fp("# moved down\n\n"+cron, p)
	c := fp(cron, filepath.Join(dir, ".", "cron.yaml"))
	d := fp(strings.Replace(cron, "nightly", "hourly", 1), p)
	if len(a) != 1 || a[0] != b[0] || a[0] != c[0] {
		t.Errorf("fingerprints %v, %v, %v; want one, the same when lines move or the path is written otherwise", a, b, c)
	}
	if a[0] == d[0] {
		t.Error("another object has the same fingerprint")
	}
}
