package question

import (
	"context"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

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
