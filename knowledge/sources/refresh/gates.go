package refresh

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/featuregates"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
)

// GatesName is the name of release v's feature gates from module's zip:
// "feature-gates/1.38/kubernetes", "feature-gates/1.38/client-go".
func GatesName(module string, v knowledge.Version) string { return featuregates.ZipSourceID(module, v) }

// gateModules are the modules whose zips give a release's gates:
// k8s.io/kubernetes (its own, the generated list of the server gates,
// kubeadm's) and k8s.io/client-go (its own).
var gateModules = []string{featuregates.KubernetesModule, featuregates.ClientGoModule}

// gateSource is release v's source of module: the module proxy's zip of
// its .0 tag. It is optional: a tag not yet published answers 404.
func gateSource(u URLs, f *sources.Format, module string, v knowledge.Version) source {
	version := gateVersion(module, v)
	url := withQuery(u[f.Remote.Setting], module+"/@v/"+version+".zip")
	return source{name: GatesName(module, v), url: url, format: f, release: v, tag: module + "@" + version, optional: true}
}

// gateVersion is module's version of release v: v1.38.0, v0.38.0.
func gateVersion(module string, v knowledge.Version) string {
	major := "v0."
	if module == featuregates.KubernetesModule {
		major = "v1."
	}
	return major + strconv.Itoa(v.Minor) + ".0"
}

// walkGates asks the module proxy for the code of each release after the
// newest whose feature gates the knowledge holds, oldest first, until one
// is not published yet (at most MaxAhead): k8s.io/kubernetes' zip, then (once that is had)
// k8s.io/client-go's. A release held is never asked again (a tag never
// changes), but for client-go's part of the newest when it is missing.
// With no release's gates held, it starts at the newest release the
// knowledge says is out: older ones come from `bot ingest` of the
// feature-gates data or the built-in snapshot, not from some 20 downloads
// of 20 MB. Each zip is dated by the proxy's .info of its tag (one more
// small request; without it the source's date is unknown).
func (p *pass) walkGates(ctx context.Context, f *sources.Format) error {
	if !p.wantsGroup(f.Name) || ctx.Err() != nil {
		return nil
	}
	u := p.r.cfg.URLs
	c, err := p.apiBase(p.ctx) // the stored corpus's sources, or the snapshot's for a new database
	switch {
	case errors.Is(err, ErrNoCorpus):
		return nil // nothing could be applied; a pass with other news says why
	case err != nil:
		return err
	}
	held := map[string]bool{}
	for _, s := range c.sources {
		held[s.ID] = true
	}
	newest, clientGo := heldGates(held)
	next := newest.Next()
	if newest.IsZero() {
		next = knowledge.ReleasedThrough(&knowledge.Corpus{Sources: c.sources, Lifecycles: c.lifecycles})
		if next.IsZero() {
			return nil // nothing says which release is out: nothing to start from
		}
	} else if !clientGo {
		p.askGate(ctx, gateSource(u, f, featuregates.ClientGoModule, newest))
	}
	last := next
	for range MaxAhead - 1 { // a bounded walk, as walkReleases'
		last = last.Next()
	}
	for ; !last.Less(next); next = next.Next() {
		kube := gateSource(u, f, featuregates.KubernetesModule, next)
		if !p.wanted(kube) {
			return nil
		}
		o, asked := p.probeGate(ctx, kube)
		if !asked || o.Result != ResultUpdated {
			return nil // not published yet, failed, waiting or out of time: the next pass goes on
		}
		p.askGate(ctx, gateSource(u, f, featuregates.ClientGoModule, next))
	}
	return nil
}

// probeGate asks a release's zip the knowledge does not hold yet, as
// probe does (not at all when its host may not be asked or the pass is out
// of time), and dates it as askGate does.
func (p *pass) probeGate(ctx context.Context, src source) (Outcome, bool) {
	if why, _, _ := p.barred(p.gate(src), p.r.cfg.Now()); why != "" || ctx.Err() != nil {
		return Outcome{}, false
	}
	return p.askGate(ctx, src), true
}

// askGate asks one zip and, with its news, dates it from the proxy's
// .info of the tag.
func (p *pass) askGate(ctx context.Context, src source) Outcome {
	o := p.ask(ctx, src)
	got := p.parts[src.name]
	if o.Result != ResultUpdated || got == nil {
		return o
	}
	module, version, _ := strings.Cut(src.tag, "@")
	day, err := p.tagDay(ctx, withQuery(p.r.cfg.URLs[src.format.Remote.Setting], module+"/@v/"+version+".info"))
	if err != nil {
		w := "the tag time could not be read from the proxy (" + err.Error() + "); its date is unknown"
		got.warnings = append(got.warnings, w)
		o.Warnings = append(o.Warnings, w)
		for i := range p.report.Outcomes {
			if p.report.Outcomes[i].Name == src.name {
				p.report.Outcomes[i].Warnings = append(p.report.Outcomes[i].Warnings, w)
			}
		}
		return o
	}
	for i := range got.corpus.Sources {
		got.corpus.Sources[i].AsOf = day
	}
	return o
}

// tagDay reads a module proxy's .info ({"Version":"v1.38.0","Time":...})
// and returns the tag's day: one request, through the same client and the
// same host's gate as the zip (never when the host may not be asked, never
// retried; without it the date stays unknown).
func (p *pass) tagDay(ctx context.Context, url string) (string, error) {
	g := p.gate(source{url: url})
	if why, _, _ := p.barred(g, p.r.cfg.Now()); why != "" {
		return "", errors.New(why)
	}
	g.requests++
	g.touched = true
	resp, err := p.r.client.GetIf(ctx, url, fetch.Conditions{})
	if err != nil {
		g.failed(classify(err), err, p.r.cfg.Now(), p.r.cfg.Interval) // its Retry-After holds the host, as a zip's would
		return "", err
	}
	defer resp.Body.Close()
	b, err := capped.Read(resp.Body, 64<<10)
	if err != nil {
		return "", err
	}
	var info struct{ Time time.Time }
	if err := json.Unmarshal(b, &info); err != nil || info.Time.IsZero() {
		return "", errors.New("not a module version's .info")
	}
	return info.Time.UTC().Format(time.DateOnly), nil
}

// heldGates returns the newest release whose feature gates the knowledge
// holds (zero when none), and whether its client-go gates are held too: a
// release read from the feature-gates data holds them in its one source.
func heldGates(held map[string]bool) (knowledge.Version, bool) {
	var newest knowledge.Version
	var ids []string
	for id := range held {
		rest, ok := strings.CutPrefix(id, string(knowledge.SourceFeatureGates)+"/")
		if !ok {
			continue
		}
		ids = append(ids, id)
		rel, _, _ := strings.Cut(rest, "/")
		if v, err := knowledge.ParseVersion(rel); err == nil && newest.Less(v) {
			newest = v
		}
	}
	if newest.IsZero() {
		return newest, false
	}
	// a release read from the feature-gates data is one source of every module
	clientGo := slices.Contains(ids, featuregates.SourceID(newest)) || slices.Contains(ids, GatesName(featuregates.ClientGoModule, newest))
	return newest, clientGo
}
