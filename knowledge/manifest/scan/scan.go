package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The forms of a report: Request.Format.
const (
	FormatText  = "text"
	FormatJSON  = "json"
	FormatSARIF = "sarif"
)

// Formats lists the forms a report can take, for --format.
var Formats = []string{FormatText, FormatJSON, FormatSARIF}

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
	// Format is how the report is written: FormatText (also ""),
	// FormatJSON or FormatSARIF.
	Format string
	// BaseDir is the folder SARIF's file locations are relative to (the
	// repository's root in CI); "" leaves paths as given.
	BaseDir string
	// Read, when set, gives the objects to check instead of Paths: the
	// objects of a live cluster. It may keep only the objects check says
	// would be findings; its Documents counts the objects it looked at.
	Read func(ctx context.Context, check func(apiVersion, kind string) bool) (*knowledge.ManifestRead, error)
	// IgnoreUnreadable lists what could not be read without making the
	// exit ExitUnreadable (but nothing readable at all is an InputError).
	IgnoreUnreadable bool
	// FailOnCVE makes known vulnerabilities of a live cluster's own
	// release exit ExitVulnerable, when nothing is removed and every input
	// was read; without it they never change the exit code.
	FailOnCVE bool
	// Problem is told each input that could not be read, and Note what
	// the report should not be read without (a kubectl version naming no
	// server); each line once, for standard error.
	Problem, Note func(line string)
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
	if err := checkReleases(t, from, to, "--from "+from.String()); err != nil {
		return 0, err
	}
	var read *knowledge.ManifestRead
	if req.Read != nil {
		if read, err = req.Read(ctx, findsIn(t, to)); err != nil {
			return 0, err
		}
	} else {
		read = ReadInputs(ctx, req.Paths, req.Stdin)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	tell(req.Problem, read.Problems)
	if read.Documents == 0 && len(read.Objects) == 0 && len(read.Problems) > 0 && req.IgnoreUnreadable {
		return 0, inputError("nothing readable: none of the inputs held a YAML or JSON document")
	}
	if from.IsZero() && read.Kubectl && read.ServerVersion.IsZero() && req.Note != nil {
		req.Note("the kubectl version output among the inputs names no server version (kubectl could not reach the cluster?), so the release you run is unknown; give --from")
	}
	if from.IsZero() && !read.ServerVersion.IsZero() {
		from = read.ServerVersion
		if err := checkReleases(t, from, to, "the kubectl version among the inputs says the server runs "+from.String()+", which"); err != nil {
			return 0, err
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	report := t.Scan(read.Objects, from, to)
	if err := checkGates(ctx, kb, read, report, req.Note); err != nil { // gates.go
		return 0, err
	}
	if req.Read != nil {
		report.Objects = read.Documents // the objects looked at, not only those kept
	}
	o := &output{t: t, report: report, read: read, sources: sourcesByID(ctx, kb), baseDir: req.BaseDir}
	if o.server, err = serverCVEs(ctx, kb, read, o.sources); err != nil {
		return 0, err
	}
	switch req.Format {
	case FormatJSON:
		err = o.writeJSON(out)
	case FormatSARIF:
		err = o.writeSARIF(out)
	default:
		err = o.writeText(out)
	}
	if err != nil {
		return 0, err
	}
	unreadable := len(read.Problems)
	if req.IgnoreUnreadable {
		unreadable = 0
	}
	code := ExitCode(report, unreadable)
	if req.FailOnCVE && o.server.open() > 0 && (code == ExitClean || code == ExitDeprecated) {
		code = ExitVulnerable
	}
	return code, nil
}

// checkReleases says, in the command line's words, why a scan from from
// to to cannot be made: to is newer than the API sources know, or from
// (which fromWords names) is not older than to.
func checkReleases(t *knowledge.APITable, from, to knowledge.Version, fromWords string) error {
	latest := t.Latest()
	switch {
	case latest.Less(to):
		return inputError("I don't know Kubernetes %s: the newest release my API sources know is %s; give --to %s or older (bot sync brings newer releases into a database)", to, latest, latest)
	case !from.IsZero() && !from.Less(to):
		if !strings.HasPrefix(fromWords, "--from") {
			return inputError("%s is not older than --to %s: give a --to newer than the release the cluster runs", fromWords, to)
		}
		msg := fmt.Sprintf("%s is not older than --to %s: --from is the release you run, --to the one you go to", fromWords, to)
		if to.Less(from) {
			msg += fmt.Sprintf(" (bot scan --from %s --to %s …)", to, from)
		}
		return inputError("%s", msg)
	}
	return nil
}

// findsIn returns whether an object of an apiVersion and kind would be a
// finding at to, remembering each answer.
func findsIn(t *knowledge.APITable, to knowledge.Version) func(apiVersion, kind string) bool {
	seen := map[[2]string]bool{}
	return func(apiVersion, kind string) bool {
		k := [2]string{apiVersion, kind}
		f, ok := seen[k]
		if !ok {
			f = len(t.Scan([]knowledge.ManifestObject{{APIVersion: apiVersion, Kind: kind}}, knowledge.Version{}, to).Findings) > 0
			seen[k] = f
		}
		return f
	}
}

// tell tells f each problem, when f is set.
func tell(f func(string), problems []knowledge.ManifestProblem) {
	if f == nil {
		return
	}
	for _, p := range problems {
		f(ProblemText(p))
	}
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

// InMemory is the Knowledge of k held in memory: the built-in snapshot,
// for a scan given no database, which then reads and writes no file.
func InMemory(k *knowledge.Knowledge) Knowledge { return memory{k} }

type memory struct{ k *knowledge.Knowledge }

func (m memory) ListAPIs(context.Context) ([]knowledge.APILifecycle, []knowledge.Version, error) {
	return m.k.APIs, m.k.APIReleases, nil
}

func (m memory) ListSources(context.Context) ([]knowledge.Source, error) { return m.k.Sources, nil }

func (m memory) ListVulns(context.Context) ([]knowledge.Vuln, error) { return m.k.Vulns, nil }
