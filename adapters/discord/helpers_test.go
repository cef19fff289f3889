package discord

import (
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/logtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/store"
)

var update = flag.Bool("update", false, "rewrite golden files and "+CommandsFile)

// testToken is shaped like a real bot token (base64 user ID, timestamp,
// HMAC) but is made up.
const testToken = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab"

// testInteractionToken is shaped like an interaction token (base64
// "interaction:…") but is made up.
const testInteractionToken = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3A.secret-part"

// openKnowledge saves testdata/corpus.json (made-up facts, our own words)
// in a real bbolt file in a temporary folder.
func openKnowledge(t testing.TB) knowledge.KnowledgeStore {
	t.Helper()
	return openDB(t).Knowledge()
}

// openDB opens a real bbolt file in a temporary folder, closed at the end
// of the test, holding testdata/corpus.json as its knowledge.
func openDB(t testing.TB) *store.DB {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("read corpus: %v", err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), knowledge.Compile(&c)); err != nil {
		t.Fatal(err)
	}
	return db
}

// testEngine is the real engine over openKnowledge, reading the
// manifests of scans as chat does (manifest.ChatReader).
func testEngine(t testing.TB) *engine.Engine {
	t.Helper()
	// "today" for the answers that depend on it: 1.29 in maintenance, 1.30 supported
	return engine.New(openKnowledge(t), engine.WithClock(func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }),
		engine.WithManifestReader(manifest.ChatReader))
}

// testCatalog loads the autocomplete catalog from the same store.
func testCatalog(t testing.TB, kb knowledge.KnowledgeStore) *StaticCatalog {
	t.Helper()
	c, err := LoadCatalog(context.Background(), kb)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// answerFunc is a fake Answerer: a function, and a count of its calls.
type answerFunc struct {
	calls atomic.Int64
	fn    func(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error)
}

func (f *answerFunc) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	f.calls.Add(1)
	return f.fn(ctx, q)
}

// countRecorder counts what an adapter records, by kind and by reason.
type countRecorder struct {
	mu       sync.Mutex
	answered map[string]int
	failed   map[string]int
}

func newCountRecorder() *countRecorder {
	return &countRecorder{answered: map[string]int{}, failed: map[string]int{}}
}

func (c *countRecorder) Answered(platform, kind string, _ time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answered[platform+"/"+kind]++
}

func (c *countRecorder) Failed(platform, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed[platform+"/"+reason]++
}

func (c *countRecorder) counts() (answered, failed map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.answered), maps.Clone(c.failed)
}

type logBuffer = logtest.Buffer

func testLogger(t testing.TB) (zerolog.Logger, *logBuffer) {
	buf := &logBuffer{}
	return zerolog.New(buf).Level(zerolog.DebugLevel), buf
}
