package refresh

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/store"
)

// ReadLocalKEPYAML reads a kubernetes/enhancements checkout folder, or
// its .tar.gz, at p within lim, and checks it as a fetched kep.yaml would
// be: what ApplyLocal takes as kep.yaml's news (`bot sync --from`). Every
// error is about the copy at p, naming it.
func ReadLocalKEPYAML(p string, lim kepyaml.Limits) (Local, error) {
	f := sources.Named(sources.NameKEPYAML)
	info, err := os.Stat(p)
	if err != nil {
		return Local{}, fmt.Errorf("read %s: %w", p, err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return Local{}, fmt.Errorf("read %s: %w", p, err)
	}
	var got *sources.Part
	if info.IsDir() {
		got, err = f.ReadTree(sources.Input{Name: p, Limits: lim})
	} else {
		file, ferr := os.Open(p)
		if ferr != nil {
			return Local{}, fmt.Errorf("read %s: %w", p, ferr)
		}
		defer file.Close()
		got, err = f.Stream(sources.Input{Name: p, Limits: lim}, file)
	}
	if err == nil {
		err = f.Remote.Refuse(got)
	}
	if err != nil {
		return Local{}, fmt.Errorf("%s was refused: %w", p, err)
	}
	return Local{
		Name: sources.NameKEPYAML, URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		Corpus: got.Corpus, Commit: got.Commit, Detail: got.Detail,
	}, nil
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
