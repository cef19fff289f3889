package relnotes

import (
	"errors"
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// Limits. The real notes files are under 400 KB and the pages under 20 KB.
const (
	// MaxNotesSize is the largest release-notes-draft.json read.
	MaxNotesSize = 32 << 20
	// MaxPageSize is the largest release page read.
	MaxPageSize = 1 << 20
	// MaxTextBytes caps one entry's text: the longest real one is under
	// 4 KiB; a longer text is cut at a character boundary and a Warning
	// says so.
	MaxTextBytes = 8 << 10
	// maxListLen caps each list of one entry (kinds, SIGs, links, names).
	maxListLen = 64
	// maxWordBytes caps one kind or SIG name.
	maxWordBytes = 64
	// maxLinkBytes caps one documentation link; a longer one is no link.
	maxLinkBytes = 2 << 10
)

// The files of one release folder.
const (
	NotesFile = "release-notes/release-notes-draft.json"
	PageFile  = "README.md"
)

// Errors the parse functions wrap with the file's name; test with errors.Is.
var (
	ErrNoRelease = errors.New("no release was given; expected the release the file belongs to, such as 1.36 from its folder release-1.36")
	ErrTooLarge  = errors.New("the file is too large; expected a release-notes-draft.json of a few hundred KiB or a release page of a few dozen KiB")
	ErrEmpty     = errors.New("the file is empty; expected release notes as JSON or a release page as Markdown")
	ErrNotJSON   = errors.New("the file is not valid JSON; expected one object keyed by pull request number")
	ErrNotUTF8   = errors.New("the file is not UTF-8 text; expected a Markdown release page")
	ErrNotNotes  = errors.New("the file holds no release-note entries; expected objects with pr_number and text")
)

// Warning is something in a file that was read around (see
// knowledge.FileWarning).
type Warning = knowledge.FileWarning

// The repository the files come from; URLs point at its default branch.
const repoURL = "https://github.com/kubernetes/sig-release/blob/master/releases/"

// NotesSourceID is the Source ID of a release's notes as data:
// "sig-release/release-1.36/release-notes-draft.json".
func NotesSourceID(v knowledge.Version) string {
	return "sig-release/release-" + v.String() + "/release-notes-draft.json"
}

// releaseSource is the Source of one file of release v's folder in
// sig-release: its notes as data (NotesFile) or its page (PageFile).
func releaseSource(v knowledge.Version, kind knowledge.SourceKind, what, file, asOf string) knowledge.Source {
	id := NotesSourceID(v)
	if kind == knowledge.SourceReleasePage {
		id = PageSourceID(v)
	}
	return knowledge.Source{ID: id, Name: "Kubernetes " + v.String() + " " + what + " (sig-release)", Kind: kind, Lang: "en", AsOf: asOf,
		URL: repoURL + "release-" + v.String() + "/" + file}
}

// releaseDirRe is a release's folder name in sig-release.
var releaseDirRe = lazyre.New(`(?:^|/)release-(\d{1,3})\.(\d{1,3})(?:/|$)`)

// ReleaseOf returns the release a path or URL names by its folder
// release-1.N (the last such folder wins); false when it names none.
func ReleaseOf(path string) (knowledge.Version, bool) {
	ms := releaseDirRe().FindAllStringSubmatch(path, -1)
	if len(ms) == 0 {
		return knowledge.Version{}, false
	}
	m := ms[len(ms)-1]
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	v := knowledge.Version{Major: major, Minor: minor}
	return v, !v.IsZero()
}

func fileError(name string, err error) error {
	return fmt.Errorf("sig-release file %s: %w", name, err)
}
