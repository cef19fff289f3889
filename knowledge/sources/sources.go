package sources

import (
	"io"
	"path/filepath"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// Format is one upstream format: one entry of Formats. Each hook is nil
// where the format has no such use.
type Format struct {
	// Name names its sources in refresh's states and metrics, its report
	// and `bot sync --only`: kep.yaml, lifecycle; a format with a source
	// per release names them Name/1.36 (release-notes/1.36).
	Name string
	// Shared is the folder of the shared tree that holds it, read by `bot
	// snapshot`; "" when another format's folder holds it too.
	Shared string

	// Tree reports whether a folder is one of it, read whole by ReadTree
	// (a kubernetes/enhancements checkout); in.Name is the folder.
	Tree     func(dir string) bool
	ReadTree func(in Input) (*Part, error)
	// Pick reports whether a walk of a folder picks a file up as one of
	// it, by its name (and for some, its first bytes).
	Pick func(path string) bool
	// Stream reads one whole from a stream (a tarball): `bot ingest` for
	// a file Pick takes, refresh for a download.
	Stream func(in Input, body io.Reader) (*Part, error)
	// Match reports whether a file read whole is one of it, by its path
	// and content; Read reads it (a file it refuses may still have Notes).
	// `bot ingest` tries the formats in the order of Formats, those with
	// Fallback (which take any text) after the others: the first that
	// matches reads the file.
	Match    func(path string, data []byte) bool
	Read     func(in Input) (*Part, error)
	Fallback bool
	// Refuse says why `bot ingest` must not take a part ReadTree or Stream
	// gave: nothing of the format in it; nil takes every part.
	Refuse func(p *Part) error

	// Remote is where refresh asks for it; nil for a format read from
	// files only.
	Remote *Remote
}

// Remote says where and how refresh asks for a format.
type Remote struct {
	// Setting names the URL setting it is fetched from (URLs' key, the
	// config's sources.<setting>_url); formats may share one.
	Setting string
	// Default is the setting's URL when the config leaves it empty.
	Default string
	// Each says which of its sources a pass asks for.
	Each Each
	// File is, for EachRelease, the file under the setting's
	// release-1.N/ folder.
	File string
	// Refuse says why a download must not replace the knowledge; nil
	// takes every part.
	Refuse func(p *Part) error
	// CommitFromETag takes a part's commit from the ETag when the
	// content names none (codeload's tarballs).
	CommitFromETag bool
}

// Each is which sources of a format refresh asks for.
type Each int

const (
	// EachOnce is one source: the setting's URL itself.
	EachOnce Each = iota
	// EachRelease is one source a release whose notes are known, and the
	// releases after them until two in a row are not published:
	// <url>/release-1.N/<File>.
	EachRelease
	// EachAPITag is one source a release the lifecycle data names, at
	// the k8s.io/api tag of its latest patch: <url>/v0.N.P.tar.gz.
	EachAPITag
	// EachGateTag is, for each release after the newest whose gates the
	// knowledge holds, the Go module proxy's zips of its .0 tag:
	// <url>/k8s.io/kubernetes/@v/v1.N.0.zip and
	// <url>/k8s.io/client-go/@v/v0.N.0.zip.
	EachGateTag
	// EachVulnIndex is one source read in two steps: a vulnerability
	// database's module index (<url>/index/modules.json, a conditional
	// request), then each record of a Kubernetes-owned module that it
	// lists as new or modified (<url>/ID/<id>.json).
	EachVulnIndex
)

// Input is one file or download of a format.
type Input struct {
	// Name is its path, or its URL fit to show (a token redacted): it
	// names it in errors and warnings.
	Name string
	// Release is the release a per-release source belongs to; zero when
	// the caller does not know it (a file's folder or content says).
	Release knowledge.Version
	// Tag is the module tag of an EachAPITag source (v0.30.14), or the
	// module and version of an EachGateTag one
	// (k8s.io/kubernetes@v1.38.0).
	Tag string
	// Data is the whole file (for Read).
	Data []byte
	// Stamp is its as-of: a SOURCE.md's, or a download's Last-Modified.
	Stamp provenance.Stamp
	// Limits bound the archives Stream and the folders ReadTree read;
	// zero fields are defaults.
	Limits kepyaml.Limits
}

// Part is what one file, folder or download gives the knowledge.
type Part struct {
	Corpus *knowledge.Corpus
	// Notes name what was read around inside it: an entry skipped, a
	// value dropped.
	Notes []knowledge.FileWarning
	// Detail is one line on what it holds: "650 KEPs from 652 kep.yaml
	// files", "359 entries".
	Detail string
	// Commit is the upstream commit it was read at, "" when unknown.
	Commit string
	// Files is how many files of the format it held, read or skipped.
	Files int
	// API is a release of k8s.io/api read from a download. Its types are
	// not in Corpus (which holds its Source and Skips): the knowledge's
	// types are merged across releases, so refresh merges it into them
	// (apilifecycle.MergeInto).
	API *apilifecycle.Release
}

// Shared returns the folders of the shared tree root the formats are read
// from, in the order of Formats: what the built-in snapshot is built from.
func Shared(root string) []string {
	var out []string
	for _, f := range Formats {
		if f.Shared != "" {
			out = append(out, filepath.Join(root, filepath.FromSlash(f.Shared)))
		}
	}
	return out
}

// Named returns the format called name, or nil.
func Named(name string) *Format {
	for i := range Formats {
		if Formats[i].Name == name {
			return &Formats[i]
		}
	}
	return nil
}
