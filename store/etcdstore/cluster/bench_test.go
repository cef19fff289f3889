package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/etcdtest"
)

// BenchmarkFailover measures how long replicas go without a leader when
// the leader's process dies (its client closes: no resign, no revoke), with
// a 1 s lease: from the death to the next leader's term starting, which
// is when its worker recovers and posts. The figure is failover_ms.
func BenchmarkFailover(b *testing.B) {
	srv := etcdtest.New(b)
	elected := make(chan string, 8)
	var total time.Duration
	n := 0
	for b.Loop() {
		type rep struct {
			cancel context.CancelFunc
			done   chan struct{}
			close  func()
		}
		reps := map[string]*rep{}
		for _, id := range []string{"r1", "r2", "r3"} {
			cli := client(b, srv)
			ctx, cancel := context.WithCancel(context.Background())
			r := &rep{cancel: cancel, done: make(chan struct{}), close: func() { cli.Close() }}
			reps[id] = r
			go func() {
				defer close(r.done)
				_ = Run(ctx, Config{Client: cli, Prefix: "/bench/election/", ID: id, TTL: time.Second, Log: zerolog.Nop()},
					func(ctx context.Context, _ Term) { elected <- id; <-ctx.Done() })
			}()
		}
		first := <-elected
		start := time.Now()
		reps[first].close()
		<-elected
		total += time.Since(start)
		n++
		for _, r := range reps {
			r.cancel()
			<-r.done
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(n), "failover_ms")
}
