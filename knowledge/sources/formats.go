package sources

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/featuregates"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/lifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/osv"
	"github.com/kepbot/kepbot/knowledge/sources/releasenote"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
	"github.com/kepbot/kepbot/knowledge/sources/website"
)

// Formats is the registry: every upstream format kepbot reads, one entry
// each. Its order is the order the snapshot reads their folders in, refresh
// asks for them, and `bot ingest` tries them on a file (the fallbacks,
// which take any text, last).
var Formats = []Format{
	{Name: "release-note", Shared: "seeds", Pick: isDocument, Match: isChineseNote, Read: readChineseNote, Fallback: true},
	{Name: "website", Shared: "data/website", Pick: isDocument, Match: isText, Read: readWebsite, Fallback: true},
	{Name: NameKEPYAML, Shared: "data/enhancements", Tree: isEnhancements, ReadTree: readEnhancements, Pick: isArchive,
		Stream: streamKEPYAML, Refuse: noKEPs, Remote: &Remote{Setting: SettingSync, Default: DefaultSyncURL, Refuse: refuseKEPYAML, CommitFromETag: true}},
	{Name: NameReleaseNotes, Shared: "data/sig-release", Pick: isNotesFile, Match: func(p string, _ []byte) bool { return isNotesFile(p) },
		Read: readNotes, Remote: &Remote{Setting: SettingRelnotes, Default: DefaultRelnotesURL, Each: EachRelease, File: relnotes.NotesFile}},
	{Name: NameLifecycle, Shared: "data/lifecycle", Pick: isDocument, Match: isLifecycle, Read: readLifecycle,
		Remote: &Remote{Setting: SettingLifecycle, Default: DefaultLifecycleURL}},
	{Name: NamePatches, Pick: isPatchesFile, Match: isPatches, Read: readPatches,
		Remote: &Remote{Setting: SettingPatches, Default: DefaultPatchesURL}},
	{Name: NameReleasePage, Pick: isDocument, Match: isPage, Read: readPage,
		Remote: &Remote{Setting: SettingRelnotes, Default: DefaultRelnotesURL, Each: EachRelease, File: relnotes.PageFile}},
	{Name: NameAPILifecycle, Shared: "data/api-lifecycle", Tree: apilifecycle.IsTree, ReadTree: readAPITree, Stream: streamAPI,
		Remote: &Remote{Setting: SettingAPILifecycle, Default: DefaultAPILifecycleURL, Each: EachAPITag}},
	{Name: NameFeatureGates, Shared: "data/feature-gates", Tree: featuregates.IsTree, ReadTree: readGateTree, Stream: streamGates,
		Remote: &Remote{Setting: SettingFeatureGates, Default: DefaultFeatureGatesURL, Each: EachGateTag}},
	{Name: NameCVEs, Shared: "data/cves", Tree: osv.IsTree, ReadTree: readOSVTree, Pick: isOSVFile, Match: isOSV, Read: readOSV,
		Remote: &Remote{Setting: SettingVulnDB, Default: DefaultVulnDBURL, Each: EachVulnIndex}},
}

// Names of the formats refresh asks for, as states, metrics, reports and
// `bot sync --only` name them.
const (
	NameKEPYAML      = "kep.yaml"
	NameReleaseNotes = "release-notes"
	NameReleasePage  = "release-page"
	NameLifecycle    = "lifecycle"
	NamePatches      = "patches"
	NameAPILifecycle = "api-lifecycle"
	NameFeatureGates = "feature-gates"
	NameCVEs         = "cves"
)

// The URL settings of the formats fetched, and their defaults. Each can be
// changed in the config and the environment (BOT_SYNC_URL,
// BOT_RELNOTES_URL, BOT_LIFECYCLE_URL, BOT_PATCHES_URL,
// BOT_API_LIFECYCLE_URL, BOT_FEATURE_GATES_URL, BOT_VULNDB_URL), for a
// mirror or a test server.
const (
	SettingSync         = "sync"
	SettingRelnotes     = "relnotes"
	SettingLifecycle    = "lifecycle"
	SettingPatches      = "patches"
	SettingAPILifecycle = "api-lifecycle"
	SettingFeatureGates = "feature-gates"
	SettingVulnDB       = "vulndb"

	// DefaultSyncURL is GitHub's REST endpoint for a tarball of
	// kubernetes/enhancements' default branch; it redirects to codeload.
	DefaultSyncURL = "https://api.github.com/repos/kubernetes/enhancements/tarball"
	// DefaultRelnotesURL is sig-release's releases folder: release-1.N/
	// holds README.md and release-notes/release-notes-draft.json.
	DefaultRelnotesURL = "https://raw.githubusercontent.com/kubernetes/sig-release/master/releases"
	// DefaultLifecycleURL is endoflife.date's Kubernetes product file.
	DefaultLifecycleURL = "https://raw.githubusercontent.com/endoflife-date/endoflife.date/master/products/kubernetes.md"
	// DefaultPatchesURL is endoflife.date release-data's list of every
	// Kubernetes patch release.
	DefaultPatchesURL = "https://raw.githubusercontent.com/endoflife-date/release-data/main/releases/kubernetes.json"
	// DefaultAPILifecycleURL is the folder of GitHub's tarballs of
	// kubernetes/api (the mirror of the Go module k8s.io/api) per tag:
	// <base>/v0.N.P.tar.gz is Kubernetes 1.N.P's, redirected to codeload.
	DefaultAPILifecycleURL = "https://github.com/kubernetes/api/archive/refs/tags"
	// DefaultFeatureGatesURL is the Go module proxy the Go tool uses:
	// <base>/k8s.io/kubernetes/@v/v1.N.0.zip is release 1.N's code, and
	// .../@v/v1.N.0.info its tag time.
	DefaultFeatureGatesURL = "https://proxy.golang.org"
	// DefaultVulnDBURL is the Go vulnerability database's HTTP API:
	// index/modules.json lists every module's records with their modified
	// times, ID/GO-YYYY-NNNN.json is one record (OSV).
	DefaultVulnDBURL = "https://vuln.go.dev"
)

// kubernetes/enhancements: a checkout, its tarball or a download of it.

// isEnhancements reports whether dir is a kubernetes/enhancements
// checkout: it holds a keps folder.
func isEnhancements(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "keps"))
	return err == nil && st.IsDir()
}

func readEnhancements(in Input) (*Part, error) {
	res, err := kepyaml.LoadDir(in.Name, in.Limits) // dated by its SOURCE.md or git HEAD, never by file times
	if err != nil {
		return nil, err
	}
	return kepPart(res), nil
}

func streamKEPYAML(in Input, body io.Reader) (*Part, error) {
	res, err := archive.ReadTarGz(body, in.Limits)
	if err != nil {
		return nil, err
	}
	return kepPart(res), nil
}

func kepPart(res *kepyaml.Result) *Part {
	p := &Part{Corpus: res.Corpus, Files: res.Report.Files,
		Detail: fmt.Sprintf("%d KEPs from %d kep.yaml files", len(res.Corpus.KEPs), res.Report.Files)}
	if len(res.Corpus.Sources) > 0 {
		p.Commit = res.Corpus.Sources[0].Commit
	}
	return p
}

func noKEPs(p *Part) error {
	if len(p.Corpus.KEPs) == 0 {
		return errors.New("no kep.yaml found; give a kubernetes/enhancements checkout or its .tar.gz")
	}
	return nil
}

// refuseKEPYAML refuses a kep.yaml download that must not replace the
// knowledge: no KEP at all (everything skipped would wipe every KEP), and
// any link where a kep.yaml or the keps folder should be, which
// kubernetes/enhancements never holds: one in a download means it was
// tampered with.
func refuseKEPYAML(p *Part) error {
	for _, sk := range p.Corpus.Skipped {
		if what, ok := strings.CutPrefix(sk.Reason, kepyaml.KindLink+": "); ok {
			what, _, _ = strings.Cut(what, ";")
			return fmt.Errorf("%s is %s, and kubernetes/enhancements holds no links", sk.Path, what)
		}
	}
	if len(p.Corpus.KEPs) == 0 {
		return fmt.Errorf("it holds no readable kep.yaml (%d files, all skipped); keeping the KEPs known", p.Files)
	}
	return nil
}

func isArchive(path string) bool {
	n := strings.ToLower(path)
	return strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".tgz")
}

// sig-release: each release's notes as data and its page.

var notesBase = filepath.Base(relnotes.NotesFile)

// IsJSON reports whether path names a JSON file: the data formats are,
// the documents are not.
func IsJSON(path string) bool { return strings.EqualFold(filepath.Ext(path), ".json") }

// isNotesFile reports whether path is a release's notes as data:
// release-notes-draft.json in a release-1.N folder.
func isNotesFile(path string) bool {
	_, ok := relnotes.ReleaseOf(filepath.ToSlash(path))
	return ok && IsJSON(path) && filepath.Base(path) == notesBase
}

func readNotes(in Input) (*Part, error) {
	v := in.Release
	if v.IsZero() {
		v, _ = relnotes.ReleaseOf(filepath.ToSlash(in.Name))
	}
	c, ws, err := relnotes.ParseNotes(v, in.Name, in.Data, in.Stamp)
	if err != nil {
		return &Part{Notes: ws}, err // the notes of a file refused still say what was read around
	}
	return &Part{Corpus: c, Notes: ws, Detail: fmt.Sprintf("%d entries", len(c.Changes))}, nil
}

// isPage reports whether a Markdown file is a release page: a README.md
// in a release-1.N folder, or a file whose first heading names a release
// and which gives the day of "v1.N.0 released".
func isPage(path string, data []byte) bool {
	if IsJSON(path) {
		return false
	}
	if _, ok := pageInFolder(path); ok {
		return true
	}
	_, ok := relnotes.PageRelease(data)
	return ok
}

func pageInFolder(path string) (knowledge.Version, bool) {
	if !strings.EqualFold(filepath.Base(path), relnotes.PageFile) {
		return knowledge.Version{}, false
	}
	return relnotes.ReleaseOf(filepath.ToSlash(filepath.Dir(path)))
}

func readPage(in Input) (*Part, error) {
	v, ok := in.Release, !in.Release.IsZero()
	if !ok {
		v, ok = pageInFolder(in.Name)
	}
	if !ok {
		v, _ = relnotes.PageRelease(in.Data)
	}
	c, ws, err := relnotes.ParsePage(v, in.Name, in.Data, in.Stamp)
	if err != nil {
		return &Part{Notes: ws}, err // the notes of a file refused still say what was read around
	}
	p := &Part{Corpus: c, Notes: ws, Detail: "the release page"}
	if len(c.Releases) > 0 && c.Releases[0].Date != "" {
		p.Detail += ", released " + c.Releases[0].Date
	}
	return p, nil
}

// endoflife.date: the lifecycle of each release and every patch release.

func isLifecycle(path string, data []byte) bool { return !IsJSON(path) && lifecycle.IsLifecycle(data) }
func isPatches(path string, data []byte) bool   { return IsJSON(path) && lifecycle.IsPatches(data) }

// isPatchesFile reports whether a walk should pick up a JSON file as
// release-data's patch list, by its first bytes.
func isPatchesFile(path string) bool { return IsJSON(path) && lifecycle.IsPatches(jsonHead(path)) }

// jsonHead returns the first 4 KiB of the file at path, nil when it
// cannot be read: enough to tell a JSON file's format by its first keys.
func jsonHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 4<<10)
	n, _ := f.Read(head)
	return head[:n]
}

func readLifecycle(in Input) (*Part, error) {
	c, ws, err := lifecycle.ParseLifecycle(in.Name, in.Data, in.Stamp)
	if err != nil {
		return &Part{Notes: ws}, err // the notes of a file refused still say what was read around
	}
	return &Part{Corpus: c, Notes: ws, Detail: fmt.Sprintf("%d releases' support dates", len(c.Lifecycles))}, nil
}

func readPatches(in Input) (*Part, error) {
	c, ws, err := lifecycle.ParsePatches(in.Name, in.Data, in.Stamp)
	if err != nil {
		return &Part{Notes: ws}, err // the notes of a file refused still say what was read around
	}
	return &Part{Corpus: c, Notes: ws, Detail: fmt.Sprintf("%d patch releases", len(c.Patches))}, nil
}

// k8s.io/api's lifecycle markers: the api-lifecycle folder, or one tag's
// tarball.

// readAPITree reads an API lifecycle folder whole: its SOURCE.md gives the
// module versions and dates (never file times), and what it passes over
// is a Skip and a note.
func readAPITree(in Input) (*Part, error) {
	dir := in.Name
	c, err := apilifecycle.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &Part{Corpus: c}
	p.Notes = append(p.Notes, skipNotes(dir, c.Skipped)...)
	return p, nil
}

func streamAPI(in Input, body io.Reader) (*Part, error) {
	rel, err := apilifecycle.ReadModuleTarGz(body, apilifecycle.APIModule, in.Tag)
	if err != nil {
		return nil, err
	}
	kinds, marked := 0, 0
	for _, gv := range rel.APIs {
		kinds += len(gv.Kinds)
		marked += len(gv.Markers)
	}
	p := &Part{
		Corpus: &knowledge.Corpus{Sources: []knowledge.Source{rel.Source()}, Skipped: rel.Skipped},
		Commit: rel.Commit, API: rel,
		Detail: fmt.Sprintf("%s %s: %d group/versions, %d kinds, %d with lifecycle markers", rel.Module, rel.Tag, len(rel.APIs), kinds, marked),
	}
	for _, sk := range rel.Skipped {
		p.Notes = append(p.Notes, knowledge.FileWarning{File: sk.Path, Problem: sk.Reason})
	}
	return p, nil
}

// Documents: the Chinese release notes, and kubernetes.io's posts and the
// deprecated API migration guide.

func isDocument(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

func isText(path string, data []byte) bool { return !IsJSON(path) && utf8.Valid(data) }

// isChineseNote reports whether a text holds Chinese characters: such a
// document is read as a Chinese release note.
func isChineseNote(path string, data []byte) bool {
	if !isText(path, data) {
		return false
	}
	n := 0
	for _, r := range string(data) {
		if unicode.Is(unicode.Han, r) {
			n++
			if n > 20 {
				return true
			}
		}
	}
	return false
}

func readChineseNote(in Input) (*Part, error) {
	c, err := releasenote.Parse(filepath.Base(in.Name), in.Data)
	if err != nil {
		return nil, err
	}
	return &Part{Corpus: c}, nil
}

// readWebsite reads a kubernetes.io document; a SOURCE.md, which says where
// the others came from, is passed over.
func readWebsite(in Input) (*Part, error) {
	c, err := website.Parse(filepath.Base(in.Name), in.Data)
	if errors.Is(err, website.ErrDescribesSources) {
		return &Part{Corpus: &knowledge.Corpus{Skipped: []knowledge.Skip{{Path: in.Name, Reason: "describes where the other documents came from"}}}}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Part{Corpus: c}, nil
}

// Feature gates as shipped: what each release's code declares.

// readGateTree reads the feature-gates folder whole: every release's gate
// table, dated by VERSIONS.tsv (never file times); what it passes over is
// a Skip and a note.
func readGateTree(in Input) (*Part, error) {
	dir := in.Name
	c, err := featuregates.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, t := range c.GateTables {
		n += len(t.Gates)
	}
	p := &Part{Corpus: c, Files: len(c.GateTables),
		Detail: fmt.Sprintf("%d releases' feature gates (%d declarations)", len(c.GateTables), n)}
	p.Notes = append(p.Notes, skipNotes(dir, c.Skipped)...)
	return p, nil
}

// The Go vulnerability database: a copy of its records (the shared tree's
// data/cves, golang/vulndb's data/osv), or one record.

func readOSVTree(in Input) (*Part, error) {
	c, err := osv.LoadDir(in.Name)
	if err != nil {
		return nil, err
	}
	p := &Part{Corpus: c, Files: len(c.Vulns) + len(c.Skipped), Detail: fmt.Sprintf("%d vulnerability records", len(c.Vulns))}
	p.Notes = append(p.Notes, skipNotes(in.Name, c.Skipped)...)
	if len(c.Sources) > 0 {
		p.Commit = c.Sources[0].Commit
	}
	return p, nil
}

// streamGates reads one module's zip of a release from the module proxy
// (in.Tag is module@version: k8s.io/kubernetes@v1.38.0); in.Stamp dates it
// (the tag time, from the proxy's .info).
func streamGates(in Input, body io.Reader) (*Part, error) {
	z, err := featuregates.ReadModuleZip(body, in.Tag, in.Stamp.Date, featuregates.ZipLimits{})
	if err != nil {
		return nil, err
	}
	c := &knowledge.Corpus{Sources: []knowledge.Source{z.Source}, GateTables: []knowledge.GateTable{z.Table}, Skipped: z.Skipped}
	p := &Part{Corpus: c, Files: z.Files, Detail: fmt.Sprintf("%s: %d feature gates declared in %s", in.Tag, len(z.Table.Gates), z.Table.Release)}
	for _, sk := range z.Skipped {
		p.Notes = append(p.Notes, knowledge.FileWarning{File: sk.Path, Problem: sk.Reason})
	}
	return p, nil
}

// isOSVFile reports whether a walk should pick up a JSON file as an OSV
// record, by its first bytes.
func isOSVFile(path string) bool {
	if !IsJSON(path) {
		return false
	}
	head := string(jsonHead(path))
	return strings.Contains(head, `"affected"`) && strings.Contains(head, `"id"`)
}

func isOSV(path string, data []byte) bool { return IsJSON(path) && osv.IsRecord(data) }

func readOSV(in Input) (*Part, error) {
	c, err := osv.ReadRecord(in.Name, in.Data, in.Stamp)
	if err != nil {
		return nil, err
	}
	return &Part{Corpus: c, Files: 1, Detail: "vulnerability record " + c.Vulns[0].ID}, nil
}

// skipNotes are the notes of the files a folder's reader passed over on
// purpose (their paths relative to dir).
func skipNotes(dir string, skipped []knowledge.Skip) []knowledge.FileWarning {
	var out []knowledge.FileWarning
	for _, s := range skipped {
		out = append(out, knowledge.FileWarning{File: filepath.Join(dir, filepath.FromSlash(s.Path)), Problem: "passed over: " + s.Reason})
	}
	return out
}
