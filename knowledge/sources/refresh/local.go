package refresh

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
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
