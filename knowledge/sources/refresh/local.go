package refresh

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
)

// ReadLocalKEPYAML reads a kubernetes/enhancements checkout folder, or
// its .tar.gz, at p within lim, and checks it as a fetched kep.yaml would
// be: what ApplyLocal takes as kep.yaml's news (`bot sync --from`). Every
// error is about the copy at p, naming it.
func ReadLocalKEPYAML(p string, lim kepyaml.Limits) (Local, error) {
	info, err := os.Stat(p)
	if err != nil {
		return Local{}, fmt.Errorf("read %s: %w", p, err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return Local{}, fmt.Errorf("read %s: %w", p, err)
	}
	var res *kepyaml.Result
	if info.IsDir() {
		res, err = kepyaml.LoadDir(p, lim)
	} else {
		f, ferr := os.Open(p)
		if ferr != nil {
			return Local{}, fmt.Errorf("read %s: %w", p, ferr)
		}
		defer f.Close()
		res, err = archive.ReadTarGz(f, lim)
	}
	if err == nil {
		err = CheckKEPYAML(res)
	}
	if err != nil {
		return Local{}, fmt.Errorf("%s was refused: %w", p, err)
	}
	commit := ""
	if len(res.Corpus.Sources) > 0 {
		commit = res.Corpus.Sources[0].Commit
	}
	return Local{
		Name: NameKEPYAML, URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		Corpus: res.Corpus, Commit: commit,
		Detail: fmt.Sprintf("%d KEPs from %d kep.yaml files", len(res.Corpus.KEPs), res.Report.Files),
	}, nil
}
