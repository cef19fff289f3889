package refresh

import (
	"errors"
	"fmt"
	"io"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// errInvalid marks content that was fetched whole but cannot be used: a
// tarball that is not one, JSON that does not parse, a page without a
// heading. Such a source is bad input, not a server failure.
var errInvalid = errors.New("was refused")

// invalid wraps err as errInvalid: "was refused: what was wrong".
func invalid(err error) error { return fmt.Errorf("%w: %w", errInvalid, err) }

// part is what one source gives the knowledge.
type part struct {
	corpus   *knowledge.Corpus
	commit   string
	warnings []string
	detail   string // one line on what it holds: "650 KEPs", "359 entries"
	// etag and lastModified are the server's validators of what was read:
	// they go into the source's state only with its news, so news that is
	// not applied is asked for again.
	etag, lastModified string
	// api is the k8s.io/api release an API lifecycle source read. Its
	// types are not in corpus (which holds its Source and Skips): the
	// corpus's APITypes are merged across releases, so apply merges it
	// into them (apilifecycle.MergeInto) and drops the Source of any other
	// patch of its minor.
	api *apilifecycle.Release
	// hostErr is a failure of the host after part of the source was read
	// (a record of vuln.go.dev answering 429 after others were read): the
	// pass applies what was read, and the host's gate still takes the
	// failure (its Retry-After, its circuit).
	hostErr error
}

// maxDocBytes caps a document read whole (notes, pages, lifecycle files).
// The largest, a release's notes, is a few MB.
const maxDocBytes = relnotes.MaxNotesSize

// read parses what src's body holds with its format: a stream (a tarball)
// as it comes, any other whole within maxDocBytes. asOf stands for the
// date of a source whose content names none (the server's
// Last-Modified), "" when unknown. A body that breaks off or grows past
// the cap is a failed fetch; content that cannot be read, or that the
// format refuses, is refused.
func read(src source, body io.Reader, lim kepyaml.Limits, asOf string) (*part, error) {
	f := src.format
	in := sources.Input{Name: src.shown(), Release: src.release, Tag: src.tag, Stamp: provenance.Stamp{Date: asOf}, Limits: lim}
	var got *sources.Part
	var err error
	if f.Stream != nil {
		got, err = f.Stream(in, body)
		var fe *fetch.Error
		if errors.As(err, &fe) { // the body broke off, or grew past the cap: the fetch failed, not the content
			return nil, fe
		}
	} else {
		in.Data, err = capped.Read(body, maxDocBytes)
		switch {
		case errors.Is(err, capped.ErrTooLarge):
			return nil, invalid(fmt.Errorf("over %d MiB; not read", maxDocBytes>>20))
		case err != nil:
			return nil, err // the fetch failed: a reset, the timeout, the cap
		}
		got, err = f.Read(in)
	}
	if err == nil && f.Remote.Refuse != nil {
		err = f.Remote.Refuse(got)
	}
	if err != nil {
		return nil, invalid(err)
	}
	p := &part{corpus: got.Corpus, commit: got.Commit, detail: got.Detail, api: got.API}
	for _, w := range got.Notes {
		p.warnings = append(p.warnings, w.String())
	}
	return p, nil
}
