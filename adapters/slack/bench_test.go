package slack

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// discardWriter is a ResponseWriter that keeps only the status, so the
// benchmark measures the handler and not a recorder.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// benchSlash sends one signed slash command (the peer benchmark's request)
// through the real handler b.N times.
func benchSlash(b *testing.B, ans knowledge.Answerer, text string) {
	a, _ := newHTTPAdapter(b, ans)
	a.log = a.log.Level(1) // info: the production default
	h := a.Handler()
	body := slashBody(text, "http://127.0.0.1:9/resp")
	tmpl := signedRequest(PathCommands, formType, testSecret, time.Now(), body)
	rd := bytes.NewReader(body)
	r := tmpl.Clone(tmpl.Context())
	rc := io.NopCloser(rd)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		rd.Reset(body)
		r.Body = rc
		clear(w.h)
		w.code, w.n = 200, 0
		h.ServeHTTP(w, r)
		if w.code != 200 || w.n == 0 {
			b.Fatalf("status %d, %d bytes", w.code, w.n)
		}
	}
}

// BenchmarkSlashCommandHTTP is the HTTP slash path end to end: verify the
// signature on the raw body, parse the form, ask the real engine over a
// bbolt store, render Block Kit, write the JSON.
func BenchmarkSlashCommandHTTP(b *testing.B) {
	eng, _ := realEngine(b)
	for _, text := range []string{"kep 4639", "1.29 ga"} {
		b.Run(text, func(b *testing.B) { benchSlash(b, eng, text) })
	}
}

// BenchmarkSlashCommandHTTPCached is BenchmarkSlashCommandHTTP as serve
// wires it: the engine behind a knowledge.CachedAnswerer, so after the
// first request the reply the adapter kept is sent.
func BenchmarkSlashCommandHTTPCached(b *testing.B) {
	eng, _ := realEngine(b)
	ans := knowledge.NewCachedAnswerer(eng, 4096)
	for _, text := range []string{"kep 4639", "1.29 ga"} {
		b.Run(text, func(b *testing.B) { benchSlash(b, ans, text) })
	}
}

// BenchmarkSlashCommandHTTPAdapterOnly is the same path with a fake
// answerer: the adapter's own cost.
func BenchmarkSlashCommandHTTPAdapterOnly(b *testing.B) {
	benchSlash(b, &fakeAnswerer{}, "kep 4639")
}

// BenchmarkSlashCommandHTTPServer goes through a real net/http server and
// client on loopback, in parallel like the peer benchmark's connections,
// with the engine alone and behind a knowledge.CachedAnswerer.
func BenchmarkSlashCommandHTTPServer(b *testing.B) {
	eng, _ := realEngine(b)
	for _, bc := range []struct {
		name string
		ans  knowledge.Answerer
	}{{"engine", eng}, {"cached", knowledge.NewCachedAnswerer(eng, 4096)}} {
		b.Run(bc.name, func(b *testing.B) { benchServer(b, bc.ans) })
	}
}

func benchServer(b *testing.B, ans knowledge.Answerer) {
	a, _ := newHTTPAdapter(b, ans)
	a.log = a.log.Level(1)
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	body := slashBody("kep 4639", "http://127.0.0.1:9/resp")
	tmpl := signedRequest(PathCommands, formType, testSecret, time.Now(), body)
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+PathCommands, bytes.NewReader(body))
			req.Header = tmpl.Header
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

// BenchmarkRenderKEP draws a KEP card and encodes it: the renderer's share
// of the slash path.
func BenchmarkRenderKEP(b *testing.B) {
	a := kepAnswer()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = Render(a, RenderOptions{Slash: true}).AppendJSON(buf[:0])
	}
}
