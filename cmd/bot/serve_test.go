package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/logtest"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

const testSigningSecret = "0cc175b9c0f1b6a831c399e269772661"

// fakeSlackAPI is the part of Slack's Web API that `bot serve` calls for
// subscriptions and digests: auth.test, users.info and chat.postMessage.
type fakeSlackAPI struct {
	mu     sync.Mutex
	posts  []url.Values // chat.postMessage forms, in order
	lookup []string     // users.info user IDs, in order
	posted chan struct{}
}

func (f *fakeSlackAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Header.Get("Authorization") != "Bearer xoxb-1-serve-test" && r.Form.Get("token") != "xoxb-1-serve-test" {
		writeJSON(w, map[string]any{"ok": false, "error": "invalid_auth"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch strings.TrimPrefix(r.URL.Path, "/api/") {
	case "auth.test":
		writeJSON(w, map[string]any{"ok": true, "user_id": "UBOT", "team_id": "T1", "bot_id": "B1"})
	case "users.info":
		user := r.Form.Get("user")
		f.lookup = append(f.lookup, user)
		writeJSON(w, map[string]any{"ok": true, "user": map[string]any{"id": user, "team_id": "T1", "is_admin": user == "UADMIN"}})
	case "chat.postMessage":
		f.posts = append(f.posts, r.Form)
		writeJSON(w, map[string]any{"ok": true, "channel": r.Form.Get("channel"), "ts": "1700000000.00010" + strconv.Itoa(len(f.posts))})
		select {
		case f.posted <- struct{}{}:
		default:
		}
	default:
		writeJSON(w, map[string]any{"ok": false, "error": "unknown_method"})
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// TestServeDeliversDigestToSubscribedChannel runs `bot serve` as an
// operator would (Slack over HTTP with a bot token) against a fake Slack
// Web API: an admin subscribes a channel with a signed /k8s command, the
// digest worker posts the first digest to that channel, a plain member is
// refused, and a stop closes the database with the subscription kept.
func TestServeDeliversDigestToSubscribedChannel(t *testing.T) {
	fake := &fakeSlackAPI{posted: make(chan struct{}, 16)}
	api := httptest.NewServer(fake)
	defer api.Close()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "kepbot.db")
	addr := freeAddr(t)
	env := map[string]string{
		"BOT_DB": dbPath, "BOT_HTTP_ADDR": addr, "BOT_LOG_FORMAT": "json", "BOT_REFRESH_INTERVAL": "off",
		"SLACK_SIGNING_SECRET": testSigningSecret, "SLACK_BOT_TOKEN": "xoxb-1-serve-test",
		"SLACK_API_URL": api.URL + "/api/",
	}
	ctx, stop := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: &logs, getenv: func(k string) string { return env[k] }})
	}()
	base := "http://" + addr
	waitHealthy(t, base, done, &logs)

	code, body := signedSlash(t, base, "UMEMBER", "subscribe deprecations")
	if code != http.StatusOK || !strings.Contains(body, "Only workspace admins") {
		t.Errorf("a plain member subscribing: %d %s, want the refusal", code, body)
	}
	code, body = signedSlash(t, base, "UADMIN", "subscribe deprecations from:1.29")
	if code != http.StatusOK || strings.Contains(body, "Only workspace admins") {
		t.Fatalf("an admin subscribing: %d %s", code, body)
	}
	if !strings.Contains(body, `"response_type":"in_channel"`) {
		t.Errorf("the subscription is not shown to the channel: %.200s", body)
	}
	select {
	case <-fake.posted:
	case <-time.After(15 * time.Second):
		t.Fatalf("no digest posted within 15 s; log:\n%s", logs.String())
	}
	fake.mu.Lock()
	first := fake.posts[0]
	lookups := append([]string(nil), fake.lookup...)
	fake.mu.Unlock()
	if first.Get("channel") != "C0123ABCD" {
		t.Errorf("digest posted to %q, want C0123ABCD", first.Get("channel"))
	}
	if blocks := first.Get("blocks"); !strings.Contains(blocks, "1.3") {
		t.Errorf("the digest from 1.29 up names no later release: %.300s", blocks)
	}
	if first.Get("link_names") == "true" || first.Get("parse") == "full" {
		t.Errorf("digest posted with link_names or parse=full: %v", first)
	}
	if len(lookups) != 2 {
		t.Errorf("users.info called for %q, want once per person who changed subscriptions", lookups)
	}

	_, body = signedSlash(t, base, "UMEMBER", "subscriptions")
	if !strings.Contains(body, "1.29") {
		t.Errorf("subscriptions does not show the from:1.29 filter: %s", body)
	}
	stop()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve exited %d; log:\n%s", code, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop within 20 s of the signal")
	}
	if strings.Contains(logs.String(), "xoxb-1-serve-test") || strings.Contains(logs.String(), testSigningSecret) {
		t.Error("a secret reached the log")
	}
	db, err := store.Open(dbPath, store.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the database was not closed, or not kept: %v", err)
	}
	defer db.Close()
	sub, err := db.Subscriptions().FindSubscriptionByChannel(context.Background(), digest.ChannelRef{Platform: "slack", Workspace: "T1", Channel: "C0123ABCD"})
	if err != nil || !sub.Active() || sub.CreatedBy != "UADMIN" {
		t.Errorf("after the stop the subscription is %+v, %v; want it active, created by UADMIN", sub, err)
	}
}

func signedSlash(t *testing.T, base, user, text string) (int, string) {
	t.Helper()
	return slashReply(t, base, "C0123ABCD", user, text, "https://hooks.slack.com/commands/T1/1/x")
}

// slashReply sends a signed /k8s command from user in channel, whose late
// answer goes to replyURL, and returns the status and body.
func slashReply(t *testing.T, base, channel, user, text, replyURL string) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(signedSlashRequest(base, channel, user, text, replyURL))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// signedSlashRequest is a /k8s command signed as Slack signs it.
// triggerSeq numbers the slash commands the tests send.
var triggerSeq atomic.Int64

func signedSlashRequest(base, channel, user, text, replyURL string) *http.Request {
	// Slack gives every invocation its own trigger_id: one request a call,
	// never a replay (which kepbot refuses).
	body := url.Values{"team_id": {"T1"}, "channel_id": {channel}, "user_id": {user}, "command": {"/k8s"},
		"text": {text}, "response_url": {replyURL}, "trigger_id": {"1.2." + strconv.FormatInt(triggerSeq.Add(1), 10)}}.Encode()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(testSigningSecret))
	mac.Write([]byte("v0:" + ts + ":" + body))
	req, _ := http.NewRequest(http.MethodPost, base+"/slack/commands", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	return req
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func waitHealthy(t *testing.T, base string, done <-chan int, logs *syncBuffer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case code := <-done:
			t.Fatalf("serve exited %d before it was ready; log:\n%s", code, logs.String())
		default:
		}
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("serve not ready within 30 s; log:\n%s", logs.String())
}

type syncBuffer = logtest.Buffer

// TestServeDiscordSettingsRefused: a Discord setting bot serve cannot use
// stops it with exit 2 and one line naming the setting and what would
// work, said once ("config:" not doubled).
func TestServeDiscordSettingsRefused(t *testing.T) {
	for env, want := range map[string]string{
		"DISCORD_PREFIX_COMMANDS=sometimes": `bot serve: config: discord.prefix_commands (DISCORD_PREFIX_COMMANDS) is "sometimes"; use true or false` + "\n",
		"DISCORD_APP_ID=xyz":                "bot serve: config: discord.app_id (DISCORD_APP_ID) must be the application ID, a number like 1234567890123456789\n",
	} {
		k, v, _ := strings.Cut(env, "=")
		code, _, errs := run(t, "", map[string]string{"DISCORD_BOT_TOKEN": "abc", k: v, "BOT_DB": filepath.Join(t.TempDir(), "kb.db")}, "serve")
		if code != exitBadInput || errs != want {
			t.Errorf("%s: exit %d, %q; want 2, %q", env, code, errs, want)
		}
	}
}
