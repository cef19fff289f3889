package refresh

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kepbot/kepbot/knowledge"
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
	// Host records how a host the pass asked, or that held sources back,
	// stands after it.
	Host(h HostReport)
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
	// Wait waits d before a source is asked again within a pass (see
	// MaxAttempts), failing when ctx ends first; nil waits on a timer.
	// Tests wait on their clock.
	Wait func(ctx context.Context, d time.Duration) error
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
	newest     knowledge.Version   // the newest release it holds: a release card or a lifecycle
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
	if cfg.Wait == nil {
		cfg.Wait = wait
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
	// Budget bounds the asking (every request, retry and wait); sources
	// left when it runs out are reported as not asked, and what was read
	// is applied. Zero means no bound but each fetch's own timeout.
	Budget time.Duration
	// Progress, when set, is told of each step as it happens (bot sync on
	// a terminal).
	Progress func(Step)
}

// Step is one step of a pass, for a progress display: a request about to
// go out (Attempt, from 1), a wait before asking a source again (Wait and
// the Error that caused it), or a source done (Outcome).
type Step struct {
	Name    string
	Attempt int
	Wait    time.Duration
	Error   string
	Outcome *Outcome
}

// Run asks every source that is due for news, one at a time, and applies
// what they bring in one transaction with their new states; when nothing
// is new it records the checks alone. A source that fails keeps its part of
// the knowledge and its state says why. Each host is asked with restraint
// (see CircuitAfter, MaxAttempts, HostState): a failing source is asked
// again a few times with backoff, a host that keeps failing is not asked
// for the rest of the pass nor before its backoff has passed, and a host
// that said when to come back is not asked before then. Run fails only when
// the store cannot be read or written (the knowledge is then as it was) or
// ctx ends.
func (r *Refresher) Run(ctx context.Context, opts Options) (*Report, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kb := r.cfg.Store
	p, srcs, err := r.newPass(ctx, opts)
	if err != nil {
		return nil, err
	}
	askCtx := ctx
	if opts.Budget > 0 {
		var cancel context.CancelFunc
		askCtx, cancel = context.WithTimeout(ctx, opts.Budget)
		defer cancel()
	}
	if err := p.walk(askCtx, srcs); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.saveGates()
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
	p := &pass{r: r, ctx: ctx, opts: opts, states: states, held: map[string]bool{}, parts: map[string]*part{}, gates: map[string]*gate{}, report: &Report{}}
	for _, s := range srcs {
		p.held[s.ID] = true
	}
	return p, srcs, nil
}

// pass is one Run's work.
type pass struct {
	r *Refresher
	// ctx is the pass's own: the store is read and written under it. The
	// sources are asked under the pass's budget (Options.Budget).
	ctx    context.Context
	opts   Options
	states map[string]store.SourceState
	held   map[string]bool // source IDs the knowledge holds now
	parts  map[string]*part
	order  []string // names of parts, in the order asked
	report *Report
	gates  map[string]*gate // by host
	// apiTypes are the API types the knowledge holds with the API
	// lifecycle sources read so far in this pass merged in: each release
	// read is checked against them (see readAPI).
	apiTypes []knowledge.APIType
}

// wait waits d unless ctx ends first.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
