package refresh

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/lifecycle"
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
}

// maxDocBytes caps a document read whole (notes, pages, lifecycle files).
// The largest, a release's notes, is a few MB.
const maxDocBytes = relnotes.MaxNotesSize

// read parses what src's body holds. asOf stands for the date of a source
// whose content names none (the server's Last-Modified), "" when unknown.
func read(src source, body io.Reader, lim kepyaml.Limits, asOf string) (*part, error) {
	if src.kind == kindKEPYAML {
		res, err := archive.ReadTarGz(body, lim)
		if err != nil {
			var fe *fetch.Error
			if errors.As(err, &fe) { // the body broke off, or grew past the cap: the fetch failed, not the content
				return nil, fe
			}
			return nil, invalid(err)
		}
		if err := checkKEPYAML(res); err != nil {
			return nil, invalid(err)
		}
		return &part{corpus: res.Corpus, commit: res.Corpus.Sources[0].Commit,
			detail: fmt.Sprintf("%d KEPs from %d kep.yaml files", len(res.Corpus.KEPs), res.Report.Files)}, nil
	}
	data, err := capped.Read(body, maxDocBytes)
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return nil, invalid(fmt.Errorf("over %d MiB; not read", maxDocBytes>>20))
	case err != nil:
		return nil, err // the fetch failed: a reset, the timeout, the cap
	}
	stamp := provenance.Stamp{Date: asOf}
	p := &part{}
	switch src.kind {
	case kindNotes:
		c, ws, err := relnotes.ParseNotes(src.release, src.shown(), data, stamp)
		if err != nil {
			return nil, invalid(err)
		}
		p.corpus, p.detail = c, fmt.Sprintf("%d entries", len(c.Changes))
		p.warnings = warningStrings(ws)
	case kindPage:
		c, ws, err := relnotes.ParsePage(src.release, src.shown(), data, stamp)
		if err != nil {
			return nil, invalid(err)
		}
		p.corpus, p.warnings = c, warningStrings(ws)
		p.detail = "the release page"
		if len(c.Releases) > 0 && c.Releases[0].Date != "" {
			p.detail += ", released " + c.Releases[0].Date
		}
	case kindLifecycle:
		c, ws, err := lifecycle.ParseLifecycle(src.shown(), data, stamp)
		if err != nil {
			return nil, invalid(err)
		}
		p.corpus, p.detail = c, fmt.Sprintf("%d releases' support dates", len(c.Lifecycles))
		p.warnings = warningStrings(ws)
	case kindPatches:
		c, ws, err := lifecycle.ParsePatches(src.shown(), data, stamp)
		if err != nil {
			return nil, invalid(err)
		}
		p.corpus, p.detail = c, fmt.Sprintf("%d patch releases", len(c.Patches))
		p.warnings = warningStrings(ws)
	}
	return p, nil
}

// readAPI reads one release of k8s.io/api from its tarball and checks that
// it can be merged into types, the API types the knowledge holds with the
// releases read before in this pass merged in; it returns the part and
// the types with it merged in. A body that breaks off or grows past the
// cap is a failed fetch; an archive that cannot be read, or merged, is
// refused.
func readAPI(src source, body io.Reader, types []knowledge.APIType) (*part, []knowledge.APIType, error) {
	rel, err := apilifecycle.ReadModuleTarGz(body, apilifecycle.APIModule, src.tag)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			return nil, nil, fe
		}
		return nil, nil, invalid(err)
	}
	merged, err := apilifecycle.MergeInto(types, rel)
	if err != nil {
		return nil, nil, invalid(err)
	}
	kinds, marked := 0, 0
	for _, gv := range rel.APIs {
		kinds += len(gv.Kinds)
		marked += len(gv.Markers)
	}
	p := &part{
		corpus: &knowledge.Corpus{Sources: []knowledge.Source{rel.Source()}, Skipped: rel.Skipped},
		commit: rel.Commit, api: rel,
		detail: fmt.Sprintf("%s %s: %d group/versions, %d kinds, %d with lifecycle markers", rel.Module, rel.Tag, len(rel.APIs), kinds, marked),
	}
	for _, sk := range rel.Skipped {
		p.warnings = append(p.warnings, sk.Path+": "+sk.Reason)
	}
	return p, merged, nil
}

// checkKEPYAML refuses a kep.yaml read that must not replace the
// knowledge: no KEP at all (everything skipped would wipe every KEP), and
// any link where a kep.yaml or the keps folder should be, which
// kubernetes/enhancements never holds: one in a download means it was
// tampered with.
func checkKEPYAML(res *kepyaml.Result) error {
	for _, sk := range res.Corpus.Skipped {
		if what, ok := strings.CutPrefix(sk.Reason, kepyaml.KindLink+": "); ok {
			what, _, _ = strings.Cut(what, ";")
			return fmt.Errorf("%s is %s, and kubernetes/enhancements holds no links", sk.Path, what)
		}
	}
	if len(res.Corpus.KEPs) == 0 {
		return fmt.Errorf("it holds no readable kep.yaml (%d files, all skipped); keeping the KEPs known", res.Report.Files)
	}
	return nil
}

// warningStrings turns a parser's warnings into lines, whatever their type.
func warningStrings[W fmt.Stringer](ws []W) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}
