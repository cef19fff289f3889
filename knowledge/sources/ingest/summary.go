package ingest

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// WriteSummary writes what an ingest into the database at path read (res)
// and made (k): the documents, releases, KEPs, the kep.yaml's commit and
// date, the counts of each kind of fact, and how many files could not be
// read. It is `bot ingest`'s report; errors writing to w are left to w.
func WriteSummary(w io.Writer, path string, res *Result, k *knowledge.Knowledge) {
	st := k.Stats()
	var rels []string
	for _, r := range k.Releases {
		if len(r.Sources) > 0 {
			rels = append(rels, r.Version.String())
		}
	}
	fmt.Fprintf(w, "Ingested %d document(s) into %s.\n", res.Files, path)
	fmt.Fprintf(w, "  releases: %d announced (%s), %d in all\n", len(rels), strings.Join(rels, ", "), st.Releases)
	fmt.Fprintf(w, "  KEPs:     %d\n", st.KEPs)
	for _, src := range k.Sources {
		if src.Kind == knowledge.SourceKEPYAML {
			fmt.Fprintf(w, "  kep.yaml: %s\n", stampOf(src))
		}
	}
	fmt.Fprintf(w, "  mentions: %d\n", st.Mentions)
	fmt.Fprintf(w, "  notices:  %d\n", st.Notices)
	writeReleaseData(w, res.Corpus)
	for _, a := range res.APIReports {
		fmt.Fprintf(w, "  API types: %d from %d API module release(s), %d with lifecycle markers; %d joined with the documents (newest release read: %s)\n",
			a.Types, a.Releases, a.Marked, st.APIs, latestAPIRelease(k))
	}
	writeGates(w, res.Corpus)
	if st.Vulns > 0 {
		for _, src := range k.Sources {
			if src.Kind == knowledge.SourceVulnDB {
				fmt.Fprintf(w, "  vulnerability records: %d, %d of them of Kubernetes itself (%s, %s)\n", st.Vulns, kubernetesVulns(k.Vulns), knowledge.SourceName(src), stampOf(src))
			}
		}
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(w, "  %d file(s) could not be read (warnings above).\n", len(res.Warnings))
	}
	if st.Skipped > 0 {
		fmt.Fprintf(w, "  %d record(s) skipped inside the sources.\n", st.Skipped)
	}
	if len(res.Notes) > 0 {
		fmt.Fprintf(w, "  %d note(s) on what was read around inside files (above).\n", len(res.Notes))
	}
}

// latestAPIRelease is the newest release whose API module was read.
func latestAPIRelease(k *knowledge.Knowledge) string {
	if len(k.APIReleases) == 0 {
		return "none"
	}
	return k.APIReleases[len(k.APIReleases)-1].String()
}

// writeReleaseData counts the release notes as data, lifecycles and patch
// releases read. They come from the corpus: the knowledge does not keep
// them yet.
func writeReleaseData(w io.Writer, c *knowledge.Corpus) {
	if len(c.Changes) > 0 {
		kinds := map[knowledge.NoticeKind]int{}
		rels := map[knowledge.Version]bool{}
		for _, ch := range c.Changes {
			kinds[ch.Notice]++
			rels[ch.Release] = true
		}
		fmt.Fprintf(w, "  release-note entries: %d from %d release(s): %d deprecations, %d removals, %d upgrade notes\n",
			len(c.Changes), len(rels), kinds[knowledge.NoticeDeprecation], kinds[knowledge.NoticeRemoval], kinds[knowledge.NoticeUpgrade])
	}
	if len(c.Lifecycles) > 0 || len(c.Patches) > 0 {
		fmt.Fprintf(w, "  lifecycles: %d minor releases; patch releases: %d\n", len(c.Lifecycles), len(c.Patches))
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

// writeGates counts the feature gates the releases' code declares, from
// the corpus: "feature gates: 19 releases (1.19-1.37), 3,313 declarations
// of 531 gates".
func writeGates(w io.Writer, c *knowledge.Corpus) {
	if len(c.GateTables) == 0 {
		return
	}
	names := map[string]bool{}
	decls := 0
	oldest, newest := c.GateTables[0].Release, c.GateTables[0].Release
	for _, t := range c.GateTables {
		decls += len(t.Gates)
		for _, g := range t.Gates {
			names[strconv.FormatBool(g.Kubeadm())+g.Name] = true
		}
		if t.Release.Less(oldest) {
			oldest = t.Release
		}
		if newest.Less(t.Release) {
			newest = t.Release
		}
	}
	fmt.Fprintf(w, "  feature gates: %d release(s) (%s-%s), %d declarations of %d gates\n", len(c.GateTables), oldest, newest, decls, len(names))
}

// kubernetesVulns counts the records that affect Kubernetes itself (not
// another product of the project).
func kubernetesVulns(vs []knowledge.Vuln) int {
	n := 0
	for i := range vs {
		if vs[i].IsKubernetes() {
			n++
		}
	}
	return n
}
