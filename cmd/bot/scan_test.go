package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// snapshotDB is a database made from the built-in snapshot alone, as a
// fresh clone has it: made once for the test binary, copied for each test.
var snapshotDB = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "kepbot-scan-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "kb.db")
	var errb bytes.Buffer
	code := Main(context.Background(), []string{"ask", "--db", path, "releases"},
		stdio{in: strings.NewReader(""), out: io.Discard, err: &errb, getenv: func(string) string { return "" }})
	if code != exitOK {
		return nil, fmt.Errorf("exit %d: %s", code, errb.String())
	}
	return os.ReadFile(path)
})

// scanDB returns the path of a copy of the snapshot database.
func scanDB(t *testing.T) string {
	t.Helper()
	b, err := snapshotDB()
	if err != nil {
		t.Fatalf("make the snapshot database: %v", err)
	}
	path := filepath.Join(t.TempDir(), "kb.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFiles writes files (name → content) under a new folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n"
	cronBeta   = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n  namespace: ops\n"
	flowBeta1  = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta1\nkind: FlowSchema\nmetadata:\n  name: fs1\n"
	flowBeta3  = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: fs3\n"
	vapAlpha   = "apiVersion: admissionregistration.k8s.io/v1alpha1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: vap\n"
	vpa        = "apiVersion: autoscaling.k8s.io/v1\nkind: VerticalPodAutoscaler\nmetadata:\n  name: vpa\n"
	snap       = "apiVersion: snapshot.storage.k8s.io/v1\nkind: VolumeSnapshot\nmetadata:\n  name: snap\n"
)

func TestScanExitCodes(t *testing.T) {
	db := scanDB(t)
	dir := writeFiles(t, map[string]string{
		"fine.yaml":     deployment,
		"removed.yaml":  cronBeta,
		"flow3.yaml":    flowBeta3,
		"notk8s.txt":    "not yaml at all",
		"garbage.db":    strings.Repeat("x", 4096),
		"only-crd.yaml": vpa,
	})
	for _, tc := range []struct {
		name string
		args []string
		want int
		says string
	}{
		{"no --to", []string{"scan", "--db", db, dir}, exitBadInput, "give --to"},
		{"a release it does not know", []string{"scan", "--db", db, "--to", "1.99", dir}, exitBadInput, "I don't know Kubernetes 1.99"},
		{"not a release", []string{"scan", "--db", db, "--to", "latest", dir}, exitBadInput, "not a release"},
		{"--from after --to", []string{"scan", "--db", db, "--from", "1.36", "--to", "1.33", dir}, exitBadInput, "not older than"},
		{"no inputs", []string{"scan", "--db", db, "--to", "1.33"}, exitBadInput, "give the manifests"},
		{"nothing readable", []string{"scan", "--db", db, "--to", "1.33", filepath.Join(dir, "missing.yaml")}, scan.ExitUnreadable, "no such file"},
		{"nothing found", []string{"scan", "--db", db, "--to", "1.33", filepath.Join(dir, "fine.yaml")}, exitOK, "0 removed by 1.33"},
		{"only a CRD", []string{"scan", "--db", db, "--to", "1.33", filepath.Join(dir, "only-crd.yaml")}, exitOK, "1 not built-in"},
		{"deprecated only", []string{"scan", "--db", db, "--to", "1.30", filepath.Join(dir, "flow3.yaml")}, scan.ExitDeprecated, "1 deprecated"},
		{"removed", []string{"scan", "--db", db, "--to", "1.25", dir}, scan.ExitRemoved, "removed by 1.25"},
		{"not a database", []string{"scan", "--db", filepath.Join(dir, "garbage.db"), "--to", "1.33", dir}, exitFailure, "bot scan:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, "", nil, tc.args...)
			if code != tc.want || !strings.Contains(out+errs, tc.says) {
				t.Errorf("exit %d; want %d saying %q\nstdout: %.600s\nstderr: %.600s", code, tc.want, tc.says, out, errs)
			}
		})
	}
}

// scanJSONOf runs bot scan --json and decodes its object.
func scanJSONOf(t *testing.T, stdin string, args ...string) (int, scan.JSON) {
	t.Helper()
	code, out, errs := run(t, stdin, nil, append([]string{"scan", "--json", "--db", scanDB(t)}, args...)...)
	var got scan.JSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d, not one JSON object (%v):\n%.500s\nstderr: %.500s", code, err, out, errs)
	}
	return code, got
}

func TestScanJSONFields(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": deployment + "---\n" + cronBeta + "---\n" + vpa + "---\nkind: [broken\n"})
	code, got := scanJSONOf(t, "", "--to", "1.25", "--from", "1.21", dir)
	if code != scan.ExitRemoved || got.To != "1.25" || got.From == nil || *got.From != "1.21" || got.Objects != 3 {
		t.Fatalf("exit %d, %+v", code, got)
	}
	if len(got.Findings) != 1 {
		t.Fatalf("findings %+v; want the CronJob", got.Findings)
	}
	f := got.Findings[0]
	want := scan.FindingJSON{File: filepath.Join(dir, "a.yaml"), Document: 2, Line: 7, APIVersion: "batch/v1beta1", Kind: "CronJob",
		Name: "nightly", Namespace: "ops", Status: "removed", Level: "beta"}
	if f.File != want.File || f.Document != want.Document || f.Line != want.Line || f.Item != nil || f.APIVersion != want.APIVersion ||
		f.Kind != want.Kind || f.Name != want.Name || f.Namespace != want.Namespace || f.Status != want.Status || f.Level != want.Level {
		t.Errorf("finding %+v; want %+v", f, want)
	}
	if f.RemovedIn == nil || *f.RemovedIn != "1.25" || f.DeprecatedIn == nil || *f.DeprecatedIn != "1.21" {
		t.Errorf("removed_in %v, deprecated_in %v; want 1.25 and 1.21 (the migration guide, k8s.io/api)", f.RemovedIn, f.DeprecatedIn)
	}
	if f.Replacement == nil || f.Replacement.APIVersion != "batch/v1" || f.Replacement.Kind != "CronJob" || f.Replacement.AvailableIn == nil || *f.Replacement.AvailableIn != "1.21" {
		t.Errorf("replacement %+v; want batch/v1 CronJob, available in 1.21", f.Replacement)
	}
	if len(f.Sources) == 0 || !strings.Contains(f.Sources[0].Name, "migration guide") {
		t.Errorf("sources %+v; want the migration guide", f.Sources)
	}
	if len(got.Unknown) != 1 || got.Unknown[0].APIVersion != "autoscaling.k8s.io/v1" || got.Unknown[0].Document != 3 {
		t.Errorf("unknown %+v; want the VerticalPodAutoscaler of document 3", got.Unknown)
	}
	if len(got.Errors) != 1 || got.Errors[0].Document == nil || *got.Errors[0].Document != 4 || got.Errors[0].Line == nil || got.Errors[0].Message == "" {
		t.Errorf("errors %+v; want document 4 with its line and a message", got.Errors)
	}
}

// TestScanFollowsReplacementChains: flowcontrol v1beta1 names v1beta2 (and
// it v1beta3, and that v1) as its replacement: the first served and not
// deprecated in the target is the one to use; in 1.32 only v1 is served.
func TestScanFollowsReplacementChains(t *testing.T) {
	for _, tc := range []struct{ to, want string }{
		{"1.25", "flowcontrol.apiserver.k8s.io/v1beta2"},
		{"1.28", "flowcontrol.apiserver.k8s.io/v1beta3"},
		{"1.32", "flowcontrol.apiserver.k8s.io/v1"},
	} {
		_, got := scanJSONOf(t, flowBeta1, "--to", tc.to, "-")
		if len(got.Findings) != 1 || got.Findings[0].Replacement == nil || got.Findings[0].Replacement.APIVersion != tc.want {
			t.Errorf("to %s: %+v; want the replacement %s", tc.to, got.Findings, tc.want)
		}
	}
}

// TestScanNamesTheBridge: flowcontrol v1beta2 goes in 1.29, where v1 comes;
// a cluster on 1.28 cannot apply v1 yet, so the text says to move to
// v1beta3 (served since 1.26) first, as the API card does. From 1.29 on,
// or when the replacement is served where the cluster is, it says nothing
// more; the JSON keeps its one replacement.
func TestScanNamesTheBridge(t *testing.T) {
	flowBeta2 := strings.Replace(flowBeta1, "v1beta1", "v1beta2", 1)
	const bridge = "before 1.29, flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema (served since 1.26)"
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--from", "1.28", "--to", "1.29"}, true},
		{[]string{"--to", "1.31"}, true}, // from unknown: said, as the API card says it
		{[]string{"--from", "1.29", "--to", "1.31"}, false},
	} {
		code, out, errs := run(t, flowBeta2, nil, append(append([]string{"scan", "--db", scanDB(t)}, tc.args...), "-")...)
		if code != scan.ExitRemoved || !strings.Contains(out, "use flowcontrol.apiserver.k8s.io/v1 FlowSchema (served since 1.29)") {
			t.Errorf("%v: exit %d\n%s%s", tc.args, code, out, errs)
		}
		if strings.Contains(out, bridge) != tc.want {
			t.Errorf("%v: says the bridge %v, want %v:\n%s", tc.args, !tc.want, tc.want, out)
		}
	}
	_, got := scanJSONOf(t, flowBeta2, "--from", "1.28", "--to", "1.29", "-")
	if len(got.Findings) != 1 || got.Findings[0].Replacement == nil || got.Findings[0].Replacement.APIVersion != "flowcontrol.apiserver.k8s.io/v1" {
		t.Fatalf("JSON findings %+v; want the replacement v1", got.Findings)
	}
	b := got.Findings[0].ReplacementBefore
	if b == nil || b.APIVersion != "flowcontrol.apiserver.k8s.io/v1beta3" || b.Kind != "FlowSchema" || b.AvailableIn == nil || *b.AvailableIn != "1.26" || b.Until != "1.29" {
		t.Errorf("replacement_before %+v; want v1beta3, served since 1.26, until 1.29 (the bridge the text names)", b)
	}
	_, past := scanJSONOf(t, flowBeta2, "--from", "1.29", "--to", "1.31", "-")
	if len(past.Findings) != 1 || past.Findings[0].ReplacementBefore != nil {
		t.Errorf("from 1.29: %+v; want no replacement_before", past.Findings)
	}
}

// TestScanAdvice: what to use instead is the same kind, in a version the
// target serves, the most stable one there, and never a step back to an
// older major version that lacks fields. Checked against the markers of
// ../shared/data/api-lifecycle: autoscaling/v2beta1 HorizontalPodAutoscaler
// (introduced 1.8, deprecated 1.22, replacement v2beta2, removed 1.25),
// v2beta2 (1.12, 1.23, 1.26), autoscaling/v2 first carried in 1.23;
// extensions/v1beta1 Ingress (replacement networking.k8s.io/v1, from
// 1.19) and networking.k8s.io/v1beta1 Ingress (1.14 to 1.22);
// apps/v1beta1 DeploymentRollback names apps/v1 DeploymentRollback, which
// no release carries; resource.k8s.io v1beta2 (1.33, deprecated 1.36) and
// v1 (1.34) are both served in 1.35.
func TestScanAdvice(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind, to string
		status, want, since  string // want "" for no replacement
	}{
		{"autoscaling/v2beta1", "HorizontalPodAutoscaler", "1.22", "deprecated", "autoscaling/v2beta2", "1.12"},
		{"autoscaling/v2beta1", "HorizontalPodAutoscaler", "1.25", "removed", "autoscaling/v2", "1.23"},
		{"extensions/v1beta1", "Ingress", "1.16", "deprecated", "networking.k8s.io/v1beta1", "1.14"},
		{"extensions/v1beta1", "Ingress", "1.22", "removed", "networking.k8s.io/v1", "1.19"},
		{"apps/v1beta1", "DeploymentRollback", "1.16", "removed", "", ""},
		{"resource.k8s.io/v1beta1", "ResourceClaim", "1.35", "deprecated", "resource.k8s.io/v1", "1.34"},
		{"resource.k8s.io/v1", "ResourceClaim", "1.33", "not_yet_served", "resource.k8s.io/v1beta2", "1.33"},
		{"networking.k8s.io/v1", "Ingress", "1.16", "not_yet_served", "networking.k8s.io/v1beta1", "1.14"},
	} {
		in := "apiVersion: " + tc.apiVersion + "\nkind: " + tc.kind + "\nmetadata:\n  name: x\n"
		_, got := scanJSONOf(t, in, "--to", tc.to, "-")
		if len(got.Findings) != 1 || got.Findings[0].Status != tc.status {
			t.Errorf("%s %s at %s: %+v; want one finding, %s", tc.apiVersion, tc.kind, tc.to, got.Findings, tc.status)
			continue
		}
		r := got.Findings[0].Replacement
		switch {
		case tc.want == "" && r != nil:
			t.Errorf("%s %s at %s: replacement %+v; want none", tc.apiVersion, tc.kind, tc.to, r)
		case tc.want != "" && (r == nil || r.APIVersion != tc.want || r.Kind != tc.kind || r.AvailableIn == nil || *r.AvailableIn != tc.since):
			t.Errorf("%s %s at %s: replacement %+v; want %s %s served since %s", tc.apiVersion, tc.kind, tc.to, r, tc.want, tc.kind, tc.since)
		}
	}
	_, out, _ := run(t, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: x\n", nil, "scan", "--db", scanDB(t), "--to", "1.33", "-")
	if !strings.Contains(out, "until 1.34, use resource.k8s.io/v1beta2 ResourceClaim (served since 1.33)") {
		t.Errorf("a version served only from 1.34 does not say what to use before:\n%s", out)
	}
}

// TestScanReleaseNotesWinOverMarkers: the markers say the v1alpha1
// ValidatingAdmissionPolicy goes in 1.32; the 1.33 release notes (PR
// 129207) record its removal there.
func TestScanReleaseNotesWinOverMarkers(t *testing.T) {
	_, at32 := scanJSONOf(t, vapAlpha, "--to", "1.32", "-")
	if len(at32.Findings) != 1 || at32.Findings[0].Status != "deprecated" {
		t.Errorf("to 1.32: %+v; want deprecated, still served", at32.Findings)
	}
	_, at33 := scanJSONOf(t, vapAlpha, "--to", "1.33", "-")
	if len(at33.Findings) != 1 || at33.Findings[0].Status != "removed" || *at33.Findings[0].RemovedIn != "1.33" {
		t.Fatalf("to 1.33: %+v; want removed in 1.33", at33.Findings)
	}
	if s := at33.Findings[0].Sources; len(s) == 0 || s[0].PR != 129207 {
		t.Errorf("sources %+v; want the 1.33 release notes' PR 129207", s)
	}
}

// TestScanCRDLookalikesAreNotBuiltIn: a CRD's group is not built in (not
// checked, exit 0 alone); a version or kind of a built-in group that no
// release serves (apps/v1beta3, a misspelt kind, InitializerConfiguration,
// which never left alpha before it went) is a finding that breaks, exit 5,
// with the same kind served in the target to use instead.
func TestScanCRDLookalikesAreNotBuiltIn(t *testing.T) {
	code, got := scanJSONOf(t, vpa+"---\n"+snap, "--to", "1.36", "-")
	if code != exitOK || len(got.Findings) != 0 || len(got.Unknown) != 2 {
		t.Fatalf("exit %d, findings %+v, unknown %+v; want the two CRs not built in, exit 0", code, got.Findings, got.Unknown)
	}
	for i, want := range []string{"autoscaling.k8s.io", "snapshot.storage.k8s.io"} {
		if !strings.Contains(got.Unknown[i].Reason, want) {
			t.Errorf("unknown %d: %q; want it to name %s", i, got.Unknown[i].Reason, want)
		}
	}
	in := "apiVersion: apps/v1beta3\nkind: Deployment\nmetadata:\n  name: typo\n---\napiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: typo2\n" +
		"---\napiVersion: admissionregistration.k8s.io/v1alpha1\nkind: InitializerConfiguration\nmetadata:\n  name: init\n"
	code, got = scanJSONOf(t, in, "--to", "1.36", "-")
	if code != scan.ExitRemoved || len(got.Findings) != 3 || len(got.Unknown) != 0 {
		t.Fatalf("exit %d, findings %+v, unknown %+v; want three findings, exit 5", code, got.Findings, got.Unknown)
	}
	for _, f := range got.Findings {
		if f.Status != "not_served" {
			t.Errorf("%s %s: status %s; want not_served", f.APIVersion, f.Kind, f.Status)
		}
		wantRep := f.Kind == "Deployment"
		if (f.Replacement != nil) != wantRep || wantRep && f.Replacement.APIVersion != "apps/v1" {
			t.Errorf("%s %s: replacement %+v; want apps/v1 Deployment for the Deployment alone", f.APIVersion, f.Kind, f.Replacement)
		}
	}
	_, out, _ := run(t, in, nil, "scan", "--db", scanDB(t), "--to", "1.36", "-")
	for _, want := range []string{"3 served by no release", "Served by no release I know: apps/v1beta3 Deployment", "use apps/v1 Deployment"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
}

func TestScanInputForms(t *testing.T) {
	list := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"batch/v1beta1","kind":"CronJob","metadata":{"name":"in-list"}}]}`
	helm := "---\n# Source: chart/templates/cron.yaml\n" + cronBeta
	crlf := strings.ReplaceAll(cronBeta, "\n", "\r\n")
	anchors := "meta: &m\n  name: anchored\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata: &x\n  name: anchored\n  namespace: ops\n"
	dir := writeFiles(t, map[string]string{
		"list.json": list, "helm.yaml": helm, "crlf.yml": crlf, "anchors.yaml": anchors,
		"deep/er/nested.yaml": cronBeta, ".hidden/skipped.yaml": cronBeta, "notes.txt": cronBeta,
	})
	code, got := scanJSONOf(t, cronBeta, "--to", "1.25", dir, "-")
	if code != scan.ExitRemoved {
		t.Fatalf("exit %d", code)
	}
	byFile := map[string]scan.FindingJSON{}
	for _, f := range got.Findings {
		byFile[filepath.Base(f.File)] = f
	}
	if f, ok := byFile["list.json"]; !ok || f.Item == nil || *f.Item != 1 || f.Name != "in-list" {
		t.Errorf("the List item: %+v", f)
	}
	if f, ok := byFile["helm.yaml"]; !ok || f.Template != "chart/templates/cron.yaml" {
		t.Errorf("the helm template: %+v", f)
	}
	if f, ok := byFile["crlf.yml"]; !ok || f.Name != "nightly" || f.Line != 1 {
		t.Errorf("the CRLF file: %+v", f)
	}
	if f, ok := byFile["anchors.yaml"]; !ok || f.Name != "anchored" || f.Document != 2 {
		t.Errorf("the file with anchors: %+v", f)
	}
	if _, ok := byFile["nested.yaml"]; !ok {
		t.Error("a file two folders down was not read")
	}
	if _, ok := byFile["stdin"]; !ok {
		t.Error("stdin was not read")
	}
	for _, name := range []string{"skipped.yaml", "notes.txt"} {
		if _, ok := byFile[name]; ok {
			t.Errorf("%s was read; hidden folders and files that are not .yaml, .yml or .json are passed over", name)
		}
	}
	if got.Objects != 6 || len(got.Findings) != 6 {
		t.Errorf("%d objects, %d findings; want 6 and 6", got.Objects, len(got.Findings))
	}
}

func TestScanKubectlVersionGivesFrom(t *testing.T) {
	in := "Client Version: v1.31.2\nKustomize Version: v5.4.2\nServer Version: v1.29.7\n---\n" + cronBeta
	code, got := scanJSONOf(t, in, "--to", "1.33", "-")
	if code != scan.ExitRemoved || got.From == nil || *got.From != "1.29" {
		t.Errorf("exit %d, from %v; want 1.29 from the server version", code, got.From)
	}
	_, given := scanJSONOf(t, in, "--to", "1.33", "--from", "1.30", "-")
	if given.From == nil || *given.From != "1.30" {
		t.Errorf("from %v; want --from to win", given.From)
	}
	code, _, errs := run(t, "Server Version: v1.35.1\n", nil, "scan", "--db", scanDB(t), "--to", "1.33", "-")
	if code != exitBadInput || !strings.Contains(errs, "server runs 1.35") {
		t.Errorf("exit %d, %q; want 2: the server is newer than the target", code, errs)
	}
}

// TestScanNeverRepeatsValues: a Secret's values, pasted whole, reach no
// output, whether the document reads or not.
func TestScanNeverRepeatsValues(t *testing.T) {
	const secret = "hunter2-s3cr3t-VALUE"
	in := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  annotations:\n    note: " + secret + "\nstringData:\n  password: " + secret +
		"\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: job\nspec:\n  token: " + secret +
		"\n---\napiVersion: v1\nkind: Secret\ndata:\n  key: \"" + secret + "\n  broken: [\n"
	for _, asJSON := range []bool{false, true} {
		args := []string{"scan", "--db", scanDB(t), "--to", "1.25", "-"}
		if asJSON {
			args = append(args, "--json")
		}
		code, out, errs := run(t, in, nil, args...)
		if code != scan.ExitRemoved {
			t.Errorf("json %v: exit %d", asJSON, code)
		}
		if strings.Contains(out+errs, secret) {
			t.Errorf("json %v: a value of the manifest is in the output:\n%s\n%s", asJSON, out, errs)
		}
	}
}

// TestScanBinaryFileAmongOthers: a file that is not text is one error; the
// others are scanned.
func TestScanBinaryFileAmongOthers(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bin.yaml": "\x00\x01\x02\xff\xfe" + strings.Repeat("\x00", 100), "ok.yaml": cronBeta})
	code, got := scanJSONOf(t, "", "--to", "1.25", dir)
	if code != scan.ExitRemoved || len(got.Findings) != 1 || len(got.Errors) != 1 || !strings.HasSuffix(got.Errors[0].File, "bin.yaml") {
		t.Errorf("exit %d, %+v", code, got)
	}
}

func TestScanTextGroupsByAPI(t *testing.T) {
	in := cronBeta + "---\n" + strings.ReplaceAll(cronBeta, "nightly", "hourly") + "---\n" + vpa
	code, out, _ := run(t, in, nil, "scan", "--db", scanDB(t), "--to", "1.25", "-")
	if code != scan.ExitRemoved {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"3 objects: 2 removed by 1.25, 0 deprecated, 1 not built-in.", "Removed in 1.25: batch/v1beta1 CronJob (beta)",
		"use batch/v1 CronJob", "ops/nightly", "ops/hourly", "Not built into Kubernetes", "autoscaling.k8s.io/v1 VerticalPodAutoscaler", "Source: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "Removed in 1.25: batch/v1beta1 CronJob") != 1 {
		t.Errorf("the API is not said once, with its objects under it:\n%s", out)
	}
}
