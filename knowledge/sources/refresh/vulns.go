package refresh

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/osv"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/store"
)

// maxVulnRecords caps the records one pass downloads: the Kubernetes
// projects' records number under a hundred, so only a first sync from the
// built-in snapshot or a hostile index comes near it; what is left is
// asked for in the next pass.
const maxVulnRecords = 120

// vulnSource is the vulnerability database's one source: its module
// index, <url>/index/modules.json, asked for with a conditional request.
func vulnSource(u URLs, f *sources.Format) source {
	return source{name: f.Name, url: withQuery(u[f.Remote.Setting], osv.IndexPath), format: f}
}

// fetchVulns asks the vulnerability database in two steps: its module
// index (conditional: "not modified" ends it), then, one at a time, each
// record of a Kubernetes-owned module that the index lists and the
// knowledge does not hold at that modified time. The part it returns holds
// every record (those held, with the new and modified ones in their
// place), so it replaces the database's part whole.
//
// An index with nothing new for Kubernetes gives a part without a corpus:
// its validators are kept, the knowledge is left as it is. A record that
// fails ends the walk: when none was read the source fails, and ask's
// restraint (its retries, the host's circuit, the source's backoff) meets
// it as every source's failure; else what was read is applied, the
// failure is a warning, and the index's validators are not kept, so the
// next pass asks for the index again and then for the records still
// missing.
func (p *pass) fetchVulns(ctx context.Context, src source, st store.SourceState, o *Outcome) (*part, error) {
	var cond fetch.Conditions
	if st.URL == src.shown() && p.holds(st) {
		cond = fetch.Conditions{ETag: st.ETag, LastModified: st.LastModified}
	}
	resp, err := p.r.client.GetIf(ctx, src.url, cond)
	if err != nil {
		return nil, err
	}
	if resp.NotModified {
		o.Result = ResultNotModified
		return nil, nil
	}
	body := &counter{r: resp.Body}
	data, err := capped.Read(body, maxDocBytes)
	resp.Body.Close()
	o.Bytes += body.n
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return nil, invalid(fmt.Errorf("the index is over %d MiB; not read", maxDocBytes>>20))
	case err != nil:
		return nil, err
	}
	entries, err := osv.ParseIndex(data)
	if err != nil {
		return nil, invalid(err)
	}
	base, err := p.base(ctx)
	if err != nil {
		return nil, err
	}
	held := map[string]knowledge.Vuln{}
	for _, v := range base.Vulns {
		if v.Source == osv.SourceID {
			held[v.ID] = v
		}
	}
	wanted := newOrModified(entries, held)
	got := &part{etag: resp.ETag, lastModified: resp.LastModified}
	if len(wanted) == 0 {
		got.detail = fmt.Sprintf("the index lists %d records of Kubernetes modules; none is new or modified", len(entries))
		return got, nil
	}
	var fetched []knowledge.Vuln
	var stop error
	for i, e := range wanted {
		if i == maxVulnRecords {
			stop = fmt.Errorf("%d more records left for the next pass (at most %d a pass)", len(wanted)-i, maxVulnRecords)
			break
		}
		v, err := p.fetchRecord(ctx, src, e.ID, o)
		if err != nil {
			if len(fetched) == 0 {
				return nil, fmt.Errorf("record %s: %w", e.ID, err)
			}
			stop = fmt.Errorf("record %s: %w; it and %d more are asked for again next pass", e.ID, err, len(wanted)-i-1)
			if classify(err).host() {
				got.hostErr = err // its Retry-After or circuit holds, though the records read are applied
			}
			break
		}
		fetched = append(fetched, *v)
	}
	if stop != nil {
		got.warnings = append(got.warnings, stop.Error())
		got.etag, got.lastModified = "", "" // the index is read again next pass
	}
	got.corpus = vulnPart(held, fetched, httpDay(resp.LastModified))
	ids := make([]string, len(fetched))
	for i, v := range fetched {
		ids[i] = v.ID
	}
	got.detail = fmt.Sprintf("%s new or modified of %d listed: %s", knowledge.Plural(len(fetched), "record", "records"), len(entries), shortList(ids, 8))
	return got, nil
}

// newOrModified returns the index's entries the knowledge does not hold,
// or holds from before the index's modified time (a copy whose modified is
// a placeholder is older than any), by ID.
func newOrModified(entries []osv.IndexEntry, held map[string]knowledge.Vuln) []osv.IndexEntry {
	var out []osv.IndexEntry
	for _, e := range entries {
		h, ok := held[e.ID]
		if !ok {
			out = append(out, e)
			continue
		}
		t, err := time.Parse(time.RFC3339, h.Modified)
		if err != nil || t.Before(e.Modified) {
			out = append(out, e)
		}
	}
	return out
}

// fetchRecord downloads record id and reads it; the request and the
// bytes count in o and in the host's requests.
func (p *pass) fetchRecord(ctx context.Context, src source, id string, o *Outcome) (*knowledge.Vuln, error) {
	o.Requests++ // the index's request is counted by ask; each record's here, on the same host
	p.gate(src).requests++
	resp, err := p.r.client.Get(ctx, withQuery(p.r.cfg.URLs[src.format.Remote.Setting], osv.RecordPath(id)), "")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body := &counter{r: resp.Body}
	data, err := capped.Read(body, osv.MaxRecordBytes)
	o.Bytes += body.n
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return nil, invalid(fmt.Errorf("over %d KiB; not read", osv.MaxRecordBytes>>10))
	case err != nil:
		return nil, err
	}
	v, err := osv.Parse(osv.RecordPath(id), data)
	if err != nil {
		return nil, invalid(err)
	}
	if v.ID != id {
		return nil, invalid(fmt.Errorf("%s holds record %q", osv.RecordPath(id), v.ID))
	}
	return v, nil
}

// vulnPart is the database's whole part: the records held, with those
// fetched in their place, and the database's Source, as of the index's
// day (else the newest record's).
func vulnPart(held map[string]knowledge.Vuln, fetched []knowledge.Vuln, asOf string) *knowledge.Corpus {
	all := make(map[string]knowledge.Vuln, len(held)+len(fetched))
	for id, v := range held {
		all[id] = v
	}
	for _, v := range fetched {
		all[v.ID] = v
	}
	c := &knowledge.Corpus{}
	newest := ""
	for _, v := range all {
		c.Vulns = append(c.Vulns, v)
		if len(v.Modified) >= 10 {
			newest = max(newest, v.Modified[:10])
		}
	}
	knowledge.SortVulns(c.Vulns)
	if asOf == "" {
		asOf = newest
	}
	c.Sources = []knowledge.Source{osv.Source(asOf, provenance.Stamp{})}
	return c
}

// shortList writes at most n of ids, and how many more.
func shortList(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
