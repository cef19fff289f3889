package refresh

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
)

// apply swaps each source's part of the stored corpus for the news it
// brought, compiles the corpus again and replaces the knowledge with the
// sources' new states in one transaction (through Config.Apply). With no
// news it records the states alone. A release of k8s.io/api is not swapped
// by source ID alone: its Source replaces any other patch of its release,
// and it is merged into the API types (apilifecycle.MergeInto), which the
// other parts leave as they are. The merge was checked when the release was
// read; should it fail here (the stored corpus changed meanwhile), apply
// fails and nothing is written.
func (p *pass) apply(ctx context.Context) error {
	kb := p.r.cfg.Store
	if len(p.parts) == 0 {
		if len(p.report.Outcomes) == 0 {
			return nil
		}
		return kb.SaveSourceStates(ctx, p.states)
	}
	base, err := p.base(ctx)
	if err != nil {
		return err
	}
	merged := base
	for _, name := range p.order {
		got := p.parts[name]
		st := p.states[name]
		drop := append(slices.Clone(st.IDs), got.corpus.SourceIDs()...)
		if name == sources.NameKEPYAML {
			for _, s := range merged.Sources {
				if s.Kind == knowledge.SourceKEPYAML {
					drop = append(drop, s.ID)
				}
			}
		}
		var types []knowledge.APIType
		if got.api != nil {
			// another patch of the release goes, whoever gave it; the
			// release's types are merged into those of every other
			drop = append(drop, apiIDsOf(merged.Sources, got.api.Release)...)
			var err error
			if types, err = apilifecycle.MergeInto(merged.APITypes, got.api); err != nil {
				return fmt.Errorf("apply %s: %w", name, err)
			}
		}
		merged = merged.Without(drop...)
		merged.Add(got.corpus)
		if got.api != nil {
			merged.APITypes = types
		}
		st.IDs = got.corpus.SourceIDs()
		p.states[name] = st
	}
	k := knowledge.Compile(merged)
	k.Corpus = merged
	write := func() error { return kb.ReplaceWithSources(ctx, k, p.states) }
	if err := p.r.cfg.Apply(ctx, write); err != nil {
		return fmt.Errorf("apply the news: %w", err)
	}
	p.report.Applied = true
	p.report.Stats = k.Stats()
	return nil
}

// ErrNoCorpus is a database filled by a kepbot that kept no copy of its
// documents: a refresh would lose them.
var ErrNoCorpus = errors.New("this database keeps no copy of the documents it was built from (an older kepbot filled it), " +
	"so a refresh would lose them; re-run `bot ingest` with your sources, then `bot sync`")

// base is what a refresh builds on: the corpus the database keeps; else,
// for a new database or one filled from the built-in snapshot, the
// snapshot's corpus.
func (p *pass) base(ctx context.Context) (*knowledge.Corpus, error) {
	kb := p.r.cfg.Store
	c, err := kb.LoadCorpus(ctx)
	if err == nil {
		return c, nil
	}
	if knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		return nil, err
	}
	empty, err := kb.IsEmpty(ctx)
	if err != nil {
		return nil, err
	}
	if !empty && !p.held[snapshot.SourceID] {
		return nil, ErrNoCorpus
	}
	k, err := snapshot.Load()
	if err != nil {
		return nil, err
	}
	if k.Corpus == nil {
		return &knowledge.Corpus{}, nil
	}
	return k.Corpus, nil
}
