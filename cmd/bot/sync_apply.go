package main

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/kepyaml"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
)

// apply swaps the kep.yaml part of the stored knowledge for got's, compiles
// again and replaces the knowledge, its corpus and the sync state in one
// transaction, then prints what changed.
func (c syncCommand) apply(ctx context.Context, io stdio, db string, got *synced) error {
	if err := checkSynced(got); err != nil {
		return err
	}
	type outcome struct {
		base   string
		before int
		k      *knowledge.Knowledge
	}
	out, err := withStore(ctx, db, func(kb *store.KnowledgeStore) (outcome, error) {
		var o outcome
		base, what, err := baseCorpus(ctx, kb)
		if err != nil {
			return o, err
		}
		o.base = what
		o.before = len(base.KEPs)
		merged := withKEPYAML(base, got.res.Corpus)
		o.k = knowledge.Compile(merged)
		o.k.Corpus = merged
		st := got.state
		st.Synced = c.now().UTC()
		st.Checked = st.Synced
		return o, kb.ReplaceWithSync(ctx, o.k, st)
	})
	if err != nil {
		return err
	}
	st := out.k.Stats()
	commit := ""
	if got.state.Commit != "" {
		commit = " (commit " + got.state.Commit + ")"
	}
	fmt.Fprintf(io.out, "Synced kep.yaml from %s%s into %s.\n", got.where, commit, db)
	for line := range strings.SplitSeq(got.res.Report.String(), "\n") {
		fmt.Fprintf(io.out, "  %s\n", line)
	}
	fmt.Fprintf(io.out, "  KEPs from kep.yaml: %d (were %d); KEPs in all: %d\n", len(got.res.Corpus.KEPs), out.before, st.KEPs)
	fmt.Fprintf(io.out, "  kept from %s: %d releases, %d mentions, %d notices\n", out.base, st.Releases, st.Mentions, st.Notices)
	return nil
}

// checkSynced refuses what must not replace the knowledge: no KEP at all
// (everything skipped would wipe every KEP), and in an archive any link
// where a kep.yaml or the keps folder should be. kubernetes/enhancements
// holds no links; one in a download means the archive was tampered with.
func checkSynced(got *synced) error {
	if got.archive {
		for _, sk := range got.res.Corpus.Skipped {
			if what, ok := strings.CutPrefix(sk.Reason, kepyaml.KindLink+": "); ok {
				what, _, _ = strings.Cut(what, ";")
				return badInput(fmt.Errorf("the archive from %s was refused: %s is %s, and kubernetes/enhancements holds no links", got.where, sk.Path, what))
			}
		}
	}
	if len(got.res.Corpus.KEPs) == 0 {
		return badInput(fmt.Errorf("%s holds no readable kep.yaml (%d files, all skipped); keeping the KEPs known", got.where, got.res.Report.Files))
	}
	return nil
}

// baseCorpus is what a sync builds on, and what to call it: the corpus the
// database keeps; else, for a new database or one filled from the built-in
// snapshot, the snapshot's corpus. A database an older kepbot filled with
// `bot ingest` keeps no corpus, and syncing it would lose its documents:
// that is refused with what to do instead.
func baseCorpus(ctx context.Context, kb *store.KnowledgeStore) (*knowledge.Corpus, string, error) {
	c, err := kb.LoadCorpus(ctx)
	if err == nil {
		return c, "the stored sources", nil
	}
	if knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		return nil, "", err
	}
	empty, err := kb.IsEmpty(ctx)
	if err != nil {
		return nil, "", err
	}
	sources, err := kb.ListSources(ctx)
	if err != nil {
		return nil, "", err
	}
	fromSnapshot := slices.ContainsFunc(sources, func(s knowledge.Source) bool { return s.ID == snapshot.SourceID })
	if !empty && !fromSnapshot {
		return nil, "", badInput(errors.New("this database keeps no copy of the documents it was built from (an older kepbot filled it), " +
			"so a sync would lose them; re-run `bot ingest` with your sources, then `bot sync`"))
	}
	k, err := snapshot.Load()
	if err != nil {
		return nil, "", err
	}
	if k.Corpus == nil {
		return &knowledge.Corpus{}, "nothing else (the built-in snapshot carries no corpus)", nil
	}
	return k.Corpus, "the built-in snapshot", nil
}

// isKEPYAMLSkip reports whether a corpus Skip came from reading kep.yaml.
func isKEPYAMLSkip(sk knowledge.Skip) bool {
	p := filepath.ToSlash(sk.Path)
	return path.Base(p) == "kep.yaml" || strings.HasPrefix(p, "keps/")
}

// withKEPYAML returns base with its kep.yaml part (sources of that kind,
// the KEPs and the skips of kep.yaml files) replaced by synced's; release
// notes, posts and their mentions and notices stay as they are.
func withKEPYAML(base, synced *knowledge.Corpus) *knowledge.Corpus {
	out := &knowledge.Corpus{Releases: base.Releases, KEPs: synced.KEPs, Mentions: base.Mentions, Notices: base.Notices}
	for _, s := range base.Sources {
		if s.Kind != knowledge.SourceKEPYAML {
			out.Sources = append(out.Sources, s)
		}
	}
	out.Sources = append(out.Sources, synced.Sources...)
	for _, sk := range base.Skipped {
		if !isKEPYAMLSkip(sk) {
			out.Skipped = append(out.Skipped, sk)
		}
	}
	out.Skipped = append(out.Skipped, synced.Skipped...)
	return out
}
