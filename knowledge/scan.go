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
}

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

// ManifestRead is what reading manifests gave.
type ManifestRead struct {
	Objects  []ManifestObject
	Problems []ManifestProblem
	// Documents counts the documents read; NotObjects those that are not
	// Kubernetes objects (no apiVersion and kind: a values file).
	Documents, NotObjects int
	// ServerVersion is the release a pasted `kubectl version` names as the
	// server's; zero when none was pasted.
	ServerVersion Version
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
	// served there replaces it) and AvailableIn the release it is served
	// from (zero when unknown: before the oldest release read).
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
	return r.Count(ScanRemoved) > 0 || r.Count(ScanNotYetServed) > 0
}

// Scan checks each object's API version against the target release to:
// removed at or before it, deprecated at or before it and still served,
// or served only after it. An object fine in to gives no finding; one of a
// group, version or kind no release read serves is Unknown, never passed
// as fine. from, when known, is the release the objects run on now.
func (t *APITable) Scan(objs []ManifestObject, from, to Version) *ScanReport {
	r := &ScanReport{From: from, To: to, Objects: len(objs)}
	for _, o := range objs {
		l, why := t.typeOf(o)
		if l == nil {
			r.Unknown = append(r.Unknown, ScanUnknown{Object: o, Reason: why})
			continue
		}
		f := ScanFinding{Object: o, API: l, DeprecatedIn: l.Deprecated, RemovedIn: l.Removed}
		switch {
		case !l.Removed.IsZero() && !to.Less(l.Removed):
			f.Status = ScanRemoved
		case !l.Introduced.IsZero() && to.Less(l.Introduced):
			f.Status = ScanNotYetServed
		case l.DeprecatedIn(to):
			f.Status = ScanDeprecated
		default:
			continue
		}
		if f.Status != ScanNotYetServed {
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

// typeOf finds the type an object is of, or says why it is not built in.
func (t *APITable) typeOf(o ManifestObject) (*APILifecycle, string) {
	group, version, ok := ParseAPIVersion(o.APIVersion)
	if !ok {
		return nil, "its apiVersion is not written like group/version (apps/v1) or a core version (v1)"
	}
	if !t.BuiltinGroup(group) {
		return nil, SafeValue(groupName(group)) + " is a CustomResourceDefinition's or an aggregated API's group, not built into Kubernetes"
	}
	if l, ok := t.Lookup(APIRef{Group: group, Version: version, Kind: o.Kind}); ok {
		return l, ""
	}
	if len(t.GroupVersion(o.APIVersion)) == 0 {
		return nil, "no Kubernetes release I know serves " + SafeValue(o.APIVersion)
	}
	return nil, "no Kubernetes release I know serves the kind " + SafeValue(o.Kind) + " in " + SafeValue(o.APIVersion)
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
	if g.Status != ScanNotYetServed {
		if g.Replacement != nil {
			s := "use " + g.Replacement.String()
			if !g.AvailableIn.IsZero() {
				s += " (served since " + g.AvailableIn.String() + ")"
			}
			if b := g.Bridge; b != nil {
				s += BridgeWords(g.API, b)
			}
			parts = append(parts, s)
		} else {
			parts = append(parts, "nothing served replaces it")
		}
	}
	switch g.Status {
	case ScanNotYetServed:
		parts = append(parts, g.notYetWords(sources))
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
	if g.API.Level() == APIAlpha {
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
func SafeValue(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-_:/", r)) {
			continue
		}
		if n == maxValueRunes {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
