package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// SARIF 2.1.0, the few types a report needs, as the OASIS standard's
// schema names them (https://docs.oasis-open.org/sarif/sarif/v2.1.0/).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Invocations        []sarifInvocation           `json:"invocations"`
		Results            []sarifResult               `json:"results"`
		Properties         map[string]any              `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name"`
		ShortDescription     sarifMessage   `json:"shortDescription"`
		FullDescription      sarifMessage   `json:"fullDescription"`
		DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties,omitempty"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]any    `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// SARIFSchema is the schema a report names.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// GitHub code scanning's limits on an uploaded SARIF file
// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#file-limits):
// at most 25,000 results a run; a larger run is refused. kepbot writes one
// run and one location a result.
const githubMaxResults = 25000

// fingerprintKey names kepbot's partial fingerprint: a hash of what the
// finding is and where the object is, not its line, so a result keeps its
// identity when lines move.
const fingerprintKey = "kepbotFinding/v1"

// Rule is one kind of finding as SARIF (and GitHub's code scanning) names
// it: a status of a scan's finding, or an input that could not be read.
type Rule struct {
	ID, Name, Short, Full string
	Level                 string // error for what breaks at --to, warning for deprecations
}

// Rules lists the SARIF rules, one a kind of finding; a new kind of finding
// (a removed feature gate) adds its rule here and its status to StatusRule.
var Rules = []Rule{
	{"removed-api", "RemovedAPI", "API version removed at the target release", "The object uses an API version that the target release no longer serves; applying it fails there.", "error"},
	{"not-yet-served-api", "NotYetServedAPI", "API version not served yet at the target release", "The object uses an API version first served after the target release.", "error"},
	{"never-served-api", "NeverServedAPI", "API version or kind no release serves", "The object uses a version or kind of a built-in group that no Kubernetes release serves.", "error"},
	{"deprecated-api", "DeprecatedAPI", "API version deprecated at the target release", "The object uses an API version deprecated at or before the target release and still served there.", "warning"},
	{"unreadable-input", "UnreadableInput", "Input that could not be read or parsed", "A file or document could not be read or parsed, so its objects were not checked.", "error"},
	// the feature gates configurations set (gates.go: GateStatusRule)
	{"removed-feature-gate", "RemovedFeatureGate", "Feature gate removed at the target release", "The configuration sets a feature gate the target release's code no longer declares; the component does not start there (unrecognized feature gate).", "error"},
	{"not-yet-declared-feature-gate", "NotYetDeclaredFeatureGate", "Feature gate not declared yet at the target release", "The configuration sets a feature gate only later releases declare; the component does not start at the target.", "error"},
	{"locked-conflict-feature-gate", "LockedConflictFeatureGate", "Feature gate set against its lock", "The configuration sets a feature gate to the opposite of the value the target release locks it to; the component does not start there.", "error"},
	{"unknown-feature-gate", "UnknownFeatureGate", "Feature gate no release declares", "The configuration sets a feature gate no release read declares (or declares in another case); the component does not start.", "error"},
	{"invalid-feature-gate-value", "InvalidFeatureGateValue", "Feature gate set to a value that is not true or false", "The configuration sets a feature gate to a value the component does not read as a boolean; the component does not start.", "error"},
	{"locked-feature-gate", "LockedFeatureGate", "Feature gate set to its locked value", "The configuration sets a feature gate to the value the target release locks it to: it has no effect, and locked gates are removed a few releases on.", "warning"},
	{"deprecated-feature-gate", "DeprecatedFeatureGate", "Feature gate deprecated at the target release", "The configuration sets a feature gate the target release declares deprecated; it will be removed.", "warning"},
	{"uncertain-feature-gate", "UncertainFeatureGate", "Feature gate the code read cannot settle at the target release", "The configuration sets a feature gate that, at the target release, only a module the component may register declares, or whose declaring module's code of that release was not read; whether the component starts is not known.", "warning"},
}

// StatusRule maps a finding's status to the ID of its rule.
var StatusRule = map[knowledge.ScanStatus]string{
	knowledge.ScanRemoved:      "removed-api",
	knowledge.ScanNotYetServed: "not-yet-served-api",
	knowledge.ScanNotServed:    "never-served-api",
	knowledge.ScanDeprecated:   "deprecated-api",
}

// writeSARIF writes the report as a SARIF 2.1.0 log of one run: a result
// a finding (and an unreadable input), each with its file and line (or a
// cluster object's k8s:// URI) and a stable partial fingerprint.
func (o *output) writeSARIF(w io.Writer) error {
	rules := make([]sarifRule, len(Rules))
	index := map[string]int{}
	for i, r := range Rules {
		rules[i] = sarifRule{ID: r.ID, Name: r.Name, ShortDescription: sarifMessage{r.Short}, FullDescription: sarifMessage{r.Full},
			DefaultConfiguration: sarifConfig{r.Level}, Properties: map[string]any{"tags": []string{"kubernetes", ruleTag(r.ID)}}}
		index[r.ID] = i
	}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "kepbot", InformationURI: "https://github.com/kepbot/kepbot", Rules: rules}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}}, Results: []sarifResult{},
		Properties: map[string]any{"to": o.report.To.String()}}
	if !o.report.From.IsZero() {
		run.Properties["from"] = o.report.From.String()
	}
	if o.baseDir != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{"SRCROOT": {URI: dirURI(o.baseDir)}}
	}
	add := func(r sarifResult) { run.Results = append(run.Results, r) }
	for _, g := range knowledge.GroupFindings(o.report.Findings) {
		id := StatusRule[g.Status]
		advice := g.Line(o.t, "", o.sources)
		advice = strings.TrimSuffix(advice, " · ")
		for _, obj := range g.Objects {
			msg := fmt.Sprintf("%s (%s): %s", g.Heading(), obj.DisplayName(), advice)
			props := map[string]any{"apiVersion": knowledge.SafeValue(obj.APIVersion), "kind": knowledge.SafeValue(obj.Kind), "status": string(g.Status)}
			if obj.Source != "" {
				props["source"] = obj.Source
			}
			if obj.HelmRelease != "" {
				props["helmRelease"] = knowledge.SafeValue(obj.HelmRelease)
			}
			loc := o.location(obj.File, obj.Line)
			add(sarifResult{RuleID: id, RuleIndex: index[id], Level: Rules[index[id]].Level, Message: sarifMessage{msg},
				Locations: []sarifLocation{loc},
				PartialFingerprints: map[string]string{fingerprintKey: fingerprint(id, loc.PhysicalLocation.ArtifactLocation.URI,
					obj.APIVersion, obj.Kind, obj.Namespace, obj.Name, obj.Template, obj.Source, obj.HelmRelease)},
				Properties: props})
		}
	}
	o.gatesSARIF(add, index) // gates.go
	for _, p := range o.read.Problems {
		id := "unreadable-input"
		loc := o.location(p.File, p.Line)
		add(sarifResult{RuleID: id, RuleIndex: index[id], Level: "error", Message: sarifMessage{ProblemText(p)},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprint(id, loc.PhysicalLocation.ArtifactLocation.URI, fmt.Sprint(p.Document), p.Message)}})
	}
	if n := len(run.Results); n > githubMaxResults {
		run.Results = run.Results[:githubMaxResults]
		run.Invocations[0].Notifications = append(run.Invocations[0].Notifications, sarifNotification{Level: "warning",
			Message: sarifMessage{fmt.Sprintf("%d results were left out: GitHub code scanning takes at most %d a run; the JSON report (--format json) has them all", n-githubMaxResults, githubMaxResults)}})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// location is a result's place: a file relative to the base folder (with
// its line), stdin, or a cluster object's k8s://namespace/kind/name.
func (o *output) location(file string, line int) sarifLocation {
	loc := sarifArtifactLoc{URI: file}
	switch {
	case strings.HasPrefix(file, "k8s://"), file == StdinName:
	default:
		p := file
		if o.baseDir != "" {
			if abs, err := filepath.Abs(p); err == nil {
				if rel, err := filepath.Rel(o.baseDir, abs); err == nil && !strings.HasPrefix(rel, "..") {
					p = rel
					loc.URIBaseID = "SRCROOT"
				}
			}
		}
		loc.URI = pathURI(p)
	}
	var region *sarifRegion
	if line > 0 {
		region = &sarifRegion{StartLine: line}
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: loc, Region: region}}
}

// pathURI writes a file path as a URI reference: relative with / between
// escaped segments, or file:// for an absolute path.
func pathURI(p string) string {
	segs := strings.Split(filepath.ToSlash(p), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if filepath.IsAbs(p) {
		return "file://" + u
	}
	return u
}

// dirURI writes a folder as a file:// URI ending in /.
func dirURI(dir string) string {
	u := pathURI(dir)
	if !strings.HasPrefix(u, "file://") {
		u = "file:///" + u
	}
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// fingerprint hashes what identifies a result.
func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:16])
}
