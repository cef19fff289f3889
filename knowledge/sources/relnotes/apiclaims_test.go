package relnotes

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// claimString writes a claim on one line for the tables: "removed
// G/V A,B except C -> G/V2 since 1.29".
func claimString(c knowledge.APIClaim) string {
	s := string(c.Action) + " " + c.GroupVersion
	if len(c.Kinds) > 0 {
		s += " " + strings.Join(c.Kinds, ",")
	}
	if len(c.Except) > 0 {
		s += " except " + strings.Join(c.Except, ",")
	}
	if c.ReplacedBy != "" {
		s += " -> " + c.ReplacedBy
	}
	if !c.Since.IsZero() {
		s += " since " + c.Since.String()
	}
	return s
}

// handChecked is one real entry read by hand: the claims its text states
// (want), those of them the rules are known not to read (missed), and why.
type handChecked struct {
	release string
	pr      int
	want    []string
	missed  []string
	why     string
}

// Shorthands for the hand-checked table.
const (
	fcV1      = "flowcontrol.apiserver.k8s.io/v1"
	fcV1beta2 = "flowcontrol.apiserver.k8s.io/v1beta2"
	fcV1beta3 = "flowcontrol.apiserver.k8s.io/v1beta3"
	fcKinds   = "FlowSchema,PriorityLevelConfiguration"
)

// apiHandChecked holds every entry of the notes of 1.25 to 1.36 that names
// an API version as mentionsAPIVersion finds them, and the entries that
// state an API removal without naming its version. Each was read by hand.
var apiHandChecked = []handChecked{
	// 1.25
	{"1.25", 108797, nil, nil, "gap: the 1.25 removals are stated only as \"deprecated beta APIs scheduled for removal in 1.25\", no version named"},
	{"1.25", 110201, nil, nil, "KMS v2alpha1 is a gRPC API of KMS plugins, and names no kind"},
	{"1.25", 110405, nil, nil, "kubeadm patches a v1beta1.KubeletConfiguration: a component config"},
	{"1.25", 110459, nil, nil, "the PodSecurity admission configuration (a config file's API) promoted"},
	{"1.25", 110534, nil, nil, "kube-scheduler component config v1 available: not a served API"},
	{"1.25", 111126, nil, nil, "KMS v2alpha1 support"},
	{"1.25", 111547, nil, nil, "kube-scheduler component config v1beta2 deprecated: not a served API"},
	// 1.26
	{"1.26", 110618, nil, nil, "CRI v1alpha2 support dropped: the kubelet's runtime API"},
	{"1.26", 111023, []string{"introduced resource.k8s.io/v1alpha1 ResourceClaim"}, nil, "Added a ResourceClaim API (in the resource.k8s.io/v1alpha1 API group"},
	{"1.26", 111616, nil, nil, "credential provider config APIs: kubelet files"},
	{"1.26", 111973, nil, nil, "gap: the 1.26 removals are stated only as \"deprecated beta APIs scheduled for removal in v1.26\""},
	{"1.26", 112183, nil, nil, "a bug fix in validation via events.k8s.io/v1"},
	{"1.26", 112257, nil, nil, "kube-scheduler component config v1beta3 deprecated and v1beta2 to be removed in 1.28"},
	{"1.26", 112306, nil, nil, "Priority and Fairness v1beta3 introduced, but no kind is named with the version"},
	{"1.26", 113275, nil, nil, "scheduler component config extension point"},
	{"1.26", 113314, nil, nil, "v1alpha1 API for validating admission policies: names no kind (in words only)"},
	// 1.27
	{"1.27", 113218, []string{"introduced certificates.k8s.io/v1alpha1 ClusterTrustBundle"}, nil, "Added a new alpha API: ClusterTrustBundle (certificates.k8s.io/v1alpha1)"},
	{"1.27", 114540, nil, nil, "kubeadm's config API v1beta2 removed: a tool's file format"},
	{"1.27", 115354, nil, nil, "a fix in the v1alpha1 ResourceClaim API's validation"},
	{"1.27", 116299, []string{"removed resource.k8s.io/v1alpha1 -> resource.k8s.io/v1alpha2"}, nil, "v1alpha1 was replaced with v1alpha2 (all its kinds must be deleted before upgrading)"},
	{"1.27", 116523, []string{"removed storage.k8s.io/v1beta1 CSIStorageCapacity"}, []string{"removed storage.k8s.io/v1beta1 CSIStorageCapacity"},
		"\"will no longer be served\" without a release: the rules do not read a future without its release (the migration guide has it for 1.27)"},
	{"1.27", 116556, []string{"introduced resource.k8s.io/v1alpha2 PodSchedulingContext"}, nil, "v1alpha1.PodScheduling was renamed to v1alpha2.PodSchedulingContext"},
	{"1.27", 116558, nil, nil, "the v1alpha1 kubelet plugin API of DRA: a gRPC API"},
	// 1.28
	{"1.28", 117649, nil, nil, "kube-scheduler component config v1beta2 removed: not a served API"},
	{"1.28", 117713, []string{"introduced authentication.k8s.io/v1 SelfSubjectReview"}, nil, "the SelfSubjectReview API is promoted to authentication.k8s.io/v1 (kubectl only in the next clause)"},
	{"1.28", 118644, []string{"introduced v1beta1 ValidatingAdmissionPolicy,ValidatingAdmissionPolicyBinding"}, nil, "Promoted API groups A and B to v1beta1"},
	{"1.28", 119012, nil, nil, "kubelet DRA plugins may use the v1alpha3 gRPC API"},
	{"1.28", 119215, nil, nil, "a field added to a v1alpha1 kind"},
	// 1.29
	{"1.29", 113374, nil, nil, "projecting ClusterTrustBundle objects: a feature using the API"},
	{"1.29", 117977, nil, nil, "controllers assume autoscaling/v1 and rbac v1 are served"},
	{"1.29", 119495, []string{"removed " + fcV1beta2 + " " + fcKinds + " -> " + fcV1beta3 + " since 1.26"}, nil, "no longer served in v1.29; migrate to v1beta3, available since v1.26"},
	{"1.29", 119994, nil, nil, "kube-scheduler component config v1beta3 removed: not a served API"},
	{"1.29", 120018, nil, nil, "objects persisted in etcd as v1beta1: the storage version"},
	{"1.29", 120154, nil, nil, "a flag reading an apiserver.config.k8s.io/v1alpha1 file"},
	{"1.29", 121078, nil, nil, "CEL in v1alpha1 AuthenticationConfiguration: a config file"},
	{"1.29", 121089, []string{"introduced " + fcV1 + " " + fcKinds, "deprecated " + fcV1beta3 + " -> " + fcV1}, nil,
		"v1beta3 kinds promoted to v1; v1beta3 deprecated, no longer served in v1.32 (a later release: a deprecation)"},
	{"1.29", 121223, nil, nil, "CEL in v1alpha1 AuthorizationConfiguration: a config file"},
	{"1.29", 121229, nil, nil, "gap: the networking alpha API ClusterCIDR removed, its version not named"},
	// 1.30
	{"1.30", 122882, nil, nil, "aggregated discovery supports v2beta1 and v2"},
	{"1.30", 123001, nil, nil, "a field accepts zero in v1 and v1beta3"},
	{"1.30", 123372, nil, nil, "kubeadm's output API: a tool's format"},
	{"1.30", 123461, nil, nil, "kubeadm's output API"},
	{"1.30", 123640, nil, nil, "AuthorizationConfiguration promoted to apiserver.config.k8s.io/v1beta1: a config file"},
	{"1.30", 123696, nil, nil, "AuthenticationConfiguration promoted to apiserver.config.k8s.io/v1beta1: a config file"},
	// 1.31
	{"1.31", 124012, []string{"introduced coordination.k8s.io/v1alpha1 LeaseCandidate"}, []string{"introduced coordination.k8s.io/v1alpha1 LeaseCandidate"},
		"LeaseCandidate objects (coordination.k8s.io/v1alpha1 API group) inside a feature's sentence: no rule reads it"},
	{"1.31", 124316, nil, nil, "DRA drivers using the v1alpha2 kubelet gRPC API no longer supported"},
	{"1.31", 124464, nil, nil, "kubeadm's output/v1alpha3"},
	{"1.31", 124496, nil, nil, "kubeadm's output.kubeadm.k8s.io/v1alpha2 removed: a tool's format"},
	{"1.31", 125021, nil, nil, "enable the networking v1beta1 group: names no kind"},
	{"1.31", 125029, nil, nil, "kubeadm v1beta4 enabled, v1beta3 deprecated: a tool's config"},
	{"1.31", 125488, nil, nil, "gap: DRA's new v1alpha3 \"not compatible with the previous version\"; v1alpha2's removal is not stated"},
	{"1.31", 125540, nil, nil, "a fix of a wrong \"v1 Binding is deprecated\" warning"},
	{"1.31", 126072, nil, nil, "kube-proxy's v1alpha1 component config"},
	{"1.31", 126145, []string{"introduced storage.k8s.io/v1beta1 VolumeAttributesClass"}, []string{"introduced storage.k8s.io/v1beta1 VolumeAttributesClass"},
		"\"Promoted the VolumeAttributesClass API to beta\" names no version; the group/version is in another sentence"},
	// 1.32
	{"1.32", 126749, nil, nil, "a bug fix of a list's field name"},
	{"1.32", 127008, nil, nil, "a v2beta1 test fixture removed"},
	{"1.32", 127017, []string{"removed " + fcV1beta3 + " " + fcKinds + " -> " + fcV1 + " since 1.29"}, nil, "no longer served in v1.32; migrate to v1, available since v1.29"},
	{"1.32", 127134, nil, nil, "v1alpha1 API for mutating admission policies: names no kind"},
	{"1.32", 127511, nil, nil, "DRA beta: v1alpha3 still supported, v1beta1 the storage version"},
	{"1.32", 127857, []string{"removed coordination.k8s.io/v1alpha1 -> coordination.k8s.io/v1alpha2"}, nil, "coordination.v1alpha1 API is dropped and replaced with coordination.v1alpha2"},
	{"1.32", 128003, nil, nil, "gap: classic DRA removed; PodSchedulingContext's removal from resource.k8s.io/v1alpha3 is implied, no version named"},
	{"1.32", 128172, nil, nil, "AuthorizationConfiguration in apiserver.config.k8s.io/v1: a config file"},
	{"1.32", 128646, nil, nil, "the alpha DRA gRPC API might be removed in future releases"},
	{"1.32", 128764, nil, nil, "the v1beta1 kubelet gRPC package renamed"},
	// 1.33
	{"1.33", 128499, []string{"introduced v1beta1 ClusterTrustBundle"}, nil, "the ClusterTrustBundle API is moving to v1beta1"},
	{"1.33", 128950, nil, nil, "kubectl autoscale uses autoscaling/v2: a client"},
	{"1.33", 129186, nil, nil, "inactive serving code removed: v1alpha1 SelfSubjectReview was no longer served (its markers say 1.32)"},
	{"1.33", 129207, []string{"removed v1alpha1 ValidatingAdmissionPolicy,ValidatingAdmissionPolicyBinding"}, nil, "Removed support for v1alpha1 version of A and B API kinds"},
	{"1.33", 129859, nil, nil, "kubeadm v1beta4 bug"},
	{"1.33", 129970, []string{"deprecated resource.k8s.io/v1beta1 -> resource.k8s.io/v1beta2"}, nil, "deprecated and will be removed in 1.36 (not a removal now); use v1beta2 instead"},
	{"1.33", 130023, nil, nil, "kubeadm v1beta4 field"},
	{"1.33", 130098, []string{"deprecated v1 Endpoints"}, nil, "the v1 Endpoints API is now officially deprecated; \"will not be removed\" is no removal"},
	{"1.33", 130291, []string{"introduced coordination.k8s.io/v1beta1 LeaseCandidate"}, nil, "Introduced API type G/V/Kind"},
	{"1.33", 130347, nil, nil, "v2beta1 disabled by default: still served when enabled"},
	{"1.33", 130553, nil, nil, "an admission plugin when storage.k8s.io/v1beta1 is enabled"},
	{"1.33", 130751, []string{"introduced coordination.k8s.io/v1beta1 LeaseCandidate"}, nil, "Introduced API type G/V/Kind (a second entry)"},
	// 1.34
	{"1.34", 130606, nil, nil, "a v1alpha1 gRPC service of DRA plugins"},
	{"1.34", 131549, []string{"introduced storage.k8s.io/v1 VolumeAttributesClass"}, nil, "Promoted API A and AList to storage.k8s.io/v1 (the list kind is A's)"},
	{"1.34", 131677, nil, nil, "kubeadm v1beta4"},
	{"1.34", 131752, nil, nil, "AuthenticationConfiguration in apiserver.config.k8s.io/v1: a config file"},
	{"1.34", 132000, []string{"removed resource.k8s.io/v1alpha3 except DeviceTaintRule"}, nil, "v1alpha3 now only contains DeviceTaintRule; all other types got removed"},
	{"1.34", 132338, nil, nil, "tags on a v1beta2 type"},
	{"1.34", 132340, nil, nil, "TracingConfiguration in apiserver.config.k8s.io/v1: a config file"},
	{"1.34", 132574, nil, nil, "the v1alpha4 kubelet gRPC API removed"},
	{"1.34", 132700, nil, nil, "the kubelet gRPC API v1beta1 deprecated"},
	{"1.34", 132821, []string{"introduced admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy"}, nil, "Introduced the G/V/Kind API type"},
	// 1.35
	{"1.35", 132579, nil, nil, "kubelet's own ImagePullIntent records moved to v1beta1"},
	{"1.35", 133513, nil, nil, "kubeadm v1beta3 bug"},
	{"1.35", 133715, nil, nil, "storage version updated to v1beta1"},
	{"1.35", 134313, nil, nil, "a v1alpha1 response of the statusz endpoint: no kind"},
	{"1.35", 134564, []string{"introduced scheduling.k8s.io/v1alpha1 Workload"}, nil, "Introduced the G/V Workload API"},
	{"1.35", 134624, nil, nil, "gap: Pod Certificates moved to beta; v1alpha1 PodCertificateRequest's removal is not stated"},
	{"1.35", 134625, []string{"removed storage.k8s.io/v1alpha1 VolumeAttributesClass"}, nil, "Removed the A resource from the G/V API in v1.35"},
	{"1.35", 134685, nil, nil, "policy/v1beta1 PodDisruptionBudget dropped in kubectl: a client"},
	{"1.35", 134722, nil, nil, "a scheduler plugin introduced, using the v1alpha1 Workload API"},
	{"1.35", 134782, nil, nil, "certificates/v1beta1 CertificateSigningRequest dropped in kubectl"},
	{"1.35", 134784, []string{"introduced v1beta1 StorageVersionMigration", "removed v1alpha1 StorageVersionMigration"}, nil,
		"Added the A v1beta1 API and removed the v1alpha1 API (the kinds of the entry)"},
	{"1.35", 134790, nil, nil, "Pod Certificates to beta: v1beta1 certificates API groups must be enabled"},
	{"1.35", 134890, nil, nil, "kubeadm v1beta4 field"},
	{"1.35", 134913, nil, nil, "discovery/v1beta1 EndpointSlice dropped in kubectl"},
	{"1.35", 134995, nil, nil, "a v1alpha1 response of the flagz endpoint"},
	{"1.35", 135108, nil, nil, "networking/v1beta1 IngressClass dropped in kubectl"},
	{"1.35", 135176, nil, nil, "networking/v1beta1 Ingress dropped in kubectl"},
	// 1.36
	{"1.36", 134556, nil, nil, "the preferred storage version updated to storage.k8s.io/v1"},
	{"1.36", 135148, nil, nil, "kubeadm v1beta4 UpgradeConfiguration"},
	{"1.36", 136111, nil, nil, "an OpenAPI field marked optional"},
	{"1.36", 136424, nil, nil, "OpenAPI validation of a v1alpha1 struct"},
	{"1.36", 136793, nil, nil, "Workload v1alpha1 uses declarative validation"},
	{"1.36", 136976, []string{"removed scheduling.k8s.io/v1alpha1 Workload", "introduced scheduling.k8s.io/v1alpha2 Workload,PodGroup"}, nil,
		"Introduced G/V2 A and B API; Removed G/V A API"},
	{"1.36", 137028, nil, nil, "ResourcePoolStatusRequest API (v1alpha1): the notes give a version the API module does not carry (resource.k8s.io/v1alpha3 in 1.36)"},
	{"1.36", 137170, nil, nil, "DeviceTaintRules depend on enabling resource.k8s.io/v1beta2: implied, not stated"},
	{"1.36", 137173, nil, nil, "config.k8s.io/statusz to v1beta1: an endpoint's format"},
	{"1.36", 137174, nil, nil, "config.k8s.io/flagz to v1beta1: an endpoint's format"},
	{"1.36", 137240, nil, nil, "hand-written conversion code fixed"},
	{"1.36", 137379, nil, nil, "v1alpha1 WebhookAdmissionConfiguration removed: an admission config file (apiserver.config.k8s.io)"},
	{"1.36", 137564, nil, nil, "SnapshotMetadataService, a CSI sidecar's CRD, not a Kubernetes API; its sentence of removal names no kind"},
}

// mentionRe finds an API version in a text, apart from the rules: a
// pre-release version (alone or with its group), a group/version with a
// dotted group or a short built-in group, or "v1 Kind".
var mentionRe = regexp.MustCompile(`\b(?:[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*/)?v\d+(?:alpha|beta)\d+\b|\b[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+/v\d+\b|\b(?:batch|policy|apps|autoscaling)/v\d+\b|\bv1 [A-Z][a-z]`)

// claimsOfPR returns the claims the notes of v make from pull request pr.
func claimsOfPR(t *testing.T, v knowledge.Version, pr int) []knowledge.APIClaim {
	t.Helper()
	var out []knowledge.APIClaim
	for _, c := range sharedNotes(t, v).APIClaims {
		if c.PR == pr {
			out = append(out, c)
		}
	}
	return out
}

func sortedStrings(cs []knowledge.APIClaim) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, claimString(c))
	}
	sort.Strings(out)
	return out
}

// TestAPIClaimsHandChecked checks the claims of every hand-checked entry:
// what it states but what the rules are known to miss.
func TestAPIClaimsHandChecked(t *testing.T) {
	sharedtest.Root(t)
	if len(apiHandChecked) < 60 {
		t.Fatalf("%d entries hand-checked; want at least 60", len(apiHandChecked))
	}
	for _, h := range apiHandChecked {
		t.Run(fmt.Sprintf("%s#%d", h.release, h.pr), func(t *testing.T) {
			v := knowledge.MustVersion(h.release)
			ch := change(t, v, h.pr) // the entry is one to publish
			want := []string{}
			for _, w := range h.want {
				if !slices.Contains(h.missed, w) {
					want = append(want, w)
				}
			}
			sort.Strings(want)
			got := claimsOfPR(t, v, h.pr)
			if diff := cmp.Diff(want, sortedStrings(got)); diff != "" {
				t.Errorf("claims (-want +got): %s\n%s\ntext: %.400s", h.why, diff, ch.Text)
			}
			for _, c := range got {
				if c.Release != v || c.Source != NotesSourceID(v) || c.Line != 0 {
					t.Errorf("claim %s: release %s, source %q, line %d", claimString(c), c.Release, c.Source, c.Line)
				}
			}
			for _, m := range h.missed {
				if !slices.Contains(h.want, m) {
					t.Errorf("missed %q is not among the claims the entry states", m)
				}
			}
		})
	}
}

// TestAPIClaimsPrecisionRecall measures the rules on the hand-checked
// table over the notes of 1.25 to 1.36, lists every claim they make there,
// and checks that each comes from a hand-checked entry, that the table
// holds every entry naming an API version, and that no claim is wrong.
func TestAPIClaimsPrecisionRecall(t *testing.T) {
	sharedtest.Root(t)
	checked := map[string]handChecked{}
	for _, h := range apiHandChecked {
		key := fmt.Sprintf("%s#%d", h.release, h.pr)
		if _, dup := checked[key]; dup {
			t.Errorf("%s is in the table twice", key)
		}
		checked[key] = h
	}
	tp, fp, fn, mentions := 0, 0, 0, 0
	for _, v := range sharedReleases {
		c := sharedNotes(t, v)
		for _, ch := range c.Changes {
			key := fmt.Sprintf("%s#%d", v, ch.PR)
			h, ok := checked[key]
			if mentionRe.MatchString(ch.Text) {
				mentions++
				if !ok {
					t.Errorf("%s names an API version but is not hand-checked: %.200s", key, ch.Text)
				}
			}
			if !ok {
				continue
			}
			var got []string
			for _, cl := range c.APIClaims {
				if cl.PR == ch.PR {
					got = append(got, claimString(cl))
				}
			}
			for _, g := range got {
				if slices.Contains(h.want, g) {
					tp++
				} else {
					fp++
					t.Errorf("%s: false claim %q", key, g)
				}
			}
			for _, w := range h.want {
				if !slices.Contains(got, w) {
					fn++
				}
			}
		}
		for _, cl := range c.APIClaims {
			key := fmt.Sprintf("%s#%d", v, cl.PR)
			if _, ok := checked[key]; !ok {
				t.Errorf("%s makes a claim no one checked: %s", key, claimString(cl))
			}
			t.Logf("%s PR %d: %s", cl.Release, cl.PR, claimString(cl))
		}
	}
	precision := float64(tp) / float64(max(1, tp+fp))
	recall := float64(tp) / float64(max(1, tp+fn))
	t.Logf("%d entries name an API version; %d entries hand-checked; %d claims stated, %d read right, %d wrong, %d missed: precision %.3f, recall %.3f",
		mentions, len(apiHandChecked), tp+fn, tp, fp, fn, precision, recall)
	if fp > 0 {
		t.Errorf("precision %.3f: the rules must make no claim the entries do not state", precision)
	}
	if recall < 0.85 {
		t.Errorf("recall %.3f, below 0.85", recall)
	}
}

// TestAPIClaimsRules checks each rule and each exclusion on made-up texts.
func TestAPIClaimsRules(t *testing.T) {
	v := knowledge.MustVersion("1.40")
	tests := []struct {
		text string
		want []string
	}{
		// removals
		{"The `foo.k8s.io/v1beta1` API version of `Widget` and `Gadget` is no longer served in v1.40.", []string{"removed foo.k8s.io/v1beta1 Widget,Gadget"}},
		{"The foo.k8s.io/v1beta1 API version of Widget is no longer served. Use the `foo.k8s.io/v1` API version, available since v1.37.", []string{"removed foo.k8s.io/v1beta1 Widget -> foo.k8s.io/v1 since 1.37"}},
		{"The `foo.k8s.io/v1beta1` API is no longer served in v1.39.", nil}, // another release
		{"networking.v1alpha1 API is dropped and replaced with networking.v1alpha2.", []string{"removed networking.k8s.io/v1alpha1 -> networking.k8s.io/v1alpha2"}},
		{"`foo.k8s.io/v1alpha1` was replaced with `foo.k8s.io/v1alpha2`.", []string{"removed foo.k8s.io/v1alpha1 -> foo.k8s.io/v1alpha2"}},
		{"Removed support for `v1alpha1` version of `Widget` API kinds.", []string{"removed v1alpha1 Widget"}},
		{"Removed the `foo.k8s.io/v1alpha2` Widget API.", []string{"removed foo.k8s.io/v1alpha2 Widget"}},
		{"Removed the `Widget` resource from the `foo.k8s.io/v1alpha1` API in `v1.40`.", []string{"removed foo.k8s.io/v1alpha1 Widget"}},
		{"Removed the `Widget` resource from the `foo.k8s.io/v1alpha1` API in `v1.41`.", nil},
		{"foo.k8s.io/v1alpha3 now only contains Widget. All other types got removed.", []string{"removed foo.k8s.io/v1alpha3 except Widget"}},
		{"foo.k8s.io/v1alpha3 now only contains Widget.", nil}, // nothing says the others went
		{"Added the `Widget` `v1beta1` API and removed the `v1alpha1` API.", []string{"introduced v1beta1 Widget", "removed v1alpha1 Widget"}},
		{"Added the `Widget` `v1beta1` API. Removed the `v1alpha1` API.", []string{"introduced v1beta1 Widget"}},                         // kinds only from the same sentence
		{"Added the `Widget` `v1beta1` API and the `Gadget` API and removed the `v1alpha1` API.", []string{"introduced v1beta1 Widget"}}, // whose v1alpha1?
		{"Added the `Widget` `v1beta1` API and removed the `v1alpha1` API. The `v1alpha1` API is no longer supported.", []string{"introduced v1beta1 Widget", "removed v1alpha1 Widget"}},
		{"The `foo.k8s.io/v1beta1` API is removed, use `v1` instead.", []string{"removed foo.k8s.io/v1beta1 -> foo.k8s.io/v1"}},
		{"The `foo.k8s.io/v1beta1` API is removed. Use `bar.k8s.io/v1` instead.", []string{"removed foo.k8s.io/v1beta1"}}, // another group: not read
		{"The `foo.k8s.io/v1beta1` API is removed. Upgrade to `v1.41` first.", []string{"removed foo.k8s.io/v1beta1"}},
		// deprecations
		{"The `foo.k8s.io/v1beta1` API is deprecated and will be removed in 1.43. Use `v1beta2` instead.", []string{"deprecated foo.k8s.io/v1beta1 -> foo.k8s.io/v1beta2"}},
		{"The `foo.k8s.io/v1beta1` API version of Widget will no longer be served in v1.43.", []string{"deprecated foo.k8s.io/v1beta1 Widget"}},
		{"The `foo.k8s.io/v1beta1` API version of Widget will no longer be served in v1.40.", []string{"removed foo.k8s.io/v1beta1 Widget"}},
		{"The `foo.k8s.io/v1beta1` API version of Widget will no longer be served.", nil}, // no release
		{"The v1 Widget API is now officially deprecated (though still fully supported). The API will not be removed.", []string{"deprecated v1 Widget"}},
		{"Deprecated the `foo.k8s.io/v1beta1` API version of `Widget`.", []string{"deprecated foo.k8s.io/v1beta1 Widget"}},
		// introductions
		{"Introduced API type `foo.k8s.io/v1beta1/Widget`", []string{"introduced foo.k8s.io/v1beta1 Widget"}},
		{"Introduced `foo.k8s.io/v1alpha2` Widget and Gadget API to do things.", []string{"introduced foo.k8s.io/v1alpha2 Widget,Gadget"}},
		{"Added a new alpha API: Widget (`foo.k8s.io/v1alpha1`).", []string{"introduced foo.k8s.io/v1alpha1 Widget"}},
		{"'Added a `Widget` API (in the `foo.k8s.io/v1alpha1` API group and behind a gate).'", []string{"introduced foo.k8s.io/v1alpha1 Widget"}},
		{"The `Widget` API is promoted to `foo.k8s.io/v1` and the `kubectl widget` command is GA.", []string{"introduced foo.k8s.io/v1 Widget"}},
		{"- Promoted API `Widget` and `WidgetList` to `foo.k8s.io/v1`.", []string{"introduced foo.k8s.io/v1 Widget"}},
		{"API: foo.k8s.io/v1alpha1.Widget was renamed to foo.k8s.io/v1alpha2.Gadget.", []string{"introduced foo.k8s.io/v1alpha2 Gadget"}},
		{"Introduced `v1alpha1` API for widgets.", nil},         // no kind
		{"Added the Widget API (`v1alpha1`) for widgets.", nil}, // a version alone in brackets
		{"Introduced the Widget plugin using the `foo.k8s.io/v1alpha1` Widget API.", nil},
		{"Promoted `Widget` to `v1beta1`.", nil}, // no word says it is an API
		// exclusions
		{"Dropped support for `policy/v1beta1` PodDisruptionBudget in kubectl.", nil},
		{"kubectl: removed the `foo.k8s.io/v1beta1` API.", nil},
		{"Removed support for the `v1alpha1` kubeletplugin API of `Widget`.", nil},
		{"DRA: removed support for the v1alpha4 kubelet gRPC API.", nil},
		{"Removed the deprecated field `spec.foo` from `foo.k8s.io/v1beta1`.", nil},
		{"Removed the `v1beta1` Widget field.", nil},
		{"The `foo.k8s.io/v1beta1` API is removed from the scheme of kube-widget.", nil},
		{"Revert \"The `foo.k8s.io/v1beta1` API is no longer served\".", nil},
		{"kubeadm: removed the deprecated `v1beta2` API.", nil},
		{"`kubescheduler.config.k8s.io/v1beta2` is removed in `v1.40`.", nil},
		{"Removed `v1alpha1` `WidgetConfiguration`. It was deprecated in favor of `apiserver.config.k8s.io/v1`.", nil},
		{"The Widget v2beta1 fixture has been removed.", nil},
		{"Removed support for the `v1alpha1` version.", nil}, // no kind, no group
		{"Fixed a warning saying the `foo.k8s.io/v1beta1` API is deprecated.", nil},
		{"The `foo.k8s.io/v1beta1` Widget APIs has been promoted to `foo.k8s.io/v1`.", []string{"introduced foo.k8s.io/v1 Widget"}},
		{"Nothing about versions here.", nil},
		{"", nil},
	}
	for _, tt := range tests {
		want := slices.Clone(tt.want)
		if want == nil {
			want = []string{}
		}
		got := []string{}
		for _, c := range apiClaims(v, tt.text) {
			got = append(got, claimString(c))
			if c.Release != v {
				t.Errorf("%q: claim of release %s", tt.text, c.Release)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("apiClaims(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

// TestMayNameAPIVersion checks the cheap test that lets most entries pass
// unread: it must let through every entry that names an API version.
func TestMayNameAPIVersion(t *testing.T) {
	for _, s := range []string{"`v1beta1`", "foo/v1", "coordination.v1alpha1", "The v1 Endpoints API", "x v2beta2 y"} {
		if !mayNameAPIVersion(s) {
			t.Errorf("mayNameAPIVersion(%q) = false", s)
		}
	}
	for _, s := range []string{"", "v", "no version", "alpha feature", "beta", "v0.1", "kv1"} {
		if mayNameAPIVersion(s) {
			t.Errorf("mayNameAPIVersion(%q) = true", s)
		}
	}
	sharedtest.Root(t)
	for _, v := range sharedReleases {
		for _, ch := range sharedNotes(t, v).Changes {
			if mentionRe.MatchString(ch.Text) && !mayNameAPIVersion(ch.Text) {
				t.Errorf("%s#%d names an API version the cheap test misses: %.200s", v, ch.PR, ch.Text)
			}
		}
	}
}

// BenchmarkAPIClaims reads the API claims of every entry of the twelve
// releases, apart from the rest of the parse (BenchmarkParseNotesAll
// includes it): the cost the rules add.
func BenchmarkAPIClaims(b *testing.B) {
	var changes []knowledge.Change
	for _, v := range sharedReleases {
		changes = append(changes, sharedNotes(b, v).Changes...)
	}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(changeClaims(changes)); n < 20 {
			b.Fatalf("%d claims", n)
		}
	}
}
