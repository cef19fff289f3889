package knowledge

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/semver"
)

// Holds reports whether version ver is inside r, read with OSV's own
// semantics (ossf/osv-schema, "Evaluation"): the events sorted by version
// ("0" first), ver is affected from an introduced at or below it until a
// fixed at or below it, or a last_affected below it; at or past a limit it
// is not. known is false when r cannot be read that way: a GIT range
// (commits, not versions), or an event whose version is not a semantic
// version; in is false then.
func (r VulnRange) Holds(ver string) (in, known bool) {
	if r.Type != "SEMVER" && r.Type != "ECOSYSTEM" || !semver.Valid(ver) {
		return false, false
	}
	evs := make([]VulnEvent, len(r.Events))
	copy(evs, r.Events)
	for _, e := range evs {
		if !semver.Valid(e.version()) {
			return false, false
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return semver.Compare(evs[i].version(), evs[j].version()) < 0 })
	for _, e := range evs {
		if e.Limit != "" && semver.Compare(ver, e.Limit) >= 0 {
			return false, true
		}
	}
	for _, e := range evs {
		switch {
		case e.Introduced != "" && semver.Compare(ver, e.Introduced) >= 0:
			in = true
		case e.Fixed != "" && semver.Compare(ver, e.Fixed) >= 0:
			in = false
		case e.LastAffected != "" && semver.Compare(ver, e.LastAffected) > 0:
			in = false
		}
	}
	return in, true
}

// version is the one version an event gives.
func (e VulnEvent) version() string {
	switch {
	case e.Introduced != "":
		return e.Introduced
	case e.Fixed != "":
		return e.Fixed
	case e.LastAffected != "":
		return e.LastAffected
	}
	return e.Limit
}

// Fixes returns the fixed versions of r's events, oldest first.
func (r VulnRange) Fixes() []string {
	var out []string
	for _, e := range r.Events {
		if e.Fixed != "" {
			out = append(out, e.Fixed)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return semver.Compare(out[i], out[j]) < 0 })
	return out
}

// HasFix reports whether any range of a names a fixed version.
func (a VulnAffected) HasFix() bool {
	for _, r := range append(append([]VulnRange(nil), a.Ranges...), a.Custom...) {
		if len(r.Fixes()) > 0 {
			return true
		}
	}
	return false
}

// holdsAny reports whether module version ver is inside any of ranges
// (SEMVER and ECOSYSTEM alike); known is false when none of them can be
// read for it.
func holdsAny(ranges []VulnRange, ver string) (in, known bool) {
	for _, r := range ranges {
		i, k := r.Holds(ver)
		known = known || k
		if i {
			return true, true
		}
	}
	return false, known
}

// ModuleRole says how a module's versions stand to Kubernetes'.
type ModuleRole int

// The roles a module plays.
const (
	// RoleOther is a module of another product (ingress-nginx, kops, a CSI
	// driver): its versions are its own.
	RoleOther ModuleRole = iota
	// RoleKubernetes is Kubernetes itself (k8s.io/kubernetes, and its old
	// path github.com/kubernetes/kubernetes): versioned as Kubernetes, 1.30.2.
	RoleKubernetes
	// RoleStaging is a module published from Kubernetes' staging tree
	// (k8s.io/client-go, k8s.io/apimachinery, ...): v0.N.P is Kubernetes 1.N.P.
	RoleStaging
)

// stagingModules are the modules kubernetes/kubernetes publishes from
// staging/src/k8s.io, tagged v0.N.P with each Kubernetes 1.N.P.
var stagingModules = map[string]bool{
	"api": true, "apiextensions-apiserver": true, "apimachinery": true, "apiserver": true, "cli-runtime": true,
	"client-go": true, "cloud-provider": true, "cluster-bootstrap": true, "code-generator": true, "component-base": true,
	"component-helpers": true, "controller-manager": true, "cri-api": true, "cri-client": true, "csi-translation-lib": true,
	"dynamic-resource-allocation": true, "endpointslice": true, "externaljwt": true, "kms": true, "kube-aggregator": true,
	"kube-controller-manager": true, "kube-proxy": true, "kube-scheduler": true, "kubectl": true, "kubelet": true,
	"legacy-cloud-providers": true, "metrics": true, "mount-utils": true, "pod-security-admission": true,
	"sample-apiserver": true, "sample-cli-plugin": true, "sample-controller": true,
}

// RoleOf says what module is to Kubernetes.
func RoleOf(module string) ModuleRole {
	switch module {
	case "k8s.io/kubernetes", "github.com/kubernetes/kubernetes":
		return RoleKubernetes
	}
	if name, ok := strings.CutPrefix(module, "k8s.io/"); ok && stagingModules[name] {
		return RoleStaging
	}
	return RoleOther
}

// ProductOf names the product a module of another project belongs to:
// its last path element without a major-version suffix ("ingress-nginx"
// for k8s.io/ingress-nginx and github.com/kubernetes/ingress-nginx,
// "csi-proxy" for github.com/kubernetes-csi/csi-proxy/v2); "Kubernetes"
// for Kubernetes and its staging modules.
func ProductOf(module string) string {
	if RoleOf(module) != RoleOther {
		return "Kubernetes"
	}
	parts := strings.Split(strings.TrimRight(module, "/"), "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) >= 2 && last[0] == 'v' && digits(last[1:]) {
		last = parts[len(parts)-2]
	}
	return last
}

// moduleVersion turns Kubernetes patch release p ("1.30.2") into the
// version of a module of that role: itself, or v0.N.P's "0.30.2".
func moduleVersion(role ModuleRole, p string) string {
	if role == RoleStaging {
		if rest, ok := strings.CutPrefix(p, "1."); ok {
			return "0." + rest
		}
	}
	return p
}

// KubernetesVersion turns a version of a module of role r into the
// Kubernetes release it stands for: a staging module's 0.30.3 is 1.30.3.
// ok is false for a version that stands for none (a pseudo-version
// 0.0.0-2019…, a module of another product).
func KubernetesVersion(r ModuleRole, ver string) (string, bool) {
	switch r {
	case RoleKubernetes:
		return ver, semver.Valid(ver) && strings.HasPrefix(ver, "1.")
	case RoleStaging:
		rest, ok := strings.CutPrefix(ver, "0.")
		if !ok || strings.HasPrefix(rest, "0.") || !semver.Valid(ver) {
			return "", false
		}
		return "1." + rest, true
	}
	return "", false
}

// IsKubernetes reports whether v affects Kubernetes itself: one of its
// modules is k8s.io/kubernetes (or the old path) or a staging module.
func (v *Vuln) IsKubernetes() bool {
	for _, a := range v.Affected {
		if RoleOf(a.Module) != RoleOther {
			return true
		}
	}
	return false
}

// Products names the other products v affects, each once, in its order.
func (v *Vuln) Products() []string {
	var out []string
	for _, a := range v.Affected {
		if RoleOf(a.Module) != RoleOther {
			continue
		}
		if p := ProductOf(a.Module); !containsString(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Affects reports whether Kubernetes patch release p ("1.30.2") is
// affected by v: some Kubernetes module's ranges hold it, read in that
// module's versions (a staging module's v0.30.2). known is false when no
// Kubernetes module's ranges could be read for p (v affects only other
// products, or gives only GIT ranges).
func (v *Vuln) Affects(p string) (in, known bool) {
	for _, a := range v.Affected {
		role := RoleOf(a.Module)
		if role == RoleOther {
			continue
		}
		i, k := holdsAny(a.Ranges, moduleVersion(role, p))
		known = known || k
		if i {
			return true, true
		}
	}
	return false, known
}

// KubernetesFixes returns the Kubernetes releases whose fixed events v's
// Kubernetes modules name (a staging module's 0.30.3 as 1.30.3), oldest
// first, each once; none when v names no fix in Kubernetes. A fix named
// at a pre-release (0.18.7-rc.0) is the release it leads to (1.18.7): the
// first release that holds it. A fix named only at a pseudo-version (a
// commit, before any release tag) is no release: see PseudoFix.
func (v *Vuln) KubernetesFixes() []string {
	var out []string
	for _, a := range v.Affected {
		role := RoleOf(a.Module)
		if role == RoleOther {
			continue
		}
		for _, r := range a.Ranges {
			for _, f := range r.Fixes() {
				k, ok := KubernetesVersion(role, f)
				if i := strings.IndexByte(k, '-'); i >= 0 {
					k = k[:i]
				}
				if ok && !containsString(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return semver.Compare(out[i], out[j]) < 0 })
	return out
}

// PseudoFix returns the day of the commit a Kubernetes module of v names
// as its fix when it names it only as a pseudo-version (0.0.0-20190927203648-
// 9ce6eca90e73 is 2019-09-27): a fix before any release tag of the module.
func (v *Vuln) PseudoFix() (string, bool) {
	for _, a := range v.Affected {
		if RoleOf(a.Module) == RoleOther {
			continue
		}
		for _, r := range a.Ranges {
			for _, f := range r.Fixes() {
				if rest, ok := strings.CutPrefix(f, "0.0.0-"); ok && len(rest) >= 8 && digits(rest[:8]) {
					return rest[:4] + "-" + rest[4:6] + "-" + rest[6:8], true
				}
			}
		}
	}
	return "", false
}

// FixIn returns the first release of Kubernetes' minor line m that v's
// records name as fixed after patch release p ("1.30.3" for 1.30.2),
// and false when they name none in that line.
func (v *Vuln) FixIn(m Version, p string) (string, bool) {
	prefix := m.String() + "."
	for _, f := range v.KubernetesFixes() {
		if strings.HasPrefix(f, prefix) && semver.Compare(f, p) > 0 {
			return f, true
		}
	}
	return "", false
}

// PatchOfBuild reads the Kubernetes patch release a server's build names:
// "1.30.2" of v1.30.2, v1.30.2-eks-5e0fdde or v1.29.6+k3s1; false for
// anything else. A distribution's build may carry fixes its upstream
// patch does not.
func PatchOfBuild(build string) (string, bool) {
	core := strings.TrimPrefix(strings.TrimSpace(build), "v")
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	if parts := strings.Split(core, "."); len(parts) != 3 || parts[0] != "1" || !semver.Valid(core) {
		return "", false
	}
	return core, true
}

// Item is v as a line of an answer about patch release last of release m
// (the newest patch asked about, when several are): the first patch of
// m's line that fixes it, else the fixes of later lines, else none. The
// caller sets Affected (and Unreleased, which needs the patch list).
func (v *Vuln) Item(m Version, last string) CVEItem {
	it := CVEItem{ID: v.ID, Aliases: v.Aliases, Summary: v.Summary, Modules: v.Modules(), Advisory: v.Advisory()}
	if len(v.Withdrawn) >= 10 {
		it.Withdrawn = v.Withdrawn[:10]
	}
	if f, ok := v.FixIn(m, last); ok {
		it.FixedIn = f
		return it
	}
	fixes := v.KubernetesFixes()
	if len(fixes) == 0 {
		it.NoFix = true
		return it
	}
	for _, f := range fixes {
		if semver.Compare(f, last) > 0 {
			it.FixedElsewhere = append(it.FixedElsewhere, f)
		}
	}
	if len(it.FixedElsewhere) == 0 {
		it.FixedElsewhere = fixes
	}
	return it
}

// CVEsOf returns the records of Kubernetes among vs that affect patch
// release p ("1.30.2"), newest record first, each as Item gives it.
func CVEsOf(vs []Vuln, p string) []CVEItem {
	m, err := ParseVersion(p)
	if err != nil {
		return nil
	}
	var out []CVEItem
	for i := len(vs) - 1; i >= 0; i-- {
		v := &vs[i]
		if !v.IsKubernetes() {
			continue
		}
		if in, _ := v.Affects(p); in {
			it := v.Item(m, p)
			it.Affected = p
			out = append(out, it)
		}
	}
	return out
}

// CompareVersions compares two semantic versions as OSV ranges do (see
// package knowledge/internal/semver): -1, 0 or +1.
func CompareVersions(a, b string) int { return semver.Compare(a, b) }

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// AffectedPatches are the patches of release m among nums (oldest first)
// that v affects.
func (v *Vuln) AffectedPatches(m Version, nums []int) []int {
	var out []int
	for _, n := range nums {
		if in, _ := v.Affects(m.String() + "." + strconv.Itoa(n)); in {
			out = append(out, n)
		}
	}
	return out
}

// Line says which of release m's known patches (nums, oldest first) v
// affects, as runs of them (PatchSpans), and the first that fixes it, said
// unreleased when it is newer than every known patch; ok is false when it
// affects none.
func (v *Vuln) Line(m Version, nums []int) (CVELine, bool) {
	hit := v.AffectedPatches(m, nums)
	if len(hit) == 0 {
		return CVELine{}, false
	}
	l := CVELine{Release: m.String(), Affected: PatchSpans(m, nums, hit)}
	if f, ok := v.FixIn(m, m.String()+"."+strconv.Itoa(hit[len(hit)-1])); ok {
		l.FixedIn = f
		l.Unreleased = CompareVersions(f, m.String()+"."+strconv.Itoa(nums[len(nums)-1])) > 0
	}
	return l, true
}

// PatchSpans writes patch numbers of release m as runs of the known
// patches: "1.30.0–1.30.2", "1.30.0–1.30.2, 1.30.5". nums are the known
// patches, oldest first; hit a subset of them.
func PatchSpans(m Version, nums, hit []int) string {
	in := map[int]bool{}
	for _, h := range hit {
		in[h] = true
	}
	name := func(n int) string { return m.String() + "." + strconv.Itoa(n) }
	var parts []string
	for i := 0; i < len(nums); i++ {
		if !in[nums[i]] {
			continue
		}
		j := i
		for j+1 < len(nums) && in[nums[j+1]] {
			j++
		}
		if i == j {
			parts = append(parts, name(nums[i]))
		} else {
			parts = append(parts, name(nums[i])+"–"+name(nums[j]))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}
