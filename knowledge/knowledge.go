package knowledge

import "context"

// Item is one line of a list answer or of a release: a KEP (or a note item
// without a number, KEP 0), its stage in a release, and the words that said so.
type Item struct {
	KEP     int     `json:"kep"`
	Title   string  `json:"title"`
	Stage   Stage   `json:"stage,omitempty"`
	Release Version `json:"release,omitempty"`
	Text    string  `json:"text,omitempty"`
	SIG     string  `json:"sig,omitempty"`
	Source  string  `json:"source,omitempty"` // Source.ID
	Rank    int     `json:"rank,omitempty"`   // 1-based position in ranked answers (search, diff)
	// ToldBy are the other sources that tell the same item (Source.IDs):
	// kep.yaml and every document line tied to the KEP at that stage in
	// that release (Compile: one item, counted once).
	ToldBy []string `json:"told_by,omitempty"`
}

// ReleaseRecord is a release joined with what reached a stage in it and the
// notices it carries. It is how a store keeps a release.
type ReleaseRecord struct {
	Release
	Items   []Item   `json:"items,omitempty"`   // graduations in this release, and items without a KEP
	Notices []Notice `json:"notices,omitempty"` // deprecations, removals, upgrade notes
	Changes []Change `json:"changes,omitempty"` // the release notes' entries, by PR number
	Patches []Patch  `json:"patches,omitempty"` // patch releases, oldest first
}

// Knowledge is a Corpus joined and ready to query: what one ingest replaces
// in a store, all at once.
type Knowledge struct {
	Sources  []Source        `json:"sources"`
	Releases []ReleaseRecord `json:"releases"` // oldest first
	KEPs     []KEP           `json:"keps"`     // by number, each with its History
	// APIs is every API type's lifecycle joined from every source, by
	// group, version and kind; APIReleases the releases whose API modules
	// were read, oldest first (the newest of them bounds what is reached).
	APIs        []APILifecycle `json:"apis,omitempty"`
	APIReleases []Version      `json:"api_releases,omitempty"`
	// FeatureGates are every feature gate the releases' code declares, by
	// name (kubeadm's own apart); GateReads the releases read, oldest
	// first.
	FeatureGates []FeatureGate `json:"feature_gates,omitempty"`
	GateReads    []GatesRead   `json:"gate_reads,omitempty"`
	// Vulns are the vulnerability records, by ID, each once.
	Vulns   []Vuln `json:"vulns,omitempty"`
	Skipped []Skip `json:"skipped,omitempty"`
	// Corpus is what k was compiled from. A store keeps it so that a sync
	// can swap one source (kep.yaml) and compile again; nil leaves it out.
	Corpus *Corpus `json:"-"`
}

// Stats counts what a Knowledge holds, for ingest reports.
type Stats struct {
	Sources  int `json:"sources"`
	Releases int `json:"releases"`
	KEPs     int `json:"keps"`
	Mentions int `json:"mentions"`
	Notices  int `json:"notices"`
	Changes  int `json:"changes"`
	Patches  int `json:"patches"`
	APIs     int `json:"apis"`
	Gates    int `json:"feature_gates"`
	Vulns    int `json:"vulns"`
	Skipped  int `json:"skipped"`
}

// Stats counts what k holds.
func (k *Knowledge) Stats() Stats {
	s := Stats{Sources: len(k.Sources), Releases: len(k.Releases), KEPs: len(k.KEPs), APIs: len(k.APIs), Gates: len(k.FeatureGates), Vulns: len(k.Vulns), Skipped: len(k.Skipped)}
	for _, kp := range k.KEPs {
		s.Mentions += len(kp.History)
	}
	for _, r := range k.Releases {
		s.Notices += len(r.Notices)
		s.Changes += len(r.Changes)
		s.Patches += len(r.Patches)
		for _, it := range r.Items {
			if it.KEP == 0 {
				s.Mentions++
			}
		}
	}
	return s
}

// KnowledgeStore keeps Knowledge and answers lookups from it. The store
// package implements it over bbolt. Misses are *Error with code ENOTFOUND.
type KnowledgeStore interface {
	// FindKEPByNumber returns one KEP with its History.
	FindKEPByNumber(ctx context.Context, n int) (*KEP, error)
	// FindReleaseByVersion returns a release's facts, without items or notices.
	FindReleaseByVersion(ctx context.Context, v Version) (*Release, error)
	// FindReleaseItems returns what reached stage in release v; StageNone
	// returns every item of the release.
	FindReleaseItems(ctx context.Context, v Version, stage Stage) ([]Item, error)
	// FindNotices returns release v's notices of one kind; "" returns all.
	FindNotices(ctx context.Context, v Version, kind NoticeKind) ([]Notice, error)
	// FindChanges returns release v's release-note entries, by PR number.
	FindChanges(ctx context.Context, v Version) ([]Change, error)
	// FindPatches returns release v's patch releases, oldest first.
	FindPatches(ctx context.Context, v Version) ([]Patch, error)
	// ListReleases returns every known release, oldest first.
	ListReleases(ctx context.Context) ([]Release, error)
	// FindKEPByGate returns the KEP that owns a feature gate, named in any
	// case, with its History: one lookup in the store's gate index. It fails
	// with ENOTFOUND when no KEP names the gate and EBADINPUT for an empty name.
	FindKEPByGate(ctx context.Context, name string) (*KEP, error)
	// ListGates returns the spelling of every feature gate a KEP owns.
	ListGates(ctx context.Context) ([]string, error)
	// ListKEPs returns every known KEP with its History, by number.
	ListKEPs(ctx context.Context) ([]*KEP, error)
	// ListAPIs returns the joined API lifecycle of every API type and the
	// releases whose API modules were read (both empty when none was).
	ListAPIs(ctx context.Context) ([]APILifecycle, []Version, error)
	// ListFeatureGates returns every feature gate the releases' code
	// declares, by name, and the releases read, oldest first (both empty
	// when none was read).
	ListFeatureGates(ctx context.Context) ([]FeatureGate, []GatesRead, error)
	// ListVulns returns every vulnerability record, by ID (empty when
	// none was read).
	ListVulns(ctx context.Context) ([]Vuln, error)
	// ListSources returns the sources the knowledge was built from.
	ListSources(ctx context.Context) ([]Source, error)
	// ReplaceKnowledge swaps everything known for k in one transaction:
	// readers see the old knowledge or the new, never a mix.
	ReplaceKnowledge(ctx context.Context, k *Knowledge) error
}
