package slack

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// subscribe gives channel of team an active subscription, as an admin's
// subscribe would.
func subscribe(t *testing.T, db *store.DB, team, channel string) {
	t.Helper()
	_, err := db.Subscriptions().SaveSubscription(context.Background(), digest.Subscription{
		Platform: Platform, Workspace: team, Channel: channel, CreatedBy: "UADMIN", CreatedAt: time.Now(),
		Filter: digest.Filter{Schedule: digest.ScheduleWeekly, Format: digest.FormatCompact}})
	if err != nil {
		t.Fatal(err)
	}
}

// state is a channel's subscription state and reason, "none" without one.
func state(t *testing.T, db *store.DB, team, channel string) string {
	t.Helper()
	s, err := db.Subscriptions().FindSubscriptionByChannel(context.Background(), digest.ChannelRef{Platform: Platform, Workspace: team, Channel: channel})
	if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
		return "none"
	}
	if err != nil {
		t.Fatal(err)
	}
	if s.Active() {
		return "active"
	}
	return string(s.State) + " " + s.PausedReason
}

func lifecycleEvent(id, team string, ev map[string]any) string {
	b, _ := json.Marshal(map[string]any{"type": "event_callback", "team_id": team, "event_id": id, "event": ev})
	return string(b)
}

// newCleanupAdapter is an HTTP-mode adapter with a bot token against f,
// pausing through p.
func newCleanupAdapter(t *testing.T, f *fakeSlack, p Pauser) (*Adapter, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	cfg := Config{BotToken: config.NewSecret(testBotToken), SigningSecrets: []config.Secret{config.NewSecret(testSecret)}, APIURL: f.apiURL()}
	a, err := NewAdapter(cfg, &fakeAnswerer{}, testLogger(logs, testBotToken, testSecret), WithPauser(p))
	if err != nil {
		t.Fatal(err)
	}
	runAdapter(t, a)
	waitFor(t, "auth.test", func() bool { return a.botUserID() == testBotUser })
	return a, logs
}

func TestChannelEventsPauseTheirSubscription(t *testing.T) {
	f := newFakeSlack(t, nil)
	_, db := subscriptionEngine(t)
	a, logs := newCleanupAdapter(t, f, db.Subscriptions())
	tests := []struct {
		event, channel, want string
	}{
		{"channel_archive", "CARCH", "paused is_archived"},
		{"group_archive", "GARCH", "paused is_archived"},
		{"channel_deleted", "CDEL", "paused channel_not_found"},
		{"group_deleted", "GDEL", "paused channel_not_found"},
		{"channel_left", "CLEFT", "paused not_in_channel"},
		{"group_left", "GLEFT", "paused not_in_channel"},
	}
	for _, tt := range tests {
		subscribe(t, db, "T1", tt.channel)
	}
	subscribe(t, db, "T2", "CARCH") // the same channel ID in another workspace is another channel
	subscribe(t, db, "T1", "CKEEP")
	for i, tt := range tests {
		rec := serve(a, eventRequest(lifecycleEvent("EvL"+tt.event, "T1", map[string]any{"type": tt.event, "channel": tt.channel, "user": "U9"}), 0))
		if rec.Code != 200 {
			t.Fatalf("%s: status %d", tt.event, rec.Code)
		}
		if i == 0 { // Slack retries: the same event again changes nothing and is acked
			if rec := serve(a, eventRequest(lifecycleEvent("EvL"+tt.event, "T1", map[string]any{"type": tt.event, "channel": tt.channel}), 1)); rec.Code != 200 {
				t.Fatalf("retry: status %d", rec.Code)
			}
		}
	}
	// An archived channel nobody subscribed is no error.
	serve(a, eventRequest(lifecycleEvent("EvNone", "T1", map[string]any{"type": "channel_archive", "channel": "CNONE"}), 0))
	for _, tt := range tests {
		waitFor(t, tt.event, func() bool { return state(t, db, "T1", tt.channel) == tt.want })
	}
	if got := state(t, db, "T2", "CARCH"); got != "active" {
		t.Errorf("T2/CARCH is %s; archiving T1/CARCH paused another workspace's channel", got)
	}
	if got := state(t, db, "T1", "CKEEP"); got != "active" {
		t.Errorf("an untouched channel is %s", got)
	}
	if got := state(t, db, "T1", "CNONE"); got != "none" {
		t.Errorf("a channel without a subscription is %s", got)
	}
	if len(f.postedMessages()) != 0 {
		t.Error("a lifecycle event was answered with a message")
	}
	assertNoSecrets(t, "log", logs.String())
}

func TestUninstallPausesTheWorkspace(t *testing.T) {
	for _, tt := range []struct {
		name  string
		event map[string]any
		pause bool
	}{
		{"app_uninstalled", map[string]any{"type": "app_uninstalled"}, true},
		{"bot token revoked", map[string]any{"type": "tokens_revoked", "tokens": map[string]any{"bot": []string{testBotUser}}}, true},
		{"user tokens revoked", map[string]any{"type": "tokens_revoked", "tokens": map[string]any{"oauth": []string{"U1"}}}, false},
		{"another bot's token revoked", map[string]any{"type": "tokens_revoked", "tokens": map[string]any{"bot": []string{"UOTHERBOT"}}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSlack(t, nil)
			_, db := subscriptionEngine(t)
			a, logs := newCleanupAdapter(t, f, db.Subscriptions())
			subscribe(t, db, "T1", "C1")
			subscribe(t, db, "T1", "C2")
			subscribe(t, db, "T2", "C3")
			serve(a, eventRequest(lifecycleEvent("EvU", "T1", tt.event), 0))
			want := "active"
			if tt.pause {
				want = "paused " + workspaceGone
				waitFor(t, "pauses", func() bool { return state(t, db, "T1", "C1") == want && state(t, db, "T1", "C2") == want })
			} else {
				a.bg.Wait() // nothing in flight to wait for, but make sure
			}
			if got := state(t, db, "T1", "C1"); got != want {
				t.Errorf("T1/C1 %s, want %s", got, want)
			}
			if got := state(t, db, "T2", "C3"); got != "active" {
				t.Errorf("another workspace's channel is %s", got)
			}
			assertNoSecrets(t, "log", logs.String())
		})
	}
}

// pauseOnly is a Pauser that cannot list: it records the pauses.
type pauseOnly struct{ refs chan digest.ChannelRef }

func (p pauseOnly) PauseSubscription(_ context.Context, ch digest.ChannelRef, _ string, _ time.Time) error {
	p.refs <- ch
	return errors.New("disk on fire")
}

func TestUninstallWithAPauserThatCannotListIsLogged(t *testing.T) {
	f := newFakeSlack(t, nil)
	p := pauseOnly{refs: make(chan digest.ChannelRef, 4)}
	a, logs := newCleanupAdapter(t, f, p)
	serve(a, eventRequest(lifecycleEvent("EvU", "T1", map[string]any{"type": "app_uninstalled"}), 0))
	waitFor(t, "the warning", func() bool { return strings.Contains(logs.String(), "cannot list its channels") })
	serve(a, eventRequest(lifecycleEvent("EvA", "T1", map[string]any{"type": "channel_archive", "channel": "C7"}), 0))
	select {
	case ref := <-p.refs:
		if ref != (digest.ChannelRef{Platform: Platform, Workspace: "T1", Channel: "C7"}) {
			t.Errorf("paused %+v", ref)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no pause")
	}
	waitFor(t, "the error", func() bool { return strings.Contains(logs.String(), "could not pause") })
}

func TestSocketModeChannelEventPauses(t *testing.T) {
	f := newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("events_api", "env-9", 0, lifecycleEvent("EvS", "T1", map[string]any{"type": "channel_deleted", "channel": "C5"})))
		readAcks(c, 1)
		drain(c)
	})
	_, db := subscriptionEngine(t)
	subscribe(t, db, "T1", "C5")
	a := newSocketAdapter(t, f, &fakeAnswerer{}, false, &logBuffer{})
	a.pauser = db.Subscriptions()
	runAdapter(t, a)
	waitFor(t, "the pause", func() bool { return state(t, db, "T1", "C5") == "paused channel_not_found" })
}
