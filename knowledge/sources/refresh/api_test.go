package refresh

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

var mv = knowledge.MustVersion

// apiOf finds group/version kind among the compiled API lifecycles.
func apiOf(apis []knowledge.APILifecycle, group, version, kind string) *knowledge.APILifecycle {
	for i := range apis {
		if apis[i].API == (knowledge.APIRef{Group: group, Version: version, Kind: kind}) {
			return &apis[i]
		}
	}
	return nil
}

// TestAPILifecycleReadsTheReleasesItLacks: the knowledge holds k8s.io/api
// 1.19 to 1.33 (1.33 at a later patch than the lifecycle names) and 1.37,
// which the lifecycle data does not name yet; a pass fetches 1.34 to 1.36
// alone, merges them into the types held (exactly what merging every
// release gives), leaves 1.37 as it is, and the knowledge then answers
// from them: types only those releases carry are known, and a type 1.34 no
// longer carries is removed there, no longer in 1.37. A second pass asks
// only the tags it fetched, with their ETags, gets 304s and changes
// nothing; the tags held from elsewhere are never asked for.
func TestAPILifecycleReadsTheReleasesItLacks(t *testing.T) {
	u := upstreamtest.Shared(t)
	tags := u.APITags()
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	held := apiReleases(t, u, "1.19", "1.33")
	held[len(held)-1].Tag = "v0.33.99" // a later patch than the lifecycle's 1.33.13
	r137, err := apilifecycle.ReadRelease(os.DirFS(sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", "release-1.37")),
		apilifecycle.APIModule, mv("1.37"), "v0.37.2")
	if err != nil {
		t.Fatal(err)
	}
	held = append(held, r137)
	seedAPI(t, kb, held...)
	apis, _, err := kb.ListAPIs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if l := apiOf(apis, "resource.k8s.io", "v1", "ResourceClaim"); l == nil || l.First != mv("1.37") {
		t.Fatalf("before the pass, resource.k8s.io/v1 ResourceClaim is not first carried by 1.37: %+v", l)
	}
	removedIn := func(l *knowledge.APILifecycle, v knowledge.Version, src string) bool {
		return l != nil && slices.ContainsFunc(l.Evidence, func(e knowledge.APIEvidence) bool {
			return e.Action == knowledge.APIRemoved && e.Basis == knowledge.BasisAbsent && e.Release == v && e.Source == src
		})
	}
	if l := apiOf(apis, "networking.k8s.io", "v1alpha1", "ServiceCIDR"); !removedIn(l, mv("1.37"), "k8s.io/api@v0.37.2") {
		t.Fatalf("before the pass, networking v1alpha1 ServiceCIDR is not gone in 1.37, the next release read: %+v", l)
	}

	rep, err := r.Run(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Applied || rep.Severity() != SeverityNone {
		t.Fatalf("applied %v, severity %d:%s", rep.Applied, rep.Severity(), lines(rep))
	}
	for v := mv("1.19"); v.Less(mv("1.37")); v = v.Next() {
		o := outcome(t, rep, APIName(v))
		path := upstreamtest.APIPath(tags[v])
		n := len(u.Requests(path))
		if v.Less(mv("1.34")) {
			if o.Result != ResultNotModified || !strings.Contains(o.Detail, "the knowledge holds k8s.io/api@v0.") || n != 0 {
				t.Errorf("%s (held): %s, %d requests of %s; want not asked", o.Name, o.Line(), n, path)
			}
			continue
		}
		if o.Result != ResultUpdated || !strings.Contains(o.Detail, "k8s.io/api "+tags[v]+":") || o.Commit == "" || n != 1 {
			t.Errorf("%s: %s, %d requests; want it read once", o.Name, o.Line(), n)
		}
	}
	if o := outcome(t, rep, "api-lifecycle/1.33"); !strings.Contains(o.Detail, "k8s.io/api@v0.33.99") {
		t.Errorf("1.33 is held at a later patch: %s", o.Line())
	}

	c, err := kb.LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	all := append(slices.Clone(held), apiReleases(t, u, "1.34", "1.36")...)
	if diff := cmp.Diff(apilifecycle.Merge(all), c.APITypes); diff != "" {
		t.Errorf("the API types are not those of every release merged (-want +got):\n%s", diff)
	}
	var want []string
	for _, rel := range all {
		want = append(want, rel.SourceID())
	}
	slices.Sort(want)
	if got := apiSourceIDs(c); !slices.Equal(got, want) {
		t.Errorf("API sources %v; want %v", got, want)
	}
	apis, releases, err := kb.ListAPIs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for v := mv("1.19"); !mv("1.37").Less(v); v = v.Next() {
		if !slices.Contains(releases, v) {
			t.Errorf("API releases %v; want every one from 1.19 to 1.37", releases)
			break
		}
	}
	if _, asked := tags[mv("1.37")]; asked || slices.ContainsFunc(rep.Outcomes, func(o Outcome) bool { return o.Name == "api-lifecycle/1.37" }) {
		t.Error("1.37, which the lifecycle does not name, was asked for")
	}
	if l := apiOf(apis, "storagemigration.k8s.io", "v1beta1", "StorageVersionMigration"); l == nil || l.First != mv("1.35") || l.Last != mv("1.37") {
		t.Errorf("storagemigration v1beta1 (first carried by 1.35): %+v", l)
	}
	if l := apiOf(apis, "resource.k8s.io", "v1", "ResourceClaim"); l == nil || l.First != mv("1.34") {
		t.Errorf("resource.k8s.io/v1 ResourceClaim (first carried by 1.34): %+v", l)
	}
	gone := apiOf(apis, "networking.k8s.io", "v1alpha1", "ServiceCIDR")
	if gone == nil || gone.Last != mv("1.33") || !removedIn(gone, mv("1.34"), "k8s.io/api@"+tags[mv("1.34")]) || removedIn(gone, mv("1.37"), "k8s.io/api@v0.37.2") {
		t.Errorf("networking v1alpha1 ServiceCIDR, which 1.34 no longer carries: %+v", gone)
	}
	states, _ := kb.SourceStates(t.Context())
	if st := states["api-lifecycle/1.35"]; st.ETag == "" || !slices.Equal(st.IDs, []string{"k8s.io/api@" + tags[mv("1.35")]}) || st.Commit == "" || !st.Changed.Equal(day0) {
		t.Errorf("api-lifecycle/1.35's state %+v", st)
	}

	// The second pass: conditional requests for the tags fetched, 304s.
	gen := rep.Generation
	clock.Add(time.Hour)
	rep, err = r.Run(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied || rep.Generation != gen {
		t.Errorf("second pass: applied %v, generation %d (was %d)", rep.Applied, rep.Generation, gen)
	}
	for v := mv("1.19"); v.Less(mv("1.37")); v = v.Next() {
		o := outcome(t, rep, APIName(v))
		reqs := u.Requests(upstreamtest.APIPath(tags[v]))
		switch {
		case v.Less(mv("1.34")):
			if len(reqs) != 0 || o.Result != ResultNotModified {
				t.Errorf("%s (held): %s after %d requests", o.Name, o.Line(), len(reqs))
			}
		case len(reqs) != 2 || reqs[0].Get("If-None-Match") != "" || reqs[1].Get("If-None-Match") != states[o.Name].ETag || o.Result != ResultNotModified:
			t.Errorf("%s: %s; If-None-Match of %d requests: %v; want none, then %s", o.Name, o.Line(), len(reqs), reqs, states[o.Name].ETag)
		}
	}
}

// TestAPILifecycleNewerPatchReplacesItsRelease: the knowledge holds 1.36
// at an older patch (v0.36.2) whose markers differ from the latest patch's
// and which carries a kind the latest does not; the lifecycle names
// 1.36.4, so the pass fetches v0.36.4: the older patch's source goes, its
// markers are replaced, its kind is dropped, and the rest is as merging
// the latest patch with every other release gives.
func TestAPILifecycleNewerPatchReplacesItsRelease(t *testing.T) {
	u := upstreamtest.Shared(t)
	tag := u.APITags()[mv("1.36")]
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	rels := apiReleases(t, u, "1.19", "1.36")
	older := apiRelease(t, u, mv("1.36"))
	older.Tag = "v0.36.2"
	gv := groupVersion(t, older, "flowcontrol.apiserver.k8s.io", "v1beta3")
	m := gv.Markers["FlowSchema"]
	realRemoved := m.Removed
	m.Removed = mv("1.99")
	gv.Markers["FlowSchema"] = m
	gv.Kinds = append(gv.Kinds, "Widget")
	seedAPI(t, kb, append(slices.Clone(rels[:len(rels)-1]), older)...)
	apis, _, _ := kb.ListAPIs(t.Context())
	if l := apiOf(apis, "flowcontrol.apiserver.k8s.io", "v1beta3", "Widget"); l == nil {
		t.Fatal("the older patch's Widget is not known before the pass")
	}

	rep, err := r.Run(t.Context(), Options{Only: []string{sources.NameAPILifecycle}})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, "api-lifecycle/1.36"); o.Result != ResultUpdated || !rep.Applied {
		t.Fatalf("1.36: %s", o.Line())
	}
	c, err := kb.LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(apilifecycle.Merge(rels), c.APITypes); diff != "" {
		t.Errorf("the API types are not those of every release with the latest patch (-want +got):\n%s", diff)
	}
	if ids := apiSourceIDs(c); slices.Contains(ids, "k8s.io/api@v0.36.2") || !slices.Contains(ids, "k8s.io/api@"+tag) {
		t.Errorf("API sources %v; want %s in place of v0.36.2", ids, tag)
	}
	apis, _, _ = kb.ListAPIs(t.Context())
	if l := apiOf(apis, "flowcontrol.apiserver.k8s.io", "v1beta3", "Widget"); l != nil {
		t.Errorf("Widget, which only the older patch carried, is still known: %+v", l)
	}
	fs := apiOf(apis, "flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")
	if fs == nil || !slices.ContainsFunc(fs.Evidence, func(e knowledge.APIEvidence) bool {
		return e.Basis == knowledge.BasisMarkers && e.Action == knowledge.APIRemoved && e.Release == realRemoved && e.Source == "k8s.io/api@"+tag
	}) || slices.ContainsFunc(fs.Evidence, func(e knowledge.APIEvidence) bool { return e.Release == mv("1.99") }) {
		t.Errorf("flowcontrol v1beta3 FlowSchema: %+v; want the markers' removal in %s from %s, and no 1.99", fs, realRemoved, tag)
	}
}

// TestAPILifecycleFailuresKeepTheKnowledge: a tag not published answers
// 404, which is no failure; a newer patch that cannot be merged into the
// types held is refused; both leave the knowledge exactly as it was, and
// the refusal backs off.
func TestAPILifecycleFailuresKeepTheKnowledge(t *testing.T) {
	u := upstreamtest.Shared(t)
	path := upstreamtest.APIPath(u.APITags()[mv("1.36")])
	corpusOf := func(kb *store.KnowledgeStore) *knowledge.Corpus {
		c, err := kb.LoadCorpus(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	t.Run("not published", func(t *testing.T) {
		clock := &testClock{now: day0}
		r, kb := newRefresher(t, u, clock, nil)
		seedAPI(t, kb, apiReleases(t, u, "1.19", "1.35")...)
		before := corpusOf(kb)
		good := u.File(path)
		u.Set(path, nil)
		defer u.Set(path, good)
		rep, err := r.Run(t.Context(), Options{Only: []string{sources.NameAPILifecycle}})
		if err != nil {
			t.Fatal(err)
		}
		if o := outcome(t, rep, "api-lifecycle/1.36"); o.Result != ResultNotPublished || o.Severity != SeverityNone || rep.Applied {
			t.Errorf("%s; want not published, nothing applied", o.Line())
		}
		if diff := cmp.Diff(before, corpusOf(kb)); diff != "" {
			t.Errorf("the knowledge changed (-before +after):\n%s", diff)
		}
		states, _ := kb.SourceStates(t.Context())
		if st := states["api-lifecycle/1.36"]; st.Result != ResultNotPublished || st.Failures != 0 || !st.RetryAt.IsZero() {
			t.Errorf("state %+v", st)
		}
	})

	t.Run("a newer patch that cannot be merged", func(t *testing.T) {
		clock := &testClock{now: day0}
		r, kb := newRefresher(t, u, clock, nil)
		// the knowledge holds v0.36.2, which marks flowcontrol v1's types;
		// the latest patch carries them without markers: what the markers
		// become would be those of the newest older release with any,
		// which the merged types do not keep
		older := apiRelease(t, u, mv("1.36"))
		older.Tag = "v0.36.2"
		seedAPI(t, kb, append(apiReleases(t, u, "1.19", "1.35"), older)...)
		good := u.File(path)
		u.Set(path, withoutEntry(t, good, "/flowcontrol/v1/"+apilifecycle.MarkersFile))
		defer u.Set(path, good)
		before := corpusOf(kb)
		rep, err := r.Run(t.Context(), Options{Only: []string{sources.NameAPILifecycle}})
		if err != nil {
			t.Fatal(err)
		}
		o := outcome(t, rep, "api-lifecycle/1.36")
		if o.Result != ResultFailed || o.Severity != SeverityBadInput || !strings.Contains(o.Error, "was refused: cannot be merged into the API types known") ||
			!strings.Contains(o.Error, "FlowSchema") || rep.Applied {
			t.Errorf("%s (severity %d); want it refused, nothing applied", o.Line(), o.Severity)
		}
		if diff := cmp.Diff(before, corpusOf(kb)); diff != "" {
			t.Errorf("the knowledge changed (-before +after):\n%s", diff)
		}
		states, _ := kb.SourceStates(t.Context())
		st := states["api-lifecycle/1.36"]
		if d := st.RetryAt.Sub(day0); st.Failures != 1 || !st.FailingSince.Equal(day0) || st.ETag != "" || d < 5*time.Minute || d > 7*time.Minute {
			t.Errorf("state %+v; want one failure, no ETag, the next try in about 6 minutes (a tenth of the interval)", st)
		}
		n := len(u.Requests(path))
		clock.Add(time.Minute)
		rep, _ = r.Run(t.Context(), Options{Only: []string{sources.NameAPILifecycle}})
		if o := outcome(t, rep, "api-lifecycle/1.36"); o.Result != ResultWaiting || len(u.Requests(path)) != n {
			t.Errorf("during the backoff: %s, %d requests (were %d)", o.Line(), len(u.Requests(path)), n)
		}
	})
}

// TestAPILifecycleOnly: Only selects one release's source by name, or every
// release's by the group's name, and nothing else; a token in the URL's
// query reaches the server but is never reported or stored.
func TestAPILifecycleOnly(t *testing.T) {
	u := upstreamtest.Shared(t)
	tags := u.APITags()
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, func(c *Config) { c.URLs[sources.SettingAPILifecycle] += "?token=sekrit" })
	seedAPI(t, kb, apiReleases(t, u, "1.19", "1.33")...)

	rep, err := r.Run(t.Context(), Options{Only: []string{"api-lifecycle/1.35"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Name != "api-lifecycle/1.35" || rep.Outcomes[0].Result != ResultUpdated {
		t.Errorf("--only api-lifecycle/1.35:%s", lines(rep))
	}
	if n := len(u.Requests(upstreamtest.APIPath(tags[mv("1.34")]))); n != 0 {
		t.Errorf("1.34 asked %d times", n)
	}

	clock.Add(time.Hour)
	rep, err = r.Run(t.Context(), Options{Only: []string{sources.NameAPILifecycle}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rep.Outcomes {
		got[o.Name] = o.Result
		if strings.Contains(o.URL, "sekrit") || strings.Contains(o.Line(), "sekrit") {
			t.Errorf("the token was reported: %s", o.URL)
		}
		if !strings.HasPrefix(o.Name, sources.NameAPILifecycle+"/") {
			t.Errorf("--only api-lifecycle asked %s", o.Name)
		}
	}
	if len(got) != len(tags) || got["api-lifecycle/1.34"] != ResultUpdated || got["api-lifecycle/1.35"] != ResultNotModified ||
		got["api-lifecycle/1.36"] != ResultUpdated || got["api-lifecycle/1.19"] != ResultNotModified {
		t.Errorf("--only api-lifecycle: %v", got)
	}
	states, _ := kb.SourceStates(t.Context())
	for name, st := range states {
		if strings.Contains(st.URL, "sekrit") {
			t.Errorf("%s's state keeps the token: %s", name, st.URL)
		}
	}
	if st := states["api-lifecycle/1.36"]; st.URL != u.URL+upstreamtest.APIPath(tags[mv("1.36")]) {
		t.Errorf("1.36's URL %q", st.URL)
	}
}

// TestLatestAPITags reads the tags to ask for from lifecycle records.
func TestLatestAPITags(t *testing.T) {
	got := latestAPITags([]knowledge.Lifecycle{
		{Release: mv("1.18"), Latest: "1.18.20"},     // before the markers
		{Release: mv("1.30"), Latest: "1.30.14"},     // a patch
		{Release: mv("1.30"), Latest: "1.30.9"},      // an older record of it
		{Release: mv("1.31"), Latest: "1.31.0"},      // the minor release itself
		{Release: mv("1.32"), Latest: ""},            // no patch named
		{Release: mv("1.33"), Latest: "1.34.2"},      // another release's
		{Release: mv("1.35"), Latest: "1.35.x"},      // not a number
		{Release: mv("1.36"), Latest: " 1.36.4\n"},   // spaces
		{Release: mv("1.37"), Latest: "1.37.0-rc.1"}, // a pre-release
	})
	var s []string
	for _, t := range got {
		s = append(s, t.String())
	}
	if want := []string{"v0.30.14", "v0.31.0", "v0.36.4"}; !slices.Equal(s, want) {
		t.Errorf("latestAPITags = %v; want %v", s, want)
	}
	held := heldAPI([]knowledge.Source{
		{ID: "k8s.io/api@v0.30.13", Kind: knowledge.SourceAPILifecycle},
		{ID: "k8s.io/api@v0.31.0-rc.1", Kind: knowledge.SourceAPILifecycle},
		{ID: "k8s.io/api@v0.36", Kind: knowledge.SourceAPILifecycle}, // tag unknown
		{ID: "k8s.io/kube-aggregator@v0.36.9", Kind: knowledge.SourceAPILifecycle},
	})
	for _, tc := range []struct {
		want    apiTag
		covered bool
	}{
		{apiTag{release: mv("1.30"), patch: 14}, false},
		{apiTag{release: mv("1.30"), patch: 13}, true},
		{apiTag{release: mv("1.30"), patch: 2}, true},
		{apiTag{release: mv("1.31"), patch: 0}, false}, // rc.1 comes before v0.31.0
		{apiTag{release: mv("1.36"), patch: 4}, false},
	} {
		h, ok := held[tc.want.release]
		if got := ok && h.tag.covers(tc.want); got != tc.covered {
			t.Errorf("held %+v covers %s = %v; want %v", h, tc.want, got, tc.covered)
		}
	}
}

// withoutEntry rewrites a .tar.gz without the entries whose name ends in
// suffix.
func withoutEntry(t *testing.T, tgz []byte, suffix string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	dropped := 0
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(hdr.Name, suffix) {
			dropped++
			continue
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(tw, tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if dropped != 1 {
		t.Fatalf("%d entries end in %s; want one", dropped, suffix)
	}
	return buf.Bytes()
}

func groupVersion(t *testing.T, r *apilifecycle.Release, group, version string) *apilifecycle.GroupVersion {
	t.Helper()
	for i := range r.APIs {
		if r.APIs[i].Group == group && r.APIs[i].Version == version {
			return &r.APIs[i]
		}
	}
	t.Fatalf("%s has no %s/%s", r.Release, group, version)
	return nil
}
