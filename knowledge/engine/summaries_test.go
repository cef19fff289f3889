package engine_test

import (
	"strings"
	"testing"
)

// Summaries name only what the notes name (issue 30, point 2), in every
// answer that shows them, over the whole corpus and over the snapshot: pr
// 135701 and the upgrade through 1.36 name no flag --etcd, pr 112120 no
// flag "klog", pr 116866 no annotation, and 1.25's policy/v1beta1 names
// policy/v1 as the replacement of PodDisruptionBudget only (policy/v1 has
// no PodSecurityPolicy).
func TestSummariesInAnswers(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for q, never := range map[string]string{
				"pr 135701": "--etcd", "upgrade 1.32 1.36": "flag --etcd", "pr 112120": "flag klog", "pr 116866": "annotation kubernetes.io/grpc",
			} {
				a := ask(t, e, q)
				for _, it := range a.Items {
					if strings.Contains(it.Title, never) {
						t.Errorf("%s: item %q names %q", q, it.Title, never)
					}
				}
				for _, n := range a.Notices {
					if strings.Contains(n.Title, never) {
						t.Errorf("%s: notice %q names %q", q, n.Title, never)
					}
				}
			}
			found := false
			for _, n := range ask(t, e, "1.25 removals").Notices {
				if n.API == nil || n.API.GroupVersion != "policy/v1beta1" {
					continue
				}
				found = true
				if r := n.API.Replacement(); strings.Contains(strings.Join(n.API.Kinds, ","), "PodSecurityPolicy") && (!strings.HasPrefix(r, "policy/v1 for ") || strings.Contains(r, "PodSecurityPolicy")) {
					t.Errorf("1.25 removals: policy/v1beta1 (%v) says use %q; policy/v1 has no PodSecurityPolicy", n.API.Kinds, r)
				}
			}
			if !found {
				t.Error("1.25 removals does not list policy/v1beta1")
			}
		})
	}
}
