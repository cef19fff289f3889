package slack

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/storetest"
)

// realEngine opens a bbolt file in a temporary folder, loads the built-in
// snapshot into it, and returns the knowledge engine over it, reading the
// manifests of scans as chat does (manifest.ChatReader).
func realEngine(tb testing.TB) (*engine.Engine, *store.KnowledgeStore) {
	tb.Helper()
	db := storetest.SnapshotDB(tb)
	return engine.New(db.Knowledge(), engine.WithManifestReader(manifest.ChatReader)), db.Knowledge()
}

// TestSlashCommandEndToEnd sends signed slash commands through the HTTP
// handler to the real engine over a real bbolt store.
func TestSlashCommandEndToEnd(t *testing.T) {
	eng, kb := realEngine(t)
	a, _ := newHTTPAdapter(t, eng)
	keps, err := kb.ListKEPs(context.Background())
	if err != nil || len(keps) == 0 {
		t.Fatalf("the snapshot has no KEPs (%v)", err)
	}
	kep := keps[len(keps)/2].Number
	want := question.NewAsker(nil, eng).Ask(context.Background(), "kep "+strconv.Itoa(kep), knowledge.Origin{})
	tests := []struct {
		text, wantKind, wantType string
	}{
		{"kep " + strconv.Itoa(kep), string(knowledge.KindKEP), Ephemeral},
		{"KEP-" + strconv.Itoa(kep) + " --public", string(knowledge.KindKEP), InChannel},
		{"releases", string(knowledge.KindReleases), Ephemeral},
		{"cves 1.30.2", string(knowledge.KindCVEs), Ephemeral},
		{"", string(knowledge.KindHelp), Ephemeral},
		{"kep 99999999", string(knowledge.KindError), Ephemeral},
		{"what is this", string(knowledge.KindError), Ephemeral},
	}
	for _, tt := range tests {
		rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody(tt.text, testHooksURL)))
		if rec.Code != 200 {
			t.Fatalf("%q: status %d %s", tt.text, rec.Code, rec.Body.String())
		}
		var m struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		if m.ResponseType != tt.wantType {
			t.Errorf("%q: response_type %q, want %q", tt.text, m.ResponseType, tt.wantType)
		}
		if tt.wantKind == string(knowledge.KindKEP) && !strings.Contains(m.Text, esc(want.Title)) {
			t.Errorf("%q: text %q lacks the KEP's title %q", tt.text, m.Text, want.Title)
		}
	}
}

// TestEveryAnswerInTheKnowledgeFits asks for every KEP and every release
// the snapshot holds, each stage and notice list, diffs across all of it and
// help, and checks every page of every answer against Slack's limits.
func TestEveryAnswerInTheKnowledgeFits(t *testing.T) {
	eng, kb := realEngine(t)
	ctx := context.Background()
	keps, err := kb.ListKEPs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := kb.ListReleases(ctx)
	if err != nil || len(rels) == 0 {
		t.Fatalf("no releases (%v)", err)
	}
	questions := []string{"releases", "help", "help subscribe", "search a", "search e", "sig node", "sig network",
		"diff " + rels[0].Version.String() + " " + rels[len(rels)-1].Version.String(),
		"upgrade " + rels[0].Version.String() + " " + rels[len(rels)-1].Version.String()}
	for _, k := range keps {
		questions = append(questions, "kep "+strconv.Itoa(k.Number))
	}
	for _, r := range rels {
		v := r.Version.String()
		questions = append(questions, v, v+" ga", v+" beta", v+" alpha", v+" deprecations", v+" removals", v+" notices")
	}
	kinds := map[knowledge.Kind]int{}
	for _, q := range questions {
		ans := question.NewAsker(nil, eng).Ask(ctx, q, knowledge.Origin{Platform: Platform})
		kinds[ans.Kind]++
		for page, pages := 0, 1; page < pages; page++ {
			m := Render(ans, RenderOptions{Slash: true, Page: page})
			if p := CheckLimits(m); p != nil {
				t.Errorf("%q page %d: %s", q, page, strings.Join(p, "; "))
			}
			pages = pageCount(m)
		}
	}
	t.Logf("%d questions; answers by kind: %v", len(questions), kinds)
	if kinds[knowledge.KindKEP] == 0 || kinds[knowledge.KindRelease] == 0 || kinds[knowledge.KindList] == 0 {
		t.Errorf("the walk missed whole kinds: %v", kinds)
	}
}

// pageCount reads "Page 1 of N" from a rendered message; 1 without one.
func pageCount(m *Message) int {
	for _, b := range m.Blocks {
		if c, ok := b.(*Context); ok && strings.HasPrefix(c.Elements[0], "Page ") {
			if f := strings.Fields(c.Elements[0]); len(f) > 3 {
				n, _ := strconv.Atoi(f[3])
				return n
			}
		}
	}
	return 1
}
