package slack

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/platform"
)

// runAdapter runs a until the test ends and checks that Run returns
// cleanly when it is stopped.
func runAdapter(t *testing.T, a *Adapter) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after its context ended")
		}
	})
}

// readAcksUntil reads acks until every one of ids has been acked (an ack
// queued before a reconnect may arrive first) and returns the ids acked.
func readAcksUntil(c *websocket.Conn, ids ...string) []string {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var got []string
	for len(want) > 0 {
		acks := readAcks(c, 1)
		if len(acks) == 0 {
			return got
		}
		id, _ := acks[0]["envelope_id"].(string)
		got = append(got, id)
		delete(want, id)
	}
	return got
}

// drain keeps a Socket Mode connection open until the client leaves.
func drain(c *websocket.Conn) {
	_ = c.SetReadDeadline(time.Time{})
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			return
		}
	}
}

func TestSocketSlashCommandAckCarriesBlocks(t *testing.T) {
	acks := make(chan []map[string]any, 1)
	f := newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-1", 0, slashPayload("kep 4639 --public", testHooksURL)))
		acks <- readAcks(c, 1)
		drain(c)
	})
	ans := &fakeAnswerer{}
	runAdapter(t, newSocketAdapter(t, f, ans, false, &logBuffer{}))

	var got []map[string]any
	select {
	case got = <-acks:
	case <-time.After(10 * time.Second):
		t.Fatal("no ack")
	}
	if len(got) != 1 || got[0]["envelope_id"] != "env-1" {
		t.Fatalf("acks = %v, want one for env-1", got)
	}
	payload, _ := got[0]["payload"].(map[string]any)
	blocks, _ := payload["blocks"].([]any)
	if payload["response_type"] != InChannel || len(blocks) == 0 || !strings.Contains(payload["text"].(string), "KEP-4639") {
		t.Errorf("ack payload = %v, want the KEP card in_channel", payload)
	}
	if q := ans.questions(); len(q) != 1 || q[0].KEP != 4639 || q[0].From.Channel != "C1" || q[0].From.Platform != Platform {
		t.Errorf("questions = %+v", q)
	}
	if len(f.responsePosts()) != 0 {
		t.Error("an answer that fit the ack also went to response_url")
	}
}

func TestSocketMentionPostsMessage(t *testing.T) {
	acks := make(chan []map[string]any, 1)
	f := newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("events_api", "env-2", 0, mentionPayload("Ev1", "1700000000.000001", "<@"+testBotUser+"> kep 4639")))
		acks <- readAcks(c, 1)
		drain(c)
	})
	ans := &fakeAnswerer{}
	runAdapter(t, newSocketAdapter(t, f, ans, false, &logBuffer{}))

	got := <-acks
	if len(got) != 1 || got[0]["envelope_id"] != "env-2" || got[0]["payload"] != nil {
		t.Fatalf("acks = %v, want a bare ack of env-2", got)
	}
	waitFor(t, "chat.postMessage", func() bool { return len(f.postedMessages()) == 1 })
	p := f.postedMessages()[0]
	if p.Get("channel") != "C1" || p.Get("thread_ts") != "1700000000.000001" || !strings.Contains(p.Get("blocks"), "KEP-4639") ||
		!strings.Contains(p.Get("text"), "KEP-4639") {
		t.Errorf("posted %v", p)
	}
	for _, k := range []string{"link_names", "parse"} {
		if v := p.Get(k); v != "" && v != "0" && v != "false" && v != "none" {
			t.Errorf("chat.postMessage set %s=%s", k, v)
		}
	}
	if q := ans.questions(); len(q) != 1 || q[0].Text != "kep 4639" {
		t.Errorf("asked %+v, want the text without the mention", q)
	}
}

// TestSocketReconnectLosesNothing: Slack closes the socket before it has
// read the ack, redelivers on the new connection, later asks the client
// to reconnect (disconnect, refresh_requested) and delivers more. Every
// event is answered exactly once.
func TestSocketReconnectLosesNothing(t *testing.T) {
	ev := func(id, ts string) map[string]any {
		return envelope("events_api", "env-"+id, 0, mentionPayload(id, ts, "<@"+testBotUser+"> kep 4639"))
	}
	var mu sync.Mutex
	var acked []string
	f := newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		switch n {
		case 1: // deliver A, then drop the connection without reading the ack
			_ = c.WriteJSON(ev("EvA", "1.1"))
			return
		case 2: // redeliver A as a retry, deliver B, then ask for a reconnect
			a := ev("EvA", "1.1")
			a["retry_attempt"], a["retry_reason"] = 1, "timeout"
			_ = c.WriteJSON(a)
			_ = c.WriteJSON(ev("EvB", "1.2"))
			got := readAcksUntil(c, "env-EvA", "env-EvB")
			mu.Lock()
			acked = append(acked, got...)
			mu.Unlock()
			_ = c.WriteJSON(map[string]any{"type": "disconnect", "reason": "refresh_requested"})
			drain(c)
		default: // deliver C on the refreshed connection
			_ = c.WriteJSON(ev("EvC", "1.3"))
			got := readAcksUntil(c, "env-EvC")
			mu.Lock()
			acked = append(acked, got...)
			mu.Unlock()
			drain(c)
		}
	})
	ans := &fakeAnswerer{}
	runAdapter(t, newSocketAdapter(t, f, ans, false, &logBuffer{}))

	waitFor(t, "three answers", func() bool { return len(f.postedMessages()) >= 3 })
	time.Sleep(100 * time.Millisecond) // a duplicate would arrive about now
	posts := f.postedMessages()
	threads := map[string]int{}
	for _, p := range posts {
		threads[p.Get("thread_ts")]++
	}
	if len(posts) != 3 || threads["1.1"] != 1 || threads["1.2"] != 1 || threads["1.3"] != 1 {
		t.Errorf("posts by thread = %v, want each of 1.1, 1.2, 1.3 once", threads)
	}
	if n := f.opens.Load(); n < 3 {
		t.Errorf("apps.connections.open called %d times, want 3 (two reconnects)", n)
	}
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]bool{}
	for _, id := range acked {
		seen[id] = true
	}
	if !seen["env-EvA"] || !seen["env-EvB"] || !seen["env-EvC"] {
		t.Errorf("acked %v, want A (redelivered), B and C", acked)
	}
}

// TestSocketLateSlashAnswerGoesToResponseURL: an answer slower than the
// inline budget is acked empty in time and posted to response_url.
func TestSocketLateSlashAnswerGoesToResponseURL(t *testing.T) {
	acks := make(chan []map[string]any, 1)
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-late", 0, slashPayload("kep 4639", f.responseURL("late"))))
		acks <- readAcks(c, 1)
		drain(c)
	})
	ans := &fakeAnswerer{delay: 300 * time.Millisecond}
	a := newSocketAdapter(t, f, ans, false, &logBuffer{})
	a.budget = 50 * time.Millisecond
	start := time.Now()
	runAdapter(t, a)
	got := <-acks
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("ack after %v, over Slack's 3 s", took)
	}
	if len(got) != 1 || got[0]["payload"] != nil {
		t.Errorf("acks = %v, want one empty ack", got)
	}
	waitFor(t, "the response_url post", func() bool { return len(f.responsePosts()) == 1 })
	if r := f.responsePosts()[0]; r["response_type"] != Ephemeral || !strings.Contains(r["text"].(string), "KEP-4639") {
		t.Errorf("response_url got %v", r)
	}
}

func TestSocketKeepsTryingWhileSlackIsUnreachable(t *testing.T) {
	f := newFakeSlack(t, nil)
	f.srv.Stop()
	a := newSocketAdapter(t, f, &fakeAnswerer{}, false, &logBuffer{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := a.Run(ctx); err != nil {
		t.Errorf("Run with Slack unreachable = %v, want nil once the context ends", err)
	}
}

func TestRefusedTokenStopsRun(t *testing.T) {
	f := newFakeSlack(t, nil)
	f.setAuthError("invalid_auth")
	for _, socket := range []bool{true, false} {
		a := newSocketAdapter(t, f, &fakeAnswerer{}, false, &logBuffer{})
		if !socket {
			a.cfg.AppToken = config.Secret{}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := a.Run(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "SLACK_BOT_TOKEN") || strings.Contains(err.Error(), testBotToken) {
			t.Errorf("socket=%v: Run = %v, want a refusal naming SLACK_BOT_TOKEN (and not the token)", socket, err)
		}
		if s := a.Status(); s.State != platform.Stopped || !strings.Contains(s.Error, "SLACK_BOT_TOKEN") {
			t.Errorf("socket=%v: status = %+v, want stopped with the refusal", socket, s)
		}
	}
}

// TestSocketStatusFollowsTheConnection: while apps.connections.open
// fails, the status is down with the error, the attempt and when slack-go
// tries again, and each attempt is one log line with its wait; once Slack
// answers it is up.
func TestSocketStatusFollowsTheConnection(t *testing.T) {
	f := newFakeSlack(t, func(_ int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		drain(c)
	})
	f.openFailures.Store(3)
	logs := &logBuffer{}
	a := newSocketAdapter(t, f, &fakeAnswerer{}, false, logs)
	if s := a.Status(); s.State != platform.Connecting {
		t.Errorf("status before Run = %+v, want connecting", s)
	}
	runAdapter(t, a)
	var worst platform.Status
	waitFor(t, "the connection", func() bool {
		s := a.Status()
		if s.State == platform.Down && s.Attempts > worst.Attempts {
			worst = s
		}
		return s.State == platform.Up
	})
	if worst.Attempts != 3 || !strings.Contains(worst.Error, "503") || worst.NextAttempt == nil {
		t.Errorf("status while failing = %+v, want down after 3 attempts with the 503 and the next attempt", worst)
	}
	lines := strings.Count(logs.String(), "Socket Mode connection failed; retrying")
	if lines != 3 || !strings.Contains(logs.String(), `"attempt":3`) || !strings.Contains(logs.String(), `"retry_in":`) {
		t.Errorf("%d retry lines, want 3 with the attempt and the wait:\n%s", lines, logs.String())
	}
}
