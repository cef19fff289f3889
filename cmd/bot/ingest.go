package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// runIngest replaces the knowledge in the database with exactly what the
// given files and folders hold. Files it cannot read are named in warnings;
// when nothing can be read, the database is left as it was.
func runIngest(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitBadInput
	}
	if len(paths) == 0 {
		fmt.Fprintln(io.err, "bot ingest: give the files or folders to read, like `bot ingest ../shared/seeds`.")
		return exitBadInput
	}
	res, err := ingest.Load(paths)
	if res != nil {
		for _, w := range res.Warnings {
			fmt.Fprintf(io.err, "warning: %s\n", w)
		}
		for _, n := range res.Notes {
			fmt.Fprintf(io.err, "note: %s\n", n)
		}
	}
	if err != nil {
		fmt.Fprintf(io.err, "bot ingest: %v; the database was not changed.\n", err)
		return exitBadInput
	}
	if res.Files == 0 {
		fmt.Fprintln(io.err, "bot ingest: no document could be read; the database was not changed.")
		return exitBadInput
	}
	k := knowledge.Compile(res.Corpus)
	k.Corpus = res.Corpus // kept, so a later sync can swap kep.yaml and compile again
	path := dbPath()
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		fmt.Fprintf(io.err, "bot ingest: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
		fmt.Fprintf(io.err, "bot ingest: %v; the database was not changed.\n", err)
		return exitFailure
	}
	printIngest(io, path, res, k)
	return exitOK
}

func printIngest(io stdio, path string, res *ingest.Result, k *knowledge.Knowledge) {
	st := k.Stats()
	var rels []string
	for _, r := range k.Releases {
		if len(r.Sources) > 0 {
			rels = append(rels, r.Version.String())
		}
	}
	fmt.Fprintf(io.out, "Ingested %d document(s) into %s.\n", res.Files, path)
	fmt.Fprintf(io.out, "  releases: %d announced (%s), %d in all\n", len(rels), strings.Join(rels, ", "), st.Releases)
	fmt.Fprintf(io.out, "  KEPs:     %d\n", st.KEPs)
	for _, src := range k.Sources {
		if src.Kind == knowledge.SourceKEPYAML {
			fmt.Fprintf(io.out, "  kep.yaml: %s\n", stampOf(src))
		}
	}
	fmt.Fprintf(io.out, "  mentions: %d\n", st.Mentions)
	fmt.Fprintf(io.out, "  notices:  %d\n", st.Notices)
	printReleaseData(io, res.Corpus)
	for _, a := range res.APIReports {
		fmt.Fprintf(io.out, "  API types: %d from %d API module release(s), %d with lifecycle markers; %d joined with the documents (newest release read: %s)\n",
			a.Types, a.Releases, a.Marked, st.APIs, latestAPIRelease(k))
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(io.out, "  %d file(s) could not be read (warnings above).\n", len(res.Warnings))
	}
	if st.Skipped > 0 {
		fmt.Fprintf(io.out, "  %d record(s) skipped inside the sources.\n", st.Skipped)
	}
	if len(res.Notes) > 0 {
		fmt.Fprintf(io.out, "  %d note(s) on what was read around inside files (above).\n", len(res.Notes))
	}
}

// latestAPIRelease is the newest release whose API module was read.
func latestAPIRelease(k *knowledge.Knowledge) string {
	if len(k.APIReleases) == 0 {
		return "none"
	}
	return k.APIReleases[len(k.APIReleases)-1].String()
}

// printReleaseData counts the release notes as data, lifecycles and patch
// releases read. They come from the corpus: the knowledge does not keep
// them yet.
func printReleaseData(io stdio, c *knowledge.Corpus) {
	if len(c.Changes) > 0 {
		kinds := map[knowledge.NoticeKind]int{}
		rels := map[knowledge.Version]bool{}
		for _, ch := range c.Changes {
			kinds[ch.Notice]++
			rels[ch.Release] = true
		}
		fmt.Fprintf(io.out, "  release-note entries: %d from %d release(s): %d deprecations, %d removals, %d upgrade notes\n",
			len(c.Changes), len(rels), kinds[knowledge.NoticeDeprecation], kinds[knowledge.NoticeRemoval], kinds[knowledge.NoticeUpgrade])
	}
	if len(c.Lifecycles) > 0 || len(c.Patches) > 0 {
		fmt.Fprintf(io.out, "  lifecycles: %d minor releases; patch releases: %d\n", len(c.Lifecycles), len(c.Patches))
	}
}

// stampOf says which commit a source was read at and the date it speaks
// for, as the source itself says: "commit 64765b4, as of 2026-07-24", or
// "date unknown" when it does not say.
func stampOf(src knowledge.Source) string {
	date := "date unknown"
	if src.AsOf != "" {
		date = "as of " + src.AsOf
	}
	if src.Commit == "" {
		return date
	}
	return "commit " + shortCommit(src.Commit) + ", " + date
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
