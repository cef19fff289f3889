package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Engine answers questions from what a KnowledgeStore knows. It is safe for
// concurrent use.
//
// Most answers come from a catalog of every KEP, release, release item and
// notice, with a search index and the parts of kep, release, stage-list and
// notice-list answers built ahead, that the Engine reads from the store on
// first need (or on Warm) and keeps. Until the catalog is loaded, a KEP, a release's
// facts and its notices are read from the store for each question, and the
// sources are listed once and kept. A feature gate's owner is always read
// from the store's gate index. Whoever replaces the store's
// knowledge must call Invalidate afterwards, or answers mix the old
// knowledge with the new. In-process invalidation is enough: bbolt lets only
// one process hold the database file, so the process that replaces the
// knowledge (a sync inside serve) is the one whose engines answer.
type Engine struct {
	kb         knowledge.KnowledgeStore
	highlights int // items a release answer shows
	maxQuote   int // runes of a document's words an item quotes

	mu  sync.Mutex              // held while the catalog is built
	cat atomic.Pointer[catalog] // nil until first needed, and after Invalidate

	// srcs are the store's sources by ID, for answers given before the
	// catalog is loaded: nil until first needed, and after Invalidate.
	srcMu sync.Mutex // held while srcs is read from the store
	srcs  atomic.Pointer[map[string]knowledge.Source]

	subs knowledge.SubscriptionAnswerer // nil: subscriptions are not available

	readManifest ManifestReader // nil: scans are not available

	now func() time.Time // what "today" is; see WithClock
}

// WithSubscriptions lets the engine answer subscribe, unsubscribe and
// subscriptions through s.
func WithSubscriptions(s knowledge.SubscriptionAnswerer) Option {
	return func(e *Engine) { e.subs = s }
}

// Option changes how an Engine answers.
type Option func(*Engine)

// WithHighlights sets how many items a release answer shows (default 5).
func WithHighlights(n int) Option {
	return func(e *Engine) {
		if n >= 0 {
			e.highlights = n
		}
	}
}

// WithMaxQuote sets how many runes of a document's words an item quotes
// before cutting them with "…" (default 200).
func WithMaxQuote(n int) Option {
	return func(e *Engine) {
		if n > 0 {
			e.maxQuote = n
		}
	}
}

// New returns an Engine answering from kb.
func New(kb knowledge.KnowledgeStore, opts ...Option) *Engine {
	e := &Engine{kb: kb, highlights: 5, maxQuote: 200, now: time.Now}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Answer answers q. It fails with an *Error of code ENOTFOUND when the
// knowledge does not hold what q asks about, EBADINPUT for a question it
// cannot answer yet, and a wrapped store error otherwise.
func (e *Engine) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var a *knowledge.Answer
	var err error
	var patchNote string
	if q.Patch != nil {
		if patchNote, err = e.checkPatch(ctx, q.Version, *q.Patch); err != nil {
			return nil, err
		}
	}
	switch q.Kind {
	case knowledge.AskKEP:
		if q.Stage != knowledge.StageNone {
			a, err = e.answerKEPClaim(ctx, q)
			break
		}
		a, err = e.answerKEP(ctx, q.KEP)
	case knowledge.AskRelease:
		a, err = e.answerRelease(ctx, q.Version)
	case knowledge.AskReleaseStage:
		a, err = e.answerReleaseStage(ctx, q.Version, q.Stage)
	case knowledge.AskNotices:
		a, err = e.answerNotices(ctx, q.Version, q.Notice)
	case knowledge.AskReleases:
		a, err = e.answerReleases(ctx)
	case knowledge.AskHelp:
		a, err = knowledge.HelpAnswer(q.Words)
	case knowledge.AskGate:
		a, err = e.answerGate(ctx, q.Words)
	case knowledge.AskGateDefault:
		a, err = e.answerGateDefault(ctx, q.Words, q.Version)
	case knowledge.AskGateChanges:
		a, err = e.answerGateChanges(ctx, q.Version)
	case knowledge.AskSearch:
		a, err = e.answerSearch(ctx, q.Words)
	case knowledge.AskDiff:
		a, err = e.answerDiff(ctx, q.Version, q.To, q.Words == "upgrade", q.Filters["sig"])
	case knowledge.AskUpgrade:
		a, err = e.answerUpgrade(ctx, q)
	case knowledge.AskSIG:
		a, err = e.answerSIG(ctx, q.Words, q.Version)
	case knowledge.AskLifecycle:
		a, err = e.answerLifecycle(ctx, q.Version)
	case knowledge.AskPatches:
		a, err = e.answerPatches(ctx, q.Version)
	case knowledge.AskSupported:
		if !q.Version.IsZero() {
			a, err = e.answerSupportedRelease(ctx, q.Version)
			break
		}
		a, err = e.answerSupported(ctx)
	case knowledge.AskLatest:
		a, err = e.answerLatest(ctx)
	case knowledge.AskAPI:
		a, err = e.answerAPI(ctx, q.Words, q.Version)
	case knowledge.AskScan:
		a, err = e.answerScan(ctx, q)
	case knowledge.AskPR:
		a, err = e.answerPR(ctx, q.Words)
	case knowledge.AskCVEs:
		a, err = e.answerCVEs(ctx, q)
	case knowledge.AskCVE:
		a, err = e.answerCVE(ctx, q)
	case knowledge.AskSubscribe, knowledge.AskUnsubscribe, knowledge.AskSubscriptions:
		if e.subs == nil {
			return nil, knowledge.Errorf(knowledge.EBADINPUT, "Subscriptions are not set up here: they need kepbot in a Slack or Discord channel, with a bot token to post the digests. Ask e.g. 1.32 deprecations or upgrade 1.29 1.32 instead.")
		}
		a, err = e.subs.Answer(ctx, q)
	default:
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "I don't understand that question. Ask help to see what I answer.")
	}
	if err != nil {
		return nil, err
	}
	if a.Query == "" {
		a.Query = q.Canonical()
	}
	if patchNote != "" && !aboutPatch(q.Kind) {
		cp := *a // a may be shared (the answer parts)
		cp.Notes = append([]string{patchNote}, a.Notes...)
		a = &cp
	}
	return a, nil
}

// checkPatch says whether patch release v.patch exists as far as the
// sources know (releaseEvidence.patchNote), from the catalog when it is
// loaded (serve warms it at start), else from the store.
func (e *Engine) checkPatch(ctx context.Context, v knowledge.Version, patch int) (string, error) {
	x, err := e.evidence(ctx)
	if err != nil {
		return "", err
	}
	return x.patchNote(v, patch)
}

// evidence is what the sources say of every release: the catalog's when
// it is loaded, else read from the store (storeEvidence).
func (e *Engine) evidence(ctx context.Context) (*releaseEvidence, error) {
	if c := e.cat.Load(); c != nil {
		return c.releaseEvidence, nil
	}
	return e.storeEvidence(ctx)
}

// Invalidate drops what the Engine keeps from the store (the catalog of
// every KEP and notice, and the search index), so the next question that
// needs them reads the store again. Call it after the store's knowledge is
// replaced (ReplaceKnowledge). It waits for a catalog (or list of
// sources) being read to finish, then drops it too, so nothing read before
// it returns is kept after; it never fails.
func (e *Engine) Invalidate() {
	e.mu.Lock()
	e.cat.Store(nil)
	e.mu.Unlock()
	e.srcMu.Lock()
	e.srcs.Store(nil)
	e.srcMu.Unlock()
}

// Swap runs write, which replaces the store's knowledge, and then moves
// the Engine to the new knowledge in one step: answers in flight finish on
// the catalog they hold, the next ones get the new one, and none waits for
// it to be built. No catalog is built while write runs, so none mixes the
// old knowledge with the new. It fails with write's error, the old catalog
// kept. When the new catalog cannot be read, the old one is dropped and
// the next question reads the store; the write stands, so Swap succeeds.
func (e *Engine) Swap(ctx context.Context, write func() error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := write(); err != nil {
		return err
	}
	e.srcMu.Lock()
	e.srcs.Store(nil)
	e.srcMu.Unlock()
	c, _ := e.readCatalog(ctx) // nil when it fails: the next question reads the store
	e.cat.Store(c)
	return nil
}

// notFound turns a store miss into the engine's own ENOTFOUND sentence and
// wraps any other error with what was being looked up.
func notFound(err error, what string, format string, args ...any) error {
	if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
		return knowledge.Errorf(knowledge.ENOTFOUND, format, args...)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// sourceRefs names the sources with the given IDs, first mention first,
// each once, from the catalog when it is loaded, else from the store's list
// of sources (see sources). IDs neither lists are shown as they are. It
// fails with a wrapped store error.
func (e *Engine) sourceRefs(ctx context.Context, ids []string) ([]knowledge.SourceRef, map[string]knowledge.Source, error) {
	byID, err := e.sources(ctx)
	if err != nil {
		return nil, nil, err
	}
	return refsOf(byID, ids), byID, nil
}

// sources returns every source by ID: the catalog's when it is loaded,
// else the store's list, read on first need and kept until Invalidate so
// that answers given before the catalog is loaded do not list the store
// each time. The map is shared: read it, never change it. It fails with a
// wrapped store error, and then keeps nothing.
func (e *Engine) sources(ctx context.Context) (map[string]knowledge.Source, error) {
	if c := e.cat.Load(); c != nil {
		return c.sources, nil
	}
	if m := e.srcs.Load(); m != nil {
		return *m, nil
	}
	e.srcMu.Lock()
	defer e.srcMu.Unlock()
	if m := e.srcs.Load(); m != nil {
		return *m, nil
	}
	all, err := e.kb.ListSources(ctx)
	if err != nil {
		return nil, fmt.Errorf("list sources: %w", err)
	}
	byID := make(map[string]knowledge.Source, len(all))
	for _, s := range all {
		byID[s.ID] = s
	}
	e.srcs.Store(&byID)
	return byID, nil
}

// refsOf names the sources with the given IDs from byID.
func refsOf(byID map[string]knowledge.Source, ids []string) []knowledge.SourceRef {
	var out []knowledge.SourceRef
	var seen map[string]bool // for many IDs; a few are compared in place
	if len(ids) > 16 {
		seen = map[string]bool{}
	}
	for i, id := range ids {
		if id == "" {
			continue
		}
		if seen == nil {
			if slices.Contains(ids[:i], id) {
				continue
			}
		} else if seen[id] {
			continue
		} else {
			seen[id] = true
		}
		s, ok := byID[id]
		if !ok {
			out = append(out, knowledge.SourceRef{Name: id})
			continue
		}
		out = append(out, knowledge.SourceRef{Name: knowledge.SourceName(s), AsOf: s.AsOf})
	}
	return out
}

// versionList writes versions as "1.27, 1.29, 1.30".
func versionList(vs []knowledge.Version) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = v.String()
	}
	return strings.Join(ss, ", ")
}

// stageVerb says how a KEP reaches a stage: "went GA", "reached beta".
func stageVerb(s knowledge.Stage) string {
	switch s {
	case knowledge.StageStable:
		return "went GA"
	case knowledge.StageBeta:
		return "reached beta"
	case knowledge.StageAlpha:
		return "arrived as alpha"
	}
	return "was " + s.Label()
}

// sortItemsByKEP orders items by KEP number, items without one last, in a
// stable way so documents' order stays among equals.
func sortItemsByKEP(items []knowledge.Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if (a.KEP == 0) != (b.KEP == 0) {
			return a.KEP != 0
		}
		return a.KEP < b.KEP
	})
}
