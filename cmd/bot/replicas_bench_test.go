package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/etcdtest"
)

// BenchmarkReplicasBehindProxy answers signed Slack slash commands
// (`kep 4639`, `1.30 ga`, `1.32 deprecations`) through a local round-robin
// proxy in front of 1 or 3 `bot serve` replicas on one embedded etcd. All
// of them share this process and its cores, so the figure shows the cost
// of the proxy and the replicas' share of one machine, not what separate
// machines would give. The figure is answers/s.
func BenchmarkReplicasBehindProxy(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
			srv := etcdtest.New(b)
			api := httptest.NewServer(&fakeSlackAPI{posted: make(chan struct{}, 16)})
			defer api.Close()
			var backends []*url.URL
			for i := range n {
				addr := benchReplica(b, fmt.Sprintf("r%d", i+1), srv.Endpoint(), api.URL)
				u, _ := url.Parse("http://" + addr)
				backends = append(backends, u)
			}
			var next atomic.Uint64
			proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(backends[next.Add(1)%uint64(len(backends))])
			}, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			front := httptest.NewServer(proxy)
			defer front.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			questions := []string{"kep 4639", "1.30 ga", "1.32 deprecations", "gate ImageVolume"}
			b.SetParallelism(4)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					req := signedRequest(front.URL, questions[i%len(questions)])
					i++
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "answers/s")
		})
	}
}

// benchReplica starts one replica in this process for the benchmark's
// duration and returns its address once it is ready.
func benchReplica(b *testing.B, id, endpoints, api string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := map[string]string{
		"BOT_DB": filepath.Join(b.TempDir(), id+".db"), "BOT_HTTP_ADDR": addr, "BOT_LOG_LEVEL": "error", "BOT_LOG_FORMAT": "json",
		"BOT_REFRESH_INTERVAL": "off", "BOT_REPLICA_ID": id, "BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": endpoints,
		"SLACK_SIGNING_SECRET": testSigningSecret, "SLACK_BOT_TOKEN": "xoxb-1-serve-test", "SLACK_API_URL": api + "/api/",
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: io.Discard, getenv: func(k string) string { return env[k] }})
	}()
	b.Cleanup(func() { stop(); <-done })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr
			}
		}
	}
	b.Fatalf("replica %s not ready in 30 s", id)
	return ""
}

// signedRequest is a /k8s command signed as Slack signs it.
func signedRequest(base, text string) *http.Request {
	return signedSlashRequest(base, "C0123ABCD", "UMEMBER", text, "https://hooks.slack.com/commands/T1/1/x")
}
