package refresh

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/store"
)

// Once is `bot sync`'s one pass over the database at Store.Path: every
// source asked for news (or only Options.Only), or From, a local
// kubernetes/enhancements checkout or its .tar.gz, applied as kep.yaml's
// news. The database is opened for each step alone (LocalStore), so no
// other kepbot waits on the file during a download.
type Once struct {
	Config  Config // Setup.Config over Store, with the fetch options, limits and clock
	Store   LocalStore
	From    string
	Options Options
}

// OnceError is a `bot sync` that failed before its pass: the new database
// could not be created, or (Setup) the refresher could not be built from
// the config.
type OnceError struct {
	Setup bool
	Err   error
}

func (e *OnceError) Error() string { return e.Err.Error() }
func (e *OnceError) Unwrap() error { return e.Err }

// LocalError is a local copy (Once.From) that could not be read.
type LocalError struct{ Err error }

func (e *LocalError) Error() string { return e.Err.Error() }
func (e *LocalError) Unwrap() error { return e.Err }

// Run runs the pass. A database that does not exist yet starts from the
// built-in snapshot, as `bot ask` does. It fails with *OnceError before
// the pass, with *LocalError when From cannot be read, and with the
// store's *store.OpenError (store.ErrLocked) while another kepbot holds
// the database.
func (o Once) Run(ctx context.Context) (*Report, error) {
	if _, err := os.Stat(o.Store.Path); err != nil {
		db, err := store.OpenSeeded(ctx, o.Store.Path, store.Options{Timeout: o.Store.Timeout}, snapshot.Load, nil)
		if err != nil {
			return nil, &OnceError{Err: err}
		}
		db.Close()
	}
	r, err := New(o.Config)
	if err != nil {
		return nil, &OnceError{Setup: true, Err: err}
	}
	defer r.Close()
	if o.From != "" {
		l, err := ReadLocalKEPYAML(o.From, o.Config.Limits)
		if err != nil {
			return nil, &LocalError{err}
		}
		return r.ApplyLocal(ctx, l)
	}
	return r.Run(ctx, o.Options)
}

// SplitOnly splits bot sync's --only, a comma-separated list of sources,
// and checks each: a name of the registry's fetched formats (Names), or
// one release's source of a format fetched per release (release-notes/1.36,
// api-lifecycle/1.36). The error says which name is not one and what is.
func SplitOnly(s string) ([]string, error) {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		if !isSourceName(x) {
			return nil, fmt.Errorf("%q is not a source; give %s, or one release's: release-notes/1.36, api-lifecycle/1.36", x, strings.Join(Names(), ", "))
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no source given; give %s", strings.Join(Names(), ", "))
	}
	return out, nil
}

// isSourceName reports whether name names sources refresh asks for.
func isSourceName(name string) bool {
	group, release, perRelease := strings.Cut(name, "/")
	f := sources.Named(group)
	switch {
	case f == nil || f.Remote == nil:
		return false
	case !perRelease:
		return true
	}
	_, err := knowledge.ParseVersion(release)
	return err == nil && f.Remote.Each != sources.EachOnce
}
