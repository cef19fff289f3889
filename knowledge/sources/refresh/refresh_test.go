package refresh

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

var day0 = time.Date(2031, 2, 3, 4, 0, 0, 0, time.UTC)

// TestRunReadsEverySourceThenAsksIfAnythingChanged: a first pass over a
// new database reads every source (the releases known from the built-in
// snapshot, then the next until two in a row are missing; k8s.io/api's
// releases unless the snapshot holds their tags, see api_test.go), the
// second asks each with its ETag and changes nothing.
func TestRunReadsEverySourceThenAsksIfAnythingChanged(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	rep, err := r.Run(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Applied || rep.Severity() != SeverityNone {
		t.Fatalf("first pass: applied %v, severity %d:%s", rep.Applied, rep.Severity(), lines(rep))
	}
	for _, name := range []string{sources.NameKEPYAML, sources.NameLifecycle, sources.NamePatches, "release-notes/1.25", "release-notes/1.36", "release-page/1.36"} {
		if o := outcome(t, rep, name); o.Result != ResultUpdated {
			t.Errorf("%s: %s", name, o.Line())
		}
	}
	for _, name := range []string{"release-notes/1.37", "release-notes/1.38", "release-page/1.38"} {
		if o := outcome(t, rep, name); o.Result != ResultNotPublished || o.Severity != SeverityNone {
			t.Errorf("%s: %s; want not published", name, o.Line())
		}
	}
	if c := countsBut(rep, sources.NameAPILifecycle+"/"); c[ResultUpdated] != 28 {
		t.Errorf("results %v; want 28 sources read (kep.yaml, lifecycle, patches, 12 notes, 12 pages, cves)", c)
	}
	apis := 0
	for _, o := range rep.Outcomes {
		if strings.HasPrefix(o.Name, sources.NameAPILifecycle+"/") {
			apis++
			if o.Result != ResultUpdated && o.Result != ResultNotModified {
				t.Errorf("%s; want it read, or held already", o.Line())
			}
		}
	}
	if want := len(u.APITags()); apis != want {
		t.Errorf("%d API lifecycle sources; want one per release the lifecycle names from 1.19 (%d)", apis, want)
	}
	if st := rep.Stats; st.Changes < 3000 || st.Patches < 500 || st.KEPs < 600 {
		t.Errorf("stats %+v", st)
	}
	gen := rep.Generation

	clock.Add(time.Hour)
	rep, err = r.Run(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Applied || rep.Generation != gen || countsBut(rep, sources.NameAPILifecycle+"/")[ResultNotModified] != 28 || rep.Counts()[ResultNotModified] != 28+apis {
		t.Errorf("second pass: applied %v, generation %d (was %d), results %v", rep.Applied, rep.Generation, gen, rep.Counts())
	}
	reqs := u.Requests("/enhancements.tar.gz")
	if len(reqs) != 2 || reqs[0].Get("If-None-Match") != "" || reqs[1].Get("If-None-Match") == "" {
		t.Errorf("If-None-Match of the tarball: %q, %q", reqs[0].Get("If-None-Match"), reqs[len(reqs)-1].Get("If-None-Match"))
	}
	states, err := kb.SourceStates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st := states[sources.NameKEPYAML]; st.Commit != "64765b4b02389318f2113119dd9e491479f978a0" || st.ETag == "" || !st.Checked.Equal(clock.Now()) || st.Result != ResultNotModified {
		t.Errorf("kep.yaml state %+v", st)
	}
	srcs, _ := kb.ListSources(t.Context())
	for _, s := range srcs {
		if s.Kind == knowledge.SourceKEPYAML && (s.AsOf != "2026-07-24" || s.Commit == "") {
			t.Errorf("kep.yaml source %+v; want the commit and its date from the archive", s)
		}
	}
}

// TestFaultsKeepTheLastGoodKnowledge serves one fault at a time on one
// source: that source fails (or waits), every other source and the
// knowledge stay as they were, and the next pass after the fault recovers.
// The knowledge starts with k8s.io/api up to 1.35, so that the first pass
// reads 1.36's tarball and the faults meet it.
func TestFaultsKeepTheLastGoodKnowledge(t *testing.T) {
	u := upstreamtest.Shared(t)
	const notes = "/releases/release-1.36/release-notes/release-notes-draft.json"
	good := u.File(notes)
	reset := time.Date(2031, 2, 3, 9, 0, 0, 0, time.UTC)
	api := upstreamtest.APIPath(u.APITags()[knowledge.MustVersion("1.36")])
	const apiName = "api-lifecycle/1.36"
	old := apiReleases(t, u, "1.19", "1.35")
	cases := []struct {
		name     string
		path     string
		source   string
		fault    http.HandlerFunc
		body     []byte // instead of a fault: this content
		result   string
		severity int
		says     string
		// hostWide: the fault holds back the host's other sources too (a
		// rate limit is the host's, and every source is served by one)
		hostWide bool
	}{
		{name: "server error", path: notes, source: "release-notes/1.36", result: ResultFailed, severity: SeverityFailure, says: "HTTP 500",
			fault: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }},
		{name: "gone: a known release's notes answer 404", path: notes, source: "release-notes/1.36", result: ResultFailed, severity: SeverityFailure, says: "HTTP 404",
			fault: http.NotFound},
		{name: "rate limited", path: "/enhancements.tar.gz", source: sources.NameKEPYAML, result: ResultRateLimited, severity: SeverityFailure, says: "rate limited until 2031-02-03T09:00:00Z",
			hostWide: true, fault: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
				w.WriteHeader(http.StatusForbidden)
			}},
		{name: "connection reset mid-body", path: notes, source: "release-notes/1.36", result: ResultFailed, severity: SeverityFailure, says: "could not fetch it",
			fault: resetAfterAThird(good)},
		{name: "truncated archive", path: "/enhancements.tar.gz", source: sources.NameKEPYAML, result: ResultFailed, severity: SeverityBadInput, says: "was refused: read kep.yaml tarball",
			body: nil},
		{name: "invalid JSON", path: notes, source: "release-notes/1.36", result: ResultFailed, severity: SeverityBadInput, says: "was refused",
			body: []byte(`{"123": {"pr_number": 123, "text": "cut here`)},
		{name: "slow server beyond the timeout", path: "/lifecycle/kubernetes.md", source: sources.NameLifecycle, result: ResultFailed, severity: SeverityFailure, says: "timed out",
			fault: func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			}},
		{name: "huge body beyond the cap", path: "/patches/kubernetes.json", source: sources.NamePatches, result: ResultFailed, severity: SeverityBadInput, says: "over the cap",
			fault: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK)
				chunk := bytes.Repeat([]byte(" "), 1<<20)
				for range 40 {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			}},
		// k8s.io/api's tarball of a release meets the same faults
		{name: "api: server error", path: api, source: apiName, result: ResultFailed, severity: SeverityFailure, says: "HTTP 500",
			fault: func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }},
		{name: "api: rate limited", path: api, source: apiName, result: ResultRateLimited, severity: SeverityFailure, says: "rate limited until 2031-02-03T09:00:00Z",
			fault: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-RateLimit-Remaining", "0")
				w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
				w.WriteHeader(http.StatusForbidden)
			}},
		{name: "api: connection reset mid-body", path: api, source: apiName, result: ResultFailed, severity: SeverityFailure, says: "could not fetch it",
			fault: resetAfterAThird(u.File(api))},
		{name: "api: truncated archive", path: api, source: apiName, result: ResultFailed, severity: SeverityBadInput, says: "was refused: read module tarball",
			body: u.File(api)[:len(u.File(api))/2]},
		{name: "api: invalid content", path: api, source: apiName, result: ResultFailed, severity: SeverityBadInput, says: "was refused: no API package found",
			body: upstreamtest.PackAPIRelease(t, t.TempDir(), "v0.36.4", day0)},
		{name: "api: slow server beyond the timeout", path: api, source: apiName, result: ResultFailed, severity: SeverityFailure, says: "timed out",
			fault: func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			}},
		{name: "api: huge archive beyond the cap", path: api, source: apiName, result: ResultFailed, severity: SeverityBadInput, says: "over the cap",
			fault: hugeTarGz("api-0.36.4/testdata/blob", 40<<20)},
	}
	tune := func(c *Config) {
		c.Fetch.Timeout = 2 * time.Second
		c.Fetch.MaxBytes = 32 << 20
	}
	// The first, good pass reads every source; it is the same for every
	// case, so it runs once and each case starts from a copy of its file.
	seeded := filepath.Join(t.TempDir(), "seeded.db")
	func() {
		db, err := store.Open(seeded, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		r := refresherOver(t, db.Knowledge(), u, &testClock{now: day0}, tune)
		seedAPI(t, db.Knowledge(), old...)
		if rep, err := r.Run(t.Context(), Options{}); err != nil {
			t.Fatal(err)
		} else if o := outcome(t, rep, apiName); o.Result != ResultUpdated {
			t.Fatalf("the first pass did not read k8s.io/api 1.36: %s", o.Line())
		}
	}()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := &testClock{now: day0}
			r, kb := refresherFromCopy(t, seeded, u, clock, tune)
			before := snapshotOf(t, kb)
			if tc.name == "truncated archive" {
				tarball := u.File(tc.path)
				tc.body = tarball[:len(tarball)/2]
			}
			old := u.File(tc.path)
			if tc.body != nil {
				u.Set(tc.path, tc.body)
				defer u.Set(tc.path, old)
			} else {
				u.Fault(tc.path, tc.fault)
				defer u.Fault(tc.path, nil)
			}
			// a change elsewhere must still be applied in the same pass
			page := "/releases/release-1.35/README.md"
			oldPage := u.File(page)
			u.Set(page, bytes.Replace(oldPage, []byte("# Timbernetes v1.35"), []byte("# Timbernetes v1.35 - Renamed In Test"), 1))
			defer u.Set(page, oldPage)

			clock.Add(time.Hour)
			asked := u.Total()
			rep, err := r.Run(t.Context(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			o := outcome(t, rep, tc.source)
			if o.Result != tc.result || o.Severity != tc.severity || !strings.Contains(o.Error, tc.says) {
				t.Errorf("%s: %s (severity %d); want %s, severity %d, saying %q", tc.source, o.Line(), o.Severity, tc.result, tc.severity, tc.says)
			}
			switch p := outcome(t, rep, "release-page/1.35"); {
			case tc.hostWide && (p.Result != ResultSkipped || p.Requests != 0 || u.Total() != asked+1):
				t.Errorf("the host's other sources were asked after its rate limit (%d requests in the pass): %s", u.Total()-asked, p.Line())
			case !tc.hostWide && p.Result != ResultUpdated:
				t.Errorf("the other sources did not update: %s", p.Line())
			}
			after := snapshotOf(t, kb)
			if after.parts[tc.source] != before.parts[tc.source] {
				t.Errorf("%s's part of the knowledge changed though it failed", tc.source)
			}
			if tc.result == ResultRateLimited && !o.RetryAt.Equal(reset) {
				t.Errorf("retry at %v; want the rate limit's reset %v", o.RetryAt, reset)
			}
			states, _ := kb.SourceStates(t.Context())
			st := states[tc.source]
			if st.Failures != 1 || !st.FailingSince.Equal(clock.Now()) || st.RetryAt.IsZero() {
				t.Errorf("state %+v; want one failure since now and a time to retry", st)
			}

			// Before the retry time, an ordinary pass waits; the fault gone,
			// the next pass after it recovers.
			rep, _ = r.Run(t.Context(), Options{})
			if w := outcome(t, rep, tc.source); w.Result != ResultWaiting && w.Result != ResultRateLimited {
				t.Errorf("a pass during the backoff asked %s: %s", tc.source, w.Line())
			}
			u.Fault(tc.path, nil)
			u.Set(tc.path, old)
			clock.Add(6 * time.Hour)
			rep, err = r.Run(t.Context(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if o := outcome(t, rep, tc.source); o.Result != ResultNotModified && o.Result != ResultUpdated {
				t.Errorf("after the fault: %s", o.Line())
			}
			states, _ = kb.SourceStates(t.Context())
			if st := states[tc.source]; st.Failures != 0 || !st.FailingSince.IsZero() {
				t.Errorf("after recovery, state %+v", st)
			}
		})
	}
}

// knowledgeParts is what each source gave the stored corpus, as text.
type knowledgeParts struct {
	parts map[string]string
}

// snapshotOf reads the stored corpus and groups it by the source that
// gave it, so a test can tell one source's part changed.
func snapshotOf(t *testing.T, kb *store.KnowledgeStore) knowledgeParts {
	t.Helper()
	c, err := kb.LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	states, err := kb.SourceStates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	out := knowledgeParts{parts: map[string]string{}}
	for name, st := range states {
		var b strings.Builder
		for _, id := range st.IDs {
			part := c.Without(otherIDs(c, id)...)
			for _, s := range part.Sources {
				b.WriteString(s.ID + s.AsOf + s.Commit)
			}
			b.WriteString(strconv.Itoa(len(part.KEPs)) + "/" + strconv.Itoa(len(part.Changes)) + "/" + strconv.Itoa(len(part.Releases)) +
				"/" + strconv.Itoa(len(part.Lifecycles)) + "/" + strconv.Itoa(len(part.Patches)))
			for _, r := range part.Releases {
				b.WriteString(r.Theme + r.Date)
			}
			for _, at := range c.APITypes { // merged across releases: those whose markers or Last this source gave
				if at.Source == id {
					fmt.Fprintf(&b, "|%+v", at)
				}
			}
		}
		out.parts[name] = b.String()
	}
	return out
}

// resetAfterAThird answers with body's length, sends a third of it and
// drops the connection.
func resetAfterAThird(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/3])
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}
}

// hugeTarGz streams a well-formed .tar.gz, stored without compression, of
// one entry name of size zero bytes: a body that grows past the fetch's
// cap while the archive reads on.
func hugeTarGz(name string, size int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		zw, _ := gzip.NewWriterLevel(w, gzip.NoCompression)
		tw := tar.NewWriter(zw)
		if tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: size}) != nil {
			return
		}
		chunk := make([]byte, 1<<20)
		for n := int64(0); n < size; n += int64(len(chunk)) {
			if _, err := tw.Write(chunk[:min(int64(len(chunk)), size-n)]); err != nil {
				return
			}
		}
		tw.Close()
		zw.Close()
	}
}

func otherIDs(c *knowledge.Corpus, keep string) []string {
	var out []string
	for _, s := range c.Sources {
		if s.ID != keep {
			out = append(out, s.ID)
		}
	}
	return out
}

// TestApplyErrorKeepsTheKnowledge: news that cannot be written leaves the
// pass failed, the knowledge as it was, and no ETag recorded for it, so
// the next pass reads it again.
func TestApplyErrorKeepsTheKnowledge(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	boom := errors.New("disk full")
	calls := 0
	r, kb := newRefresher(t, u, clock, func(c *Config) {
		c.Apply = func(ctx context.Context, write func() error) error {
			calls++
			if calls == 1 {
				return boom
			}
			return write()
		}
	})
	if _, err := r.Run(t.Context(), Options{}); !errors.Is(err, boom) {
		t.Fatalf("Run = %v; want the apply's error", err)
	}
	if g, _ := kb.Generation(t.Context()); g != 0 {
		t.Errorf("generation %d after a failed apply", g)
	}
	rep, err := r.Run(t.Context(), Options{})
	if err != nil || !rep.Applied || outcome(t, rep, sources.NameKEPYAML).Result != ResultUpdated {
		t.Errorf("the next pass: %v%s; want every source read again (no ETag kept from the failed apply)", err, lines(rep))
	}
}

// TestANewReleaseIsFound: when the release after the newest known gets its
// notes upstream, the next pass reads them, and asks for the two after.
func TestANewReleaseIsFound(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	if _, err := r.Run(t.Context(), Options{}); err != nil {
		t.Fatal(err)
	}
	u.Set("/releases/release-1.37/release-notes/release-notes-draft.json", []byte(`{
 "140001": {"pr_number": 140001, "pr_url": "https://github.com/kubernetes/kubernetes/pull/140001", "kinds": ["deprecation"], "sigs": ["node"],
  "text": "Deprecated the `+"`--widget-mode`"+` kubelet flag; it will be removed in 1.40."}}`))
	clock.Add(time.Hour)
	rep, err := r.Run(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, "release-notes/1.37"); o.Result != ResultUpdated || !rep.Applied {
		t.Fatalf("1.37's notes: %s", o.Line())
	}
	for _, name := range []string{"release-notes/1.38", "release-notes/1.39"} {
		if o := outcome(t, rep, name); o.Result != ResultNotPublished {
			t.Errorf("%s: %s", name, o.Line())
		}
	}
	cs, err := kb.FindChanges(t.Context(), knowledge.MustVersion("1.37"))
	if err != nil || len(cs) != 1 || cs[0].PR != 140001 || cs[0].Notice != knowledge.NoticeDeprecation {
		t.Errorf("1.37's entries: %+v, %v", cs, err)
	}
	clock.Add(time.Hour)
	rep, _ = r.Run(t.Context(), Options{})
	if o := outcome(t, rep, "release-notes/1.37"); o.Result != ResultNotModified {
		t.Errorf("1.37 is known now and asked with its ETag: %s", o.Line())
	}
}

// refresherFromCopy is a Refresher over a copy of the bbolt file at
// seeded, with clock.
func refresherFromCopy(t *testing.T, seeded string, u *upstreamtest.Upstream, clock *testClock, tune func(*Config)) (*Refresher, *store.KnowledgeStore) {
	t.Helper()
	data, err := os.ReadFile(seeded)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kb.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return refresherOver(t, db.Knowledge(), u, clock, tune), db.Knowledge()
}
