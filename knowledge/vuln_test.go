package knowledge

import (
	"slices"
	"testing"
)

func ev(kind, v string) VulnEvent {
	switch kind {
	case "i":
		return VulnEvent{Introduced: v}
	case "f":
		return VulnEvent{Fixed: v}
	case "l":
		return VulnEvent{LastAffected: v}
	}
	return VulnEvent{Limit: v}
}

// TestRangeHolds reads ranges as the OSV schema's evaluation says: from an
// introduced (0 is the beginning) up to a fixed (not included) or a
// last_affected (included), several pairs in one range, events in any
// order, a limit capping the range, and an open range affecting every
// later version.
func TestRangeHolds(t *testing.T) {
	k8s3286 := VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "1.28.12"), ev("i", "1.29.0"), ev("f", "1.29.7"), ev("i", "1.30.0"), ev("f", "1.30.3")}}
	shuffled := VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("f", "1.30.3"), ev("i", "1.29.0"), ev("i", "1.30.0"), ev("f", "1.28.12"), ev("i", "0"), ev("f", "1.29.7")}}
	for _, tc := range []struct {
		r    VulnRange
		v    string
		want bool
	}{
		{k8s3286, "1.0.0", true},
		{k8s3286, "1.28.11", true},
		{k8s3286, "1.28.12", false}, // fixed is not affected
		{k8s3286, "1.28.15", false},
		{k8s3286, "1.29.0", true},
		{k8s3286, "1.29.6", true},
		{k8s3286, "1.29.7", false},
		{k8s3286, "1.30.2", true},
		{k8s3286, "1.30.3", false},
		{k8s3286, "1.31.0", false},
		{shuffled, "1.29.6", true},
		{shuffled, "1.30.3", false},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0")}}, "1.36.4", true},     // no fix: every version
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "1.3.0")}}, "1.2.9", false}, // before it was introduced
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "1.3.0")}}, "1.33.1", true},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "1.2.0"), ev("l", "1.2.5")}}, "1.2.5", true},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "1.2.0"), ev("l", "1.2.5")}}, "1.2.6", false},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("x", "1.5.0")}}, "1.5.0", false}, // a limit caps it
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("x", "1.5.0")}}, "1.4.9", true},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "1.32.0-alpha.0"), ev("f", "1.32.1")}}, "1.32.0", true},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "0.18.7-rc.0")}}, "0.18.7", false},
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "0.18.7-rc.0")}}, "0.18.6", true},
		// a pseudo-version fix is older than every tag after it
		{VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "0.0.0-20190927203648-9ce6eca90e73")}}, "0.24.0", false},
	} {
		got, known := tc.r.Holds(tc.v)
		if !known || got != tc.want {
			t.Errorf("%v holds %s = %v (known %v), want %v", tc.r.Events, tc.v, got, known, tc.want)
		}
	}
	if _, known := (VulnRange{Type: "GIT", Events: []VulnEvent{ev("i", "0")}}).Holds("1.0.0"); known {
		t.Error("a GIT range holds commits, not versions: it must not be read")
	}
	if in, known := (VulnRange{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "1.x")}}).Holds("1.0.0"); known || in {
		t.Error("a range with an unreadable version must be said unknown, never not affected")
	}
}

func TestKubernetesMapping(t *testing.T) {
	v := Vuln{ID: "GO-2023-2170", Aliases: []string{"CVE-2023-3955", "GHSA-q78c-gwqw-jcmc"}, Affected: []VulnAffected{
		{Module: "k8s.io/mount-utils", Ranges: []VulnRange{{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "0.27.5"), ev("i", "0.28.0"), ev("f", "0.28.1")}}}},
	}}
	for _, tc := range []struct {
		p    string
		want bool
	}{{"1.27.4", true}, {"1.27.5", false}, {"1.28.0", true}, {"1.28.1", false}, {"1.29.0", false}} {
		if got, known := v.Affects(tc.p); !known || got != tc.want {
			t.Errorf("staging module: Affects(%s) = %v (known %v), want %v", tc.p, got, known, tc.want)
		}
	}
	if got := v.KubernetesFixes(); !slices.Equal(got, []string{"1.27.5", "1.28.1"}) {
		t.Errorf("KubernetesFixes = %v, want the staging fixes as Kubernetes releases", got)
	}
	if f, ok := v.FixIn(MustVersion("1.28"), "1.28.0"); !ok || f != "1.28.1" {
		t.Errorf("FixIn(1.28, 1.28.0) = %q %v", f, ok)
	}
	if _, ok := v.FixIn(MustVersion("1.26"), "1.26.1"); ok {
		t.Error("no fix is named in the 1.26 line")
	}
	nginx := Vuln{ID: "GO-2025-3567", Affected: []VulnAffected{{Module: "k8s.io/ingress-nginx", Ranges: []VulnRange{{Type: "SEMVER", Events: []VulnEvent{ev("i", "0")}}}}}}
	if _, known := nginx.Affects("1.30.2"); known || nginx.IsKubernetes() {
		t.Error("ingress-nginx is another product: its ranges say nothing of Kubernetes releases")
	}
	if got := nginx.Products(); !slices.Equal(got, []string{"ingress-nginx"}) {
		t.Errorf("Products = %v", got)
	}
	for mod, want := range map[string]string{
		"github.com/kubernetes/ingress-nginx":      "ingress-nginx",
		"github.com/kubernetes-csi/csi-proxy/v2":   "csi-proxy",
		"sigs.k8s.io/secrets-store-csi-driver":     "secrets-store-csi-driver",
		"k8s.io/client-go":                         "Kubernetes",
		"github.com/kubernetes/kubernetes":         "Kubernetes",
		"k8s.io/kube-state-metrics":                "kube-state-metrics",
		"github.com/kubernetes-sigs/image-builder": "image-builder",
		"github.com/kubernetes-csi/csi-driver-nfs": "csi-driver-nfs",
		"sigs.k8s.io/aws-load-balancer-controller": "aws-load-balancer-controller",
		"k8s.io/minikube":                          "minikube",
	} {
		if got := ProductOf(mod); got != want {
			t.Errorf("ProductOf(%s) = %q, want %q", mod, got, want)
		}
	}
	if _, ok := KubernetesVersion(RoleStaging, "0.0.0-20190927203648-9ce6eca90e73"); ok {
		t.Error("a pseudo-version stands for no Kubernetes release")
	}
}

func TestVulnIDs(t *testing.T) {
	for _, s := range []string{"CVE-2024-10220", "cve-2020-8562", "GO-2024-3286", "go-2024-3286", "GHSA-27wf-5967-98gx"} {
		if !IsVulnID(s) {
			t.Errorf("IsVulnID(%q) = false", s)
		}
	}
	for _, s := range []string{"CVE-24-1", "CVE-2024", "GO-2024-32", "GHSA-27wf-5967", "KEP-3203", "1.30.2", "cves"} {
		if IsVulnID(s) {
			t.Errorf("IsVulnID(%q) = true", s)
		}
	}
	v := Vuln{ID: "GO-2024-3286", Aliases: []string{"CVE-2024-10220", "GHSA-27wf-5967-98gx"}}
	if !v.Known("ghsa-27wf-5967-98gx") || !v.Known("go-2024-3286") || v.Known("CVE-2024-1022") {
		t.Error("Known must match each name whole, in any case")
	}
	if v.Name() != "CVE-2024-10220" {
		t.Errorf("Name = %q", v.Name())
	}
}

// TestVulnLineSaysRunsOfPatches: a record fixed in 1.30.3 and affecting
// 1.30.5 again reads "1.30.0–1.30.2, 1.30.5–1.30.6", never
// "1.30.0–1.30.6" (the CVE digest once wrote first–last), with the first
// fix after the last affected patch and whether it is out yet.
func TestVulnLineSaysRunsOfPatches(t *testing.T) {
	v := Vuln{ID: "GO-2031-0001", Affected: []VulnAffected{
		{Module: "k8s.io/kubernetes", Ranges: []VulnRange{{Type: "SEMVER", Events: []VulnEvent{ev("i", "0"), ev("f", "1.30.3"), ev("i", "1.30.5"), ev("f", "1.30.7")}}}},
	}}
	m := MustVersion("1.30")
	l, ok := v.Line(m, []int{0, 1, 2, 3, 4, 5, 6})
	if !ok || l.Affected != "1.30.0–1.30.2, 1.30.5–1.30.6" || l.FixedIn != "1.30.7" || !l.Unreleased {
		t.Errorf("Line = %+v, %v", l, ok)
	}
	if _, ok := v.Line(m, []int{3, 4}); ok {
		t.Error("Line of patches it does not affect is ok")
	}
}
