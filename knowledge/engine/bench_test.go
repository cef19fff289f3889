package engine_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// Benchmarks over the whole of ../shared ingested into a bbolt file: 650
// KEPs from kep.yaml, every release note, post and the API guide. Run
//
//	go test ./knowledge -run '^$' -bench 'Search|Answer' -benchtime 2s
//
// Goals: search under 1 ms at p99; one KEP, one release and one release's
// stage list under 50 µs each, with the catalog loaded (warm) and, for the
// questions that do not load it, without (Cold).

// fullBenchEngine is an engine over the whole corpus with its catalog and
// search index already built, as after the first question of a process.
func fullBenchEngine(b *testing.B) *engine.Engine {
	b.Helper()
	e := engine.New(openStore(b, fullKnowledge(b)))
	if _, err := e.Answer(context.Background(), knowledge.Question{Kind: knowledge.AskSearch, Words: "warm up"}); err != nil && knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		b.Fatal(err)
	}
	return e
}

// searchQueries are what people search for: one word, several, a gate, a
// SIG, words only notes hold, Chinese, and words that match nearly all.
var searchQueries = []string{
	"nftables", "image volume", "sidecar containers", "ReadWriteOncePod", "NFTablesProxyMode", "dynamic resource allocation",
	"in-place pod resize", "memory swap", "network", "kube-proxy", "pod", "api server tracing", "访问模式", "网络",
	"存储 卷", "job success policy", "windows", "kubelet", "structured authentication config", "cgroup v2",
}

// BenchmarkSearch times each search on its own over a fixed set of queries
// and reports the median and the 99th percentile in nanoseconds.
func BenchmarkSearch(b *testing.B) {
	e := fullBenchEngine(b)
	ctx := context.Background()
	var took []time.Duration
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		q := knowledge.Question{Kind: knowledge.AskSearch, Words: searchQueries[i%len(searchQueries)]}
		i++
		start := time.Now()
		_, err := e.Answer(ctx, q)
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatalf("search %s: %v", q.Words, err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(took[min(len(took)-1, len(took)*99/100)].Nanoseconds()), "p99-ns")
}

func benchFullAnswer(b *testing.B, q knowledge.Question) {
	e := fullBenchEngine(b)
	ctx := context.Background()
	if _, err := e.Answer(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Answer(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnswerKEP(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskKEP, KEP: 3866})
}

func BenchmarkAnswerReleaseStage(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskReleaseStage, Version: knowledge.MustVersion("1.30"), Stage: knowledge.StageStable})
}

func BenchmarkAnswerRelease(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskRelease, Version: knowledge.MustVersion("1.29")})
}

func BenchmarkAnswerGate(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskGate, Words: "nftablesproxymode"})
}

func BenchmarkAnswerUpgrade(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskUpgrade, Version: knowledge.MustVersion("1.29"), To: knowledge.MustVersion("1.32")})
}

func BenchmarkAnswerNotices(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskNotices, Version: knowledge.MustVersion("1.29"), Notice: knowledge.NoticeDeprecation})
}

// benchColdAnswer times q over an engine whose catalog is not loaded (as
// after Invalidate, before anything loads it again): questions that do not
// need the catalog read the store for each answer.
func benchColdAnswer(b *testing.B, q knowledge.Question) {
	e := fullBenchEngine(b)
	e.Invalidate()
	ctx := context.Background()
	if _, err := e.Answer(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Answer(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnswerKEPCold(b *testing.B) {
	benchColdAnswer(b, knowledge.Question{Kind: knowledge.AskKEP, KEP: 3866})
}

func BenchmarkAnswerNoticesCold(b *testing.B) {
	benchColdAnswer(b, knowledge.Question{Kind: knowledge.AskNotices, Version: knowledge.MustVersion("1.29"), Notice: knowledge.NoticeDeprecation})
}

// BenchmarkCatalog times what the first search of a process (or the first
// after Invalidate) pays: reading every KEP and notice and indexing them.
func BenchmarkCatalog(b *testing.B) {
	e := fullBenchEngine(b)
	ctx := context.Background()
	q := knowledge.Question{Kind: knowledge.AskSearch, Words: "nftables"}
	for b.Loop() {
		e.Invalidate()
		if _, err := e.Answer(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}
