package knowledge_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

var v = knowledge.MustVersion

// apiCorpus is a small corpus shaped like the real one: three releases of
// k8s.io/api read, their types, and what release notes and the guide say.
func apiCorpus() *knowledge.Corpus {
	src := func(tag string) knowledge.Source {
		return knowledge.Source{ID: knowledge.APISourceID("k8s.io/api", tag), Kind: knowledge.SourceAPILifecycle}
	}
	a31, a32, a33, a34 := src("v0.31.9"), src("v0.32.1"), src("v0.33.2"), src("v0.34.1")
	ref := func(g, ver, k string) knowledge.APIRef { return knowledge.APIRef{Group: g, Version: ver, Kind: k} }
	fc := "flowcontrol.apiserver.k8s.io"
	return &knowledge.Corpus{
		Sources: []knowledge.Source{a31, a32, a33, a34,
			{ID: "notes-1.33", Kind: knowledge.SourceReleaseNotesData},
			{ID: "notes-1.34", Kind: knowledge.SourceReleaseNotesData},
			{ID: "guide", Kind: knowledge.SourceDeprecationGuide},
			{ID: "post", Kind: knowledge.SourceReleaseNote, Lang: "en"},
		},
		APITypes: []knowledge.APIType{
			// Marked removed in 1.32, still carried by every release read.
			{API: ref("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicy"), First: v("1.31"), Last: v("1.34"),
				Introduced: v("1.26"), Deprecated: v("1.29"), Removed: v("1.32"), MarkedIn: v("1.34"), Source: a34.ID},
			{API: ref("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"), First: v("1.31"), Last: v("1.34"), Source: a34.ID},
			// Gone from 1.34's module, marked removed in 1.37.
			{API: ref("resource.k8s.io", "v1alpha3", "DeviceClass"), First: v("1.31"), Last: v("1.33"),
				Introduced: v("1.31"), Deprecated: v("1.34"), Removed: v("1.37"), MarkedIn: v("1.33"), Source: a33.ID},
			{API: ref("resource.k8s.io", "v1alpha3", "DeviceTaintRule"), First: v("1.33"), Last: v("1.34"),
				Introduced: v("1.33"), Deprecated: v("1.36"), Removed: v("1.39"), MarkedIn: v("1.34"), Source: a34.ID},
			// A chain: v1beta2 → v1beta3 → v1.
			{API: ref(fc, "v1beta2", "FlowSchema"), First: v("1.31"), Last: v("1.34"),
				Introduced: v("1.23"), Deprecated: v("1.26"), Removed: v("1.29"), Replacement: &knowledge.APIRef{Group: fc, Version: "v1beta3", Kind: "FlowSchema"}, MarkedIn: v("1.34"), Source: a34.ID},
			{API: ref(fc, "v1beta3", "FlowSchema"), First: v("1.31"), Last: v("1.34"),
				Introduced: v("1.26"), Deprecated: v("1.29"), Removed: v("1.32"), Replacement: &knowledge.APIRef{Group: fc, Version: "v1", Kind: "FlowSchema"}, MarkedIn: v("1.34"), Source: a34.ID},
			{API: ref(fc, "v1", "FlowSchema"), First: v("1.31"), Last: v("1.34"), Source: a34.ID},
			// New in 1.33: its first release bounds its introduction.
			{API: ref("coordination.k8s.io", "v1beta1", "LeaseCandidate"), First: v("1.33"), Last: v("1.34"), Source: a34.ID},
		},
		APIClaims: []knowledge.APIClaim{
			{Action: knowledge.APIRemoved, Release: v("1.33"), GroupVersion: "v1alpha1", Kinds: []string{"ValidatingAdmissionPolicy"}, PR: 129207, Source: "notes-1.33"},
			{Action: knowledge.APIRemoved, Release: v("1.34"), GroupVersion: "resource.k8s.io/v1alpha3", Except: []string{"DeviceTaintRule"}, PR: 132000, Source: "notes-1.34"},
			// The version alone, of a kind no type carries: dropped.
			{Action: knowledge.APIRemoved, Release: v("1.34"), GroupVersion: "v1alpha1", Kinds: []string{"Gizmo"}, PR: 1, Source: "notes-1.34"},
		},
		Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Release: v("1.32"), Source: "guide",
				API: &knowledge.APIChange{GroupVersion: fc + "/v1beta3", Kinds: []string{"FlowSchema"}, ReplacedBy: fc + "/v1", Since: v("1.29")}},
			// A post that says v1beta2 goes in 1.30: the guide does not speak of it, the markers say 1.29.
			{Kind: knowledge.NoticeRemoval, Release: v("1.30"), Source: "post",
				API: &knowledge.APIChange{GroupVersion: fc + "/v1beta2", Kinds: []string{"FlowSchema"}}},
		},
	}
}

func compiledAPIs(t *testing.T) *knowledge.APITable {
	t.Helper()
	k := knowledge.Compile(apiCorpus())
	return knowledge.NewAPITable(k.APIs, k.APIReleases)
}

func lookup(t *testing.T, tab *knowledge.APITable, gv, kind string) *knowledge.APILifecycle {
	t.Helper()
	g, ver, ok := knowledge.ParseAPIVersion(gv)
	if !ok {
		t.Fatalf("bad apiVersion %q", gv)
	}
	l, ok := tab.Lookup(knowledge.APIRef{Group: g, Version: ver, Kind: kind})
	if !ok {
		t.Fatalf("%s %s is not in the table", gv, kind)
	}
	return l
}

func TestCompileAPIsReleaseNotesWinOverMarkers(t *testing.T) {
	tab := compiledAPIs(t)
	l := lookup(t, tab, "admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy")
	if l.Removed != v("1.33") {
		t.Errorf("removed %s; want 1.33 (the 1.33 notes), not the markers' 1.32", l.Removed)
	}
	var used, markers *knowledge.APIEvidence
	for i, e := range l.Evidence {
		if e.Action != knowledge.APIRemoved {
			continue
		}
		switch e.Basis {
		case knowledge.BasisNotes:
			used = &l.Evidence[i]
		case knowledge.BasisMarkers:
			markers = &l.Evidence[i]
		}
	}
	if used == nil || !used.Used || used.PR != 129207 || used.Source != "notes-1.33" {
		t.Errorf("the notes' evidence is %+v; want it used, with PR 129207", used)
	}
	if markers == nil || markers.Used || markers.Release != v("1.32") {
		t.Errorf("the markers' evidence is %+v; want it kept, unused, at 1.32", markers)
	}
	if l.Deprecated != v("1.29") || l.Introduced != v("1.26") {
		t.Errorf("deprecated %s, introduced %s; want the markers' 1.29 and 1.26", l.Deprecated, l.Introduced)
	}
}

func TestCompileAPIsAbsenceBoundsProjectedRemoval(t *testing.T) {
	tab := compiledAPIs(t)
	l := lookup(t, tab, "resource.k8s.io/v1alpha3", "DeviceClass")
	if l.Removed != v("1.34") {
		t.Errorf("removed %s; want 1.34", l.Removed)
	}
	for _, e := range l.Evidence {
		if e.Used && e.Action == knowledge.APIRemoved && (e.Basis != knowledge.BasisNotes || e.PR != 132000) {
			t.Errorf("removal rests on %+v; want the 1.34 notes' PR 132000 (a claim of every kind but DeviceTaintRule)", e)
		}
	}
	keep := lookup(t, tab, "resource.k8s.io/v1alpha3", "DeviceTaintRule")
	if keep.Removed != v("1.39") {
		t.Errorf("DeviceTaintRule removed %s; want the markers' planned 1.39 (the notes except it)", keep.Removed)
	}
	if tab.Reached(keep.Removed) {
		t.Errorf("1.39 counted as reached; the newest release read is %s", tab.Latest())
	}
}

func TestCompileAPIsWithoutDocumentsAbsenceWinsOverLaterMarkers(t *testing.T) {
	c := apiCorpus()
	c.APIClaims = nil
	k := knowledge.Compile(c)
	tab := knowledge.NewAPITable(k.APIs, k.APIReleases)
	if got := lookup(t, tab, "resource.k8s.io/v1alpha3", "DeviceClass").Removed; got != v("1.34") {
		t.Errorf("removed %s; want 1.34, the first release whose module no longer carries it", got)
	}
	if got := lookup(t, tab, "admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy").Removed; got != v("1.32") {
		t.Errorf("without the notes, removed %s; want the markers' 1.32", got)
	}
}

func TestCompileAPIsGuideOverPostAndMarkers(t *testing.T) {
	tab := compiledAPIs(t)
	beta3 := lookup(t, tab, "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
	if beta3.Removed != v("1.32") {
		t.Errorf("v1beta3 removed %s; want 1.32", beta3.Removed)
	}
	beta2 := lookup(t, tab, "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema")
	if beta2.Removed != v("1.30") {
		t.Errorf("v1beta2 removed %s; want the post's 1.30 over the markers' 1.29", beta2.Removed)
	}
	ga := lookup(t, tab, "flowcontrol.apiserver.k8s.io/v1", "FlowSchema")
	if ga.Introduced != v("1.29") {
		t.Errorf("v1 introduced %s; want 1.29, the guide's \"available since\"", ga.Introduced)
	}
}

func TestReplacementInFollowsTheChain(t *testing.T) {
	tab := compiledAPIs(t)
	beta2 := lookup(t, tab, "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema")
	for _, tc := range []struct {
		at   string
		want string
	}{
		{"1.28", "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema"},
		// v1beta3 is deprecated in 1.30 and v1 (since 1.29) is not.
		{"1.30", "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
		{"1.32", "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
		{"1.34", "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	} {
		ref, _, ok := tab.ReplacementIn(beta2, v(tc.at))
		if !ok || ref.String() != tc.want {
			t.Errorf("replacement in %s: %v %v; want %s", tc.at, ref, ok, tc.want)
		}
	}
	vap := lookup(t, tab, "admissionregistration.k8s.io/v1alpha1", "ValidatingAdmissionPolicy")
	if ref, _, ok := tab.ReplacementIn(vap, v("1.34")); !ok || ref.String() != "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy" {
		t.Errorf("a type without a replacement marker: %v %v; want the served version of its group and kind", ref, ok)
	}
	dc := lookup(t, tab, "resource.k8s.io/v1alpha3", "DeviceClass")
	if ref, _, ok := tab.ReplacementIn(dc, v("1.34")); ok {
		t.Errorf("DeviceClass has no replacement the table knows; got %v", ref)
	}
}

func TestCompileAPIsClaimsOfUnknownGroupsAreDropped(t *testing.T) {
	tab := compiledAPIs(t)
	for _, l := range tab.Kind("Gizmo") {
		t.Errorf("a claim whose group could not be told made %v", l.API)
	}
}

func TestCompileAPIsPresenceBoundsIntroduction(t *testing.T) {
	tab := compiledAPIs(t)
	if got := lookup(t, tab, "coordination.k8s.io/v1beta1", "LeaseCandidate").Introduced; got != v("1.33") {
		t.Errorf("introduced %s; want 1.33, its module's first release (1.31 was read)", got)
	}
	if got := lookup(t, tab, "admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy").Introduced; !got.IsZero() {
		t.Errorf("introduced %s; want unknown: it is in the oldest release read", got)
	}
	if diff := cmp.Diff([]knowledge.Version{v("1.31"), v("1.32"), v("1.33"), v("1.34")}, tab.Releases()); diff != "" {
		t.Errorf("releases read (-want +got):\n%s", diff)
	}
}

func TestServedAndDeprecatedIn(t *testing.T) {
	tab := compiledAPIs(t)
	beta3 := lookup(t, tab, "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
	for _, tc := range []struct {
		at                 string
		served, deprecated bool
	}{
		{"1.25", false, false}, {"1.26", true, false}, {"1.29", true, true}, {"1.31", true, true}, {"1.32", false, false},
	} {
		if got := beta3.ServedIn(v(tc.at)); got != tc.served {
			t.Errorf("served in %s: %v; want %v", tc.at, got, tc.served)
		}
		if got := beta3.DeprecatedIn(v(tc.at)); got != tc.deprecated {
			t.Errorf("deprecated in %s: %v; want %v", tc.at, got, tc.deprecated)
		}
	}
}

func TestCompareAPIVersions(t *testing.T) {
	order := []string{"v1alpha1", "v1alpha2", "v1beta1", "v1beta3", "v1", "v2alpha1", "v2beta2", "v2", "v10"}
	for i := range order {
		for j := range order {
			got := knowledge.CompareAPIVersions(order[i], order[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("CompareAPIVersions(%s, %s) = %d; want %d", order[i], order[j], got, want)
			}
		}
	}
}

func TestParseAPIVersion(t *testing.T) {
	for _, tc := range []struct {
		in         string
		group, ver string
		ok         bool
	}{
		{"apps/v1", "apps", "v1", true},
		{"v1", "", "v1", true},
		{"networking.k8s.io/v1beta1", "networking.k8s.io", "v1beta1", true},
		{"resource.k8s.io/v1alpha3", "resource.k8s.io", "v1alpha3", true},
		{"", "", "", false},
		{"/v1", "", "", false},
		{"apps/", "", "", false},
		{"apps/v1/x", "", "", false},
		{"apps/1", "", "", false},
		{"apps/v0", "", "", false},
		{"apps/v1beta", "", "", false},
		{"apps/v1beta01", "", "", false},
		{"apps/v1gamma1", "", "", false},
	} {
		g, ver, ok := knowledge.ParseAPIVersion(tc.in)
		if g != tc.group || ver != tc.ver || ok != tc.ok {
			t.Errorf("ParseAPIVersion(%q) = %q, %q, %v; want %q, %q, %v", tc.in, g, ver, ok, tc.group, tc.ver, tc.ok)
		}
	}
}
