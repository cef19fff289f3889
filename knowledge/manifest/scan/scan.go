package scan

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kepbot/kepbot/knowledge"
)

// Exit codes of bot scan, for CI: what the manifests hold decides them.
const (
	ExitClean      = 0 // nothing removed or deprecated
	ExitDeprecated = 4 // only deprecations
	ExitRemoved    = 5 // something is not served in the target
)

// ErrNoLifecycle is Run's error when the knowledge holds no API lifecycle
// to check against; the caller says where the knowledge came from.
var ErrNoLifecycle = errors.New("the knowledge holds no API lifecycle")

// InputError is Run's error when what it was given cannot be scanned:
// a release the knowledge does not know, nothing readable. Message is a
// sentence for the user; any other error of Run is a failure on our side.
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

func inputError(format string, a ...any) error {
	return &InputError{Message: fmt.Sprintf(format, a...)}
}

// Knowledge is what a scan reads from the knowledge.
type Knowledge interface {
	ListAPIs(ctx context.Context) ([]knowledge.APILifecycle, []knowledge.Version, error)
	ListSources(ctx context.Context) ([]knowledge.Source, error)
}

// Request is one scan: the releases, the inputs, the output's form.
type Request struct {
	From  knowledge.Version // zero: a kubectl version among the inputs gives it, if any
	To    knowledge.Version
	Paths []string  // files, folders, StdinArg
	Stdin io.Reader // read for StdinArg
	JSON  bool      // one JSON object instead of text
	// Problem is told each input that could not be read when none could.
	Problem func(line string)
}

// Run scans the request's inputs and writes the report to out. It returns
// ExitClean, ExitDeprecated or ExitRemoved; or an error: *InputError
// when the request cannot be scanned, ErrNoLifecycle, or another error
// when something broke.
func Run(ctx context.Context, kb Knowledge, req Request, out io.Writer) (int, error) {
	types, releases, err := kb.ListAPIs(ctx)
	if err != nil {
		return 0, err
	}
	t := knowledge.NewAPITable(types, releases)
	if !t.Known() {
		return 0, ErrNoLifecycle
	}
	from, to := req.From, req.To
	if err := knowledge.CheckScanReleases(t, from, to); err != nil {
		return 0, inputError("%s", knowledge.ErrorMessage(err))
	}
	read := ReadInputs(ctx, req.Paths, req.Stdin)
	if read.Documents == 0 && len(read.Objects) == 0 {
		if req.Problem != nil {
			for _, p := range read.Problems {
				req.Problem(ProblemText(p))
			}
		}
		return 0, inputError("nothing readable: none of the inputs held a YAML or JSON document")
	}
	if from.IsZero() && !read.ServerVersion.IsZero() {
		from = read.ServerVersion
		if err := knowledge.CheckScanReleases(t, from, to); err != nil {
			return 0, inputError("the kubectl version among the inputs says the server runs %s: %s", from, knowledge.ErrorMessage(err))
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	report := t.Scan(read.Objects, from, to)
	o := &output{t: t, report: report, read: read, sources: sourcesByID(ctx, kb)}
	if req.JSON {
		err = o.writeJSON(out)
	} else {
		err = o.writeText(out)
	}
	if err != nil {
		return 0, err
	}
	return ExitCode(report), nil
}

// ExitCode is the exit code a report calls for.
func ExitCode(report *knowledge.ScanReport) int {
	switch {
	case report.Breaks():
		return ExitRemoved
	case report.Count(knowledge.ScanDeprecated) > 0:
		return ExitDeprecated
	}
	return ExitClean
}

// sourcesByID lists the knowledge's sources by ID, for naming what a
// finding rests on; empty when they cannot be read.
func sourcesByID(ctx context.Context, kb Knowledge) map[string]knowledge.Source {
	out := map[string]knowledge.Source{}
	srcs, err := kb.ListSources(ctx)
	if err != nil {
		return out
	}
	for _, s := range srcs {
		out[s.ID] = s
	}
	return out
}
