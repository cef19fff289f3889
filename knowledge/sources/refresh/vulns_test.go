package refresh

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/osv"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

// newVuln is a record the fake database publishes during a test: made up
// here, in the form the database writes.
const newVuln = `{
  "schema_version": "1.3.1",
  "id": "GO-2026-9901",
  "modified": "2026-09-01T00:00:00Z",
  "published": "2026-09-01T00:00:00Z",
  "aliases": ["CVE-2026-99901", "GHSA-aaaa-bbbb-cccc"],
  "summary": "Made-up test vulnerability in kube-apiserver in k8s.io/kubernetes",
  "details": "A record written for a test.",
  "affected": [{
    "package": {"name": "k8s.io/kubernetes", "ecosystem": "Go"},
    "ranges": [{"type": "SEMVER", "events": [{"introduced": "1.35.0"}, {"fixed": "1.35.5"}, {"introduced": "1.36.0"}, {"fixed": "1.36.5"}]}]
  }],
  "references": [{"type": "ADVISORY", "url": "https://github.com/advisories/GHSA-aaaa-bbbb-cccc"}],
  "database_specific": {"url": "https://pkg.go.dev/vuln/GO-2026-9901", "review_status": "REVIEWED"}
}`

// recordRequests counts the requests made for records of the fake database.
func recordRequests(u *upstreamtest.Upstream, ids ...string) int {
	n := 0
	for _, id := range ids {
		n += len(u.Requests(upstreamtest.VulnRecordPath(id)))
	}
	return n
}

// sharedVulnIDs are the IDs of the shared copy's records, as the fake
// serves them.
func sharedVulnIDs(t *testing.T, u *upstreamtest.Upstream) []string {
	t.Helper()
	entries, err := osv.ParseIndex(u.File(upstreamtest.VulnIndexPath))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// TestVulnsRefreshAsksOnlyForNewOrModifiedRecords: the first pass reads
// the index and every record of a Kubernetes module (the built-in copy's
// modified times are placeholders, older than any); the next asks the
// index with its ETag and no record; a record published is the one record
// asked for, and so is a record modified; an index that changed for
// another module alone changes nothing.
func TestVulnsRefreshAsksOnlyForNewOrModifiedRecords(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	only := Options{Only: []string{sources.NameCVEs}}
	ids := sharedVulnIDs(t, u)
	if len(ids) != 76 {
		t.Fatalf("the fake lists %d records of Kubernetes modules; want the 76 of the shared copy", len(ids))
	}

	rep, err := r.Run(t.Context(), only)
	if err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultUpdated || !rep.Applied || rep.Stats.Vulns != 76 {
		t.Fatalf("first pass: %s; applied %v, %d records", o.Line(), rep.Applied, rep.Stats.Vulns)
	}
	if n := recordRequests(u, ids...); n != 76 {
		t.Errorf("first pass asked %d record requests; want each of the 76 once", n)
	}
	if n := len(u.Requests("/vulndb/ID/GO-2020-0001.json")); n != 0 {
		t.Errorf("a record of another project's module was asked for %d times", n)
	}
	vs, err := kb.ListVulns(t.Context())
	if err != nil || len(vs) != 76 || vs[0].Modified != "2026-08-21T00:00:00Z" {
		t.Fatalf("stored %d records (%v), first modified %q", len(vs), err, vs[0].Modified)
	}
	gen := rep.Generation

	clock.Add(time.Hour)
	rep, err = r.Run(t.Context(), only)
	if err != nil {
		t.Fatal(err)
	}
	idx := u.Requests(upstreamtest.VulnIndexPath)
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultNotModified || rep.Applied || len(idx) != 2 || idx[1].Get("If-None-Match") == "" {
		t.Errorf("second pass: %s; applied %v; %d index requests, the last with If-None-Match %q", o.Line(), rep.Applied, len(idx), idx[len(idx)-1].Get("If-None-Match"))
	}
	if n := recordRequests(u, ids...); n != 76 {
		t.Errorf("the second pass asked for records (%d requests in all)", n)
	}

	clock.Add(time.Hour)
	u.AddVuln(t, []byte(newVuln), time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))
	rep, err = r.Run(t.Context(), only)
	if err != nil {
		t.Fatal(err)
	}
	o := outcome(t, rep, sources.NameCVEs)
	if o.Result != ResultUpdated || !rep.Applied || rep.Stats.Vulns != 77 || !strings.Contains(o.Detail, "GO-2026-9901") || rep.Generation != gen+1 {
		t.Errorf("a record published: %s; applied %v, %d records, generation %d (was %d)", o.Line(), rep.Applied, rep.Stats.Vulns, rep.Generation, gen)
	}
	if n, m := recordRequests(u, "GO-2026-9901"), recordRequests(u, ids...); n != 1 || m != 76 {
		t.Errorf("the new record was asked %d times, the others %d in all; want 1 and still 76", n, m)
	}

	clock.Add(time.Hour)
	u.AddVuln(t, []byte(strings.Replace(newVuln, `"fixed": "1.36.5"`, `"fixed": "1.36.4"`, 1)), time.Date(2026, 9, 2, 0, 0, 0, 0, time.UTC))
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if n := recordRequests(u, "GO-2026-9901"); n != 2 || !rep.Applied || rep.Stats.Vulns != 77 {
		t.Errorf("a record modified: asked %d times in all, applied %v, %d records", n, rep.Applied, rep.Stats.Vulns)
	}
	vs, _ = kb.ListVulns(t.Context())
	if got := vs[len(vs)-1]; got.ID != "GO-2026-9901" || got.Affected[0].Ranges[0].Events[3].Fixed != "1.36.4" {
		t.Errorf("the modified record was not applied: %+v", got)
	}

	// Another module's news changes the index but nothing of Kubernetes.
	clock.Add(time.Hour)
	u.AddVuln(t, []byte(`{"id":"GO-2026-9902","affected":[{"package":{"name":"golang.org/x/other"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"}]}]}]}`), time.Date(2026, 9, 3, 0, 0, 0, 0, time.UTC))
	gen = rep.Generation
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultNotModified || rep.Applied || recordRequests(u, "GO-2026-9902") != 0 || rep.Generation != gen {
		t.Errorf("another module's news: %s; applied %v, generation %d (was %d)", o.Line(), rep.Applied, rep.Generation, gen)
	}
	clock.Add(time.Hour)
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if idx := u.Requests(upstreamtest.VulnIndexPath); idx[len(idx)-1].Get("If-None-Match") == "" {
		t.Error("the validators of an index with nothing new were not kept: the next pass downloaded it again")
	}
}

// TestVulnsRefreshRestraint: a failing database is met with the restraint
// of every source: its index asked MaxAttempts times in a pass and not
// again while the source backs off, no record asked; a record that fails
// ends the walk, so each attempt asks one record; a record that fails
// after others were read keeps what was read and is asked again, with
// those not yet read, next pass.
func TestVulnsRefreshRestraint(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	only := Options{Only: []string{sources.NameCVEs}}
	ids := sharedVulnIDs(t, u)
	fail := func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) }

	u.Fault(upstreamtest.VulnIndexPath, fail)
	rep, err := r.Run(t.Context(), only)
	if err != nil {
		t.Fatal(err)
	}
	o := outcome(t, rep, sources.NameCVEs)
	if o.Result != ResultFailed || o.RetryAt.IsZero() || len(u.Requests(upstreamtest.VulnIndexPath)) != MaxAttempts || recordRequests(u, ids...) != 0 {
		t.Fatalf("index down: %s; %d index requests, %d record requests", o.Line(), len(u.Requests(upstreamtest.VulnIndexPath)), recordRequests(u, ids...))
	}
	clock.Add(time.Minute)
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultWaiting || len(u.Requests(upstreamtest.VulnIndexPath)) != MaxAttempts {
		t.Errorf("while backing off: %s; %d index requests", o.Line(), len(u.Requests(upstreamtest.VulnIndexPath)))
	}

	// Every record fails: one record an attempt, then the source backs off.
	u.Fault(upstreamtest.VulnIndexPath, nil)
	for _, id := range ids {
		u.Fault(upstreamtest.VulnRecordPath(id), fail)
	}
	clock.Add(4 * time.Hour)
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultFailed || recordRequests(u, ids...) != MaxAttempts || rep.Applied || o.Requests != 2*MaxAttempts {
		t.Errorf("records down: %s; %d record requests, applied %v", o.Line(), recordRequests(u, ids...), rep.Applied)
	}

	// The fifth record fails: four are kept, the rest asked next pass.
	for _, id := range ids {
		u.Fault(upstreamtest.VulnRecordPath(id), nil)
	}
	u.Fault(upstreamtest.VulnRecordPath(ids[4]), fail)
	clock.Add(8 * time.Hour)
	before := recordRequests(u, ids...)
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	o = outcome(t, rep, sources.NameCVEs)
	if o.Result != ResultUpdated || rep.Stats.Vulns < 4 || recordRequests(u, ids...)-before != 5 || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], ids[4]) {
		t.Errorf("one record down: %s (warnings %q); %d records, %d record requests", o.Line(), o.Warnings, rep.Stats.Vulns, recordRequests(u, ids...)-before)
	}
	states, _ := kb.SourceStates(t.Context())
	if st := states[sources.NameCVEs]; st.ETag != "" {
		t.Errorf("the index's ETag %q was kept though records are missing: the next pass would never ask for them", st.ETag)
	}
	u.Fault(upstreamtest.VulnRecordPath(ids[4]), nil)
	clock.Add(time.Hour)
	before = recordRequests(u, ids...)
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if got := recordRequests(u, ids...) - before; got != 72 || rep.Stats.Vulns != 76 {
		t.Errorf("next pass asked %d records (want the 72 not read yet) and holds %d", got, rep.Stats.Vulns)
	}
}

// TestARecordsRetryAfterHoldsTheHost: vuln.go.dev answers the fifth
// record with 429 and Retry-After: 7200. The four records read are
// applied, and the host is held until the time it gave: a pass an hour
// later asks it nothing (the records' partial read once cleared the
// host's state, and the next pass asked 73 requests of it).
func TestARecordsRetryAfterHoldsTheHost(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, kb := newRefresher(t, u, clock, nil)
	only := Options{Only: []string{sources.NameCVEs}}
	ids := sharedVulnIDs(t, u)
	u.Fault(upstreamtest.VulnRecordPath(ids[4]), upstreamtest.TooManyRequests("7200"))
	rep, err := r.Run(t.Context(), only)
	if err != nil {
		t.Fatal(err)
	}
	if o := outcome(t, rep, sources.NameCVEs); o.Result != ResultUpdated || rep.Stats.Vulns < 4 {
		t.Fatalf("a record rate limited: %s, %d records", o.Line(), rep.Stats.Vulns)
	}
	states, _ := kb.SourceStates(t.Context())
	if h := HostState(states, hostOf(u.URL)); !h.RetryAt.Equal(clock.Now().Add(2*time.Hour)) || h.Result != ResultRateLimited {
		t.Fatalf("the host's state %+v; want it held for the 2 h the server gave", h)
	}
	clock.Add(time.Hour)
	before := u.Total()
	if rep, err = r.Run(t.Context(), only); err != nil {
		t.Fatal(err)
	}
	if n := u.Total() - before; n != 0 {
		t.Errorf("%d requests an hour into the server's 2 h: %s", n, outcome(t, rep, sources.NameCVEs).Line())
	}
}
