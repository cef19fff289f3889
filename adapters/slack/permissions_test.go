package slack

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/storetest"
)

// refusal is what the engine says to someone who may not change a
// channel's subscriptions on Slack.
const refusal = "Only workspace admins and owners"

// subscriptionEngine is the real engine over a real bbolt file, answering
// subscriptions as bot serve wires them: who may manage is what the
// adapter put in Origin.CanManage.
func subscriptionEngine(tb testing.TB) (*engine.Engine, *store.DB) {
	tb.Helper()
	db := storetest.SnapshotDB(tb)
	svc := digest.NewSubscriptions(digest.SubscriptionConfig{
		Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge(),
		CanManage: func(_ context.Context, o knowledge.Origin) (bool, error) { return o.CanManage, nil },
	})
	return engine.New(db.Knowledge(), engine.WithSubscriptions(svc)), db
}

// permissionFake is the fake Web API with the people of the tests.
func permissionFake(t *testing.T, ws func(n int, c *websocket.Conn)) *fakeSlack {
	f := newFakeSlack(t, ws)
	f.setUser("UADMIN", `,"is_admin":true`)
	f.setUser("UOWNER", `,"is_owner":true`)
	f.setUser("UPRIMARY", `,"is_primary_owner":true`)
	f.setUser("UALLOW", ``)
	f.setUser("UPLAIN", ``)
	f.setUser("UGUEST", `,"is_restricted":true`)
	f.setUser("UGUEST2", `,"is_ultra_restricted":true`)
	f.setUser("UADMINGUEST", `,"is_admin":true,"is_restricted":true`)
	return f
}

// newPermissionAdapter is an HTTP-mode adapter with a bot token against f,
// with UALLOW, UGUEST and UGUEST2 on the allowlist.
func newPermissionAdapter(t *testing.T, f *fakeSlack, ans knowledge.Answerer) (*Adapter, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	cfg := Config{BotToken: config.NewSecret(testBotToken), SigningSecrets: []config.Secret{config.NewSecret(testSecret)},
		APIURL: f.apiURL(), SubscriptionManagers: []string{"UALLOW", " UGUEST ", "UGUEST2"}}
	a, err := NewAdapter(cfg, ans, testLogger(logs, testBotToken, testSecret))
	if err != nil {
		t.Fatal(err)
	}
	runAdapter(t, a)
	waitFor(t, "auth.test", func() bool { return a.botUserID() == testBotUser })
	return a, logs
}

// slashAs sends a signed /k8s text from user in channel over HTTP and
// returns the answer's fallback text.
func slashAs(t *testing.T, a *Adapter, user, channel, text string) string {
	t.Helper()
	v := url.Values{"team_id": {"T1"}, "channel_id": {channel}, "user_id": {user}, "user_name": {"u"}, "command": {"/k8s"},
		"text": {text}, "response_url": {testHooksURL}, "trigger_id": {"1.2." + strconv.FormatInt(triggers.Add(1), 10)}}
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), []byte(v.Encode())))
	var m struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s: status %d %q: %v", text, rec.Code, rec.Body.String(), err)
	}
	return m.Text
}

func subscribed(t *testing.T, db *store.DB, channel string) bool {
	t.Helper()
	s, err := db.Subscriptions().FindSubscriptionByChannel(context.Background(),
		digest.ChannelRef{Platform: Platform, Workspace: "T1", Channel: channel})
	return err == nil && s != nil && s.Active()
}

func TestSubscribePermissionOverSlashCommands(t *testing.T) {
	f := permissionFake(t, nil)
	eng, db := subscriptionEngine(t)
	a, logs := newPermissionAdapter(t, f, eng)
	tests := []struct {
		user    string
		allowed bool
	}{
		{"UADMIN", true},
		{"UOWNER", true},
		{"UPRIMARY", true},
		{"UALLOW", true},
		{"UPLAIN", false},
		{"UGUEST", false},  // allowlisted, but a guest
		{"UGUEST2", false}, // allowlisted, but a single-channel guest
		{"UADMINGUEST", false},
		{"UNOBODY", false}, // users.info fails: refused
	}
	for _, tt := range tests {
		channel := "C" + tt.user
		text := slashAs(t, a, tt.user, channel, "subscribe deprecations")
		if got := subscribed(t, db, channel); got != tt.allowed {
			t.Errorf("%s: subscribed %v, want %v (answer %q)", tt.user, got, tt.allowed, text)
		}
		if refused := strings.Contains(text, refusal); refused == tt.allowed {
			t.Errorf("%s: answer %q; want the refusal %v", tt.user, text, !tt.allowed)
		}
	}
	// Unsubscribing asks too: a plain member cannot, an admin can.
	if text := slashAs(t, a, "UPLAIN", "CUADMIN", "unsubscribe deprecations"); !strings.Contains(text, refusal) || !subscribed(t, db, "CUADMIN") {
		t.Errorf("a plain member unsubscribed: %q", text)
	}
	slashAs(t, a, "UADMIN", "CUADMIN", "unsubscribe deprecations")
	if subscribed(t, db, "CUADMIN") {
		t.Error("an admin could not unsubscribe")
	}
	if n := f.usersInfoCalls("UADMIN"); n != 1 {
		t.Errorf("users.info asked about UADMIN %d times over two questions, want 1 (cached)", n)
	}
	if n := f.usersInfoCalls("UPLAIN"); n != 1 {
		t.Errorf("users.info asked about UPLAIN %d times, want 1 (refusals are cached too)", n)
	}
	out := logs.String()
	if !strings.Contains(out, `"can_manage":false`) || !strings.Contains(out, `"can_manage":true`) ||
		!strings.Contains(out, `"channel":"CUPLAIN"`) || !strings.Contains(out, `"decided_by":"guest"`) {
		t.Errorf("no audit lines with user, channel and decision in:\n%s", out)
	}
	if !strings.Contains(out, `"level":"warn"`) || !strings.Contains(out, "users.info failed") {
		t.Error("a users.info failure was not logged as a warning")
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "can_manage") && strings.Contains(line, "deprecations") {
			t.Errorf("an audit line holds the question: %s", line)
		}
	}
	assertNoSecrets(t, "log", out)
}

func TestPlainQuestionsNeverAskUsersInfo(t *testing.T) {
	f := permissionFake(t, nil)
	eng, _ := subscriptionEngine(t)
	a, _ := newPermissionAdapter(t, f, eng)
	for _, q := range []string{"subscriptions", "releases", "help subscribe", "kep 4639", "subscribe"} {
		slashAs(t, a, "UPLAIN", "C1", q)
	}
	if n := f.usersInfoCalls("UPLAIN"); n != 0 {
		t.Errorf("users.info asked %d times for questions that change no subscription", n)
	}
}

func TestPermissionCacheExpires(t *testing.T) {
	f := permissionFake(t, nil)
	eng, _ := subscriptionEngine(t)
	a, _ := newPermissionAdapter(t, f, eng)
	var mu sync.Mutex
	now := time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)
	a.setClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	slashAs(t, a, "UALLOW", "C1", "subscribe deprecations")
	advance(manageTTL - time.Second)
	slashAs(t, a, "UALLOW", "C1", "subscribe deprecations")
	if n := f.usersInfoCalls("UALLOW"); n != 1 {
		t.Fatalf("%d users.info calls within the TTL, want 1", n)
	}
	advance(2 * time.Second)
	slashAs(t, a, "UALLOW", "C1", "subscribe deprecations")
	if n := f.usersInfoCalls("UALLOW"); n != 2 {
		t.Errorf("%d users.info calls after the TTL, want 2", n)
	}
	// Another workspace is another person.
	v := url.Values{"team_id": {"T2"}, "channel_id": {"C1"}, "user_id": {"UALLOW"}, "command": {"/k8s"}, "text": {"subscribe deprecations"}, "response_url": {testHooksURL}}
	serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), []byte(v.Encode())))
	if n := f.usersInfoCalls("UALLOW"); n != 3 {
		t.Errorf("%d users.info calls after a question from another workspace, want 3", n)
	}
}

// TestSubscribePermissionOverEvents: an app mention and a DM ask
// users.info too, and the mention subscribes its channel.
func TestSubscribePermissionOverEvents(t *testing.T) {
	f := permissionFake(t, nil)
	eng, db := subscriptionEngine(t)
	a, logs := newPermissionAdapter(t, f, eng)
	event := func(id, typ, user, channel, channelType, text string) string {
		b, _ := json.Marshal(map[string]any{"type": "event_callback", "team_id": "T1", "event_id": id,
			"event": map[string]any{"type": typ, "user": user, "text": text, "channel": channel, "channel_type": channelType, "ts": id + ".1"}})
		return string(b)
	}
	serve(a, eventRequest(event("Ev1", "app_mention", "UPLAIN", "CPLAIN", "channel", "<@"+testBotUser+"> subscribe deprecations"), 0))
	serve(a, eventRequest(event("Ev2", "app_mention", "UALLOW", "CALLOW", "channel", "<@"+testBotUser+"> subscribe deprecations"), 0))
	serve(a, eventRequest(event("Ev3", "message", "UADMIN", "DADMIN", "im", "subscribe deprecations"), 0))
	waitFor(t, "three answers", func() bool { return len(f.postedMessages()) == 3 })
	byChannel := map[string]string{}
	for _, p := range f.postedMessages() {
		byChannel[p.Get("channel")] = p.Get("text")
	}
	if !strings.Contains(byChannel["CPLAIN"], refusal) || subscribed(t, db, "CPLAIN") {
		t.Errorf("a plain member's mention: %q", byChannel["CPLAIN"])
	}
	if strings.Contains(byChannel["CALLOW"], refusal) || !subscribed(t, db, "CALLOW") {
		t.Errorf("an allowlisted member's mention: %q", byChannel["CALLOW"])
	}
	for _, u := range []string{"UPLAIN", "UALLOW", "UADMIN"} {
		if n := f.usersInfoCalls(u); n != 1 {
			t.Errorf("users.info asked about %s %d times, want 1", u, n)
		}
	}
	if !strings.Contains(logs.String(), `"channel":"DADMIN"`) {
		t.Error("the DM's decision was not audited")
	}
}

// TestSubscribePermissionOverSocketMode: a slash command over Socket Mode
// from a plain member is refused after one users.info call.
func TestSubscribePermissionOverSocketMode(t *testing.T) {
	acks := make(chan []map[string]any, 1)
	f := permissionFake(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-1", 0, slashPayload("subscribe deprecations", testHooksURL)))
		acks <- readAcks(c, 1)
		drain(c)
	})
	f.setUser("U1", ``) // slashPayload's user: a plain member
	eng, db := subscriptionEngine(t)
	runAdapter(t, newSocketAdapter(t, f, eng, false, &logBuffer{}))
	var got []map[string]any
	select {
	case got = <-acks:
	case <-time.After(10 * time.Second):
		t.Fatal("no ack")
	}
	payload, _ := got[0]["payload"].(map[string]any)
	if text, _ := payload["text"].(string); !strings.Contains(text, refusal) {
		t.Errorf("ack %v, want the refusal", payload)
	}
	if f.usersInfoCalls("U1") != 1 || subscribed(t, db, "C1") {
		t.Errorf("users.info calls %d, subscribed %v; want 1 and no", f.usersInfoCalls("U1"), subscribed(t, db, "C1"))
	}
}

// TestSubscribeWithoutUsersRead: an app installed with the default scopes
// (no users:read) refuses a subscription, even an admin's, saying which
// scope it lacks, and logs it; other questions are not affected.
func TestSubscribeWithoutUsersRead(t *testing.T) {
	f := permissionFake(t, nil)
	f.setUsersError("missing_scope")
	eng, db := subscriptionEngine(t)
	a, logs := newPermissionAdapter(t, f, eng)
	got := slashAs(t, a, "UADMIN", "C77", "subscribe deprecations")
	if !strings.Contains(got, "users:read") || subscribed(t, db, "C77") {
		t.Errorf("subscribe without users:read answered %q, subscribed %v; want a refusal naming the scope", got, subscribed(t, db, "C77"))
	}
	if !strings.Contains(logs.String(), "lacks users:read") {
		t.Errorf("the missing scope is not logged:\n%s", logs.String())
	}
	if got := slashAs(t, a, "UADMIN", "C77", "subscriptions"); strings.Contains(got, "users:read") {
		t.Errorf("listing subscriptions needs no users:read, yet answered %q", got)
	}
}
