package apilifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// APIModuleDir is the folder of the api-lifecycle data that holds
// k8s.io/api's releases, release-1.N each.
const APIModuleDir = "k8s.io-api"

// APIModule is the Go module of the core API types.
const APIModule = "k8s.io/api"

// ErrNoTree is returned for a folder that holds no module release folder.
var ErrNoTree = errors.New("no API module release found; expected a folder like the api-lifecycle data: k8s.io-api/release-1.N/<group>/<version>/register.go")

// IsTree reports whether dir is laid out like the api-lifecycle data: it
// holds k8s.io-api/release-1.N folders.
func IsTree(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, APIModuleDir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() && releaseDirRe().MatchString(e.Name()) {
			return true
		}
	}
	return false
}

// LoadDir reads a folder laid out as the api-lifecycle data:
//
//	SOURCE.md
//	k8s.io-api/release-1.N/<group>/<version>/{register.go,zz_generated.prerelease-lifecycle.go}
//	apiextensions-apiserver/release-1.N/apiextensions/<version>/...
//	kube-aggregator/release-1.N/apiregistration/<version>/...
//
// Each folder holding release-1.N folders is a module: k8s.io-api is
// k8s.io/api, any other name X is k8s.io/X. Each release folder is read
// with ReadRelease and becomes one knowledge.Source; the releases of all
// modules are merged into one table of APITypes (the modules' groups
// differ). The module versions and dates come from SOURCE.md: k8s.io/api's
// from its table (| 1.37 | v0.37.2 | 2026-10-28 |), the other modules'
// versions from its text ("`k8s.io/kube-aggregator` v0.37.2") and their
// date from k8s.io/api's row of the same release when the tags agree (see
// sourceInfo.lookup). A release it gives no version for is still read, with
// its tag unknown (see Release.SourceID) and no as-of date. What cannot be
// read (a release, a group/version folder, a file) is a Skip whose path is
// relative to dir, and the rest is read. Source paths are dir joined with
// the release folder. It never looks at file times or the clock. Releases
// are read in parallel; the result does not depend on it.
//
// It fails when dir cannot be opened or holds no module release folder.
func LoadDir(dir string) (*knowledge.Corpus, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer root.Close()
	// each release is read through a root of its own: os.Root resolves a
	// path one folder at a time, and shorter paths cost fewer calls
	c, err := loadTree(root.FS(), func(rel string) (fs.FS, func(), error) {
		sub, err := root.OpenRoot(filepath.FromSlash(rel))
		if err != nil {
			return nil, nil, err
		}
		return sub.FS(), func() { sub.Close() }, nil
	}, min(runtime.GOMAXPROCS(0), 8))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	for i := range c.Sources {
		c.Sources[i].Path = filepath.Join(dir, filepath.FromSlash(c.Sources[i].Path))
	}
	return c, nil
}

// LoadFS is LoadDir over an fs.FS whose root is the data's folder. Source
// and Skip paths are slash-separated, relative to that root.
func LoadFS(fsys fs.FS) (*knowledge.Corpus, error) {
	return loadTree(fsys, func(rel string) (fs.FS, func(), error) {
		sub, err := fs.Sub(fsys, rel)
		return sub, func() {}, err
	}, 1)
}

// loadTree is LoadFS reading each release folder through the fs.FS sub
// opens, workers releases at a time (sub must then be safe to call from
// several goroutines, and the fs.FS it returns too). What is read does
// not depend on workers.
func loadTree(fsys fs.FS, sub func(rel string) (fs.FS, func(), error), workers int) (*knowledge.Corpus, error) {
	top, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var pre []knowledge.Skip
	info := sourceInfo{}
	if data, err := readSourceMD(fsys); err == nil {
		info, pre = parseSourceMD(data)
	}
	// the release folders to read, and the folders passed over, in order
	type item struct {
		skip *knowledge.Skip
		job  *releaseJob
	}
	var items []item
	for _, m := range top {
		if !m.IsDir() || strings.HasPrefix(m.Name(), ".") {
			continue
		}
		entries, err := fs.ReadDir(fsys, m.Name())
		if err != nil {
			continue // not listable: not known to be a module
		}
		var dirs []string
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				dirs = append(dirs, e.Name())
			}
		}
		if !hasReleaseDir(dirs) {
			continue // no release-1.N inside: not a module folder
		}
		module := moduleOfDir(m.Name())
		for _, d := range dirs {
			rel := m.Name() + "/" + d
			mm := releaseDirRe().FindStringSubmatch(d)
			if mm == nil {
				items = append(items, item{skip: &knowledge.Skip{Path: rel, Reason: "not a release-1.N folder"}})
				continue
			}
			n, _ := strconv.Atoi(mm[1])
			if n == 0 {
				items = append(items, item{skip: &knowledge.Skip{Path: rel, Reason: "release 1.0 has no API lifecycle markers"}})
				continue
			}
			v := knowledge.Version{Major: 1, Minor: n}
			j := &releaseJob{rel: rel, module: module, v: v}
			j.tag, j.asOf = info.lookup(module, v)
			items = append(items, item{job: j})
		}
	}
	var jobs []*releaseJob
	for _, it := range items {
		if it.job != nil {
			jobs = append(jobs, it.job)
		}
	}
	runJobs(jobs, sub, workers)
	skips := pre
	var rels []*Release
	for _, it := range items {
		switch {
		case it.skip != nil:
			skips = append(skips, *it.skip)
		case it.job.err != nil:
			src := (&Release{Module: it.job.module, Release: it.job.v, Tag: it.job.tag}).SourceID()
			skips = append(skips, knowledge.Skip{Path: it.job.rel, Reason: it.job.err.Error(), Source: src})
		default:
			rels = append(rels, it.job.out)
		}
	}
	if len(rels) == 0 {
		if len(skips) > 0 {
			return nil, fmt.Errorf("%w (%d folder(s) skipped, the first: %s: %s)", ErrNoTree, len(skips), skips[0].Path, skips[0].Reason)
		}
		return nil, ErrNoTree
	}
	c := Corpus(rels)
	c.Skipped = append(skips, c.Skipped...)
	return c, nil
}

// releaseJob is one release folder to read, and what reading it gave.
type releaseJob struct {
	rel, module, tag, asOf string
	v                      knowledge.Version
	out                    *Release
	err                    error
}

func (j *releaseJob) run(sub func(rel string) (fs.FS, func(), error)) {
	rfs, done, err := sub(j.rel)
	if err != nil {
		j.err = errors.New(fsreason.Of(err))
		return
	}
	defer done()
	r, err := ReadRelease(rfs, j.module, j.v, j.tag)
	if err != nil {
		j.err = err
		return
	}
	r.AsOf, r.Path = j.asOf, j.rel
	for i := range r.Skipped {
		r.Skipped[i].Path = j.rel + "/" + r.Skipped[i].Path
	}
	j.out = r
}

// runJobs runs the jobs, workers at a time.
func runJobs(jobs []*releaseJob, sub func(rel string) (fs.FS, func(), error), workers int) {
	if workers <= 1 {
		for _, j := range jobs {
			j.run(sub)
		}
		return
	}
	next := make(chan *releaseJob)
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Go(func() {
			for j := range next {
				j.run(sub)
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}

func hasReleaseDir(names []string) bool {
	for _, n := range names {
		if releaseDirRe().MatchString(n) {
			return true
		}
	}
	return false
}

// moduleOfDir names the module a data folder holds: k8s.io-api is
// k8s.io/api, apiextensions-apiserver k8s.io/apiextensions-apiserver.
func moduleOfDir(name string) string {
	if rest, ok := strings.CutPrefix(name, "k8s.io-"); ok {
		return "k8s.io/" + rest
	}
	return "k8s.io/" + name
}

// readSourceMD reads the data's SOURCE.md, a regular file of at most
// provenance.MaxSize bytes.
func readSourceMD(fsys fs.FS) ([]byte, error) {
	st, err := fs.Stat(fsys, provenance.FileName)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", provenance.FileName)
	}
	f, err := fsys.Open(provenance.FileName)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, provenance.MaxSize))
}

// sourceInfo is what SOURCE.md says of the modules' versions.
type sourceInfo struct {
	// rows are k8s.io/api's table: minor release → its tag and date.
	rows map[int]sourceRow
	// tags are the other modules' versions, "`k8s.io/kube-aggregator`
	// v0.37.2": module → minor → tag.
	tags map[string]map[int]string
}

type sourceRow struct{ tag, date string }

var (
	// a row of the table | release | module version | published |
	sourceRowRe = lazyre.New(`^\s*\|\s*v?1\.(\d{1,4})\s*\|\s*` + "`?" + `(v0\.[0-9A-Za-z.-]+)` + "`?" + `\s*\|\s*([0-9-]*)\s*\|`)
	// another module and its version: `k8s.io/kube-aggregator` v0.37.2
	sourceModRe = lazyre.New("`(k8s\\.io/[a-z0-9-]+)`\\s+(v0\\.\\d{1,4}\\.\\d{1,4}(?:-[0-9A-Za-z.-]{1,40})?)\\b")
)

// parseSourceMD reads the data's SOURCE.md: the table of k8s.io/api's
// releases (| 1.37 | v0.37.2 | 2026-10-28 |), and the other modules'
// versions, named in the text ("from `k8s.io/kube-aggregator` v0.37.2").
// A row whose tag is not of its release is not used, and said so in a
// Skip. It never fails: what it cannot read stays unknown.
func parseSourceMD(data []byte) (sourceInfo, []knowledge.Skip) {
	info := sourceInfo{rows: map[int]sourceRow{}, tags: map[string]map[int]string{}}
	var skips []knowledge.Skip
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	for _, line := range strings.Split(text, "\n") {
		m := sourceRowRe().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		v, ok := ReleaseOfTag(m[2])
		if !ok || v.Minor != n {
			skips = append(skips, knowledge.Skip{Path: provenance.FileName,
				Reason: fmt.Sprintf("the row of release 1.%d gives version %q, which is not a v0.%d.P tag; not used", n, clip(m[2]), n)})
			continue
		}
		row := sourceRow{tag: m[2]}
		if t, err := time.Parse(time.DateOnly, m[3]); err == nil {
			row.date = t.Format(time.DateOnly)
		}
		if _, dup := info.rows[n]; !dup {
			info.rows[n] = row
		}
	}
	for _, m := range sourceModRe().FindAllStringSubmatch(text, -1) {
		v, ok := ReleaseOfTag(m[2])
		if !ok || m[1] == APIModule {
			continue // k8s.io/api's versions are the table's
		}
		if info.tags[m[1]] == nil {
			info.tags[m[1]] = map[int]string{}
		}
		if _, dup := info.tags[m[1]][v.Minor]; !dup {
			info.tags[m[1]][v.Minor] = m[2]
		}
	}
	return info, skips
}

// lookup returns the tag and as-of date SOURCE.md gives module's release
// v; either may be "".
//
// SOURCE.md dates only k8s.io/api's releases. The other modules are
// published from the same kubernetes/kubernetes tag as k8s.io/api (all
// staging repositories are tagged together), so a module whose tag is the
// one k8s.io/api's row gives for the release takes that row's date; with
// another tag its date stays unknown.
func (s sourceInfo) lookup(module string, v knowledge.Version) (tag, asOf string) {
	row, ok := s.rows[v.Minor]
	if v.Major != 1 {
		return "", ""
	}
	if module == APIModule {
		return row.tag, row.date
	}
	tag = s.tags[module][v.Minor]
	if ok && tag != "" && tag == row.tag {
		asOf = row.date
	}
	return tag, asOf
}
