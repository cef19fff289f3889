package relnotes

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// The tests here hold the claims against what ../shared/data/api-lifecycle
// shows: the group/versions and kinds the Go module k8s.io/api registers in
// each release (a register.go per group/version), read apart from the
// package's code.

var (
	groupNameRe = regexp.MustCompile(`GroupName\s*=\s*"([^"]*)"`)
	knownTypes  = regexp.MustCompile(`(?s)func addKnownTypes\(scheme \*runtime\.Scheme\) error \{(.*?)\n\}`)
	typeRe      = regexp.MustCompile(`&(\w+)\{\}`)
)

// moduleKinds maps "group/version" ("v1" for the core group) to the kinds
// the module registers.
type moduleKinds map[string][]string

var (
	modulesMu sync.Mutex
	modules   = map[int]moduleKinds{}
)

// apiModule reads k8s.io/api of release 1.minor from ../shared.
func apiModule(t *testing.T, minor int) moduleKinds {
	t.Helper()
	modulesMu.Lock()
	defer modulesMu.Unlock()
	if m, ok := modules[minor]; ok {
		return m
	}
	root := sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", fmt.Sprintf("release-1.%d", minor))
	files, err := filepath.Glob(filepath.Join(root, "*", "*", "register.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no register.go under %s (%v)", root, err)
	}
	m := moduleKinds{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g := groupNameRe.FindSubmatch(data)
		body := knownTypes.FindSubmatch(data)
		if g == nil || body == nil {
			t.Fatalf("%s: no GroupName or addKnownTypes", f)
		}
		gv := filepath.Base(filepath.Dir(f))
		if len(g[1]) > 0 {
			gv = string(g[1]) + "/" + gv
		}
		for _, k := range typeRe.FindAllSubmatch(body[1], -1) {
			m[gv] = append(m[gv], string(k[1]))
		}
	}
	modules[minor] = m
	return m
}

// carries reports whether the module registers each of kinds under gv (or
// gv at all, for no kinds).
func (m moduleKinds) carries(gv string, kinds ...string) bool {
	have, ok := m[gv]
	if !ok {
		return false
	}
	for _, k := range kinds {
		if !slices.Contains(have, k) {
			return false
		}
	}
	return true
}

// resolve finds the one group that registers kinds at a version alone.
func (m moduleKinds) resolve(version string, kinds []string) (string, bool) {
	var found []string
	for gv := range m {
		g, v, ok := strings.Cut(gv, "/")
		if !ok {
			g, v = "", gv
		}
		if v == version && m.carries(gv, kinds...) {
			found = append(found, g)
		}
	}
	if len(found) != 1 {
		return "", false
	}
	if found[0] == "" {
		return version, true
	}
	return found[0] + "/" + version, true
}

// TestAPIClaimsAgainstModules checks every claim the notes of 1.25 to 1.36
// make against k8s.io/api: a removed version (and its kinds, and those it
// keeps) is carried in the release before; a deprecated one in its
// release; an introduced kind in its release and not in the one before.
// A version alone must name kinds one group carries at that version.
func TestAPIClaimsAgainstModules(t *testing.T) {
	sharedtest.Root(t)
	n := 0
	for _, v := range sharedReleases {
		now, before := apiModule(t, v.Minor), apiModule(t, v.Minor-1)
		for _, c := range sharedNotes(t, v).APIClaims {
			n++
			at := before
			if c.Action != knowledge.APIRemoved {
				at = now
			}
			gv := c.GroupVersion
			if !strings.Contains(gv, "/") {
				var ok bool
				if gv, ok = at.resolve(gv, c.Kinds); !ok {
					t.Errorf("%s PR %d: %s: no single group carries %v at %s", v, c.PR, claimString(c), c.Kinds, c.GroupVersion)
					continue
				}
			}
			if !at.carries(gv, append(slices.Clone(c.Kinds), c.Except...)...) {
				t.Errorf("%s PR %d: %s: k8s.io/api does not carry %s %v in the release it speaks of", v, c.PR, claimString(c), gv, c.Kinds)
			}
			if c.Action == knowledge.APIIntroduced && before.carries(gv, c.Kinds...) {
				t.Errorf("%s PR %d: %s: already carried in %d.%d", v, c.PR, claimString(c), 1, v.Minor-1)
			}
			if c.ReplacedBy != "" && !now.carries(c.ReplacedBy) {
				t.Errorf("%s PR %d: %s: the replacement is not carried", v, c.PR, claimString(c))
			}
			if !c.Since.IsZero() && !apiModule(t, c.Since.Minor).carries(c.ReplacedBy, c.Kinds...) {
				t.Errorf("%s PR %d: %s: the replacement is not carried in %s", v, c.PR, claimString(c), c.Since)
			}
		}
	}
	if n == 0 {
		t.Fatal("no claims")
	}
}

// apiRemoval is one API removal of 1.25 to 1.36, from the migration guide
// (../shared/data/website/deprecation-guide.md), the lifecycle markers, a
// release whose module no longer carries the kinds, or the notes.
type apiRemoval struct {
	release string
	gv      string
	kinds   string // comma-separated
	stated  bool   // the notes of the release state it in a form the rules read
	basis   string
}

// apiRemovals lists every API removal of 1.25 to 1.36 the sources show.
var apiRemovals = []apiRemoval{
	{"1.25", "batch/v1beta1", "CronJob", false, "guide; notes: only \"deprecated beta APIs scheduled for removal in 1.25 are no longer served\" (PR 108797)"},
	{"1.25", "discovery.k8s.io/v1beta1", "EndpointSlice", false, "guide; notes: PR 108797, no version named"},
	{"1.25", "events.k8s.io/v1beta1", "Event", false, "guide; notes: PR 108797"},
	{"1.25", "autoscaling/v2beta1", "HorizontalPodAutoscaler", false, "guide; notes: PR 108797"},
	{"1.25", "policy/v1beta1", "PodDisruptionBudget", false, "guide; notes: PR 108797"},
	{"1.25", "policy/v1beta1", "PodSecurityPolicy", false, "guide; notes: PR 108797"},
	{"1.25", "node.k8s.io/v1beta1", "RuntimeClass", false, "guide; notes: PR 108797"},
	{"1.26", "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema,PriorityLevelConfiguration", false, "guide; notes: only \"deprecated beta APIs scheduled for removal in v1.26\" (PR 111973)"},
	{"1.26", "autoscaling/v2beta2", "HorizontalPodAutoscaler", false, "guide; notes: PR 111973"},
	{"1.27", "storage.k8s.io/v1beta1", "CSIStorageCapacity", false, "guide; notes: \"will no longer be served\", no release (PR 116523)"},
	{"1.27", "resource.k8s.io/v1alpha1", "PodScheduling,ResourceClaim,ResourceClaimTemplate,ResourceClass", true, "notes (PR 116299); absent from k8s.io/api 1.27"},
	{"1.29", "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema,PriorityLevelConfiguration", true, "notes (PR 119495); guide"},
	{"1.29", "networking.k8s.io/v1alpha1", "ClusterCIDR", false, "absent from k8s.io/api 1.29; notes: \"the networking alpha API ClusterCIDR\", no version (PR 121229); markers say 1.31"},
	{"1.31", "resource.k8s.io/v1alpha2", "PodSchedulingContext,ResourceClaim,ResourceClaimParameters,ResourceClaimTemplate,ResourceClass,ResourceClassParameters,ResourceSlice", false,
		"absent from k8s.io/api 1.31; notes: only that v1alpha3 \"is not compatible with the previous version\" (PR 125488)"},
	{"1.32", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema,PriorityLevelConfiguration", true, "notes (PR 127017); guide"},
	{"1.32", "coordination.k8s.io/v1alpha1", "LeaseCandidate", true, "notes (PR 127857); absent from k8s.io/api 1.32"},
	{"1.32", "resource.k8s.io/v1alpha3", "PodSchedulingContext", false, "absent from k8s.io/api 1.32; notes: classic DRA removed, no version named (PR 128003)"},
	{"1.32", "authentication.k8s.io/v1alpha1", "SelfSubjectReview", false, "markers; notes of 1.33: \"inactive serving code is removed\" (PR 129186)"},
	{"1.33", "admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy,ValidatingAdmissionPolicyBinding", true, "notes (PR 129207); markers say 1.32"},
	{"1.33", "authentication.k8s.io/v1beta1", "SelfSubjectReview", false, "markers only; the notes say nothing"},
	{"1.33", "networking.k8s.io/v1alpha1", "IPAddress,ServiceCIDR", false, "markers; absent from k8s.io/api 1.34; the notes say nothing"},
	{"1.34", "resource.k8s.io/v1alpha3", "DeviceClass,ResourceClaim,ResourceClaimTemplate,ResourceSlice", true, "notes (PR 132000); absent from k8s.io/api 1.34"},
	{"1.34", "admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicy,ValidatingAdmissionPolicyBinding", false, "markers only; the notes say nothing"},
	{"1.35", "storage.k8s.io/v1alpha1", "VolumeAttributesClass", true, "notes (PR 134625); markers"},
	{"1.35", "storagemigration.k8s.io/v1alpha1", "StorageVersionMigration", true, "notes (PR 134784); absent from k8s.io/api 1.35; markers say 1.36"},
	{"1.35", "certificates.k8s.io/v1alpha1", "PodCertificateRequest", false, "absent from k8s.io/api 1.35; notes: only the move to beta (PR 134624)"},
	{"1.35", "apidiscovery.k8s.io/v2beta1", "APIGroupDiscovery", false, "markers only; notes of 1.33: disabled by default (PR 130347)"},
	{"1.36", "scheduling.k8s.io/v1alpha1", "Workload", true, "notes (PR 136976); absent from k8s.io/api 1.36"},
	{"1.36", "scheduling.k8s.io/v1alpha1", "PriorityClass", false, "absent from k8s.io/api 1.36 (with the whole v1alpha1); the notes name only Workload"},
}

// moduleCleanups are kinds that vanish from k8s.io/api in 1.25 to 1.36
// long after the API server stopped serving them: no removal of that
// release.
var moduleCleanups = map[string]string{
	"1.27 batch/v1beta1 JobTemplate":                                        "a part of CronJob, not served alone; batch/v1beta1 went in 1.25",
	"1.27 extensions/v1beta1 PodSecurityPolicy":                             "removed in 1.16 (guide)",
	"1.29 flowcontrol.apiserver.k8s.io/v1alpha1 FlowSchema":                 "markers: removed in 1.21",
	"1.29 flowcontrol.apiserver.k8s.io/v1alpha1 PriorityLevelConfiguration": "markers: removed in 1.21",
	"1.29 policy/v1beta1 PodSecurityPolicy":                                 "removed in 1.25 (guide)",
	"1.36 autoscaling/v2beta1 HorizontalPodAutoscaler":                      "removed in 1.25 (guide)",
	"1.36 autoscaling/v2beta2 HorizontalPodAutoscaler":                      "removed in 1.26 (guide)",
}

// TestAPIRemovalsStated checks the list of removals against k8s.io/api
// (each removed kind is carried in the release before; every kind that
// vanishes from the module in 1.25 to 1.36 is a listed removal or a
// cleanup) and says which removals the notes state: each marked stated
// must be among the claims of its release, each not marked must not be,
// and the ones not stated are logged, the gaps.
func TestAPIRemovalsStated(t *testing.T) {
	sharedtest.Root(t)
	listed := map[string]bool{}
	for _, r := range apiRemovals {
		v := knowledge.MustVersion(r.release)
		for _, k := range strings.Split(r.kinds, ",") {
			listed[fmt.Sprintf("%s %s %s", r.release, r.gv, k)] = true
			if !apiModule(t, v.Minor-1).carries(r.gv, k) {
				t.Errorf("%s %s %s: not carried by k8s.io/api %d.%d", r.release, r.gv, k, 1, v.Minor-1)
			}
		}
	}
	// Every kind that vanishes from the module is listed or a cleanup.
	for _, v := range sharedReleases {
		now, before := apiModule(t, v.Minor), apiModule(t, v.Minor-1)
		for gv, kinds := range before {
			for _, k := range kinds {
				key := fmt.Sprintf("%s %s %s", v, gv, k)
				if isListKind(k, kinds) || now.carries(gv, k) {
					continue
				}
				if _, ok := moduleCleanups[key]; !ok && !listed[key] && !listedEarlier(key, v, listed) {
					t.Errorf("%s vanishes from k8s.io/api and is neither a listed removal nor a cleanup", key)
				}
			}
		}
	}
	var gaps []string
	for _, r := range apiRemovals {
		v := knowledge.MustVersion(r.release)
		for _, k := range strings.Split(r.kinds, ",") {
			got := removedByClaims(t, v, r.gv, k)
			if got != r.stated {
				t.Errorf("%s %s %s: stated by the notes' claims %v, want %v (%s)", r.release, r.gv, k, got, r.stated, r.basis)
			}
		}
		if !r.stated {
			gaps = append(gaps, fmt.Sprintf("%s %s %s: %s", r.release, r.gv, r.kinds, r.basis))
		}
	}
	sort.Strings(gaps)
	t.Logf("%d removals, %d not stated by the notes in a form the rules read:\n%s", len(apiRemovals), len(gaps), strings.Join(gaps, "\n"))
}

// isListKind reports whether k is the list kind of another of kinds, or
// an options kind registered beside them (DeleteOptions).
func isListKind(k string, kinds []string) bool {
	if base, ok := strings.CutSuffix(k, "List"); ok && slices.Contains(kinds, base) {
		return true
	}
	return strings.HasSuffix(k, "Options")
}

// listedEarlier reports whether the kind of key was listed as removed in
// an earlier release (the module kept it a while).
func listedEarlier(key string, v knowledge.Version, listed map[string]bool) bool {
	rest := strings.TrimPrefix(key, v.String()+" ")
	for m := 25; m < v.Minor; m++ {
		if listed[fmt.Sprintf("1.%d %s", m, rest)] {
			return true
		}
	}
	return false
}

// removedByClaims reports whether a removal claim of the notes of v says
// that kind of gv went: naming it, or naming none and not excepting it.
func removedByClaims(t *testing.T, v knowledge.Version, gv, kind string) bool {
	t.Helper()
	before := apiModule(t, v.Minor-1)
	for _, c := range sharedNotes(t, v).APIClaims {
		if c.Action != knowledge.APIRemoved {
			continue
		}
		cgv := c.GroupVersion
		if !strings.Contains(cgv, "/") {
			cgv, _ = before.resolve(cgv, c.Kinds)
		}
		if cgv != gv {
			continue
		}
		if slices.Contains(c.Kinds, kind) || len(c.Kinds) == 0 && !slices.Contains(c.Except, kind) {
			return true
		}
	}
	return false
}
