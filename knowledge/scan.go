package knowledge

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// ManifestObject is one Kubernetes object read from a manifest: where it
// stands and the only four values kepbot reads of it (people paste
// Secrets: nothing else of an object is ever kept or repeated).
type ManifestObject struct {
	File       string `json:"file"`
	Document   int    `json:"document"`       // 1-based, in its file
	Item       int    `json:"item,omitempty"` // 1-based in a List's items; 0 when not an item
	Line       int    `json:"line"`           // 1-based, in its file
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"`
	Name       string `json:"name,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Template   string `json:"template,omitempty"` // the helm template it came from ("# Source:")
	// Source says what found an object of a live cluster (SourceMetrics,
	// SourceObject, SourceHelmRelease); "" for a file's. HelmRelease names
	// the Helm release whose manifest holds it.
	Source      string `json:"source,omitempty"`
	HelmRelease string `json:"helm_release,omitempty"`
}

// What found an object of a live cluster: ManifestObject.Source.
const (
	SourceMetrics     = "metrics"      // the apiserver's apiserver_requested_deprecated_apis
	SourceObject      = "object"       // an object's managedFields
	SourceHelmRelease = "helm-release" // the manifest of a Helm release's latest deployed revision
)

// DisplayName names the object for a person: namespace/name, or the name
// alone, each made safe to show (SafeValue); "(no name)" when it has none.
func (o ManifestObject) DisplayName() string {
	name := SafeValue(o.Name)
	if name == "" {
		name = "(no name)"
	}
	if ns := SafeValue(o.Namespace); ns != "" {
		name = ns + "/" + name
	}
	return name
}

// ManifestProblem is a document that could not be read.
type ManifestProblem struct {
	File     string `json:"file"`
	Document int    `json:"document,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
}

// ManifestSkip is an input passed over on purpose, said once: not a
// regular file (a named pipe in a folder), or a file that is not a
// manifest by its name (a Helm chart's Chart.yaml, kustomization.yaml).
type ManifestSkip struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// ManifestRead is what reading manifests gave.
type ManifestRead struct {
	Objects  []ManifestObject
	Problems []ManifestProblem
	Skipped  []ManifestSkip
	// Documents counts the documents read; NotObjects those that are not
	// Kubernetes objects (no apiVersion and kind: a values file).
	Documents, NotObjects int
	// ServerVersion is the release a pasted `kubectl version` names as the
	// server's; zero when none was pasted, or when the one pasted names no
	// server (Kubectl says one was pasted).
	ServerVersion Version
	Kubectl       bool
	// ServerPatch is the patch release a live cluster's server runs
	// ("1.30.2"), read from its build (PatchOfBuild), and ServerBuild the
	// build as it names itself (v1.30.2-eks-5e0fdde, fit to show); both
	// "" when unknown. The scan reports the patch's vulnerabilities.
	ServerPatch, ServerBuild string
	// Gates are the feature gates its configurations set (scan_gates.go).
	Gates []GateSetting
}

// SetServer sets the release the server runs, and its patch and build
// when build (its gitVersion: v1.30.2-eks-5e0fdde) names a patch of v.
func (r *ManifestRead) SetServer(v Version, build string) {
	r.ServerVersion = v
	if p, ok := PatchOfBuild(build); ok && strings.HasPrefix(p, v.String()+".") {
		r.ServerPatch, r.ServerBuild = p, SafeValue(build)
	}
}

// ScanStatus is what a scan found of an object at the target release.
type ScanStatus string

// The statuses of a finding.
const (
	// ScanRemoved: its API version is no longer served in the target.
	ScanRemoved ScanStatus = "removed"
	// ScanDeprecated: deprecated at or before the target, still served.
	ScanDeprecated ScanStatus = "deprecated"
	// ScanNotYetServed: its API version is served only after the target.
	ScanNotYetServed ScanStatus = "not_yet_served"
	// ScanNotServed: a version or kind of a built-in group that no release
	// read serves (apps/v1beta3; never served, or no longer served).
	ScanNotServed ScanStatus = "not_served"
)

// ScanFinding is one object whose API version breaks or is deprecated at
// the target release.
type ScanFinding struct {
	Object       ManifestObject
	Status       ScanStatus
	API          *APILifecycle // the type's lifecycle
	DeprecatedIn Version
	RemovedIn    Version
	// Replacement is what to use instead in the target (nil when nothing
	// served there replaces it; for a version served only after the
	// target, what to use until then) and AvailableIn the release it is
	// served from (zero when unknown: before the oldest release read).
	Replacement *APIRef
	AvailableIn Version
	// Bridge is what a cluster on From moves to first when Replacement is
	// not served there yet and the type's own replacement is (APITable.Bridge;
	// nil otherwise, and when From is at or past AvailableIn).
	Bridge *APILifecycle
}

// ScanUnknown is an object of an API version Kubernetes does not build
// in: a CustomResourceDefinition's group, or a version or kind of a
// built-in group that no release read serves.
type ScanUnknown struct {
	Object ManifestObject
	Reason string
}

// ScanReport is what a scan of manifests against a target release found.
type ScanReport struct {
	From, To Version
	Objects  int
	Findings []ScanFinding
	Unknown  []ScanUnknown
	// Gates are the feature gate settings that break or warn at To
	// (CheckGates).
	Gates []GateFinding
}

// Count returns how many findings have status s.
func (r *ScanReport) Count(s ScanStatus) int {
	n := 0
	for _, f := range r.Findings {
		if f.Status == s {
			n++
		}
	}
	return n
}

// Breaks reports whether an object would not be served in the target.
func (r *ScanReport) Breaks() bool {
	return r.Count(ScanRemoved) > 0 || r.Count(ScanNotYetServed) > 0 || r.Count(ScanNotServed) > 0
}

// Scan checks each object's API version against the target release to:
// removed at or before it, deprecated at or before it and still served,
// or served only after it. An object fine in to gives no finding; one of a
// group, version or kind no release read serves is Unknown, never passed
// as fine. from, when known, is the release the objects run on now.
func (t *APITable) Scan(objs []ManifestObject, from, to Version) *ScanReport {
	r := &ScanReport{From: from, To: to, Objects: len(objs)}
	unserved := map[APIRef]*APILifecycle{} // one made-up lifecycle a type no release serves
	for _, o := range objs {
		l, why, builtin := t.typeOf(o)
		if l == nil && !builtin {
			r.Unknown = append(r.Unknown, ScanUnknown{Object: o, Reason: why})
			continue
		}
		if l == nil {
			l = t.unserved(unserved, o)
		}
		f := ScanFinding{Object: o, API: l, DeprecatedIn: l.Deprecated, RemovedIn: l.Removed}
		switch {
		case l.First.IsZero() && l.Introduced.IsZero() && l.Removed.IsZero() && len(l.Evidence) == 0:
			f.Status = ScanNotServed
		case !l.Removed.IsZero() && !to.Less(l.Removed):
			f.Status = ScanRemoved
		case !l.Introduced.IsZero() && to.Less(l.Introduced):
			f.Status = ScanNotYetServed
		case l.DeprecatedIn(to):
			f.Status = ScanDeprecated
		default:
			continue
		}
		t.advise(&f, from, to)
		r.Findings = append(r.Findings, f)
	}
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.API != b.API {
			return APIRefLess(a.API.API, b.API.API)
		}
		return objectLess(a.Object, b.Object)
	})
	sort.SliceStable(r.Unknown, func(i, j int) bool { return objectLess(r.Unknown[i].Object, r.Unknown[j].Object) })
	return r
}

// advise sets what finding f's object moves to: for a type the target
// serves no longer (or deprecates), its replacement there and the bridge
// a cluster on from takes first; for one the target does not serve yet
// (or no release serves), what the target serves instead.
func (t *APITable) advise(f *ScanFinding, from, to Version) {
	l := f.API
	if f.Status == ScanNotYetServed || f.Status == ScanNotServed {
		if rep, ok := t.ServedInsteadIn(l, to); ok {
			f.Replacement, f.AvailableIn = &rep.API, rep.Introduced
		}
		return
	}
	if ref, rep, ok := t.ReplacementIn(l, to); ok {
		f.Replacement = &ref
		if rep != nil {
			f.AvailableIn = rep.Introduced
		}
		if b, ok := t.Bridge(l, ref, rep); ok && (from.IsZero() || from.Less(f.AvailableIn)) {
			f.Bridge = b
		}
	}
}

// unserved returns the lifecycle that stands for o's type, of a built-in
// group but served by no release read: its name alone, one per type.
func (t *APITable) unserved(seen map[APIRef]*APILifecycle, o ManifestObject) *APILifecycle {
	group, version, _ := ParseAPIVersion(o.APIVersion)
	ref := APIRef{Group: group, Version: version, Kind: o.Kind}
	if l, ok := seen[lowerRef(ref)]; ok {
		return l
	}
	l := &APILifecycle{API: ref}
	seen[lowerRef(ref)] = l
	return l
}

// typeOf finds the type an object is of, or says why it is not built in;
// builtin is true (with l nil) for a version or kind of a built-in group
// that no release read serves.
func (t *APITable) typeOf(o ManifestObject) (l *APILifecycle, why string, builtin bool) {
	group, version, ok := ParseAPIVersion(o.APIVersion)
	if !ok {
		return nil, "its apiVersion is not written like group/version (apps/v1) or a core version (v1)", false
	}
	if why, ok := componentConfig(group); ok { // scan_gates.go
		return nil, why, false
	}
	if !t.BuiltinGroup(group) {
		return nil, SafeValue(groupName(group)) + " is a CustomResourceDefinition's or an aggregated API's group, not built into Kubernetes", false
	}
	if l, ok := t.Lookup(APIRef{Group: group, Version: version, Kind: o.Kind}); ok {
		return l, "", true
	}
	if o.Kind == "" || strings.HasSuffix(o.Kind, "List") {
		return nil, "no Kubernetes release I know serves the kind " + SafeValue(o.Kind) + " in " + SafeValue(o.APIVersion), false
	}
	return nil, "", true
}

// groupName writes a group for a sentence; the core group is "core".
func groupName(g string) string {
	if g == "" {
		return "the core group"
	}
	return g
}

func objectLess(a, b ManifestObject) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Document != b.Document {
		return a.Document < b.Document
	}
	if a.Item != b.Item {
		return a.Item < b.Item
	}
	return strings.Compare(a.Name, b.Name) < 0
}

// Summary writes the report in one line: "14 objects: 2 removed by 1.36,
// 1 deprecated, 3 not built-in."
func (r *ScanReport) Summary() string {
	parts := []string{fmt.Sprintf("%d removed by %s", r.Count(ScanRemoved), r.To), Plural(r.Count(ScanDeprecated), "deprecated", "deprecated")}
	if n := r.Count(ScanNotYetServed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d not served yet in %s", n, r.To))
	}
	if n := r.Count(ScanNotServed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d served by no release", n))
	}
	parts = append(parts, fmt.Sprintf("%d not built-in", len(r.Unknown)))
	return Plural(r.Objects, "object", "objects") + ": " + strings.Join(parts, ", ") + "."
}

// ScanGroup is the findings of one API type and status: what an answer
// says once, with every object that uses it.
type ScanGroup struct {
	API         *APILifecycle
	Status      ScanStatus
	Replacement *APIRef
	AvailableIn Version
	Bridge      *APILifecycle
	Objects     []ManifestObject
}

// GroupFindings gathers findings (as Scan sorts them) by API type and status.
func GroupFindings(fs []ScanFinding) []ScanGroup {
	var out []ScanGroup
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].API == f.API && out[n-1].Status == f.Status {
			out[n-1].Objects = append(out[n-1].Objects, f.Object)
			continue
		}
		out = append(out, ScanGroup{API: f.API, Status: f.Status, Replacement: f.Replacement, AvailableIn: f.AvailableIn, Bridge: f.Bridge,
			Objects: []ManifestObject{f.Object}})
	}
	return out
}

// Heading names the group: "Removed in 1.22: extensions/v1beta1 Ingress".
func (g ScanGroup) Heading() string {
	switch g.Status {
	case ScanRemoved:
		return "Removed in " + g.API.Removed.String() + ": " + g.API.API.String()
	case ScanDeprecated:
		return "Deprecated in " + g.API.Deprecated.String() + ": " + g.API.API.String()
	case ScanNotServed:
		return "Served by no release I know: " + g.API.API.String()
	}
	return "Served only from " + g.API.Introduced.String() + ": " + g.API.API.String()
}

// notYetWords says what a version served only after the target rests on.
func (g ScanGroup) notYetWords(sources map[string]Source) string {
	return "per " + BasisWords(UsedEvidence(g.API, APIIntroduced), sources)
}

// Line says what to do and why, then names the objects: "use
// networking.k8s.io/v1 Ingress (served since 1.19) · removal per the
// migration guide · 3 objects: …".
func (g ScanGroup) Line(t *APITable, objects string, sources map[string]Source) string {
	var parts []string
	use := ""
	if g.Replacement != nil {
		use = "use " + g.Replacement.String()
		if !g.AvailableIn.IsZero() {
			use += " (served since " + g.AvailableIn.String() + ")"
		}
	}
	switch g.Status {
	case ScanNotYetServed:
		if use != "" {
			parts = append(parts, "until "+g.API.Introduced.String()+", "+use)
		}
		parts = append(parts, g.notYetWords(sources))
	case ScanNotServed:
		if use == "" {
			use = "nothing served replaces it"
		}
		rs := t.Releases()
		parts = append(parts, use, "served by no release from "+rs[0].String()+" to "+rs[len(rs)-1].String()+" (the API modules of each) and named by no migration guide")
	default:
		switch {
		case use == "":
			use = "nothing served replaces it"
		case g.Bridge != nil:
			use += BridgeWords(g.API, g.Bridge)
		}
		parts = append(parts, use)
	}
	switch g.Status {
	case ScanRemoved:
		parts = append(parts, "per "+BasisWords(UsedEvidence(g.API, APIRemoved), sources))
	case ScanDeprecated:
		if r := g.API.Removed; !r.IsZero() {
			when := "removed in " + r.String()
			if !t.Reached(r) {
				when = "removal planned for " + r.String()
			}
			parts = append(parts, when)
		}
		parts = append(parts, "per "+BasisWords(UsedEvidence(g.API, APIDeprecated), sources))
	}
	if g.API.Level() == APIAlpha && g.Status != ScanNotServed {
		parts = append(parts, AlphaServing(g.API.API.GroupVersion()))
	}
	return strings.Join(append(parts, objects), " · ")
}

// UnknownGroup is the objects of one apiVersion and kind not built in.
type UnknownGroup struct {
	APIVersion, Kind, Reason string
	Objects                  []ManifestObject
}

// GroupUnknown gathers unknown objects by apiVersion and kind, in the
// order first seen.
func GroupUnknown(us []ScanUnknown) []UnknownGroup {
	var out []UnknownGroup
	at := map[[2]string]int{}
	for _, u := range us {
		k := [2]string{u.Object.APIVersion, u.Object.Kind}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, UnknownGroup{APIVersion: u.Object.APIVersion, Kind: u.Object.Kind, Reason: u.Reason})
		}
		out[i].Objects = append(out[i].Objects, u.Object)
	}
	return out
}

// CheckScanReleases fails with EBADINPUT when a scan's target is not a
// release the API lifecycle knows (none newer than the newest read), or
// from is not older than to.
func CheckScanReleases(t *APITable, from, to Version) error {
	latest := t.Latest()
	switch {
	case to.IsZero():
		return BadInput("scan", "Which release do you go to? Give it first: scan 1.36, then the manifests.")
	case latest.Less(to):
		return &Error{Code: EBADINPUT, Message: fmt.Sprintf("I don't know Kubernetes %s: the newest release my API sources know is %s.", to, latest),
			Suggestions: []string{"scan " + latest.String()}}
	case !from.IsZero() && !from.Less(to):
		return BadInput("scan", "%s is not older than %s: give the release you run first, then the one you go to: scan %s %s.", from, to, to, from)
	}
	return nil
}

// maxValueRunes caps a manifest value an answer repeats.
const maxValueRunes = 100

// SafeValue returns a value read from a manifest (a name, a namespace, an
// apiVersion, a kind, a file or template path) fit to repeat in an
// answer: only letters, digits and . - _ : / are kept, so no markup,
// mention or link can come through, cut at 100 runes with "…".
func SafeValue(s string) string { return keepSafe(s, "", maxValueRunes) }

// keepSafe keeps of s its letters, digits, . - _ : / and the runes of
// extra (never @, <, > or a backtick: no mention, link or markup), at most
// limit of them, then "…".
func keepSafe(s, extra string, limit int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-_:/", r) || strings.ContainsRune(extra, r)) {
			continue
		}
		if n == limit {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
