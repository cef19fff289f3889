package question

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// The KEPs of ../shared, read once: every kep.yaml, with the names the
// release notes and posts give them.
var (
	sharedOnce sync.Once
	sharedList []*knowledge.KEP
	sharedErr  error
)

// loadShared reads the KEPs of ../shared (skipping the test without it, or
// failing it when CI is set).
func loadShared(t testing.TB) []*knowledge.KEP {
	t.Helper()
	paths := []string{sharedtest.Path(t, "seeds"), sharedtest.Path(t, "data", "enhancements"), sharedtest.Path(t, "data", "website")}
	sharedOnce.Do(func() {
		res, err := ingest.Load(paths)
		if err != nil {
			sharedErr = err
			return
		}
		k := knowledge.Compile(res.Corpus)
		for i := range k.KEPs {
			sharedList = append(sharedList, &k.KEPs[i])
		}
	})
	if sharedErr != nil {
		t.Fatalf("read ../shared: %v", sharedErr)
	}
	return sharedList
}

// rates reads every phrasing with r and returns the share read right in
// each category, logging each miss; confidentWrong counts the phrasings
// answered with a question other than the one wanted (for negatives: any).
func rates(t *testing.T, r *Reader) (byCat map[string][2]int, confidentWrong []string) {
	byCat = map[string][2]int{}
	for _, p := range phrasings {
		q, err := r.Read(context.Background(), p.text)
		got := ""
		if err == nil {
			got = q.Canonical()
		}
		c := byCat[p.cat]
		c[1]++
		if got == p.want {
			c[0]++
		} else {
			msg := ""
			if e, ok := err.(*knowledge.Error); ok {
				msg = e.Message
			}
			t.Logf("miss [%s] %q: got %q %s, want %q", p.cat, p.text, got, msg, p.want)
			if got != "" {
				confidentWrong = append(confidentWrong, fmt.Sprintf("[%s] %q read as %q", p.cat, p.text, got))
			}
		}
		byCat[p.cat] = c
	}
	return byCat, confidentWrong
}

// report logs the rate of each category and overall, and fails under the
// targets: 95% overall, no negative answered.
func report(t *testing.T, byCat map[string][2]int, wrong []string) {
	cats := make([]string, 0, len(byCat))
	right, all := 0, 0
	for c, n := range byCat {
		cats = append(cats, c)
		right += n[0]
		all += n[1]
	}
	sort.Strings(cats)
	var b strings.Builder
	for _, c := range cats {
		n := byCat[c]
		fmt.Fprintf(&b, "\n  %-20s %3d/%3d  %5.1f%%", c, n[0], n[1], 100*float64(n[0])/float64(n[1]))
	}
	fmt.Fprintf(&b, "\n  %-20s %3d/%3d  %5.1f%%", "overall", right, all, 100*float64(right)/float64(all))
	t.Logf("phrasings read right:%s", b.String())
	if 100*right < 95*all {
		t.Errorf("%d of %d phrasings read right (%.1f%%); the target is 95%%", right, all, 100*float64(right)/float64(all))
	}
	for _, w := range wrong {
		if strings.HasPrefix(w, "["+catNegative+"]") {
			t.Errorf("a negative was answered as a fact: %s", w)
		}
	}
	if len(wrong) > 0 {
		t.Logf("answered with another question than wanted: %d\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
}

// TestPhrasings reads every phrasing with the names of ../shared's KEPs.
func TestPhrasings(t *testing.T) {
	if len(phrasings) < 150 {
		t.Fatalf("%d phrasings; the set must hold at least 150", len(phrasings))
	}
	r := NewReader(StaticKEPs(loadShared(t)))
	byCat, wrong := rates(t, r)
	report(t, byCat, wrong)
}

// TestHeldOut reads the phrasings written after tuning (heldOut) and
// reports their rate; it fails only when a negative is answered.
func TestHeldOut(t *testing.T) {
	r := NewReader(StaticKEPs(loadShared(t)))
	saved := phrasings
	phrasings = heldOut
	defer func() { phrasings = saved }()
	byCat, wrong := rates(t, r)
	right, all := 0, 0
	for _, n := range byCat {
		right += n[0]
		all += n[1]
	}
	t.Logf("held-out phrasings read right: %d/%d (%.1f%%)", right, all, 100*float64(right)/float64(all))
	for _, w := range wrong {
		if strings.HasPrefix(w, "["+catNegative+"]") {
			t.Errorf("a negative was answered as a fact: %s", w)
		}
	}
}

// syntheticKEPs is a small vocabulary for tests that run without ../shared:
// the KEPs the phrasings name, and neighbours whose names share their words
// (sidecar, resize, storage, containers), so that ambiguity is tested too.
func syntheticKEPs() []*knowledge.KEP {
	k := func(n int, sig string, stage knowledge.Stage, title string, gates ...string) *knowledge.KEP {
		return &knowledge.KEP{Number: n, SIG: "sig-" + sig, Stage: stage, Title: title, FeatureGates: gates, Source: "kep.yaml"}
	}
	ga, beta, alpha := knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha
	keps := []*knowledge.KEP{
		k(24, "node", ga, "Add AppArmor Support", "AppArmor"),
		k(127, "node", beta, "Support User Namespaces", "UserNamespacesSupport", "UserNamespacesPodSecurityStandards"),
		k(277, "node", ga, "Ephemeral Containers", "EphemeralContainers"),
		k(753, "node", ga, "Sidecar Containers", "SidecarContainers"),
		k(1029, "storage", ga, "Quotas for Ephemeral Storage", "LocalStorageCapacityIsolationFSQuotaMonitoring"),
		k(1287, "node", ga, "In-place Update of Pod Resources", "InPlacePodVerticalScaling"),
		k(1441, "cli", ga, "kubectl debug"),
		k(1880, "network", ga, "Multiple Service CIDRs", "MultiCIDRServiceAllocator"),
		k(1979, "storage", alpha, "Object Storage Support"),
		k(2258, "windows", ga, "Node log query", "NodeLogQuery"),
		k(2400, "node", ga, "Node system swap support", "NodeSwap"),
		k(3063, "node", beta, "dynamic resource allocation", "DynamicResourceAllocation"),
		k(3521, "scheduling", ga, "Pod Scheduling Readiness", "PodSchedulingReadiness"),
		k(3857, "node", ga, "Recursive read-only mounts", "RecursiveReadOnlyMounts"),
		k(3866, "network", ga, "nftables kube-proxy backend", "NFTablesProxyMode"),
		k(3960, "node", ga, "Pod lifecycle sleep action", "PodLifecycleSleepAction"),
		k(4008, "api-machinery", ga, "CRD Validation Ratcheting", "CRDValidationRatcheting"),
		k(4381, "node", ga, "DRA: structured parameters", "DynamicResourceAllocation"),
		k(4438, "node", beta, "Restarting sidecar containers during Pod termination"),
		k(4444, "network", ga, "Traffic Distribution for Services", "ServiceTrafficDistribution"),
		k(4639, "node", beta, "OCI images as VolumeSource", "ImageVolume"),
		k(4818, "node", beta, "Allow zero value for Sleep Action of PreStop Hook", "PodLifecycleSleepActionAllowZero"),
		k(5419, "node", alpha, "In-Place Pod-Level Resources Resize"),
		k(5836, "scheduling", alpha, "Scheduler Preemption for In-Place Pod Resize"),
		k(3488, "api-machinery", ga, "CEL for Admission Control", "CELValidatingAdmission"),
		k(5229, "scheduling", alpha, "Asynchronous API calls during scheduling"),
	}
	keps[len(keps)-1].Milestones = map[string]knowledge.Version{"alpha": knowledge.MustVersion("1.34")}
	return keps
}

// TestPhrasingsSynthetic reads every phrasing with the synthetic
// vocabulary: the same targets, without ../shared.
func TestPhrasingsSynthetic(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	byCat, wrong := rates(t, r)
	report(t, byCat, wrong)
}

// TestReadWithoutVocabulary reads with no names of features: everything
// else is still read, and a feature's name is never guessed.
func TestReadWithoutVocabulary(t *testing.T) {
	var r *Reader
	for _, p := range phrasings {
		q, err := r.Read(context.Background(), p.text)
		if err != nil {
			continue
		}
		if p.want == "" {
			t.Errorf("%q read as %q without a vocabulary; want no answer", p.text, q.Canonical())
		}
		names := p.cat == catFeatures || strings.HasPrefix(p.want, "gate ") // a misspelt gate needs the names
		if !names && p.want != "" && q.Canonical() != p.want {
			t.Errorf("%q read as %q without a vocabulary; want %q", p.text, q.Canonical(), p.want)
		}
	}
}
