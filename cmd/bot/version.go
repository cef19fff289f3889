package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set with -ldflags "-X main.version=... -X main.commit=..."; where they
// are not, the version and commit come from what Go embedded in the binary
// (see buildVersion).
var (
	version = "dev"
	commit  = "unknown"
)

// buildInfo is the version of this binary, from the linker flags where
// they were given, else from debug.ReadBuildInfo.
type buildInfo struct {
	Version  string // v1.2.3, a pseudo-version, or dev
	Commit   string // the VCS revision, or unknown
	Time     string // the commit's time (RFC 3339), or ""
	Modified bool   // built from a tree with uncommitted changes
	Go       string // go1.26.0
}

// currentBuild is this binary's buildInfo.
func currentBuild() buildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return buildVersion(info, version, commit)
}

// buildVersion joins the linker's values (ldVersion, ldCommit; "dev" and
// "unknown" when not set) and what Go embedded (info, nil when there is
// none): the main module's version unless `go run` or `go test` left it
// "(devel)", and vcs.revision, vcs.time and vcs.modified, which `go build`
// records in a git checkout. A linker value wins where it is given.
func buildVersion(info *debug.BuildInfo, ldVersion, ldCommit string) buildInfo {
	b := buildInfo{Version: ldVersion, Commit: ldCommit, Go: runtime.Version()}
	if info == nil {
		return b
	}
	if info.GoVersion != "" {
		b.Go = info.GoVersion
	}
	if ldVersion == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = info.Main.Version
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	if ldCommit == "unknown" && vcs["vcs.revision"] != "" {
		b.Commit = vcs["vcs.revision"]
		b.Time = vcs["vcs.time"]
		b.Modified = vcs["vcs.modified"] == "true"
	}
	return b
}

// String is the line bot version prints.
func (b buildInfo) String() string {
	var details []string
	if b.Time != "" {
		details = append(details, b.Time)
	}
	if b.Modified {
		details = append(details, "with uncommitted changes")
	}
	line := "kepbot " + b.Version + ", commit " + b.Commit
	if len(details) > 0 {
		line += " (" + strings.Join(details, ", ") + ")"
	}
	return line + ", " + b.Go + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// versionCommand is `bot version`, also `bot --version`.
func versionCommand() command {
	return command{
		name:    "version",
		summary: "print the version and the commit bot was built from",
		about: "The version and commit come from -ldflags \"-X main.version=... -X main.commit=...\" where the build gave them, " +
			"else from what go build embeds in a git checkout (the module version, vcs.revision, vcs.time, vcs.modified). " +
			"go run and go test embed no commit: they print dev and unknown.",
		examples: []example{
			{"bot version", "kepbot v1.4.0, commit 9182a57… (2026-05-01T10:00:00Z), go1.26.0 linux/amd64"},
			{"bot --version", "the same"},
			{"go build -ldflags \"-X main.version=v1.4.0\" ./cmd/bot", "a release build names its version"},
		},
		exits: []exit{{exitOK, "printed"}, {exitBadInput, "an argument or flag it does not take"}},
		flags: func(_ *flag.FlagSet, sio stdio) runFunc {
			return func(_ context.Context, args []string) int {
				if len(args) > 0 {
					fmt.Fprintf(sio.err, "bot version: unexpected %q; bot version takes no arguments.\n", args[0])
					return exitBadInput
				}
				fmt.Fprintln(sio.out, currentBuild())
				return exitOK
			}
		},
	}
}
