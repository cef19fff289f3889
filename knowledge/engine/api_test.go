package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/knowledge/question"
)

// askChat reads text as chat would and answers it.
func askChat(t *testing.T, e *engine.Engine, text string) (*knowledge.Answer, error) {
	t.Helper()
	q, err := question.NewReader(e).Read(t.Context(), text)
	if err != nil {
		return nil, err
	}
	a, err := e.Answer(t.Context(), q)
	return knowledge.Understood(a, q), err
}

// TestUpgradeNamesTheAPIRemovals: going from 1.32 to 1.36, the five
// removals the release notes record, each with its pull request, on the
// whole corpus and on the built-in snapshot.
func TestUpgradeNamesTheAPIRemovals(t *testing.T) {
	want := []struct {
		release, gv string
		kinds       []string
		pr          int
	}{
		{"1.33", "admissionregistration.k8s.io/v1alpha1", []string{"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}, 129207},
		{"1.34", "resource.k8s.io/v1alpha3", []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"}, 132000},
		{"1.35", "storage.k8s.io/v1alpha1", []string{"VolumeAttributesClass"}, 134625},
		{"1.35", "storagemigration.k8s.io/v1alpha1", []string{"StorageVersionMigration"}, 134784},
		{"1.36", "scheduling.k8s.io/v1alpha1", []string{"Workload"}, 136976},
	}
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a, err := askChat(t, e, "upgrade 1.32 1.36")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(a.Text, "no API") {
				t.Errorf("the summary says no API stops being served: %s", a.Text)
			}
			for _, w := range want {
				found := false
				for _, n := range a.Notices {
					if n.API == nil || n.Kind != knowledge.NoticeRemoval || n.API.GroupVersion != w.gv || n.Release.String() != w.release || !contains(n.API.Kinds, w.kinds[0]) {
						continue
					}
					found = true
					if n.PR != w.pr || !strings.Contains(n.URL, fmt.Sprint(w.pr)) {
						t.Errorf("%s: PR %d (%s); want %d", w.gv, n.PR, n.URL, w.pr)
					}
					// the notes' kinds first, then any the API table adds for
					// the same removal (k8s.io/api drops scheduling.k8s.io/v1alpha1's
					// PriorityClass in 1.36 too): one item
					if len(n.API.Kinds) < len(w.kinds) || strings.Join(n.API.Kinds[:len(w.kinds)], ",") != strings.Join(w.kinds, ",") {
						t.Errorf("%s: kinds %v; want %v first", w.gv, n.API.Kinds, w.kinds)
					}
				}
				if !found {
					t.Errorf("no removal of %s in %s among the notices", w.gv, w.release)
				}
			}
			if !strings.Contains(strings.Join(a.Notes, "\n"), "admissionregistration.k8s.io/v1alpha1") {
				t.Errorf("the notes do not say where the markers and the 1.33 notes disagree: %q", a.Notes)
			}
		})
	}
}

// TestAPIAnswers checks api answers against what the sources say.
func TestAPIAnswers(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				q    string
				want []string // in the text, facts or notes
			}{
				{"api PodSecurityPolicy", []string{"policy/v1beta1 PodSecurityPolicy", "removed in 1.25", "removed in 1.16"}},
				{"when was PodSecurityPolicy removed?", []string{"policy/v1beta1 PodSecurityPolicy (1.25)"}},
				{"is batch/v1beta1 still served in 1.24", []string{"Yes — in Kubernetes 1.24", "batch/v1beta1 CronJob (deprecated since 1.21)"}},
				{"api batch/v1beta1 CronJob in 1.25", []string{"No — in Kubernetes 1.25", "removed in 1.25"}},
				{"api flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema", []string{"removed in 1.26", "use flowcontrol.apiserver.k8s.io/v1 FlowSchema (served since 1.29)"}},
				{"api admissionregistration.k8s.io/v1alpha1", []string{"removed in 1.33 (the 1.33 release notes, PR #129207)", "lifecycle markers say 1.32", "kepbot goes by the release notes"}},
				{"api flowcontrol.apiserver.k8s.io/v1beta2", []string{"before 1.29, flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema (served since 1.26)"}},
				{"api flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema", []string{"before 1.26, flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema (served since 1.23)"}},
				{"api Ingress", []string{"networking.k8s.io/v1 Ingress", "extensions/v1beta1 Ingress", "removed in 1.22"}},
				{"api networking.k8s.io/v1beta1 IngressClass", []string{"use networking.k8s.io/v1 IngressClass"}},
			} {
				a, err := askChat(t, e, tc.q)
				if err != nil {
					t.Errorf("%s: %v", tc.q, err)
					continue
				}
				all := a.Text + "\n" + strings.Join(a.Notes, "\n")
				for _, f := range a.Facts {
					all += "\n" + f.Name + " " + f.Value
				}
				for _, w := range tc.want {
					if !strings.Contains(all, w) {
						t.Errorf("%s: the answer lacks %q:\n%s", tc.q, w, all)
					}
				}
				if a.Kind != knowledge.KindAPI || len(a.Sources) == 0 || len(a.API) == 0 {
					t.Errorf("%s: kind %s, %d sources, %d API facts", tc.q, a.Kind, len(a.Sources), len(a.API))
				}
			}
			for _, tc := range []struct {
				q, code, says string
				suggest       string
			}{
				{"api cert-manager.io/v1", knowledge.ENOTFOUND, "not built into Kubernetes", ""},
				{"api Ingres", knowledge.ENOTFOUND, "serves a kind", "api Ingress"},
				{"api batch/v1beta1 in 1.99", knowledge.EBADINPUT, "not out as far as my sources say", ""},
			} {
				_, err := askChat(t, e, tc.q)
				kerr, ok := err.(*knowledge.Error)
				if !ok || kerr.Code != tc.code || !strings.Contains(kerr.Message, tc.says) || (tc.suggest != "" && !contains(kerr.Suggestions, tc.suggest)) {
					t.Errorf("%s: %v; want %s saying %q, suggesting %q", tc.q, err, tc.code, tc.says, tc.suggest)
				}
			}
		})
	}
}

// TestScanAnswer: a scan question with its manifest in the same message,
// answered on the snapshot and the corpus; the Secret's value and a
// mass mention never reach the answer.
func TestScanAnswer(t *testing.T) {
	const secret = "tOpS3cret-value-42"
	msg := "scan 1.32 1.36\n```yaml\n" +
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: " + secret + "\n---\n" +
		"apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\nmetadata:\n  name: gpu\n  namespace: ml\n---\n" +
		"apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata:\n  name: '@everyone'\n---\n" +
		"apiVersion: snapshot.storage.k8s.io/v1\nkind: VolumeSnapshot\nmetadata:\n  name: snap\n---\n" +
		"apiVersion: v1\nkind: Secret\ndata: [" + secret + "\n```"
	for name, e := range fullEngines(t, engine.WithManifestReader(manifest.ChatReader)) {
		t.Run(name, func(t *testing.T) {
			a, err := askChat(t, e, msg)
			if err != nil {
				t.Fatal(err)
			}
			if a.Kind != knowledge.KindScan || a.Text != "4 objects: 2 removed by 1.36, 0 deprecated, 1 not built-in." {
				t.Errorf("kind %s, text %q", a.Kind, a.Text)
			}
			b, _ := json.Marshal(a)
			if strings.Contains(string(b), secret) || strings.Contains(string(b), "@everyone") {
				t.Errorf("the answer repeats a value of the manifest or a mass mention:\n%s", b)
			}
			facts := ""
			for _, f := range a.Facts {
				facts += f.Name + ": " + f.Value + "\n"
			}
			for _, w := range []string{"Removed in 1.34: resource.k8s.io/v1alpha3 ResourceClaim", "ml/gpu", "Removed in 1.36: scheduling.k8s.io/v1alpha1 Workload",
				"the 1.36 release notes, PR #136976", "Not built in: snapshot.storage.k8s.io/v1 VolumeSnapshot"} {
				if !strings.Contains(facts, w) {
					t.Errorf("the facts lack %q:\n%s", w, facts)
				}
			}
			if len(a.Notes) == 0 || !strings.Contains(a.Notes[0], "document 5") {
				t.Errorf("notes %q; want the broken fifth document named", a.Notes)
			}
		})
	}
}

func TestScanQuestionErrors(t *testing.T) {
	e := fullEngines(t, engine.WithManifestReader(manifest.ChatReader))["snapshot"]
	for _, tc := range []struct{ q, says string }{
		{"scan 1.36", "Send the manifests with the question"},
		{"scan 1.99\napiVersion: v1\nkind: Pod\n", "I don't know Kubernetes 1.99"},
		{"scan 1.36\nhello: world\n", "no Kubernetes object"},
		{"scan 1.36\n" + strings.Repeat("a", 2<<20), "larger than the 1 MiB limit"},
	} {
		_, err := askChat(t, e, tc.q)
		if knowledge.ErrorCode(err) != knowledge.EBADINPUT || !strings.Contains(knowledge.ErrorMessage(err), tc.says) {
			t.Errorf("%.40q: %v; want EBADINPUT saying %q", tc.q, err, tc.says)
		}
	}
	plain := fullEngines(t)["snapshot"]
	if _, err := askChat(t, plain, "scan 1.36\napiVersion: v1\nkind: Pod\n"); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("an engine without a manifest reader: %v; want EBADINPUT", err)
	}
}
