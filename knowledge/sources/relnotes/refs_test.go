package relnotes

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

func TestKEPs(t *testing.T) {
	tests := []struct {
		links []string
		text  string
		want  []int
	}{
		{[]string{"https://github.com/kubernetes/enhancements/issues/3902"}, "", []int{3902}},
		{[]string{"https://github.com/kubernetes/enhancements/issue/4193"}, "", []int{4193}},
		{[]string{"https://github.com/kubernetes/enhancements/issues/753>"}, "", []int{753}},
		{[]string{"https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/2400-node-swap#beta"}, "", []int{2400}},
		{[]string{"https://github.com/kubernetes/enhancements/blob/0123abc/keps/sig-node/127-user-namespaces/README.md?plain=1#L4"}, "", []int{127}},
		{[]string{"https://github.com/kubernetes/enhancements/tree/master/keps/sig-cluster-lifecycle/kubeadm/4656-kubelet-config"}, "", []int{4656}},
		{[]string{"https://git.k8s.io/enhancements/keps/sig-apps/2307-job-tracking"}, "", []int{2307}},
		{[]string{"https://github.com/someone/enhancements/blob/a-branch/keps/sig-storage/1710-selinux/README.md"}, "", []int{1710}},
		{[]string{"https://github.com/kubernetes/enhancements/blob/master/keps/sig-instrumentation/0034-distributed-tracing-kep.md"}, "", nil},
		{[]string{"https://github.com/kubernetes/enhancements/pull/3303", "https://github.com/kubernetes/enhancements/commit/5d27"}, "", nil},
		{[]string{"https://github.com/someone/enhancements/issues/12"}, "", nil},
		{nil, "Promoted X (KEP-3178) to GA; see KEP #2008, KEP  3488 and https://features.k8s.io/2845.", []int{3178, 2008, 3488, 2845}},
		{[]string{"https://github.com/kubernetes/enhancements/issues/3178"}, "Done (KEP-3178).", []int{3178}},
		{nil, "A keep-alive is not a KEP.", nil},
	}
	for _, tt := range tests {
		if got := keps(tt.links, tt.text); !cmp.Equal(got, tt.want) {
			t.Errorf("keps(%v, %q) = %v, want %v", tt.links, tt.text, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
	got := names("Removed `--foo` and `spec.bar`; the `FooGate` gate (`true`, `0`) and `a/v1beta1`, `(x/y)*z`, `kubectl get pods`, `--foo` again.")
	want := []string{"--foo", "spec.bar", "FooGate", "a/v1beta1"}
	if !cmp.Equal(got, want) {
		t.Errorf("names = %v, want %v", got, want)
	}
}

// TestSharedRefs checks KEP numbers and names of a few real entries, each
// of another form.
func TestSharedRefs(t *testing.T) {
	sharedtest.Root(t)
	tests := []struct {
		release string
		pr      int
		keps    []int
		name    string // one name the entry must give
	}{
		{"1.28", 119374, []int{3178}, "IPTablesOwnershipCleanup"}, // KEP-3178 in the text only
		{"1.34", 131647, []int{2845}, ""},                         // features.k8s.io/2845 in the text
		{"1.32", 128031, []int{4656}, ""},                         // a kubeadm sub-folder of sig-cluster-lifecycle
		{"1.33", 127053, nil, ""},                                 // only a file of the old numbering
		{"1.25", 108624, nil, "--service-account-api-audiences"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.pr), func(t *testing.T) {
			ch := change(t, knowledge.MustVersion(tt.release), tt.pr)
			if !cmp.Equal(ch.KEPs, tt.keps) {
				t.Errorf("KEPs %v, want %v", ch.KEPs, tt.keps)
			}
			if tt.name != "" && !cmp.Equal(ch.Names[:1], []string{tt.name}) {
				t.Errorf("names %v, want %s first", ch.Names, tt.name)
			}
		})
	}
}
