package refresh

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

// recordingPoster keeps every digest posted, as a platform would show it.
type recordingPoster struct {
	mu    sync.Mutex
	posts []*knowledge.Answer
	chans []string
}

func (p *recordingPoster) Post(_ context.Context, channel string, a *knowledge.Answer, _ string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, a)
	p.chans = append(p.chans, channel)
	return "m" + time.Now().Format("150405.000000"), nil
}

func (p *recordingPoster) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.posts)
}

// cveSetup is one process of kepbot over the database at path: a
// refresher of the fake database, the subscriptions, the digest trigger.
type cveSetup struct {
	db   *store.DB
	r    *Refresher
	subs *digest.Subscriptions
	trig *delivery.Trigger
}

func openCVESetup(t *testing.T, path string, u *upstreamtest.Upstream, clock *testClock) *cveSetup {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := u.URLs()
	cfg := Config{Store: db.Knowledge(), URLs: URLs{sources.SettingVulnDB: x.VulnDB, sources.SettingLifecycle: x.Lifecycle, sources.SettingPatches: x.Patches},
		AllowHosts: []string{"127.0.0.1"}, Now: clock.Now, Interval: time.Hour}
	cfg.Fetch.Timeout = 10 * time.Second
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &cveSetup{db: db, r: r}
	s.subs = digest.NewSubscriptions(digest.SubscriptionConfig{Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge(),
		CanManage: func(context.Context, knowledge.Origin) (bool, error) { return true, nil }, Now: clock.Now})
	s.trig = delivery.NewTrigger(delivery.TriggerConfig{Knowledge: db.Knowledge(), Subscriptions: db.Subscriptions(), Ledger: db.Subscriptions(),
		Outbox: db.Outbox(), Now: clock.Now})
	return s
}

func (s *cveSetup) close() {
	s.r.Close()
	s.db.Close()
}

func (s *cveSetup) ask(t *testing.T, text, channel string) *knowledge.Answer {
	t.Helper()
	q, err := question.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	q.From = knowledge.Origin{Platform: "slack", Workspace: "T1", Channel: channel, User: "U1", CanManage: true}
	a, err := s.subs.Answer(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return a
}

// deliverAll runs a worker with p as Slack until every delivery is sent.
func (s *cveSetup) deliverAll(t *testing.T, p *recordingPoster) {
	t.Helper()
	w, err := delivery.New(s.db.Outbox(), delivery.Config{Posters: map[string]delivery.Poster{"slack": p}, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		all, err := s.db.Outbox().ListDeliveries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		pending := 0
		for _, d := range all {
			if d.State != digest.DeliverySent {
				pending++
			}
		}
		if pending == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
}

// TestRefreshedVulnIsDigestedOnce: a channel subscribed to cves (another
// to deprecations) hears nothing of the records known when it subscribed;
// a record the database publishes is picked up by the refresh and posted
// to it once, and never again: not on the next trigger, not after a
// restart, not when the record is modified.
func TestRefreshedVulnIsDigestedOnce(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: time.Date(2026, 9, 2, 10, 0, 0, 0, time.UTC)}
	path := filepath.Join(t.TempDir(), "kepbot.db")
	s := openCVESetup(t, path, u, clock)
	ctx := context.Background()
	only := Options{Only: []string{sources.NameCVEs}}
	if rep, err := s.r.Run(ctx, only); err != nil || !rep.Applied || rep.Stats.Vulns != 76 {
		t.Fatalf("first refresh: %v, %+v", err, rep)
	}
	a := s.ask(t, "subscribe cves", "CCVE")
	if !strings.Contains(a.Text, "vulnerability records (CVEs) of Kubernetes that affect a supported release") || !strings.Contains(a.Text, "Nothing new is waiting") {
		t.Errorf("subscribe cves: %q", a.Text)
	}
	s.ask(t, "subscribe deprecations", "CDEP")
	if r, err := s.trig.OnKnowledgeChanged(ctx); err != nil || r.Created != 0 {
		t.Fatalf("a trigger with nothing new: %+v, %v", r, err)
	}

	clock.Add(time.Hour)
	u.AddVuln(t, []byte(newVuln), time.Date(2026, 9, 2, 10, 30, 0, 0, time.UTC))
	if rep, err := s.r.Run(ctx, only); err != nil || !rep.Applied || rep.Stats.Vulns != 77 {
		t.Fatalf("refresh after the record was published: %v, %+v", err, rep)
	}
	r, err := s.trig.OnKnowledgeChanged(ctx)
	if err != nil || r.Created != 1 {
		t.Fatalf("trigger after the new record: %+v, %v; want one delivery, to the cves channel", r, err)
	}
	p := &recordingPoster{}
	s.deliverAll(t, p)
	if p.count() != 1 || p.chans[0] != "CCVE" {
		t.Fatalf("posted %d digests to %v; want one to CCVE", p.count(), p.chans)
	}
	post := p.posts[0]
	if post.CVEs == nil || len(post.CVEs.List) != 1 || post.CVEs.List[0].ID != "GO-2026-9901" || len(post.Notices) != 0 ||
		!strings.Contains(post.Title, "1 new vulnerability record") {
		t.Errorf("the digest posted: %q %+v", post.Title, post.CVEs)
	}
	facts := ""
	for _, f := range post.Facts {
		facts += f.Name + ": " + f.Value + "\n"
	}
	if !strings.Contains(facts, "CVE-2026-99901: 1.35: 1.35.0–1.35.4 (fixed in 1.35.5); 1.36: 1.36.0–1.36.4 (fixed in 1.36.5, not in the patch list yet)") {
		t.Errorf("the digest's lines:\n%s", facts)
	}
	if r, _ := s.trig.OnKnowledgeChanged(ctx); r.Created+r.Existing != 0 {
		t.Errorf("a second trigger queued %+v", r)
	}

	// A restart: a new process over the same database.
	s.close()
	clock.Add(time.Hour)
	s = openCVESetup(t, path, u, clock)
	defer s.close()
	if rep, err := s.r.Run(ctx, only); err != nil || rep.Applied {
		t.Fatalf("refresh after the restart: %v, applied %v", err, rep.Applied)
	}
	if r, err := s.trig.OnKnowledgeChanged(ctx); err != nil || r.Created != 0 {
		t.Errorf("trigger after the restart: %+v, %v", r, err)
	}
	// The record modified (a fix added): the same record, not news.
	clock.Add(time.Hour)
	u.AddVuln(t, []byte(strings.Replace(newVuln, `{"introduced": "1.36.0"}, {"fixed": "1.36.5"}`, `{"introduced": "1.36.0"}, {"fixed": "1.36.4"}`, 1)), time.Date(2026, 9, 3, 0, 0, 0, 0, time.UTC))
	if rep, err := s.r.Run(ctx, only); err != nil || !rep.Applied {
		t.Fatalf("refresh of the modified record: %v, %+v", err, rep)
	}
	if r, err := s.trig.OnKnowledgeChanged(ctx); err != nil || r.Created != 0 {
		t.Errorf("trigger after the record was modified: %+v, %v", r, err)
	}
	s.deliverAll(t, p)
	if p.count() != 1 {
		t.Errorf("%d digests posted in all; want the one", p.count())
	}
}
