package apilifecycle_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
)

// sharedReleases reads every release of the api-lifecycle data one by one:
// k8s.io/api 1.19 to 1.37 (tagged v0.N.0 here: the tag only names the
// source), then the two other modules' 1.37.
func sharedReleases(t *testing.T) []*apilifecycle.Release {
	t.Helper()
	dir := sharedtest.Path(t, "data", "api-lifecycle")
	var out []*apilifecycle.Release
	for n := 19; n <= 37; n++ {
		r, err := apilifecycle.ReadRelease(os.DirFS(filepath.Join(dir, "k8s.io-api", fmt.Sprintf("release-1.%d", n))),
			apilifecycle.APIModule, knowledge.Version{Major: 1, Minor: n}, fmt.Sprintf("v0.%d.0", n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	for _, mod := range []string{"apiextensions-apiserver", "kube-aggregator"} {
		r, err := apilifecycle.ReadRelease(os.DirFS(filepath.Join(dir, mod, "release-1.37")), "k8s.io/"+mod, v("1.37"), "v0.37.2")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestMergeIntoEqualsMerge: taking any one release out of the shared data,
// merging the rest and then that one with MergeInto gives what Merge gives
// for all of them: the newest release (1.37, extending Last), the oldest
// (1.19, extending First) and every one between.
func TestMergeIntoEqualsMerge(t *testing.T) {
	all := sharedReleases(t)
	want := apilifecycle.Merge(all)
	for i, r := range all {
		if r.Module != apilifecycle.APIModule {
			continue
		}
		rest := slices.Delete(slices.Clone(all), i, i+1)
		before := apilifecycle.Merge(rest)
		kept := slices.Clone(before)
		got, err := apilifecycle.MergeInto(before, r)
		if err != nil {
			t.Fatalf("%s: %v", r.Release, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Merge(all but %s) then MergeInto(%s) differs from Merge(all) (-want +got):\n%s", r.Release, r.Release, diff)
		}
		if diff := cmp.Diff(kept, before); diff != "" {
			t.Fatalf("MergeInto changed its input (-before +after):\n%s", diff)
		}
	}
}

// TestMergeIntoNewerPatch: a newer patch of a minor merged before replaces
// that minor's markers and drops the types only the older patch carried;
// the result is what Merge gives with the newer patch in place of the
// older.
func TestMergeIntoNewerPatch(t *testing.T) {
	all := sharedReleases(t)
	i := slices.IndexFunc(all, func(r *apilifecycle.Release) bool {
		return r.Release == v("1.37") && r.Module == apilifecycle.APIModule
	})
	newer := all[i]
	newer.Tag = "v0.37.2"
	// the older patch: a marker that differs, and a kind the newer lacks
	older := cloneRelease(newer)
	older.Tag = "v0.37.1"
	fs := ref("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
	gv := gvOf(t, older, fs.Group, fs.Version)
	m := gv.Markers["FlowSchema"]
	realRemoved := m.Removed
	m.Removed = v("1.99")
	gv.Markers["FlowSchema"] = m
	gv.Kinds = append(gv.Kinds, "Widget")

	withOlder := slices.Clone(all)
	withOlder[i] = older
	before := apilifecycle.Merge(withOlder)
	got, err := apilifecycle.MergeInto(before, newer)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(apilifecycle.Merge(all), got); diff != "" {
		t.Errorf("MergeInto(newer patch) differs from Merge with it (-want +got):\n%s", diff)
	}
	c := &knowledge.Corpus{APITypes: got}
	if ft := typeOf(t, c, fs.Group, fs.Version, fs.Kind); ft.Removed != realRemoved || ft.Source != "k8s.io/api@v0.37.2" || ft.MarkedIn != v("1.37") {
		t.Errorf("FlowSchema v1beta3 %+v; want removed %s per k8s.io/api@v0.37.2", ft, realRemoved)
	}
	for _, at := range got {
		if at.API.Kind == "Widget" {
			t.Errorf("Widget, which only the older patch carried, is still there: %+v", at)
		}
		if at.Source == "k8s.io/api@v0.37.1" {
			t.Errorf("%s still names the older patch", at.API)
		}
	}
}

// TestMergeIntoRules spells the rules out on small releases.
func TestMergeIntoRules(t *testing.T) {
	const g = "example.k8s.io"
	mk := func(minor int, tag string, kinds map[string]apilifecycle.Markers, version string) *apilifecycle.Release {
		gv := apilifecycle.GroupVersion{Group: g, Version: version, Dir: "example/" + version, Markers: map[string]apilifecycle.Markers{}}
		for k, m := range kinds {
			gv.Kinds = append(gv.Kinds, k)
			if !m.IsZero() {
				gv.Markers[k] = m
			}
		}
		slices.Sort(gv.Kinds)
		return &apilifecycle.Release{Module: apilifecycle.APIModule, Tag: tag, Release: knowledge.Version{Major: 1, Minor: minor},
			APIs: []apilifecycle.GroupVersion{gv}}
	}
	marks := func(intro, dep, rem string) apilifecycle.Markers {
		return apilifecycle.Markers{Introduced: v(intro), Deprecated: v(dep), Removed: v(rem)}
	}
	r30 := mk(30, "v0.30.5", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.32", "1.35"), "Plain": {}}, "v1beta1")
	r31 := mk(31, "v0.31.2", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.33", "1.36"), "Plain": {}}, "v1beta1")
	base := apilifecycle.Merge([]*apilifecycle.Release{r30, r31})
	find := func(ts []knowledge.APIType, kind string) knowledge.APIType {
		t.Helper()
		for _, at := range ts {
			if at.API.Kind == kind {
				return at
			}
		}
		t.Fatalf("no %s in %+v", kind, ts)
		return knowledge.APIType{}
	}

	t.Run("newer release extends Last, adds types, takes its markers", func(t *testing.T) {
		r32 := mk(32, "v0.32.0", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.34", "1.37"), "Plain": {}, "Gizmo": marks("1.32", "1.35", "1.38")}, "v1beta1")
		got, err := apilifecycle.MergeInto(base, r32)
		if err != nil {
			t.Fatal(err)
		}
		want := []knowledge.APIType{
			{API: ref(g, "v1beta1", "Gadget"), First: v("1.30"), Last: v("1.32"), Introduced: v("1.29"), Deprecated: v("1.34"), Removed: v("1.37"), MarkedIn: v("1.32"), Source: "k8s.io/api@v0.32.0"},
			{API: ref(g, "v1beta1", "Gizmo"), First: v("1.32"), Last: v("1.32"), Introduced: v("1.32"), Deprecated: v("1.35"), Removed: v("1.38"), MarkedIn: v("1.32"), Source: "k8s.io/api@v0.32.0"},
			{API: ref(g, "v1beta1", "Plain"), First: v("1.30"), Last: v("1.32"), Source: "k8s.io/api@v0.32.0"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("older release extends First and leaves the newer markers", func(t *testing.T) {
		r29 := mk(29, "v0.29.9", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.31", "1.34"), "Plain": {}}, "v1beta1")
		got, err := apilifecycle.MergeInto(base, r29)
		if err != nil {
			t.Fatal(err)
		}
		if at := find(got, "Gadget"); at.First != v("1.29") || at.Last != v("1.31") || at.Deprecated != v("1.33") || at.Source != "k8s.io/api@v0.31.2" {
			t.Errorf("Gadget %+v", at)
		}
		if at := find(got, "Plain"); at.First != v("1.29") || at.Source != "k8s.io/api@v0.31.2" {
			t.Errorf("Plain %+v; want First 1.29 and the source of its Last", at)
		}
	})
	t.Run("newer patch of the same minor replaces its markers", func(t *testing.T) {
		r31b := mk(31, "v0.31.3", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.34", "1.37"), "Plain": {}}, "v1beta1")
		got, err := apilifecycle.MergeInto(base, r31b)
		if err != nil {
			t.Fatal(err)
		}
		if at := find(got, "Gadget"); at.Deprecated != v("1.34") || at.MarkedIn != v("1.31") || at.Source != "k8s.io/api@v0.31.3" || at.First != v("1.30") {
			t.Errorf("Gadget %+v", at)
		}
		if at := find(got, "Plain"); at.Source != "k8s.io/api@v0.31.3" {
			t.Errorf("Plain %+v; want the newer patch as its source", at)
		}
	})
	t.Run("another module is not touched", func(t *testing.T) {
		other := mk(31, "v0.31.2", map[string]apilifecycle.Markers{"Thing": marks("1.30", "1.33", "1.36")}, "v1alpha1")
		other.Module = "k8s.io/kube-aggregator"
		mixed := apilifecycle.Merge([]*apilifecycle.Release{r30, r31, other})
		r31b := mk(31, "v0.31.3", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.33", "1.36"), "Plain": {}}, "v1beta1")
		got, err := apilifecycle.MergeInto(mixed, r31b)
		if err != nil {
			t.Fatal(err)
		}
		if at := find(got, "Thing"); at.Source != "k8s.io/kube-aggregator@v0.31.2" || at.Last != v("1.31") {
			t.Errorf("Thing %+v", at)
		}
	})
	t.Run("refused: a newer patch without the markers the older gave", func(t *testing.T) {
		r31b := mk(31, "v0.31.3", map[string]apilifecycle.Markers{"Gadget": {}, "Plain": {}}, "v1beta1")
		kept := slices.Clone(base)
		got, err := apilifecycle.MergeInto(base, r31b)
		if !errors.Is(err, apilifecycle.ErrNotMergeable) || got != nil {
			t.Errorf("MergeInto = %v, %v; want ErrNotMergeable", got, err)
		}
		if diff := cmp.Diff(kept, base); diff != "" {
			t.Errorf("the input changed (-before +after):\n%s", diff)
		}
	})
	t.Run("refused: a newer patch drops a type its minor bounds", func(t *testing.T) {
		r31b := mk(31, "v0.31.3", map[string]apilifecycle.Markers{"Gadget": marks("1.29", "1.33", "1.36")}, "v1beta1")
		if _, err := apilifecycle.MergeInto(base, r31b); !errors.Is(err, apilifecycle.ErrNotMergeable) {
			t.Errorf("err = %v; want ErrNotMergeable for Plain, whose Last was 1.31", err)
		}
	})
	t.Run("nil release copies", func(t *testing.T) {
		got, err := apilifecycle.MergeInto(base, nil)
		if err != nil || !cmp.Equal(got, base) {
			t.Errorf("MergeInto(base, nil) = %v, %v", got, err)
		}
	})
}

func gvOf(t *testing.T, r *apilifecycle.Release, group, version string) *apilifecycle.GroupVersion {
	t.Helper()
	for i := range r.APIs {
		if r.APIs[i].Group == group && r.APIs[i].Version == version {
			return &r.APIs[i]
		}
	}
	t.Fatalf("%s has no %s/%s", r.Release, group, version)
	return nil
}

// cloneRelease copies r deeply enough to change its kinds and markers.
func cloneRelease(r *apilifecycle.Release) *apilifecycle.Release {
	c := *r
	c.APIs = make([]apilifecycle.GroupVersion, len(r.APIs))
	for i, gv := range r.APIs {
		gv.Kinds = slices.Clone(gv.Kinds)
		ms := make(map[string]apilifecycle.Markers, len(gv.Markers))
		for k, m := range gv.Markers {
			ms[k] = m
		}
		gv.Markers = ms
		c.APIs[i] = gv
	}
	return &c
}
