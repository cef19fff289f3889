package slack

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
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

// benchRing is how many invocations benchSlash signs ahead.
const benchRing = 4096

// benchSlash sends signed slash commands (the peer benchmark's request)
// through the real handler b.N times. Each is a new invocation, as each of
// Slack's is (its own trigger_id, so its own signature, which the replay
// guard records): a ring of them, signed ahead on the adapter's clock and,
// each time the ring comes round, signed again 11 minutes later with the
// timer stopped, so that what the guard kept of the last round has expired
// and goes as the new round comes in, as under a steady load.
func benchSlash(b *testing.B, ans knowledge.Answerer, text string) {
	clock := newFakeClock()
	a, _ := newHTTPAdapter(b, ans, WithClock(clock.Now))
	a.log = a.log.Level(1) // info: the production default
	h := a.Handler()
	bodies := make([][]byte, benchRing)
	headers := make([]http.Header, benchRing)
	for i := range bodies {
		bodies[i] = slashBodyTrigger(text, "http://127.0.0.1:9/resp", "1.2."+strconv.Itoa(i))
	}
	signRing := func() {
		for i, body := range bodies {
			headers[i] = signedRequest(PathCommands, formType, testSecret, clock.Now(), body).Header
		}
	}
	signRing()
	r := httptest.NewRequest(http.MethodPost, PathCommands, nil)
	rd := bytes.NewReader(nil)
	rc := io.NopCloser(rd)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.SetBytes(int64(len(bodies[0])))
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if i == benchRing {
			b.StopTimer()
			clock.advance(11 * time.Minute)
			signRing()
			i = 0
			b.StartTimer()
		}
		rd.Reset(bodies[i])
		r.Header = headers[i]
		r.ContentLength = int64(len(bodies[i]))
		r.Body = rc
		i++
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
// wires it: the engine behind a engine.CachedAnswerer, so after the
// first request the reply the adapter kept is sent.
func BenchmarkSlashCommandHTTPCached(b *testing.B) {
	eng, _ := realEngine(b)
	ans := engine.NewCachedAnswerer(eng, 4096)
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
// with the engine alone and behind a engine.CachedAnswerer.
func BenchmarkSlashCommandHTTPServer(b *testing.B) {
	eng, _ := realEngine(b)
	for _, bc := range []struct {
		name string
		ans  knowledge.Answerer
	}{{"engine", eng}, {"cached", engine.NewCachedAnswerer(eng, 4096)}} {
		b.Run(bc.name, func(b *testing.B) { benchServer(b, bc.ans) })
	}
}

func benchServer(b *testing.B, ans knowledge.Answerer) {
	a, _ := newHTTPAdapter(b, ans)
	a.log = a.log.Level(1)
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	// Every request a new invocation (the replay guard refuses a repeat):
	// signed ahead, and signed as it goes once those run out.
	invocation := func(n int64) ([]byte, http.Header) {
		body := slashBodyTrigger("kep 4639", "http://127.0.0.1:9/resp", "1.2."+strconv.FormatInt(n, 10))
		return body, signedRequest(PathCommands, formType, testSecret, time.Now(), body).Header
	}
	const ahead = 1 << 15
	bodies, headers := make([][]byte, ahead), make([]http.Header, ahead)
	for i := range ahead {
		bodies[i], headers[i] = invocation(int64(i))
	}
	var next atomic.Int64
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			var body []byte
			var hdr http.Header
			if n := next.Add(1) - 1; n < ahead {
				body, hdr = bodies[n], headers[n]
			} else {
				body, hdr = invocation(n)
			}
			req, _ := http.NewRequest(http.MethodPost, srv.URL+PathCommands, bytes.NewReader(body))
			req.Header = hdr
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
