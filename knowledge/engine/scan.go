package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// ManifestReader reads the manifests a scan question carries: YAML or
// JSON, several documents, Lists, or `kubectl version` output. It fails
// only when the text as a whole cannot be read (binary, over its caps),
// with an error whose message is safe to show. Package manifest gives one.
type ManifestReader func(text []byte) (*knowledge.ManifestRead, error)

// WithManifestReader lets the engine answer scan questions through r.
func WithManifestReader(r ManifestReader) Option { return func(e *Engine) { e.readManifest = r } }

// maxScanObjectsShown is how many objects a scan answer names under one
// API before it counts the rest.
const maxScanObjectsShown = 8

// answerScan answers `scan [FROM] TO` with a manifest: how many objects
// it read, then each API they use that is removed, deprecated or not yet
// served in TO, with what replaces it, the release and source that say
// so and the objects that use it; the objects of groups not built into
// Kubernetes; and the documents it could not read. A `kubectl version`
// in the manifest gives FROM when the question does not. It fails with
// EBADINPUT for a missing manifest, releases it does not know or in the
// wrong order, or a manifest without a single object.
func (e *Engine) answerScan(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	if e.readManifest == nil {
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "Scanning manifests is not set up here. Ask e.g. upgrade 1.32 1.36 or api Ingress instead.")
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	t := c.apis
	if !t.Known() {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "This knowledge holds no API lifecycle yet. Run bot ingest with ../shared/data/api-lifecycle, or bot sync, and scan again.")
	}
	if len(strings.TrimSpace(string(q.Manifest))) == 0 {
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "Send the manifests with the question: scan %s, then the YAML in the same message (a code block is fine), or attach a .yaml file. In a terminal: bot scan --to %s FILES.", q.To, q.To)
	}
	read, err := e.readManifest(q.Manifest)
	if err != nil {
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "I could not read those manifests: %s", err.Error()) // a ManifestReader's errors are sentences safe to show
	}
	from := q.Version
	if from.IsZero() {
		from = read.ServerVersion
	}
	if err := knowledge.CheckScanReleases(t, from, q.To); err != nil {
		return nil, err
	}
	if len(read.Objects) == 0 {
		return nil, noObjects(read)
	}
	r := t.Scan(read.Objects, from, q.To)
	a := &knowledge.Answer{Kind: knowledge.KindScan, Title: "Scan for Kubernetes " + q.To.String(), Text: r.Summary()}
	if !from.IsZero() {
		a.Title = fmt.Sprintf("Scan for Kubernetes %s → %s", from, q.To)
	}
	if from != q.Version {
		a.Notes = append(a.Notes, fmt.Sprintf("From %s: the server version of the kubectl version output you sent.", from))
	}
	var ids []string
	for _, g := range knowledge.GroupFindings(r.Findings) {
		a.Facts = append(a.Facts, knowledge.Fact{Name: g.Heading(), Value: g.Line(t, objectsLine(g.Objects), c.sources)})
		ids = append(ids, knowledge.UsedEvidence(g.API, knowledge.APIRemoved).Source, knowledge.UsedEvidence(g.API, knowledge.APIDeprecated).Source)
	}
	for _, g := range knowledge.GroupUnknown(r.Unknown) {
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Not built in: " + knowledge.SafeValue(g.APIVersion) + " " + knowledge.SafeValue(g.Kind), Value: g.Reason + " · " + objectsLine(g.Objects)})
	}
	for _, p := range read.Problems {
		a.Notes = append(a.Notes, problemLine(p))
	}
	if read.NotObjects > 0 {
		a.Notes = append(a.Notes, knowledge.Plural(read.NotObjects, "document was", "documents were")+" not a Kubernetes object (no apiVersion and kind) and were passed over.")
	}
	a.Sources = c.sourceRefs(ids)
	scanGates(c, read, q.To, a) // scan_gates.go
	return a, nil
}

// noObjects says why a manifest gave no object to scan.
func noObjects(read *knowledge.ManifestRead) error {
	if len(read.Problems) > 0 {
		return knowledge.Errorf(knowledge.EBADINPUT, "I could not read any Kubernetes object in that: %s", problemLine(read.Problems[0]))
	}
	return knowledge.Errorf(knowledge.EBADINPUT, "I found no Kubernetes object (a document with apiVersion and kind) in that. Paste the YAML or JSON of your manifests after the question.")
}

// problemLine writes a document that could not be read.
func problemLine(p knowledge.ManifestProblem) string {
	var where []string
	if p.File != "" {
		where = append(where, p.File)
	}
	if p.Document > 0 {
		where = append(where, "document "+strconv.Itoa(p.Document))
	}
	if p.Line > 0 {
		where = append(where, "line "+strconv.Itoa(p.Line))
	}
	if len(where) == 0 {
		return p.Message
	}
	return strings.Join(where, ", ") + ": " + p.Message
}

// objectsLine names the objects of one group: "3 objects: prod/web
// (document 2), api (document 5), …".
func objectsLine(objs []knowledge.ManifestObject) string {
	names := make([]string, 0, min(len(objs), maxScanObjectsShown))
	for i, o := range objs {
		if i == maxScanObjectsShown {
			names = append(names, fmt.Sprintf("and %d more", len(objs)-i))
			break
		}
		names = append(names, ObjectLabel(o))
	}
	return knowledge.Plural(len(objs), "object", "objects") + ": " + strings.Join(names, ", ")
}

// ObjectLabel names an object by namespace/name and where it is: the
// helm template, else the document (and list item) of its file.
func ObjectLabel(o knowledge.ManifestObject) string {
	name := o.DisplayName()
	var where string
	switch {
	case o.Template != "":
		where = knowledge.SafeValue(o.Template)
	case o.File != "":
		where = knowledge.SafeValue(o.File) + " document " + strconv.Itoa(o.Document)
	default:
		where = "document " + strconv.Itoa(o.Document)
	}
	if o.Item > 0 {
		where += " item " + strconv.Itoa(o.Item)
	}
	return name + " (" + where + ")"
}
