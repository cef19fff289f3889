package lifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// sniffBytes is how much of a file IsLifecycle and IsPatches look at.
const sniffBytes = 64 << 10

// IsLifecycle reports whether data looks like endoflife.date's product
// file: YAML front matter listing releases by releaseCycle.
func IsLifecycle(data []byte) bool {
	head := data[:min(len(data), sniffBytes)]
	return bytes.HasPrefix(bytes.TrimPrefix(head, []byte("\uFEFF")), []byte("---")) &&
		bytes.Contains(head, []byte("releaseCycle:"))
}

// IsPatches reports whether data looks like release-data's releases file:
// a JSON object with a versions object.
func IsPatches(data []byte) bool {
	head := bytes.TrimSpace(data[:min(len(data), sniffBytes)])
	return bytes.HasPrefix(head, []byte("{")) && bytes.Contains(head, []byte(`"versions"`))
}

// ReadDir reads the lifecycle files directly in fsys: each .md file that
// IsLifecycle, each .json file that IsPatches (in name order). As-of
// dates come from a SOURCE.md at the root of fsys, which may stamp each
// file apart ("`kubernetes.md`: ... at commit `a70eca33` (2026-08-22...)"),
// else from stamp (also for the files a SOURCE.md without a folder stamp
// does not name). A file that cannot be read or parsed is a Warning and a
// Skip, and the others are still read. It fails only when fsys holds no
// lifecycle file.
func ReadDir(fsys fs.FS, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, fmt.Errorf("read lifecycle folder: %w", err)
	}
	prov := provenance.Provenance{Stamp: stamp}
	if data, err := readCapped(fsys, provenance.FileName, provenance.MaxSize); err == nil {
		prov = provenance.Parse(data)
		if prov.Stamp.IsZero() {
			prov.Stamp = stamp // for the files it does not name
		}
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	out := &knowledge.Corpus{}
	var ws []Warning
	found := 0
	for _, n := range names {
		parse := parserFor(fsys, n)
		if parse == nil {
			continue
		}
		found++
		max := MaxLifecycleSize
		if strings.EqualFold(path.Ext(n), ".json") {
			max = MaxPatchesSize
		}
		data, err := readCapped(fsys, n, max)
		var c *knowledge.Corpus
		var fw []Warning
		if err == nil {
			c, fw, err = parse(n, data, prov.For(n))
		}
		ws = append(ws, fw...)
		if err != nil {
			ws = append(ws, Warning{File: n, Problem: err.Error()})
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: n, Reason: err.Error()})
			continue
		}
		for i := range c.Sources {
			c.Sources[i].Path = n
		}
		out.Add(c)
	}
	if found == 0 {
		return nil, nil, ErrNoLifecycleDir
	}
	return out, ws, nil
}

type parseFunc func(name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error)

// parserFor returns the parser of a file by its extension and first
// bytes, or nil when it is no lifecycle file.
func parserFor(fsys fs.FS, name string) parseFunc {
	var sniff func([]byte) bool
	var parse parseFunc
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		sniff, parse = IsLifecycle, ParseLifecycle
	case ".json":
		sniff, parse = IsPatches, ParsePatches
	default:
		return nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, sniffBytes))
	if !sniff(head) {
		return nil
	}
	return parse
}

// readCapped reads a regular file of at most max bytes. It asks what name
// is before opening it: opening a named pipe would wait for a writer.
func readCapped(fsys fs.FS, name string, max int) ([]byte, error) {
	data, err := capped.ReadFile(fsys, name, int64(max))
	if errors.Is(err, capped.ErrTooLarge) {
		return nil, fileError(name, fmt.Errorf("%w: more than %d KiB", ErrTooLarge, max>>10))
	}
	return data, err
}
