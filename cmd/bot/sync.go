package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/kepbot/kepbot/internal/fetch"
	"github.com/kepbot/kepbot/knowledge/kepyaml"
	"github.com/kepbot/kepbot/store"
)

// defaultSyncURL is GitHub's REST endpoint for a tarball of
// kubernetes/enhancements' default branch. It answers with a redirect to
// codeload.github.com, whose archive has one top folder,
// kubernetes-enhancements-<commit>, from which the commit is read.
const defaultSyncURL = "https://api.github.com/repos/kubernetes/enhancements/tarball"

// runSync refreshes the kep.yaml part of the knowledge from the
// kubernetes/enhancements tarball (or a local copy), keeping every other
// source, in one atomic swap. When the server says nothing changed it only
// records the check. On any failure the database is left as it was.
func runSync(ctx context.Context, io stdio, args []string) int {
	return syncCommand{}.run(ctx, io, args)
}

// syncCommand is `bot sync` with what tests change: the fetch options (to
// reach a local TLS server), the archive limits and the clock.
type syncCommand struct {
	fetch  fetch.Options
	limits kepyaml.Limits
	now    func() time.Time
}

// synced is kep.yaml read from one source, ready to be applied.
type synced struct {
	res     *kepyaml.Result
	state   store.SyncState // URL, ETag and Commit; the times are set when applied
	where   string          // the source, fit to print
	archive bool
}

// exitError is an error with the exit code it deserves.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func badInput(err error) error { return &exitError{exitBadInput, err} }

func (c syncCommand) run(ctx context.Context, io stdio, args []string) int {
	if c.now == nil {
		c.now = time.Now
	}
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	rawURL := fs.String("url", "", "fetch the enhancements tarball from `URL`, https on an allowed host (default $BOT_SYNC_URL, else "+defaultSyncURL+")")
	from := fs.String("from", "", "read a kubernetes/enhancements checkout `DIR` or its .tar.gz FILE instead of fetching")
	timeout := fs.Duration("timeout", 0, "give up a fetch after `DURATION` (default "+fetch.DefaultTimeout.String()+")")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(io.err, "bot sync: unexpected %q; give a local copy with --from PATH.\n", fs.Arg(0))
		return exitBadInput
	case *from != "" && *rawURL != "":
		fmt.Fprintln(io.err, "bot sync: give --url or --from, not both.")
		return exitBadInput
	}
	if *timeout > 0 {
		c.fetch.Timeout = *timeout
	}
	db := dbPath()
	var got *synced
	var err error
	if *from != "" {
		got, err = c.readLocal(*from)
	} else {
		u := firstOf(*rawURL, io.getenv("BOT_SYNC_URL"), defaultSyncURL)
		got, err = c.fetchRemote(ctx, io, db, u)
		if err == nil && got == nil {
			return exitOK // up to date, printed
		}
	}
	if err == nil {
		err = c.apply(ctx, io, db, got)
	}
	if err != nil {
		fmt.Fprintf(io.err, "bot sync: %v; the database was not changed.\n", err)
		var ee *exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		return exitFailure
	}
	return exitOK
}

// fetchRemote asks rawURL for news, with the stored ETag when the last sync
// read the same URL. It returns nil, nil when the server answers 304, after
// recording the check and printing "up to date".
func (c syncCommand) fetchRemote(ctx context.Context, io stdio, db, rawURL string) (*synced, error) {
	shown := fetch.Redact(rawURL)
	prev, err := withStore(ctx, db, func(kb *store.KnowledgeStore) (store.SyncState, error) { return kb.SyncState(ctx) })
	if err != nil {
		return nil, err
	}
	etag := ""
	if prev.URL == shown {
		etag = prev.ETag
	}
	client, err := fetch.New(c.fetch)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	resp, err := client.Get(ctx, rawURL, etag)
	if err != nil {
		return nil, fetchFailure(err)
	}
	if resp.NotModified {
		return nil, c.recordCheck(ctx, io, db, shown, etag)
	}
	defer resp.Body.Close()
	res, err := kepyaml.LoadTarGz(resp.Body, c.limits)
	if err != nil {
		return nil, refusal(shown, err)
	}
	got := &synced{res: res, where: shown, archive: true,
		state: store.SyncState{URL: shown, ETag: resp.ETag, Commit: commitOf(res, resp.ETag)}}
	return got, nil
}

// fetchFailure gives a failed fetch its exit code: a URL or archive that
// can never work is bad input, a server or network trouble a failure.
func fetchFailure(err error) error {
	err = fmt.Errorf("could not fetch kep.yaml: %w", err)
	if errors.Is(err, fetch.ErrNotAllowed) || errors.Is(err, fetch.ErrTooLarge) {
		return badInput(err)
	}
	return err
}

// refusal explains why the archive from where was not used.
func refusal(where string, err error) error {
	if errors.Is(err, fetch.ErrTimeout) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("reading the archive from %s: %w", where, err)
	}
	return badInput(fmt.Errorf("the archive from %s was refused: %w", where, err))
}

// recordCheck records that the source had nothing new. Another sync may
// have run since prev was read: the check is recorded only when the state
// still names this URL and ETag, so a newer state is never overwritten.
func (c syncCommand) recordCheck(ctx context.Context, io stdio, db, shown, etag string) error {
	st, err := withStore(ctx, db, func(kb *store.KnowledgeStore) (store.SyncState, error) {
		st, err := kb.SyncState(ctx)
		if err != nil || st.URL != shown || st.ETag != etag {
			return st, err
		}
		st.Checked = c.now().UTC()
		return st, kb.SaveSyncState(ctx, st)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "Up to date: %s has not changed since the last sync%s.\n", shown, since(st))
	return nil
}

func since(st store.SyncState) string {
	var parts []string
	if st.Commit != "" {
		parts = append(parts, "commit "+st.Commit)
	}
	if !st.Synced.IsZero() {
		parts = append(parts, "synced "+st.Synced.UTC().Format("2006-01-02 15:04 MST"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// readLocal reads a kubernetes/enhancements checkout folder or its .tar.gz.
func (c syncCommand) readLocal(p string) (*synced, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, badInput(fmt.Errorf("read %s: %w", p, err))
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, badInput(fmt.Errorf("read %s: %w", p, err))
	}
	got := &synced{where: p, archive: !info.IsDir(),
		state: store.SyncState{URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}}
	if info.IsDir() {
		got.res, err = kepyaml.LoadDir(p, c.limits)
	} else {
		var f *os.File
		if f, err = os.Open(p); err != nil {
			return nil, badInput(fmt.Errorf("read %s: %w", p, err))
		}
		defer f.Close()
		got.res, err = kepyaml.LoadTarGz(f, c.limits)
	}
	if err != nil {
		return nil, refusal(p, err)
	}
	got.state.Commit = commitOf(got.res, "")
	return got, nil
}

// commitOf reads the enhancements commit from the archive's top folder
// (kubernetes-enhancements-<sha>, as GitHub names it), else from an ETag
// that is a bare commit hash; "" when neither says.
func commitOf(res *kepyaml.Result, etag string) string {
	for _, s := range res.Corpus.Sources {
		if sha, ok := strings.CutPrefix(path.Base(filepath.ToSlash(s.Path)), "kubernetes-enhancements-"); ok && isHex(sha, 4) {
			return sha
		}
	}
	if tag := strings.Trim(strings.TrimPrefix(etag, "W/"), `"`); isHex(tag, 7) {
		return tag
	}
	return ""
}

func isHex(s string, min int) bool {
	if len(s) < min || len(s) > 40 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// withStore opens the database at path for one step of a sync and closes
// it again, so that no other kepbot waits on the file during a download.
func withStore[T any](ctx context.Context, path string, fn func(*store.KnowledgeStore) (T, error)) (T, error) {
	var zero T
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		return zero, err
	}
	out, err := fn(db.Knowledge())
	if cerr := db.Close(); err == nil && cerr != nil {
		return zero, cerr
	}
	return out, err
}
