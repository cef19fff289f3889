package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// Synthetic knowledge about the size of the real thing: 700 KEPs, each with
// five mentions of about 600 bytes, and 10 releases with about 20 items per
// graduation stage and a dozen notices.
const (
	benchKEPs        = 700
	benchReleases    = 10
	benchMentions    = 5
	benchStageItems  = 20
	benchNotices     = 12
	benchMentionSize = 600
	benchItemSize    = 300
)

var benchWords = strings.Fields("pod node gate volume 调度 容器 quota probe 网络 sidecar lease shard 存储 token mesh 稳定 alpha")

// benchText is n bytes or so of words, different for each seed.
func benchText(seed, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(benchWords[(seed*7+i*13)%len(benchWords)])
		b.WriteByte(' ')
	}
	return b.String()
}

func benchVersion(r int) knowledge.Version { return knowledge.Version{Major: 1, Minor: 25 + r} }

func benchKnowledge() *knowledge.Knowledge {
	k := &knowledge.Knowledge{}
	for r := range benchReleases {
		k.Sources = append(k.Sources, knowledge.Source{ID: fmt.Sprintf("notes-%s.md", benchVersion(r)),
			Name: "Bench notes " + benchVersion(r).String(), Kind: knowledge.SourceReleaseNote, Lang: "en", AsOf: "2030-01-01"})
	}
	k.Sources = append(k.Sources, knowledge.Source{ID: "keps", Name: "Bench KEP metadata", Kind: knowledge.SourceKEPYAML})
	number := func(i int) int { return 1000 + 7*i }
	for r := range benchReleases {
		v := benchVersion(r)
		rec := knowledge.ReleaseRecord{Release: knowledge.Release{Version: v, Date: "2030-01-01", Theme: "Bench " + v.String(),
			Enhancements: knowledge.Counts{Total: 60, Stable: 20, Beta: 20, Alpha: 20}, Sources: []string{k.Sources[r].ID}}}
		for i := range 3 * benchStageItems {
			n := number((r*3*benchStageItems + i) % benchKEPs)
			rec.Items = append(rec.Items, knowledge.Item{KEP: n, Title: fmt.Sprintf("Feature %d", n),
				Stage: knowledge.GraduationStages[i%3], Release: v, Text: benchText(n, benchItemSize), SIG: "sig-node", Source: k.Sources[r].ID})
		}
		for i := range benchNotices {
			rec.Notices = append(rec.Notices, knowledge.Notice{Kind: []knowledge.NoticeKind{knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade}[i%3],
				Release: v, Title: fmt.Sprintf("Notice %d", i), Text: benchText(i, 200), Source: k.Sources[r].ID, Line: i})
		}
		k.Releases = append(k.Releases, rec)
	}
	for i := range benchKEPs {
		n := number(i)
		kp := knowledge.KEP{Number: n, Title: fmt.Sprintf("Feature %d", n), SIG: "sig-node", Status: "implementable",
			Stage: knowledge.StageBeta, Milestones: map[string]knowledge.Version{"alpha": benchVersion(1), "beta": benchVersion(3), "stable": benchVersion(5)},
			FeatureGates: []string{fmt.Sprintf("Gate%d", n), fmt.Sprintf("OtherGate%d", n)}, Path: fmt.Sprintf("keps/sig-node/%d-feature", n), Source: "keps"}
		for m := range benchMentions {
			kp.History = append(kp.History, knowledge.Mention{KEP: n, Title: kp.Title, Stage: knowledge.GraduationStages[m%3],
				Release: benchVersion(m * 2), SIG: "sig-node", FeatureGates: kp.FeatureGates[:1], Section: "Features",
				Text: benchText(n+m, benchMentionSize), Link: fmt.Sprintf("https://example.test/kep/%d", n),
				Source: k.Sources[m*2].ID, Line: 10 * m})
		}
		k.KEPs = append(k.KEPs, kp)
	}
	return k
}

func benchDB(b *testing.B) (*KnowledgeStore, *knowledge.Knowledge) {
	db := openTest(b)
	k := benchKnowledge()
	mustReplace(b, db, k)
	return db.Knowledge(), k
}

func BenchmarkFindKEPByNumber(b *testing.B) {
	s, k := benchDB(b)
	ctx := b.Context()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		kp, err := s.FindKEPByNumber(ctx, k.KEPs[i%len(k.KEPs)].Number)
		if err != nil || len(kp.History) != benchMentions {
			b.Fatal(kp, err)
		}
		i++
	}
}

func BenchmarkFindReleaseItems(b *testing.B) {
	s, _ := benchDB(b)
	ctx := b.Context()
	for _, tc := range []struct {
		name  string
		stage knowledge.Stage
		want  int
	}{
		{"stable", knowledge.StageStable, benchStageItems},
		{"all", knowledge.StageNone, 3 * benchStageItems},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				items, err := s.FindReleaseItems(ctx, benchVersion(i%benchReleases), tc.stage)
				if err != nil || len(items) != tc.want {
					b.Fatal(len(items), err)
				}
				i++
			}
		})
	}
}

func BenchmarkFindReleaseByVersion(b *testing.B) {
	s, _ := benchDB(b)
	ctx := b.Context()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.FindReleaseByVersion(ctx, benchVersion(i%benchReleases)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkReplaceKnowledge(b *testing.B) {
	db := openTest(b)
	k := benchKnowledge()
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeKEP compares the binary codec with encoding/json on one
// KEP of the synthetic set: the reason the store does not keep JSON.
func BenchmarkDecodeKEP(b *testing.B) {
	kp := &benchKnowledge().KEPs[0]
	b.Run("binary", func(b *testing.B) {
		raw := encodeKEP(nil, kp)
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeKEP(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		raw, err := json.Marshal(kp)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			var out knowledge.KEP
			if err := json.Unmarshal(raw, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestBenchKnowledgeRoundTrips keeps the benchmark data honest: it must be
// valid knowledge that the store gives back whole.
func TestBenchKnowledgeRoundTrips(t *testing.T) {
	db := openTest(t)
	k := benchKnowledge()
	mustReplace(t, db, k)
	if diff := diffKnowledge(k, snapshot(t, db)); diff != "" {
		t.Errorf("(-given +read):\n%s", diff)
	}
}
