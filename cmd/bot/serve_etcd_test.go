package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

// replicaEnv is the environment of one `bot serve` replica on etcd.
func replicaEnv(t *testing.T, id, endpoints, api string) map[string]string {
	return map[string]string{
		"BOT_DB": filepath.Join(t.TempDir(), id+".db"), "BOT_HTTP_ADDR": freeAddr(t), "BOT_LOG_FORMAT": "json",
		"BOT_REFRESH_INTERVAL": "off", "BOT_REPLICA_ID": id,
		"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": endpoints, "BOT_ETCD_LEASE_TTL": "1s", "BOT_ETCD_DIAL_TIMEOUT": "2s",
		"SLACK_SIGNING_SECRET": testSigningSecret, "SLACK_BOT_TOKEN": "xoxb-1-serve-test", "SLACK_API_URL": api + "/api/",
	}
}

// slashIn sends a signed /k8s command from user in channel.
func slashIn(t *testing.T, base, channel, user, text string) (int, string) {
	return slashReply(t, base, channel, user, text, "https://hooks.slack.com/commands/T1/1/x")
}

// postsTo counts the digests the fake Slack showed in channel.
func (f *fakeSlackAPI) postsTo(channel string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.posts {
		if p.Get("channel") == channel {
			n++
		}
	}
	return n
}

// TestServeEtcdUnreachableAtStart: a replica that cannot reach etcd says
// which endpoints it tried, never the password, and exits 3.
func TestServeEtcdUnreachableAtStart(t *testing.T) {
	env := replicaEnv(t, "a", "http://"+freeAddr(t), "http://127.0.0.1:9")
	env["BOT_ETCD_DIAL_TIMEOUT"] = "300ms"
	env["BOT_ETCD_USERNAME"], env["BOT_ETCD_PASSWORD"] = "kepbot", "pw-do-not-print-1234"
	code, _, stderr := run(t, "", env, "serve")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	if !strings.Contains(stderr, env["BOT_ETCD_ENDPOINTS"]) || !strings.Contains(stderr, "did not answer within 300ms") {
		t.Errorf("the error does not say which etcd did not answer: %s", stderr)
	}
	if strings.Contains(stderr, "pw-do-not-print-1234") {
		t.Error("the etcd password was printed")
	}
}

// TestServeTwoReplicasShareOneEtcd runs two `bot serve` replicas on one
// embedded etcd: a channel subscribed through one replica is listed by
// the other and gets its digest once, from the leader; when the leader
// stops, the other leads and a second channel's digest comes from it.
func TestServeTwoReplicasShareOneEtcd(t *testing.T) {
	srv := etcdtest.New(t)
	fake := &fakeSlackAPI{posted: make(chan struct{}, 16)}
	api := httptest.NewServer(fake)
	defer api.Close()
	a := startServe(t, replicaEnv(t, "a", srv.Endpoint(), api.URL))
	b := startServe(t, replicaEnv(t, "b", srv.Endpoint(), api.URL))

	if code, body := slashIn(t, b.base, "C0001AAAA", "UADMIN", "subscribe deprecations from:1.29"); code != http.StatusOK || !strings.Contains(body, "Subscribed") {
		t.Fatalf("subscribe through b: %d %.300s", code, body)
	}
	waitFor(t, 20*time.Second, a.logs, func() bool { return fake.postsTo("C0001AAAA") == 1 })
	if _, body := slashIn(t, a.base, "C0001AAAA", "UMEMBER", "subscriptions"); !strings.Contains(body, "1.29") {
		t.Errorf("replica a does not list the subscription made through b: %.300s", body)
	}
	leader, follower := a, b
	if strings.Contains(b.logs.String(), "leading: refreshing") {
		leader, follower = b, a
	}
	leader.shutdown(t)
	defer follower.shutdown(t)
	waitFor(t, 10*time.Second, follower.logs, func() bool { return strings.Contains(follower.logs.String(), "leading: refreshing") })
	if code, body := slashIn(t, follower.base, "C0002BBBB", "UADMIN", "subscribe deprecations from:1.30"); code != http.StatusOK || !strings.Contains(body, "Subscribed") {
		t.Fatalf("subscribe after the failover: %d %.300s", code, body)
	}
	waitFor(t, 20*time.Second, follower.logs, func() bool { return fake.postsTo("C0002BBBB") == 1 })
	time.Sleep(500 * time.Millisecond) // room for a wrong second post
	if n1, n2 := fake.postsTo("C0001AAAA"), fake.postsTo("C0002BBBB"); n1 != 1 || n2 != 1 {
		t.Errorf("digests posted: %d and %d, want one each", n1, n2)
	}
}

// TestServeEtcdLostWhileRunning: with etcd gone, a replica still answers
// from its own knowledge and stays ready, and a subscribe gets a clear
// "try again" with nothing written.
func TestServeEtcdLostWhileRunning(t *testing.T) {
	srv := etcdtest.New(t)
	fake := &fakeSlackAPI{posted: make(chan struct{}, 16)}
	api := httptest.NewServer(fake)
	defer api.Close()
	p := startServe(t, replicaEnv(t, "a", srv.Endpoint(), api.URL))
	defer p.shutdown(t)
	srv.Close()

	if code, body := slashIn(t, p.base, "C0001AAAA", "UMEMBER", "kep 4639"); code != http.StatusOK || !strings.Contains(body, "KEP-4639") {
		t.Errorf("a question with etcd gone: %d %.300s", code, body)
	}
	// The store gives up after its request timeout, past Slack's 3 s, so
	// the answer goes late to the response URL (a Slack hooks URL, which
	// this test cannot receive): the log shows what it said.
	if code, body := slashIn(t, p.base, "C0001AAAA", "UADMIN", "subscribe deprecations"); code != http.StatusOK || strings.Contains(body, "Subscribed") {
		t.Errorf("a subscribe with etcd gone: %d %.300s", code, body)
	}
	waitFor(t, 15*time.Second, p.logs, func() bool {
		return strings.Contains(grepLines(p.logs.String(), `"kind":"subscribe"`), "The shared store is unreachable right now, so nothing was changed; try again in a minute.")
	})
	if got := get(t, p.base+"/readyz"); !strings.HasPrefix(got, `{"status":"ready"`) {
		t.Errorf("/readyz with etcd gone: %q", got)
	}
}

// TestServeReplicasShareRefreshedKnowledge: the leader's refresh reads an
// upstream's news and publishes it; both replicas load that generation
// and answer from it; a channel subscribed through the other replica gets
// one digest of it.
func TestServeReplicasShareRefreshedKnowledge(t *testing.T) {
	srv := etcdtest.New(t)
	up := upstreamtest.Shared(t)
	fake := &fakeSlackAPI{posted: make(chan struct{}, 16)}
	api := httptest.NewServer(fake)
	defer api.Close()
	var reps []*serveProcess
	for _, id := range []string{"a", "b"} {
		env := replicaEnv(t, id, srv.Endpoint(), api.URL)
		env["BOT_REFRESH_INTERVAL"] = "2s"
		for k, v := range up.Env() {
			env[k] = v
		}
		reps = append(reps, startServe(t, env))
	}
	defer func() {
		for _, p := range reps {
			p.shutdown(t)
		}
	}()
	a, b := reps[0], reps[1]
	waitFor(t, 30*time.Second, a.logs, func() bool {
		return strings.Contains(a.logs.String()+b.logs.String(), `"applied":true`)
	})
	if code, body := slashIn(t, b.base, "C0001AAAA", "UADMIN", "subscribe deprecations from:1.36"); code != http.StatusOK || !strings.Contains(body, "Subscribed") {
		t.Fatalf("subscribe: %d %.300s", code, body)
	}
	up.Set("/releases/release-1.37/release-notes/release-notes-draft.json", []byte(news137))
	for _, p := range reps { // both replicas answer from the new generation
		waitFor(t, 20*time.Second, p.logs, func() bool {
			_, body := slashIn(t, p.base, "C0001AAAA", "UMEMBER", "1.37 deprecations")
			return strings.Contains(body, "140001")
		})
	}
	waitFor(t, 20*time.Second, a.logs, func() bool { return fake.postsTo("C0001AAAA") == 1 })
	time.Sleep(time.Second) // room for a wrong second post
	if n := fake.postsTo("C0001AAAA"); n != 1 {
		t.Errorf("%d digests posted; want one, of the news", n)
	}
	for _, p := range reps {
		if m := get(t, p.base+"/metrics"); !strings.Contains(m, "kepbot_leader ") {
			t.Errorf("/metrics lacks kepbot_leader")
		}
	}
}
