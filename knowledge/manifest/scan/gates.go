package scan

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The feature gates the inputs' configurations set (knowledge.GateSetting,
// read by package manifest as it reads each document), checked against
// what the code of the target release declares: a part of the report of
// its own, with its own exit codes (knowledge.ScanReport.GatesBreak and
// GatesWarn).

// gateLister is a knowledge that holds the releases' feature gates.
type gateLister interface {
	ListFeatureGates(ctx context.Context) ([]knowledge.FeatureGate, []knowledge.GatesRead, error)
}

// checkGates checks the gates read sets at to into report.Gates. When it
// cannot (the knowledge holds no feature gates, or not to's), note says
// so, once, if any gate was set.
func checkGates(ctx context.Context, kb Knowledge, read *knowledge.ManifestRead, report *knowledge.ScanReport, note func(string)) error {
	if len(read.Gates) == 0 {
		return nil
	}
	say := func(s string) {
		if note != nil {
			note(s)
		}
	}
	gl, ok := kb.(gateLister)
	if !ok {
		say("the knowledge holds no release's feature gates, so the gates the configurations set were not checked")
		return nil
	}
	gates, reads, err := gl.ListFeatureGates(ctx)
	if err != nil {
		return err
	}
	t := knowledge.NewGateTable(gates, reads)
	var checked bool
	if report.Gates, checked = knowledge.CheckGates(read.Gates, t, report.To); !checked {
		if !t.Known() {
			say("the knowledge holds no release's feature gates (bot ingest ../shared/data/feature-gates, or bot sync), so the gates the configurations set were not checked")
		} else {
			say(fmt.Sprintf("I have not read the code of %s (the releases read are %s-%s), so the gates the configurations set were not checked", report.To, reads[0].Release, t.Newest()))
		}
	}
	return nil
}

// GateJSON is one gate finding in bot scan --json.
type GateJSON struct {
	File      string  `json:"file"`
	Document  int     `json:"document"`
	Line      int     `json:"line"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Component string  `json:"component"`
	Gate      string  `json:"gate"`
	Value     bool    `json:"value"`
	Status    string  `json:"status"`
	RemovedIn *string `json:"removed_in"`
	// RemovedBy is set where the release it was removed in is not known
	// (a module of RemovedIn was not read): removed in RemovedIn or
	// RemovedBy.
	RemovedBy *string `json:"removed_by,omitempty"`
	// Modules are the modules that declare it at the target that the
	// component does not register, or only may (status uncertain).
	Modules []string `json:"modules,omitempty"`
	// InvalidValue is the value as written when the component does not
	// read it as true or false (status invalid_value; value is then false).
	InvalidValue string `json:"invalid_value,omitempty"`
}

// gatesJSON is the report's gate findings for --json, never null.
func (o *output) gatesJSON() []GateJSON {
	out := []GateJSON{}
	for _, f := range o.report.Gates {
		out = append(out, GateJSON{File: f.File, Document: f.Document, Line: f.Line, Kind: f.Kind, Name: f.Name,
			Component: f.Component, Gate: f.Gate, Value: f.Value, Status: string(f.Status), RemovedIn: versionPtr(f.RemovedIn), Modules: f.Modules, InvalidValue: f.Invalid})
		if f.RemovedBy != f.RemovedIn {
			out[len(out)-1].RemovedBy = versionPtr(f.RemovedBy)
		}
	}
	return out
}

// writeGatesText writes the gate findings, what each component will do:
// "kube-apiserver 1.33 will not start: feature gate X was removed in 1.33".
func (o *output) writeGatesText(bw *bufio.Writer) {
	if len(o.report.Gates) == 0 {
		return
	}
	fmt.Fprintf(bw, "\nFeature gates (%s):\n", knowledge.GateFindingsSummary(o.report.Gates))
	for _, f := range o.report.Gates {
		where := fmt.Sprintf("%s document %d line %d", f.File, f.Document, f.Line)
		if f.File == "" {
			where = fmt.Sprintf("document %d line %d", f.Document, f.Line)
		}
		obj := knowledge.SafeValue(f.Kind)
		if f.Name != "" {
			obj += " " + knowledge.SafeValue(f.Name)
		}
		fmt.Fprintf(bw, "  - %s (%s, %s)\n", knowledge.GateFindingText(f, o.report.To), obj, where)
	}
}

// ListFeatureGates gives the gates of the knowledge held in memory (the
// built-in snapshot), so a scan against it checks them too.
func (m memory) ListFeatureGates(context.Context) ([]knowledge.FeatureGate, []knowledge.GatesRead, error) {
	return m.k.FeatureGates, m.k.GateReads, nil
}

// GateStatusRule maps a gate finding's status to the ID of its SARIF rule.
var GateStatusRule = map[knowledge.GateScanStatus]string{
	knowledge.GateScanRemoved:        "removed-feature-gate",
	knowledge.GateScanNotYet:         "not-yet-declared-feature-gate",
	knowledge.GateScanLockedConflict: "locked-conflict-feature-gate",
	knowledge.GateScanUnknown:        "unknown-feature-gate",
	knowledge.GateScanInvalidValue:   "invalid-feature-gate-value",
	knowledge.GateScanLocked:         "locked-feature-gate",
	knowledge.GateScanDeprecated:     "deprecated-feature-gate",
	knowledge.GateScanUncertain:      "uncertain-feature-gate",
}

// ruleTag is the code scanning tag of a rule: feature-gate or
// api-deprecation.
func ruleTag(id string) string {
	if strings.HasSuffix(id, "-feature-gate") {
		return "feature-gate"
	}
	return "api-deprecation"
}

// gatesSARIF adds a SARIF result a gate finding: what the component does
// at the target, at the gate's file and line, fingerprinted by what is
// set where (not by its line).
func (o *output) gatesSARIF(add func(sarifResult), index map[string]int) {
	for _, f := range o.report.Gates {
		id := GateStatusRule[f.Status]
		loc := o.location(f.File, f.Line)
		add(sarifResult{RuleID: id, RuleIndex: index[id], Level: Rules[index[id]].Level, Message: sarifMessage{knowledge.GateFindingText(f, o.report.To)},
			Locations: []sarifLocation{loc},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprint(id, loc.PhysicalLocation.ArtifactLocation.URI,
				f.Kind, f.Name, f.Component, f.Gate, fmt.Sprint(f.Value))},
			Properties: map[string]any{"kind": knowledge.SafeValue(f.Kind), "component": f.Component, "gate": knowledge.SafeValue(f.Gate),
				"value": f.Value, "status": string(f.Status)}})
	}
}
