package question

import (
	"context"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// fullSource is what the engine gives a Reader in production, read from
// the whole ../shared corpus once: every KEP (with the release-note
// entries that link to it) and the API lifecycle table.
type fullSource struct {
	keps []*knowledge.KEP
	apis *knowledge.APITable
	// noticeGates are the feature gates release-note notices name: the
	// engine knows them, the reader does not (it reads KEPs).
	noticeGates []string
}

func (s *fullSource) KEPs(context.Context) ([]*knowledge.KEP, error)    { return s.keps, nil }
func (s *fullSource) APIs(context.Context) (*knowledge.APITable, error) { return s.apis, nil }

// NoticeGates is what engine.Engine.NoticeGates is to give (see
// NoticeGateSource).
func (s *fullSource) NoticeGates(context.Context) ([]string, error) { return s.noticeGates, nil }

var (
	fullOnce sync.Once
	fullSrc  *fullSource
	fullErr  error
)

// loadFull reads every source of ../shared as the snapshot does (skipping
// the test without it, failing it when CI is set).
func loadFull(t testing.TB) *fullSource {
	t.Helper()
	root := sharedtest.Root(t)
	fullOnce.Do(func() {
		res, err := ingest.Load(sources.Shared(root))
		if err != nil {
			fullErr = err
			return
		}
		k := knowledge.Compile(res.Corpus)
		s := &fullSource{apis: knowledge.NewAPITable(k.APIs, k.APIReleases)}
		for i := range k.KEPs {
			s.keps = append(s.keps, &k.KEPs[i])
		}
		for _, r := range k.Releases {
			for _, n := range r.Notices {
				s.noticeGates = append(s.noticeGates, n.FeatureGates...)
			}
		}
		fullSrc = s
	})
	if fullErr != nil {
		t.Fatalf("read ../shared: %v", fullErr)
	}
	return fullSrc
}
