package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/store"
)

// Store is what a refresh reads and writes; *store.KnowledgeStore is one.
type Store interface {
	store.SourcesReader
	SaveSourceStates(ctx context.Context, states map[string]store.SourceState) error
	ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error
	Generation(ctx context.Context) (uint64, error)
}

// Metrics records what passes do; nil records nothing.
type Metrics interface {
	// Observe records how asking one source went.
	Observe(o Outcome)
	// Generation records the knowledge's generation after a pass.
	Generation(g uint64)
}

// Config is what a Refresher reads from and how.
type Config struct {
	Store Store
	URLs  URLs
	// AllowHosts are hosts to fetch from besides DefaultHosts (a mirror, a
	// test server). Loopback names among them (127.0.0.1, ::1, localhost)
	// may be reached over plain http; every other host only over https.
	AllowHosts []string
	// Fetch tunes the client; its AllowedHosts, LoopbackHosts and
	// PlainHTTPLoopback are set from AllowHosts. Tests set RootCAs.
	Fetch  fetch.Options
	Limits kepyaml.Limits
	// Interval is how often serve refreshes; it sizes the backoff after
	// failures. Zero means an hour.
	Interval time.Duration
	Now      func() time.Time
	// Apply runs write, which replaces the knowledge. Serve wraps it so
	// that answers move to the new knowledge once it is written; nil runs
	// write alone.
	Apply   func(ctx context.Context, write func() error) error
	Metrics Metrics
}

// Refresher runs passes over the registry. It is safe for concurrent use:
// passes never overlap, a second waits for the first.
type Refresher struct {
	cfg    Config
	client *fetch.Client
	mu     sync.Mutex
	// api is what walkAPI read of the stored corpus, kept for passes of the
	// same knowledge generation (held by mu): most passes bring no news,
	// and reading the corpus (or compiling the snapshot) each time to learn
	// that nothing needs fetching cost tens of milliseconds a pass.
	api *apiBase
}

// apiBase is what walkAPI needs of the stored corpus.
type apiBase struct {
	generation uint64
	lifecycles []knowledge.Lifecycle
	sources    []knowledge.Source
	types      []knowledge.APIType // read, never changed
}

// New returns a Refresher for cfg. It fails when the fetch options do.
func New(cfg Config) (*Refresher, error) {
	if cfg.Store == nil {
		return nil, errors.New("refresh: no store")
	}
	cfg.URLs = cfg.URLs.withDefaults()
	if cfg.Interval <= 0 {
		cfg.Interval = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Apply == nil {
		cfg.Apply = func(_ context.Context, write func() error) error { return write() }
	}
	opts := cfg.Fetch
	opts.AllowedHosts = append(append([]string{}, DefaultHosts...), opts.AllowedHosts...)
	for _, h := range cfg.AllowHosts {
		opts.AllowedHosts = append(opts.AllowedHosts, h)
		if fetch.IsLoopbackName(h) {
			opts.LoopbackHosts = append(opts.LoopbackHosts, h)
			opts.PlainHTTPLoopback = true
		}
	}
	if opts.Now == nil {
		opts.Now = cfg.Now
	}
	client, err := fetch.New(opts)
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	return &Refresher{cfg: cfg, client: client}, nil
}

// Close lets go of the client's idle connections.
func (r *Refresher) Close() { r.client.Close() }

// Options change one pass.
type Options struct {
	// Force asks every source now, even one backing off after failures;
	// a server's rate limit is still honoured.
	Force bool
	// Only limits the pass to these sources (sources.NameKEPYAML, "release-notes",
	// "release-page", sources.NameLifecycle, sources.NamePatches, sources.NameAPILifecycle, or one
	// release's NotesName, PageName or APIName); empty means every source.
	Only []string
}

// Run asks every source that is due for news, one at a time, and applies
// what they bring in one transaction with their new states; when nothing
// is new it records the checks alone. A source that fails keeps its part of
// the knowledge and its state says why. Run fails only when the store
// cannot be read or written (the knowledge is then as it was) or ctx ends.
func (r *Refresher) Run(ctx context.Context, opts Options) (*Report, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kb := r.cfg.Store
	p, srcs, err := r.newPass(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := p.walk(ctx, srcs); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := p.apply(ctx); err != nil {
		return nil, err
	}
	if g, err := kb.Generation(ctx); err == nil {
		p.report.Generation = g
		if r.cfg.Metrics != nil {
			r.cfg.Metrics.Generation(g)
		}
	}
	return p.report, nil
}

// newPass reads what a pass starts from: every source's state and the
// sources the knowledge holds now.
func (r *Refresher) newPass(ctx context.Context, opts Options) (*pass, []knowledge.Source, error) {
	kb := r.cfg.Store
	states, err := kb.SourceStates(ctx)
	if err != nil {
		return nil, nil, err
	}
	srcs, err := kb.ListSources(ctx)
	if err != nil {
		return nil, nil, err
	}
	p := &pass{r: r, opts: opts, states: states, held: map[string]bool{}, parts: map[string]*part{}, report: &Report{}}
	for _, s := range srcs {
		p.held[s.ID] = true
	}
	return p, srcs, nil
}

// pass is one Run's work.
type pass struct {
	r      *Refresher
	opts   Options
	states map[string]store.SourceState
	held   map[string]bool // source IDs the knowledge holds now
	parts  map[string]*part
	order  []string // names of parts, in the order asked
	report *Report
	// apiTypes are the API types the knowledge holds with the API
	// lifecycle sources read so far in this pass merged in: each release
	// read is checked against them (see readAPI).
	apiTypes []knowledge.APIType
}

// wanted reports whether the pass's Only lets src be asked.
func (p *pass) wanted(src source) bool {
	if len(p.opts.Only) == 0 {
		return true
	}
	group := src.format.Name // the name of its sources together, for one a release
	return slices.Contains(p.opts.Only, src.name) || (src.name != group && slices.Contains(p.opts.Only, group))
}

// wantsGroup reports whether the pass's Only lets some source of group
// (sources.NameAPILifecycle) be asked: the group, or one of its releases.
func (p *pass) wantsGroup(group string) bool {
	if len(p.opts.Only) == 0 {
		return true
	}
	for _, name := range p.opts.Only {
		if name == group || strings.HasPrefix(name, group+"/") {
			return true
		}
	}
	return false
}

// walk asks the registry's sources (sources.Formats): each format's one
// source, then the releases whose notes are known and the releases after
// them until two in a row have no notes published (see walkReleases), and
// last k8s.io/api's releases (see walkAPI). It fails only when the corpus
// the API sources are worked out from cannot be read.
func (p *pass) walk(ctx context.Context, srcs []knowledge.Source) error {
	var perRelease, perTag []*sources.Format
	for i := range sources.Formats {
		f := &sources.Formats[i]
		switch {
		case f.Remote == nil:
		case f.Remote.Each == sources.EachOnce:
			p.ask(ctx, onceSource(p.r.cfg.URLs, f))
		case f.Remote.Each == sources.EachRelease:
			perRelease = append(perRelease, f)
		case f.Remote.Each == sources.EachAPITag:
			perTag = append(perTag, f)
		case f.Remote.Each == sources.EachVulnIndex:
			p.ask(ctx, vulnSource(p.r.cfg.URLs, f))
		}
	}
	p.walkReleases(ctx, srcs, perRelease)
	for _, f := range perTag {
		if err := p.walkAPI(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// walkReleases asks, for the releases whose notes are known, each of fs'
// sources, and then the releases after them until two in a row have no
// notes (the first of fs) published.
func (p *pass) walkReleases(ctx context.Context, srcs []knowledge.Source, fs []*sources.Format) {
	if len(fs) == 0 {
		return
	}
	u := p.r.cfg.URLs
	stateNames := map[string]bool{}
	for name, st := range p.states {
		stateNames[name] = st.Result != ResultNotPublished
	}
	known := knownNotes(srcs, stateNames)
	for _, v := range known {
		for _, f := range fs {
			p.ask(ctx, releaseSource(u, f, v, false))
		}
	}
	next := FirstNotes
	if len(known) > 0 {
		next = known[len(known)-1].Next()
	}
	for missing := 0; missing < 2 && ctx.Err() == nil; next = next.Next() {
		wanted := false
		for _, f := range fs {
			wanted = wanted || p.wanted(releaseSource(u, f, next, true))
		}
		if !wanted {
			return
		}
		o := p.ask(ctx, releaseSource(u, fs[0], next, true))
		for _, f := range fs[1:] {
			p.ask(ctx, releaseSource(u, f, next, true))
		}
		if o.Result == ResultNotPublished {
			missing++
		} else {
			missing = 0
		}
	}
}

// walkAPI asks, for each release from FirstAPI whose latest patch the
// lifecycle data names (the knowledge's, with this pass's news of it), the
// tarball of k8s.io/api at that tag (1.30.14 is v0.30.14), oldest release
// first. A release whose tag the knowledge holds, or a later patch of it,
// is not asked for (a tag never changes): unless this source read that tag
// itself and keeps the server's validators, when a conditional request
// confirms it as for every source. Releases the lifecycle data does not
// name are left as they are, and so are the other API modules'
// (apiextensions-apiserver's CRD, kube-aggregator's APIService), which
// only `bot ingest` and the snapshot give.
func (p *pass) walkAPI(ctx context.Context, f *sources.Format) error {
	if !p.wantsGroup(f.Name) || ctx.Err() != nil {
		return nil
	}
	c, err := p.apiBase(ctx)
	switch {
	case errors.Is(err, ErrNoCorpus):
		return nil // nothing could be applied; a pass with other news says why
	case err != nil:
		return err
	}
	lcs := c.lifecycles
	if got := p.parts[sources.NameLifecycle]; got != nil {
		lcs = append(slices.Clone(lcs), got.corpus.Lifecycles...)
	}
	held := heldAPI(c.sources)
	p.apiTypes = c.types
	for _, t := range latestAPITags(lcs) {
		src := apiSource(p.r.cfg.URLs, f, t.release, t.String())
		if !p.wanted(src) || ctx.Err() != nil {
			continue
		}
		if h, ok := held[t.release]; ok && h.tag.covers(t) && !p.validated(src) {
			p.skipHeld(src, h.id)
			continue
		}
		p.ask(ctx, src)
	}
	return nil
}

// apiBase returns what walkAPI needs of the stored corpus: read once per
// knowledge generation and kept by the Refresher.
func (p *pass) apiBase(ctx context.Context) (*apiBase, error) {
	gen, err := p.r.cfg.Store.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if b := p.r.api; b != nil && b.generation == gen {
		return b, nil
	}
	c, err := p.base(ctx)
	if err != nil {
		return nil, err
	}
	b := &apiBase{generation: gen, lifecycles: c.Lifecycles, sources: c.Sources, types: c.APITypes}
	p.r.api = b
	return b, nil
}

// validated reports whether src's state holds the validators of what src
// itself gave the knowledge, which still holds it: a conditional request
// can then confirm it cheaply.
func (p *pass) validated(src source) bool {
	st := p.states[src.name]
	return st.URL == src.shown() && (st.ETag != "" || st.LastModified != "") && len(st.IDs) > 0 && p.holds(st)
}

// skipHeld records src as not asked: the knowledge holds id, its tag or a
// later patch of its release. Its state is cleared of any failure (what
// it would give is held), and of validators of another URL.
func (p *pass) skipHeld(src source, id string) {
	now := p.r.cfg.Now()
	st := p.states[src.name]
	if st.URL != src.shown() {
		st.ETag, st.LastModified, st.IDs = "", "", nil
	}
	st.URL, st.Checked, st.Succeeded = src.shown(), now, now
	st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultNotModified, "", 0, time.Time{}, time.Time{}
	p.states[src.name] = st
	p.report.Outcomes = append(p.report.Outcomes, Outcome{Name: src.name, URL: src.shown(), Result: ResultNotModified,
		Detail: fmt.Sprintf("the knowledge holds %s, and a tag never changes: not asked", id)})
}

// ask asks one source, if wanted and due, and records the outcome.
func (p *pass) ask(ctx context.Context, src source) Outcome {
	if !p.wanted(src) || ctx.Err() != nil {
		return Outcome{Name: src.name}
	}
	now := p.r.cfg.Now()
	st := p.states[src.name]
	o := Outcome{Name: src.name, URL: src.shown()}
	if !due(st, now, p.opts.Force) {
		o.Result, o.RetryAt = ResultWaiting, st.RetryAt
		if st.Result == ResultRateLimited {
			o.Result = ResultRateLimited
		}
		p.report.Outcomes = append(p.report.Outcomes, o)
		return o
	}
	start := time.Now()
	got, err := p.fetch(ctx, src, st, &o)
	o.Took = time.Since(start)
	st.URL, st.Checked = src.shown(), now
	switch {
	case err != nil:
		if !errors.Is(err, errInvalid) {
			err = fmt.Errorf("could not fetch it: %w", err)
		}
		p.failed(src, &st, &o, err, now)
	case o.Result == ResultNotPublished || o.Result == ResultNotModified:
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = o.Result, "", 0, time.Time{}, time.Time{}
		st.Succeeded = now
		o.Commit = st.Commit
	case got.corpus == nil: // read, and nothing in it for the knowledge: keep its validators
		o.Result, o.Detail, o.Commit = ResultNotModified, got.detail, st.Commit
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultNotModified, "", 0, time.Time{}, time.Time{}
		st.Succeeded = now
		st.ETag, st.LastModified = got.etag, got.lastModified
	default:
		o.Result, o.Detail, o.Commit, o.Warnings = ResultUpdated, got.detail, got.commit, got.warnings
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultUpdated, "", 0, time.Time{}, time.Time{}
		st.Succeeded, st.Changed, st.Commit = now, now, got.commit
		st.ETag, st.LastModified = got.etag, got.lastModified
		p.parts[src.name] = got
		p.order = append(p.order, src.name)
	}
	p.states[src.name] = st
	p.report.Outcomes = append(p.report.Outcomes, o)
	if p.r.cfg.Metrics != nil {
		p.r.cfg.Metrics.Observe(o)
	}
	return o
}

// fetch asks src with a conditional request and reads what it sends. It
// sets o.Result for "not modified" and "not published", o.Bytes, and the
// state's validators; it returns the part for news.
func (p *pass) fetch(ctx context.Context, src source, st store.SourceState, o *Outcome) (*part, error) {
	if src.format.Remote.Each == sources.EachVulnIndex {
		return p.fetchVulns(ctx, src, st, o)
	}
	var cond fetch.Conditions
	if st.URL == src.shown() && p.holds(st) {
		cond = fetch.Conditions{ETag: st.ETag, LastModified: st.LastModified}
	}
	resp, err := p.r.client.GetIf(ctx, src.url, cond)
	if err != nil {
		var se *fetch.StatusError
		if src.optional && errors.As(err, &se) && se.Code == http.StatusNotFound {
			o.Result = ResultNotPublished
			return nil, nil
		}
		return nil, err
	}
	if resp.NotModified {
		o.Result = ResultNotModified
		return nil, nil
	}
	defer resp.Body.Close()
	body := &counter{r: resp.Body}
	got, err := read(src, body, p.r.cfg.Limits, httpDay(resp.LastModified))
	if err == nil && got.api != nil {
		// A release of k8s.io/api is checked against the types held, with
		// the releases read before in this pass merged in.
		var types []knowledge.APIType
		if types, err = apilifecycle.MergeInto(p.apiTypes, got.api); err != nil {
			err = invalid(err)
		} else {
			p.apiTypes = types
		}
	}
	o.Bytes = body.n
	if err != nil {
		return nil, err
	}
	got.etag, got.lastModified = resp.ETag, resp.LastModified
	if got.commit == "" && src.format.Remote.CommitFromETag {
		got.commit = commitFromETag(resp.ETag)
	}
	return got, nil
}

// holds reports whether the knowledge still holds what a source's state
// says it gave: after `bot ingest` replaced everything, an ETag must not
// make a refresh skip a source whose part is gone.
func (p *pass) holds(st store.SourceState) bool {
	if len(st.IDs) == 0 {
		return st.Result == ResultNotPublished || st.Changed.IsZero()
	}
	for _, id := range st.IDs {
		if !p.held[id] {
			return false
		}
	}
	return true
}

// failed records a failure of src: its severity, when to ask again.
func (p *pass) failed(src source, st *store.SourceState, o *Outcome, err error, now time.Time) {
	o.Result, o.Error, o.Severity = ResultFailed, err.Error(), severity(err)
	if st.Failures == 0 || st.FailingSince.IsZero() {
		st.FailingSince = now
	}
	st.Failures++
	st.RetryAt = now.Add(jitter(backoff(p.r.cfg.Interval, st.Failures)))
	var se *fetch.StatusError
	if errors.As(err, &se) && !se.RetryAfter.IsZero() && se.RetryAfter.After(st.RetryAt) {
		st.RetryAt = se.RetryAfter
	}
	if errors.As(err, &se) && se.RateLimited {
		o.Result = ResultRateLimited
	}
	st.Result, st.Error = o.Result, o.Error
	o.RetryAt = st.RetryAt
	delete(p.parts, src.name)
}

// severity says whether err is bad input (a URL refused, content that
// cannot be used, a file over the cap) or a server or network failure.
func severity(err error) int {
	if errors.Is(err, errInvalid) || errors.Is(err, fetch.ErrNotAllowed) || errors.Is(err, fetch.ErrTooLarge) {
		return SeverityBadInput
	}
	return SeverityFailure
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// httpDay turns a Last-Modified header into its day, "" when it has none.
func httpDay(h string) string {
	if t, err := http.ParseTime(h); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	return ""
}

// commitFromETag reads a bare commit hash from an ETag, as codeload sends.
func commitFromETag(etag string) string {
	t := etag
	if len(t) > 2 && t[:2] == "W/" {
		t = t[2:]
	}
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		t = t[1 : len(t)-1]
	}
	if archive.IsCommit(t) {
		return t
	}
	return ""
}

// Local is a source's news read from a local copy rather than fetched:
// `bot sync --from DIR|FILE` for kep.yaml on a machine without network.
type Local struct {
	Name   string // the source it stands for: sources.NameKEPYAML
	URL    string // a file:// URL of the copy
	Corpus *knowledge.Corpus
	Commit string
	Detail string
}

// ApplyLocal applies l as its source's news, as a pass that fetched it
// would, and records the source's state (with no ETag: the next fetch
// downloads it again).
func (r *Refresher) ApplyLocal(ctx context.Context, l Local) (*Report, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kb := r.cfg.Store
	p, _, err := r.newPass(ctx, Options{})
	if err != nil {
		return nil, err
	}
	now := r.cfg.Now()
	p.states[l.Name] = store.SourceState{URL: l.URL, Commit: l.Commit, IDs: p.states[l.Name].IDs, Checked: now, Succeeded: now, Changed: now, Result: ResultUpdated}
	p.parts[l.Name] = &part{corpus: l.Corpus, commit: l.Commit, detail: l.Detail}
	p.order = []string{l.Name}
	p.report.Outcomes = []Outcome{{Name: l.Name, URL: l.URL, Result: ResultUpdated, Detail: l.Detail, Commit: l.Commit}}
	if err := p.apply(ctx); err != nil {
		return nil, err
	}
	if g, err := kb.Generation(ctx); err == nil {
		p.report.Generation = g
	}
	return p.report, nil
}
