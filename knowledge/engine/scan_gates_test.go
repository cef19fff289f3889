package engine_test

import (
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
)

// TestScanAnswerGates: a scan question in chat with a kubelet
// configuration and a kube-apiserver static Pod says what each component
// does with the gates they set at the target (as bot scan does), on the
// snapshot and on the database of every shared folder: AppArmor gone in
// 1.33, KMSv1 deprecated, SidecarContainers locked on.
func TestScanAnswerGates(t *testing.T) {
	msg := "scan 1.33\n```yaml\n" +
		"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  AppArmor: true\n  SidecarContainers: true\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\n  namespace: kube-system\nspec:\n  containers:\n  - name: kube-apiserver\n" +
		"    command: [kube-apiserver, \"--feature-gates=KMSv1=true,WatchList=false\"]\n```"
	for name, e := range fullEngines(t, engine.WithManifestReader(manifest.ChatReader)) {
		t.Run(name, func(t *testing.T) {
			a, err := askChat(t, e, msg)
			if err != nil {
				t.Fatal(err)
			}
			if a.Kind != knowledge.KindScan || !strings.HasSuffix(a.Text, "Feature gates: 1 feature gate setting stops its component, 2 feature gate settings warn.") {
				t.Errorf("kind %s, text %q", a.Kind, a.Text)
			}
			facts := ""
			for _, f := range a.Facts {
				facts += f.Name + ": " + f.Value + "\n"
			}
			for _, w := range []string{
				"Feature gate AppArmor (kubelet): kubelet 1.33 will not start: feature gate AppArmor was removed in 1.33 · KubeletConfiguration, document 1 line 4",
				"Feature gate SidecarContainers (kubelet): kubelet 1.33 ignores SidecarContainers=true",
				"Feature gate KMSv1 (kube-apiserver): kube-apiserver 1.33 warns: feature gate KMSv1 is deprecated and will be removed · Pod kube-apiserver, document 2 line 15",
			} {
				if !strings.Contains(facts, w) {
					t.Errorf("the facts lack %q:\n%s", w, facts)
				}
			}
			if strings.Contains(facts, "WatchList") {
				t.Errorf("WatchList, beta in 1.33, is fine; the facts name it:\n%s", facts)
			}
			var code bool
			for _, s := range a.Sources {
				code = code || strings.Contains(s.Name, "1.33 code: feature gates")
			}
			if !code {
				t.Errorf("sources %+v; want 1.33's code", a.Sources)
			}
		})
	}
}
