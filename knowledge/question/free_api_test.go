package question

import (
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

func TestReadAPIFree(t *testing.T) {
	kinds := map[string]string{"podsecuritypolicy": "PodSecurityPolicy", "ingress": "Ingress", "cronjob": "CronJob", "job": "Job", "service": "Service"}
	v := knowledge.MustVersion
	for _, tc := range []struct {
		text  string
		words string
		at    knowledge.Version
	}{
		{"when was PodSecurityPolicy removed", "PodSecurityPolicy", knowledge.Version{}},
		{"when was PodSecurityPolicy removed?", "PodSecurityPolicy", knowledge.Version{}},
		{"is batch/v1beta1 still served in 1.24", "batch/v1beta1", v("1.24")},
		{"is batch/v1beta1 still served in 1.24?", "batch/v1beta1", v("1.24")},
		{"@kepbot is `batch/v1beta1` CronJob still served in v1.24 pls", "batch/v1beta1 CronJob", v("1.24")},
		{"PodSecurityPolicy 什么时候移除的", "PodSecurityPolicy", knowledge.Version{}},
		{"batch/v1beta1 在 1.24 还能用吗", "batch/v1beta1", v("1.24")},
		{"is Ingress deprecated", "Ingress", knowledge.Version{}},
		{"is the Job api deprecated", "Job", knowledge.Version{}},
		{"networking.k8s.io/v1beta1", "networking.k8s.io/v1beta1", knowledge.Version{}},
	} {
		q, ok := readAPIFree(tc.text, kinds, nil, nil)
		if !ok || q.Kind != knowledge.AskAPI || q.Words != tc.words || q.Version != tc.at || !q.Free {
			t.Errorf("readAPIFree(%q) = %+v, %v; want api %q %s", tc.text, q, ok, tc.words, tc.at)
		}
	}
	for _, text := range []string{
		"is sidecar containers stable", "what went GA in 1.30", "when was ingress mentioned", "is my job removed",
		"which service got removed in 1.32", "CronJob", "upgrade 1.29 1.32", "1.32 removals", "kep 4639", "PodSecurityPolicy",
	} {
		if q, ok := readAPIFree(text, kinds, nil, nil); ok {
			t.Errorf("readAPIFree(%q) = %+v; want it left to the rest of the reader", text, q)
		}
	}
}
