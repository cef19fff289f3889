package refresh

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources/featuregates"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

// seedGatesThrough replaces kb's knowledge with the snapshot's, its
// feature gates only up to release last.
func seedGatesThrough(t testing.TB, kb *store.KnowledgeStore, last knowledge.Version) {
	t.Helper()
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range snap.Corpus.Sources {
		if s.Kind == knowledge.SourceFeatureGates {
			if v, err := knowledge.ParseVersion(strings.TrimPrefix(s.ID, "feature-gates/")); err == nil && last.Less(v) {
				ids = append(ids, s.ID)
			}
		}
	}
	c := snap.Corpus.Without(ids...)
	k := knowledge.Compile(c)
	k.Corpus = c
	if err := kb.ReplaceKnowledge(t.Context(), k); err != nil {
		t.Fatal(err)
	}
}

// TestFeatureGatesReadsTheNewRelease: a knowledge holding the gates of
// 1.19-1.36 asks the module proxy for 1.37's zips (k8s.io/kubernetes, then
// k8s.io/client-go), dated by the tag's .info, and for 1.38's, which is not
// published; the next pass asks 1.38 alone, never 1.37 again.
func TestFeatureGatesReadsTheNewRelease(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	seedGatesThrough(t, kb, knowledge.MustVersion("1.36"))
	rep, err := r.Run(t.Context(), Options{Only: []string{"feature-gates"}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Applied || rep.Severity() != SeverityNone {
		t.Fatalf("applied %v:%s", rep.Applied, lines(rep))
	}
	for _, tc := range []struct{ name, result string }{
		{"feature-gates/1.37/kubernetes", ResultUpdated}, {"feature-gates/1.37/client-go", ResultUpdated}, {"feature-gates/1.38/kubernetes", ResultNotPublished},
	} {
		if o := outcome(t, rep, tc.name); o.Result != tc.result {
			t.Errorf("%s; want %s", o.Line(), tc.result)
		}
	}
	if n := len(rep.Outcomes); n != 3 {
		t.Errorf("%d sources asked:%s", n, lines(rep))
	}
	gates, reads, err := kb.ListFeatureGates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 19 || reads[18].Release != knowledge.MustVersion("1.37") {
		t.Fatalf("releases read %+v", reads)
	}
	want, err := featuregates.LoadDir(sharedtest.Path(t, "data", "feature-gates"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range gates {
		if _, ok := g.At(knowledge.MustVersion("1.37")); ok {
			n++
		}
	}
	if w := len(want.GateTables[18].Gates); n != w {
		t.Errorf("%d gates declared in 1.37 after the pass; the folder's 1.37 declares %d", n, w)
	}
	srcs, _ := kb.ListSources(t.Context())
	dated := 0
	for _, s := range srcs {
		if strings.HasPrefix(s.ID, "feature-gates/1.37/") {
			dated++
			if s.AsOf != "2026-08-26" {
				t.Errorf("%s as of %q; want the tag's day from the .info", s.ID, s.AsOf)
			}
		}
	}
	if dated != 2 {
		t.Errorf("%d sources of 1.37; want k8s.io/kubernetes' and k8s.io/client-go's", dated)
	}

	clock.Add(time.Hour)
	rep, err = r.Run(t.Context(), Options{Only: []string{"feature-gates"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Name != "feature-gates/1.38/kubernetes" || rep.Applied {
		t.Errorf("second pass:%s; want 1.38 asked alone", lines(rep))
	}
	if n := len(u.Requests(upstreamtest.GatesPath("k8s.io/kubernetes", "v1.37.0", ".zip"))); n != 1 {
		t.Errorf("1.37's zip asked %d times; a tag never changes", n)
	}
}

// TestFeatureGatesFaults: a zip that fails, or is not a zip, keeps the
// knowledge as it was and says so once; a missing .info leaves the date
// unknown, with a warning.
func TestFeatureGatesFaults(t *testing.T) {
	zip := upstreamtest.GatesPath("k8s.io/kubernetes", "v1.37.0", ".zip")
	info := upstreamtest.GatesPath("k8s.io/kubernetes", "v1.37.0", ".info")
	for _, tc := range []struct {
		name     string
		path     string
		fault    http.HandlerFunc
		result   string
		severity int
	}{
		{"server error", zip, func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "oops", http.StatusBadGateway) }, ResultFailed, SeverityFailure},
		{"not a zip", zip, func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("<html>hi</html>")) }, ResultFailed, SeverityBadInput},
		{"no .info", info, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, ResultUpdated, SeverityNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := upstreamtest.Shared(t)
			clock := &testClock{now: day0}
			r, kb := newRefresher(t, u, clock, nil)
			seedGatesThrough(t, kb, knowledge.MustVersion("1.36"))
			gen, _ := kb.Generation(t.Context())
			u.Fault(tc.path, tc.fault)
			rep, err := r.Run(t.Context(), Options{Only: []string{"feature-gates"}})
			if err != nil {
				t.Fatal(err)
			}
			o := outcome(t, rep, "feature-gates/1.37/kubernetes")
			if o.Result != tc.result || o.Severity != tc.severity {
				t.Errorf("%s; want %s, severity %d", o.Line(), tc.result, tc.severity)
			}
			_, reads, _ := kb.ListFeatureGates(t.Context())
			if tc.result == ResultFailed {
				if g, _ := kb.Generation(t.Context()); g != gen+1 && g != gen || len(reads) != 18 {
					t.Errorf("after a failure: %d releases read; want the 18 held", len(reads))
				}
				for _, x := range rep.Outcomes {
					if strings.Contains(x.Name, "client-go") || strings.Contains(x.Name, "1.38") {
						t.Errorf("asked %s after 1.37 failed", x.Name)
					}
				}
				return
			}
			if len(o.Warnings) == 0 || !strings.Contains(strings.Join(o.Warnings, " "), "date is unknown") {
				t.Errorf("warnings %q; want the date said unknown", o.Warnings)
			}
			srcs, _ := kb.ListSources(t.Context())
			for _, s := range srcs {
				if s.ID == "feature-gates/1.37/kubernetes" && s.AsOf != "" {
					t.Errorf("%s as of %q; want unknown", s.ID, s.AsOf)
				}
			}
		})
	}
}

// TestAnInfosRetryAfterHoldsTheHost: the proxy answers 1.37's .info with
// 429 and Retry-After: 7200. The zip read is applied with its date said
// unknown, and the host is held: the same pass asks no other zip of it,
// and its state carries the server's time (the .info's failure was once
// dropped, and the pass went on to client-go and 1.38).
func TestAnInfosRetryAfterHoldsTheHost(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	seedGatesThrough(t, kb, knowledge.MustVersion("1.36"))
	info := upstreamtest.GatesPath("k8s.io/kubernetes", "v1.37.0", ".info")
	u.Fault(info, upstreamtest.TooManyRequests("7200"))
	rep, err := r.Run(t.Context(), Options{Only: []string{"feature-gates"}})
	if err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, "feature-gates/1.37/kubernetes"); o.Result != ResultUpdated {
		t.Errorf("%s; want the zip read applied", o.Line())
	}
	for _, x := range rep.Outcomes {
		if (strings.Contains(x.Name, "client-go") || strings.Contains(x.Name, "1.38")) && x.Requests > 0 {
			t.Errorf("asked %s (%d requests) after the host said to wait", x.Name, x.Requests)
		}
	}
	states, _ := kb.SourceStates(t.Context())
	if h := HostState(states, hostOf(u.URL)); !h.RetryAt.Equal(clock.Now().Add(2*time.Hour)) || h.Result != ResultRateLimited {
		t.Errorf("the host's state %+v; want it held for the 2 h the server gave", h)
	}
}
