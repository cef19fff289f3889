package kepyaml

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// ReadDir reads every keps/**/kep.yaml of a kubernetes/enhancements checkout
// (dir is its root, or its keps folder) with DefaultLimits. Files that
// cannot be read are Skips in the corpus; it fails only when dir cannot be
// walked, holds no kep.yaml, or breaks a limit.
func ReadDir(dir string) (*knowledge.Corpus, error) {
	res, err := LoadDir(dir, DefaultLimits())
	if err != nil {
		return nil, err
	}
	return res.Corpus, nil
}

// dirFile is one kep.yaml found by the walk.
type dirFile struct {
	rel  string
	size int64
}

// LoadDir is ReadDir with limits and the report. Files are opened through
// an os.Root, so nothing outside dir is read; symlinks are never followed
// (a symlinked kep.yaml is a Skip), and hidden folders such as .git are
// passed over. A kep.yaml over lim.MaxFileBytes is skipped by its size
// without being read. The Source's Path is dir; its Commit and AsOf come
// from what the folder says of itself (see stampOf), never from file times.
func LoadDir(dir string, lim Limits) (*Result, error) {
	lim = lim.withDefaults()
	rootDir := filepath.Clean(dir)
	if filepath.Base(rootDir) == "keps" {
		if _, err := os.Stat(filepath.Join(rootDir, "keps")); err != nil {
			rootDir = filepath.Dir(rootDir)
		}
	}
	root, err := os.OpenRoot(rootDir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer root.Close()
	b := newBuilder(lim)
	b.stamp = stampOf(root)
	var found []dirFile
	entries := 0
	err = fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel == "." {
				return err
			}
			b.skip(rel, KindUnreadable, err.Error())
			return nil
		}
		if entries++; entries > lim.MaxEntries {
			return fmt.Errorf("%s holds more than %d entries; raise MaxEntries if it is really a kubernetes/enhancements checkout", dir, lim.MaxEntries)
		}
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		read, named := IsKEPYAML(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if named {
				b.report.Files++
			}
			if named || strings.HasPrefix(rel, "keps/") {
				b.skip(rel, KindLink, "a symlink; links are never followed")
			}
		case !named:
		case !d.Type().IsRegular():
			b.report.Files++
			b.skip(rel, KindLink, "not a regular file ("+d.Type().String()+")")
		case !read:
			b.outside(rel)
		default:
			info, err := d.Info()
			if err != nil {
				b.report.Files++
				b.skip(rel, KindUnreadable, err.Error())
				return nil
			}
			found = append(found, dirFile{rel: rel, size: info.Size()})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", dir, err)
	}
	if err := b.readAll(root, found); err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return b.finish(dir)
}

// readAll reads and parses the found files on every core, then adds them in
// walk order so the result does not depend on scheduling.
func (b *builder) readAll(root *os.Root, found []dirFile) error {
	var total int64
	for _, f := range found {
		if f.size <= b.lim.MaxFileBytes {
			total += f.size
		}
	}
	if total > b.lim.MaxTotalBytes {
		return fmt.Errorf("the kep.yaml files hold %d bytes, over the limit of %d", total, b.lim.MaxTotalBytes)
	}
	type parsed struct {
		f   File
		err error
	}
	out := make([]parsed, len(found))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i].f, out[i].err = b.readOne(root, found[i])
			}
		}()
	}
	for i := range found {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range found {
		b.report.Files++
		b.addParsed(f.rel, out[i].f, out[i].err)
	}
	return nil
}

// readOne reads one kep.yaml: refused by its size before opening, and read
// through a limit whatever the size said.
func (b *builder) readOne(root *os.Root, f dirFile) (File, error) {
	max := b.lim.MaxFileBytes
	if f.size > max {
		return File{}, perr(f.rel, KindTooLarge, "%d bytes, over the limit of %d; not read", f.size, max)
	}
	fh, err := root.Open(filepath.FromSlash(f.rel))
	if err != nil {
		return File{}, err
	}
	defer fh.Close()
	data, err := capped.Read(fh, max)
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return File{}, perr(f.rel, KindTooLarge, "over the limit of %d bytes (it grew while read)", max)
	case err != nil:
		return File{}, err
	}
	return parseFile(f.rel, data, max)
}

// stampOf says which commit a checkout holds and its date: from a SOURCE.md
// at its root (as the snapshots in ../shared have), else the commit of a
// git checkout's HEAD, whose date stays unknown. Neither is required.
func stampOf(root *os.Root) provenance.Stamp {
	if data, err := readSmall(root, provenance.FileName); err == nil {
		if st := provenance.Parse(data).Stamp; !st.IsZero() {
			return st
		}
	}
	return provenance.Stamp{Commit: gitHead(root)}
}

// gitHead reads the commit a git checkout's HEAD names, directly or
// through a branch (loose or packed ref); "" when it cannot tell.
func gitHead(root *os.Root) string {
	head, err := readSmall(root, ".git/HEAD")
	if err != nil {
		return ""
	}
	ref := strings.TrimSpace(string(head))
	name, ok := strings.CutPrefix(ref, "ref: ")
	if !ok {
		return commitOr(ref)
	}
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") {
		return ""
	}
	if data, err := readSmall(root, ".git/"+name); err == nil {
		return commitOr(strings.TrimSpace(string(data)))
	}
	packed, err := readSmall(root, ".git/packed-refs")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if sha, ref, ok := strings.Cut(strings.TrimSpace(line), " "); ok && ref == name {
			return commitOr(sha)
		}
	}
	return ""
}

func commitOr(s string) string {
	if len(s) == 40 && isCommit(s) {
		return s
	}
	return ""
}

// readSmall reads a small metadata file under root, refusing links and
// anything over 64 KiB.
func readSmall(root *os.Root, name string) ([]byte, error) {
	info, err := root.Lstat(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > 64<<10 {
		return nil, fmt.Errorf("%s is not a small regular file", name)
	}
	return root.ReadFile(filepath.FromSlash(name))
}

// isCommit reports whether s looks like a git commit hash, full or short.
func isCommit(s string) bool {
	return len(s) >= 7 && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}
