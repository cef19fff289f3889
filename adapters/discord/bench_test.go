package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store/storetest"
)

// BenchmarkInteractionHTTP is a /k8s command over HTTP interactions end to
// end, as serve wires it: the Ed25519 signature checked on the raw body,
// the interaction decoded, the replay and per-user checks, the engine over
// the built-in snapshot in a real bbolt file behind the answer cache, the
// embed rendered and encoded. Each iteration is a new interaction, signed
// before the timer starts, as Discord sends them.
func BenchmarkInteractionHTTP(b *testing.B) {
	db := storetest.SnapshotDB(b)
	ans := engine.NewCachedAnswerer(engine.New(db.Knowledge()), 4096)
	for _, tt := range []struct {
		name string
		data discordgo.ApplicationCommandInteractionData
	}{
		{"kep 4639", invocation("kep", "number", "4639")},
		{"1.29 ga", invocation("release", "version", "1.29", "stage", "ga")},
	} {
		b.Run(tt.name, func(b *testing.B) {
			pub, key, _ := ed25519.GenerateKey(nil)
			logger, _ := testLogger(b)
			a, err := NewAdapter(Config{PublicKey: hex.EncodeToString(pub)},
				ans, nil, logger.Level(zerolog.InfoLevel), WithClock(func() time.Time { return now }))
			if err != nil {
				b.Fatal(err)
			}
			h := a.InteractionsHandler()
			reqs := make([]*http.Request, b.N)
			for i := range reqs {
				p := interactionPayload("1"+strconv.Itoa(i), discordgo.InteractionApplicationCommand, tt.data)
				p["member"] = map[string]any{"user": map[string]any{"id": strconv.Itoa(1000 + i), "username": "u"}} // many people asking
				body, err := json.Marshal(p)
				if err != nil {
					b.Fatal(err)
				}
				reqs[i] = signed(key, now, body)
			}
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				clear(w.h)
				w.code, w.n = 200, 0
				h.ServeHTTP(w, reqs[i])
				if w.code != 200 || w.n == 0 {
					b.Fatalf("status %d, %d bytes", w.code, w.n)
				}
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps only the status and the
// length, so the benchmark measures the handler and not a recorder.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
func (w *discardWriter) Flush()                      {}
