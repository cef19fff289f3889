package knowledge

import "context"

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
	// ListSources returns the sources the knowledge was built from.
	ListSources(ctx context.Context) ([]Source, error)
	// ReplaceKnowledge swaps everything known for k in one transaction:
	// readers see the old knowledge or the new, never a mix.
	ReplaceKnowledge(ctx context.Context, k *Knowledge) error
}
