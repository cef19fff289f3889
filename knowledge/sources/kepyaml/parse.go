package kepyaml

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/knowledge"
)

// SourceID is the Source.ID of every KEP this package reads.
const SourceID = "kubernetes/enhancements"

// File is one parsed kep.yaml with what the KEP type has no field for.
type File struct {
	KEP knowledge.KEP
	// LatestMilestone is kep.yaml's latest-milestone, zero when missing or
	// not a release (TBD, "0.0").
	LatestMilestone knowledge.Version
	// FieldNumber is kep-number as written (-1 when missing or not a
	// number); FolderNumber is the number the KEP folder starts with (-1
	// when it has none). KEP.Number is decided from both.
	FieldNumber, FolderNumber int
	MilestoneStats            MilestoneStats
	Notes                     []Note
}

// ParseKEP reads one kep.yaml. path is the file's path relative to the
// repository root (keps/sig-node/4639-oci-volume-source/kep.yaml); the KEP's
// Path is its folder, and the folder's number settles a missing or
// mismatched kep-number. It fails with a *ParseError for a file over 256
// KiB, invalid YAML, an alias bomb or deep nesting, a document that is not a
// mapping, and a file without a usable KEP number.
func ParseKEP(path string, data []byte) (knowledge.KEP, error) {
	f, err := ParseFile(path, data)
	if err != nil {
		return knowledge.KEP{}, err
	}
	return f.KEP, nil
}

// ParseFile is ParseKEP with the notes and the latest milestone. The rules:
//
//   - kep-number may be an integer, quoted, zero-padded or "KEP-123". When it
//     disagrees with the folder's number, or is missing, the folder's number
//     wins: the folder is named for the tracking issue. 0 (and a folder
//     numbered 0000) is the placeholder of an unnumbered KEP and fails.
//   - stage is alpha, beta, stable, deprecated or removed in any case;
//     "disabled" and "alpha (deprecated)" read as deprecated; the template's
//     "alpha|beta|stable" reads as no stage.
//   - each milestone value is a release like "v1.29", v1.29 or "1.29"; TBD,
//     never, x.y, "0.0" and empty are no milestone; a value holding two
//     releases takes the earliest. Keys that are not stages (disabled) are
//     dropped.
//   - feature gate names must be identifiers; "n/a", empty names and
//     patterns such as CSIMigration{vendor} are dropped.
func ParseFile(path string, data []byte) (File, error) {
	return parseFile(path, data, DefaultLimits().MaxFileBytes)
}

func parseFile(file string, data []byte, maxBytes int64) (File, error) {
	file = strings.TrimPrefix(path.Clean(strings.ReplaceAll(file, "\\", "/")), "./")
	if int64(len(data)) > maxBytes {
		return File{}, perr(file, KindTooLarge, "%d bytes, over the limit of %d; a real kep.yaml is under 3 KB", len(data), maxBytes)
	}
	if err := checkSize(file, data); err != nil {
		return File{}, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return File{}, perr(file, KindNotYAML, "%s", oneLine(err))
	}
	if err := checkShape(file, &root); err != nil {
		return File{}, err
	}
	if len(root.Content) == 0 {
		return File{}, perr(file, KindNotKEP, "the file is empty")
	}
	if doc := deref(root.Content[0]); doc.Kind != yaml.MappingNode {
		return File{}, perr(file, KindNotKEP, "the document is %s; kep.yaml is a mapping of keys such as title and kep-number", shapeOf(doc))
	}
	var kf kepFile
	if err := root.Decode(&kf); err != nil {
		return File{}, perr(file, decodeKind(err), "%s", oneLine(err))
	}

	p := &parser{path: file}
	f := File{FieldNumber: -1, FolderNumber: folderNumber(file)}
	n, err := p.number(kf.Number, &f)
	if err != nil {
		return File{}, err
	}
	f.KEP = knowledge.KEP{
		Number:       n,
		Title:        p.title(kf.Title),
		SIG:          p.text("owning-sig", kf.OwningSIG),
		Status:       p.status(kf.Status),
		Stage:        p.stage(kf.Stage),
		Milestones:   p.milestones(kf.Milestone, &f.MilestoneStats),
		FeatureGates: p.gates(kf.FeatureGates),
		Path:         kepFolder(file),
		Source:       SourceID,
	}
	f.LatestMilestone = p.latest(kf.LatestMilestone)
	f.Notes = p.notes
	return f, nil
}

// decodeKind sorts a decoder failure: the decoder's own alias guard is a
// bomb, anything else (a duplicate key) is invalid YAML.
func decodeKind(err error) string {
	if strings.Contains(err.Error(), "excessive aliasing") {
		return KindBomb
	}
	return KindNotYAML
}

// oneLine is a YAML error on one line, without the "yaml: " prefix.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
}

// parser gathers the notes of one file.
type parser struct {
	path  string
	notes []Note
}

func (p *parser) note(field, value, format string, args ...any) {
	switch {
	case len(p.notes) > maxNotes:
		return
	case len(p.notes) == maxNotes:
		p.notes = append(p.notes, Note{Path: p.path, Field: field, Problem: "and more notes, left out"})
		return
	}
	p.notes = append(p.notes, Note{Path: p.path, Field: field, Value: clip(value, 80), Problem: fmt.Sprintf(format, args...)})
}

// number decides the KEP number from kep-number and the folder.
func (p *parser) number(s scalar, f *File) (int, error) {
	field, ok := parseNumber(s.Text)
	if ok {
		f.FieldNumber = field
	}
	folder := f.FolderNumber
	switch {
	case ok && field > 0 && (folder <= 0 || folder == field):
		return field, nil
	case ok && field > 0:
		p.note("kep-number", s.Text, "disagrees with the folder number %d; the folder's number (the tracking issue) is used", folder)
		return folder, nil
	case folder > 0:
		what := "is missing"
		if s.Text != "" || s.Shape != "" {
			what = fmt.Sprintf("%q is not a KEP number", clip(s.Text+s.Shape, 40))
		}
		if ok {
			what = "is the placeholder 0"
		}
		p.note("kep-number", s.Text, "%s; the folder's number %d is used", what, folder)
		return folder, nil
	case ok:
		return 0, perr(p.path, KindPlaceholder, "kep-number %s is the placeholder of a KEP not yet numbered, and so is the folder", s.Text)
	case s.Text == "" && s.Shape == "":
		return 0, perr(p.path, KindNoNumber, "kep-number is missing and the folder name does not start with a number")
	}
	return 0, perr(p.path, KindNoNumber, "kep-number %q is not a number (the KEP template?) and the folder name does not start with one", clip(s.Text+s.Shape, 40))
}

// parseNumber reads 4639, "4639", 0000 and KEP-4639 as decimal.
func parseNumber(s string) (int, bool) {
	t := strings.TrimSpace(s)
	if len(t) > 4 && strings.EqualFold(t[:4], "kep-") {
		t = t[4:]
	}
	if t == "" || len(t) > 7 || strings.Trim(t, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(t)
	return n, err == nil
}

// folderNumber is the number the KEP folder's name starts with, -1 if none:
// keps/sig-node/2043-pod-resource-concrete-assigments/kep.yaml gives 2043.
func folderNumber(file string) int {
	base := path.Base(kepFolder(file))
	digits := base
	if i := strings.IndexByte(base, '-'); i >= 0 {
		digits = base[:i]
	}
	if n, ok := parseNumber(digits); ok {
		return n
	}
	return -1
}

// kepFolder is the folder of a kep.yaml, "" for a bare file name.
func kepFolder(file string) string {
	dir := path.Dir(file)
	if dir == "." || dir == "/" {
		return ""
	}
	return dir
}

// text is a scalar with its whitespace collapsed; other shapes are noted.
func (p *parser) text(field string, s scalar) string {
	if s.Shape != "" {
		p.note(field, "", "is %s, not text; ignored", s.Shape)
		return ""
	}
	return strings.Join(strings.Fields(s.Text), " ")
}

func (p *parser) title(s scalar) string {
	t := p.text("title", s)
	switch {
	case t == "":
		p.note("title", "", "is missing")
	case utf8.RuneCountInString(t) > maxTitleRunes:
		p.note("title", t, "is longer than %d characters; cut", maxTitleRunes)
		t = clip(t, maxTitleRunes)
	case t == "KEP Template":
		p.note("title", t, "is the template's title, left unchanged")
	}
	return t
}

// knownStatuses are the statuses the KEP template lists.
var knownStatuses = []string{"provisional", "implementable", "implemented", "deferred", "rejected", "withdrawn", "replaced"}

// status is kep.yaml's status in lower case. The template's "a|b|c" is no
// status; "implemented (alpha)" is implemented; a one- or two-letter typo of
// a known status is corrected. Anything else is kept as written and noted.
func (p *parser) status(s scalar) string {
	t := strings.ToLower(p.text("status", s))
	if t == "" || contains(knownStatuses, t) {
		return t
	}
	if strings.Contains(t, "|") {
		p.note("status", t, "is the template's list of choices; read as no status")
		return ""
	}
	if w := strings.FieldsFunc(t, notLetter); len(w) > 0 && contains(knownStatuses, w[0]) {
		p.note("status", t, "read as %s", w[0])
		return w[0]
	}
	for _, k := range knownStatuses {
		if d := len(t) - len(k); d >= -2 && d <= 2 && knowledge.EditDistance(t, k) <= 2 {
			p.note("status", t, "read as %s (a typo)", k)
			return k
		}
	}
	p.note("status", t, "is not a status the KEP template lists; kept as written")
	return t
}

// stage reads kep.yaml's stage; see ParseFile for the rules.
func (p *parser) stage(s scalar) knowledge.Stage {
	t := strings.ToLower(p.text("stage", s))
	if t == "" {
		return knowledge.StageNone
	}
	if st, err := knowledge.ParseStage(t); err == nil {
		return st
	}
	var grads, ends []knowledge.Stage
	for _, w := range strings.FieldsFunc(t, notLetter) {
		st, err := knowledge.ParseStage(w)
		if w == "disabled" {
			st, err = knowledge.StageDeprecated, nil
		}
		if err != nil {
			continue
		}
		if st.IsGraduation() {
			grads = append(grads, st)
		} else {
			ends = append(ends, st)
		}
	}
	switch {
	case len(ends) > 0:
		end := ends[0]
		for _, e := range ends {
			end = max(end, e)
		}
		p.note("stage", t, "read as %s", end)
		return end
	case len(grads) == 1:
		p.note("stage", t, "read as %s", grads[0])
		return grads[0]
	case len(grads) > 1:
		p.note("stage", t, "names several stages (the template's choices?); read as no stage")
	default:
		p.note("stage", t, "is not a stage; read as no stage")
	}
	return knowledge.StageNone
}

// gates returns the feature gate names, in file order, without repeats.
func (p *parser) gates(g gates) []string {
	if g.Odd != "" {
		p.note("feature-gates", "", "is %s; read what names it has", g.Odd)
	}
	var out []string
	for _, s := range g.Names {
		name := strings.TrimSpace(s.Text)
		switch {
		case s.Shape != "":
			p.note("feature-gates", "", "a name is %s, not text; dropped", s.Shape)
		case name == "":
			p.note("feature-gates", "", "a gate has an empty name; dropped")
		case !isGateName(name):
			p.note("feature-gates", name, "is not a feature gate name; dropped")
		case knowledge.IsGatePlaceholder(name):
			p.note("feature-gates", name, "is a placeholder for no gate, not a feature gate; dropped")
		case containsFold(out, name):
		case len(out) == maxGates:
			p.note("feature-gates", name, "is past the first %d names; dropped", maxGates)
		default:
			out = append(out, name)
		}
	}
	return out
}

// isGateName reports whether s is an identifier of at most 100 bytes:
// ImageVolume, or KUBECTL_KUBERC for kubectl's environment gates.
func isGateName(s string) bool {
	if len(s) > 100 || s == "" || !isLetter(rune(s[0])) {
		return false
	}
	for _, r := range s {
		if !isLetter(r) && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}
