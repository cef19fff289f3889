package scan

import "github.com/kepbot/kepbot/knowledge"

// Exit codes of bot scan, for CI. The report decides them in ExitCode;
// ExitBadInput and ExitInterrupted* are the command line's.
const (
	ExitClean          = 0   // nothing removed or deprecated
	ExitBadInput       = 2   // bad arguments
	ExitUnreadable     = 3   // an input could not be read or parsed (or kepbot broke)
	ExitDeprecated     = 4   // only deprecations
	ExitRemoved        = 5   // something is not served in the target
	ExitVulnerable     = 6   // with --fail-on cve: the cluster's own release has known vulnerabilities
	ExitInterrupted    = 130 // stopped by SIGINT (Ctrl-C)
	ExitInterruptedTER = 143 // stopped by SIGTERM
)

// ExitMeaning is one exit code of bot scan and what it means.
type ExitMeaning struct {
	Code    int
	Meaning string
}

// ExitCodes lists bot scan's exit codes, in the order CI reads them, for
// its help and the table in docs/scan.md.
var ExitCodes = []ExitMeaning{
	{ExitClean, "nothing found (objects not built into Kubernetes do not count; nor an empty or comment-only file)"},
	{ExitDeprecated, "only deprecations, or feature gates set that are deprecated, set to their locked value, or that the code read cannot settle there (uncertain) (0 with --fail-on removed)"},
	{ExitRemoved, "something is removed, never served, or not served yet in --to, or a feature gate set is removed, not declared yet, unknown, set against its lock or set to what is not true or false there (wins over 3 and 4)"},
	{ExitVulnerable, "with --fail-on cve only: the live cluster's own patch release (or a pasted `kubectl version`'s server) has known vulnerabilities and nothing is removed (5 and 3 win; wins over 4)"},
	{ExitUnreadable, "an input could not be read or parsed (--ignore-unreadable lists it and passes over it), or kepbot broke: the database cannot be opened or holds no API lifecycle"},
	{ExitBadInput, "bad arguments: no --to, a release kepbot does not know (1.99), --from not older than --to, no input"},
	{ExitInterrupted, "stopped by SIGINT (Ctrl-C); 143 by SIGTERM"},
}

// ExitCode is the exit code a report calls for: ExitRemoved when an
// object breaks in the target, else ExitUnreadable when an input could
// not be read (unreadable > 0), else ExitDeprecated when something is
// deprecated, else ExitClean. A new kind of finding joins here and in
// knowledge.ScanReport.Breaks.
func ExitCode(report *knowledge.ScanReport, unreadable int) int {
	switch {
	case report.Breaks() || report.GatesBreak():
		return ExitRemoved
	case unreadable > 0:
		return ExitUnreadable
	case report.Count(knowledge.ScanDeprecated) > 0 || report.GatesWarn():
		return ExitDeprecated
	}
	return ExitClean
}
