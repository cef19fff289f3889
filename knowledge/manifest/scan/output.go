package scan

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// output writes a scan's report as text or as JSON.
type output struct {
	t       *knowledge.APITable
	report  *knowledge.ScanReport
	read    *knowledge.ManifestRead
	sources map[string]knowledge.Source
	baseDir string      // what SARIF's file locations are relative to
	server  *ServerCVEs // the cluster's own release's vulnerabilities, nil when not known
}

// writeText writes the summary, then each API with its findings' objects
// (file, line, document, name), the objects not built in, the documents
// that could not be read, and the sources.
func (o *output) writeText(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	r := o.report
	head := "Scan for Kubernetes " + r.To.String()
	if !r.From.IsZero() {
		head += " from " + r.From.String()
	}
	fmt.Fprintf(bw, "%s: %s\n", head, r.Summary())
	var ids []string
	for _, g := range knowledge.GroupFindings(r.Findings) {
		fmt.Fprintf(bw, "\n%s (%s)\n", g.Heading(), g.API.Level().Label())
		fmt.Fprintf(bw, "  %s\n", g.Line(o.t, knowledge.Plural(len(g.Objects), "object", "objects")+":", o.sources))
		for _, obj := range g.Objects {
			fmt.Fprintf(bw, "    - %s\n", objectText(obj))
		}
		ids = append(ids, usedSources(g.API, g.Status)...)
	}
	if groups := knowledge.GroupUnknown(r.Unknown); len(groups) > 0 {
		fmt.Fprintf(bw, "\nNot built into Kubernetes (not checked):\n")
		for _, g := range groups {
			fmt.Fprintf(bw, "  %s %s: %s\n", knowledge.SafeValue(g.APIVersion), knowledge.SafeValue(g.Kind), g.Reason)
			for _, obj := range g.Objects {
				fmt.Fprintf(bw, "    - %s\n", objectText(obj))
			}
		}
	}
	o.writeGatesText(bw) // gates.go
	if len(o.read.Problems) > 0 {
		fmt.Fprintf(bw, "\nCould not read:\n")
		for _, p := range o.read.Problems {
			fmt.Fprintf(bw, "  %s\n", ProblemText(p))
		}
	}
	if gs := skipGroups(o.read.Skipped); len(gs) > 0 {
		fmt.Fprintf(bw, "\nPassed over:\n")
		for _, g := range gs {
			fmt.Fprintf(bw, "  %s: %s\n", strings.Join(g.files, ", "), g.reason)
		}
	}
	if n := o.read.NotObjects; n > 0 {
		fmt.Fprintf(bw, "\n%s not a Kubernetes object (no apiVersion and kind), passed over.\n", knowledge.Plural(n, "document was", "documents were"))
	}
	writeCVEsText(bw, o.server)
	if o.server != nil && o.server.Source != nil {
		ids = append(ids, o.server.Source.ID)
	}
	if refs := sourceRefs(o.sources, ids); len(refs) > 0 {
		fmt.Fprintln(bw)
		for _, s := range refs {
			asOf := "as of " + s.AsOf
			if s.AsOf == "" {
				asOf = "date unknown"
			}
			fmt.Fprintf(bw, "Source: %s, %s\n", s.Name, asOf)
		}
	}
	return bw.Flush()
}

// skipGroup is the inputs passed over for one reason.
type skipGroup struct {
	reason string
	files  []string
}

// skipGroups gathers what was passed over by reason, in the order first
// seen, so each reason is said once.
func skipGroups(skipped []knowledge.ManifestSkip) []skipGroup {
	var out []skipGroup
	at := map[string]int{}
	for _, s := range skipped {
		i, ok := at[s.Reason]
		if !ok {
			i = len(out)
			at[s.Reason] = i
			out = append(out, skipGroup{reason: s.Reason})
		}
		out[i].files = append(out[i].files, s.File)
	}
	return out
}

// objectText names an object where it is: "prod/web  app.yaml:12
// (document 2, item 3; template chart/templates/web.yaml)".
func objectText(o knowledge.ManifestObject) string {
	name := o.DisplayName()
	switch o.Source {
	case knowledge.SourceMetrics:
		return fmt.Sprintf("requests to %s since the apiserver started (its apiserver_requested_deprecated_apis metric)", knowledge.SafeValue(o.Name))
	case knowledge.SourceObject:
		return fmt.Sprintf("%s  %s (a writer used this version: its managedFields)", name, o.File)
	case knowledge.SourceHelmRelease:
		return fmt.Sprintf("%s  Helm release %s, template %s  (%s, document %d)", name, knowledge.SafeValue(o.HelmRelease), knowledge.SafeValue(o.Template), o.File, o.Document)
	}
	where := []string{fmt.Sprintf("document %d", o.Document)}
	if o.Item > 0 {
		where = append(where, fmt.Sprintf("item %d", o.Item))
	}
	if o.Template != "" {
		where = append(where, "template "+knowledge.SafeValue(o.Template))
	}
	return fmt.Sprintf("%s  %s:%d (%s)", name, o.File, o.Line, strings.Join(where, ", "))
}

// usedSources lists the sources a finding's status rests on.
func usedSources(l *knowledge.APILifecycle, status knowledge.ScanStatus) []string {
	action := knowledge.APIRemoved
	switch status {
	case knowledge.ScanDeprecated:
		action = knowledge.APIDeprecated
	case knowledge.ScanNotYetServed:
		action = knowledge.APIIntroduced
	}
	var ids []string
	for _, e := range l.Evidence {
		if e.Used && e.Action == action && e.Replacement == nil {
			ids = append(ids, e.Source)
		}
	}
	return ids
}

// sourceRefs names the sources with the given IDs, each once.
func sourceRefs(sources map[string]knowledge.Source, ids []string) []SourceJSON {
	var out []SourceJSON
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		s := sources[id]
		name := s.Name
		if name == "" {
			name = id
		}
		out = append(out, SourceJSON{Name: name, AsOf: s.AsOf, URL: s.URL})
	}
	return out
}

// The JSON of bot scan --json: one object.
type (
	JSON struct {
		From     *string                  `json:"from"`
		To       string                   `json:"to"`
		Objects  int                      `json:"objects"`
		Findings []FindingJSON            `json:"findings"`
		Unknown  []UnknownJSON            `json:"unknown"`
		Errors   []ErrorJSON              `json:"errors"`
		Skipped  []knowledge.ManifestSkip `json:"skipped"`
		// Server is the cluster's own release and its known
		// vulnerabilities, for a scan of a live cluster.
		Server *ServerCVEs `json:"server,omitempty"`
		Gates  []GateJSON  `json:"gates"` // gates.go
	}
	FindingJSON struct {
		File         string           `json:"file"`
		Document     int              `json:"document"`
		Item         *int             `json:"item"`
		Line         int              `json:"line"`
		APIVersion   string           `json:"api_version"`
		Kind         string           `json:"kind"`
		Name         string           `json:"name"`
		Namespace    string           `json:"namespace"`
		Template     string           `json:"template,omitempty"`
		Source       string           `json:"source,omitempty"`       // a cluster's: metrics, object, helm-release
		HelmRelease  string           `json:"helm_release,omitempty"` // the Helm release whose manifest holds it
		Status       string           `json:"status"`
		Level        string           `json:"level"`
		DeprecatedIn *string          `json:"deprecated_in"`
		RemovedIn    *string          `json:"removed_in"`
		Replacement  *ReplacementJSON `json:"replacement"`
		// ReplacementBefore is what a cluster older than Until moves to
		// first, when Replacement is not served there yet (the text's
		// "before 1.29, …").
		ReplacementBefore *BridgeJSON  `json:"replacement_before"`
		Sources           []SourceJSON `json:"sources"`
	}
	BridgeJSON struct {
		APIVersion  string  `json:"api_version"`
		Kind        string  `json:"kind"`
		AvailableIn *string `json:"available_in"`
		Until       string  `json:"until"`
	}
	ReplacementJSON struct {
		APIVersion  string  `json:"api_version"`
		Kind        string  `json:"kind"`
		AvailableIn *string `json:"available_in"`
	}
	SourceJSON struct {
		Name string `json:"name"`
		AsOf string `json:"as_of,omitempty"`
		URL  string `json:"url,omitempty"`
		PR   int    `json:"pr,omitempty"`
	}
	UnknownJSON struct {
		File       string `json:"file"`
		Document   int    `json:"document"`
		Item       *int   `json:"item"`
		Line       int    `json:"line"`
		APIVersion string `json:"api_version"`
		Kind       string `json:"kind"`
		Reason     string `json:"reason"`
	}
	ErrorJSON struct {
		File     string `json:"file"`
		Document *int   `json:"document"`
		Line     *int   `json:"line"`
		Message  string `json:"message"`
	}
)

// writeJSON writes the report as one JSON object, for CI.
func (o *output) writeJSON(w io.Writer) error {
	r := o.report
	out := JSON{To: r.To.String(), Objects: r.Objects, From: versionPtr(r.From),
		Findings: []FindingJSON{}, Unknown: []UnknownJSON{}, Errors: []ErrorJSON{}, Skipped: o.read.Skipped, Server: o.server,
		Gates: o.gatesJSON()}
	if out.Skipped == nil {
		out.Skipped = []knowledge.ManifestSkip{}
	}
	for _, f := range r.Findings {
		ob := f.Object
		fj := FindingJSON{File: ob.File, Document: ob.Document, Item: intPtr(ob.Item), Line: ob.Line,
			APIVersion: ob.APIVersion, Kind: ob.Kind, Name: ob.Name, Namespace: ob.Namespace, Template: ob.Template,
			Source: ob.Source, HelmRelease: ob.HelmRelease,
			Status: string(f.Status), Level: string(f.API.Level()),
			DeprecatedIn: versionPtr(f.DeprecatedIn), RemovedIn: versionPtr(f.RemovedIn)}
		if f.Replacement != nil {
			fj.Replacement = &ReplacementJSON{APIVersion: f.Replacement.GroupVersion(), Kind: f.Replacement.Kind, AvailableIn: versionPtr(f.AvailableIn)}
		}
		if b := f.Bridge; b != nil {
			fj.ReplacementBefore = &BridgeJSON{APIVersion: b.API.GroupVersion(), Kind: b.API.Kind, AvailableIn: versionPtr(b.Introduced), Until: f.API.Removed.String()}
		}
		fj.Sources = o.findingSources(f)
		out.Findings = append(out.Findings, fj)
	}
	for _, u := range r.Unknown {
		ob := u.Object
		out.Unknown = append(out.Unknown, UnknownJSON{File: ob.File, Document: ob.Document, Item: intPtr(ob.Item), Line: ob.Line,
			APIVersion: ob.APIVersion, Kind: ob.Kind, Reason: u.Reason})
	}
	for _, p := range o.read.Problems {
		out.Errors = append(out.Errors, ErrorJSON{File: p.File, Document: intPtr(p.Document), Line: intPtr(p.Line), Message: p.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// findingSources names what a finding's status rests on, with the pull
// request of a release note.
func (o *output) findingSources(f knowledge.ScanFinding) []SourceJSON {
	action := knowledge.APIRemoved
	switch f.Status {
	case knowledge.ScanDeprecated:
		action = knowledge.APIDeprecated
	case knowledge.ScanNotYetServed:
		action = knowledge.APIIntroduced
	}
	out := []SourceJSON{}
	for _, e := range f.API.Evidence {
		if !e.Used || e.Action != action || e.Replacement != nil {
			continue
		}
		s := sourceRefs(o.sources, []string{e.Source})[0]
		if e.PR > 0 {
			s.PR = e.PR
			s.URL = fmt.Sprintf("https://github.com/kubernetes/kubernetes/pull/%d", e.PR)
		}
		out = append(out, s)
	}
	return out
}

func versionPtr(v knowledge.Version) *string {
	if v.IsZero() {
		return nil
	}
	s := v.String()
	return &s
}

func intPtr(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}
