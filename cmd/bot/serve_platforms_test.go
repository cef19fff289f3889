package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/platform"
)

// readyzBody is /readyz's JSON.
type readyzBody struct {
	Status    string                     `json:"status"`
	Reason    string                     `json:"reason"`
	Platforms map[string]platform.Status `json:"platforms"`
}

// servePlatforms runs `bot serve` with env until the test ends, and returns
// its base URL, its log and a stop that returns its exit code.
func servePlatforms(t *testing.T, env map[string]string) (base string, logs *syncBuffer, stop func() int) {
	t.Helper()
	addr := freeAddr(t)
	env["BOT_DB"] = scanDB(t)
	env["BOT_HTTP_ADDR"], env["BOT_LOG_FORMAT"], env["BOT_REFRESH_INTERVAL"] = addr, "json", "off"
	ctx, cancel := context.WithCancel(context.Background())
	logs = &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: logs, getenv: func(k string) string { return env[k] }})
	}()
	base = "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d; log:\n%s", code, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen within 20 s; log:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopped := false
	stop = func() int {
		stopped = true
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(20 * time.Second):
			t.Fatal("serve did not stop within 20 s")
			return -1
		}
	}
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	return base, logs, stop
}

// waitReadyz polls /readyz until ok says its answer is the one awaited.
func waitReadyz(t *testing.T, base string, logs *syncBuffer, ok func(code int, r readyzBody) bool) (int, readyzBody) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		var r readyzBody
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("/readyz is not JSON: %v", err)
		}
		if ok(resp.StatusCode, r) {
			return resp.StatusCode, r
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz = %d %+v after 15 s; log:\n%s", resp.StatusCode, r, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestServeKeepsSlackWhileDiscordIsDown: Discord's API host refuses every
// connection, so registering /k8s fails; serve keeps answering Slack's
// signed slash commands, retries Discord with backoff (one log line an
// attempt, with its wait: no tight loop), and /readyz is 503 naming
// Discord and why, with Slack up.
func TestServeKeepsSlackWhileDiscordIsDown(t *testing.T) {
	base, logs, stop := servePlatforms(t, map[string]string{
		"SLACK_SIGNING_SECRET": testSigningSecret,
		"DISCORD_BOT_TOKEN":    "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ab",
		"DISCORD_APP_ID":       "123456789012345678",
		"DISCORD_API_URL":      "http://" + freeAddr(t), // nothing listens: connection refused
	})
	start := time.Now()
	code, r := waitReadyz(t, base, logs, func(_ int, r readyzBody) bool { return r.Platforms["discord"].Attempts >= 1 })
	if code != http.StatusServiceUnavailable || r.Status != "not ready" || !strings.HasPrefix(r.Reason, "discord is down: register /k8s: ") ||
		!strings.Contains(r.Reason, "connection refused") || strings.Contains(r.Reason, "slack") {
		t.Errorf("/readyz = %d %+v, want 503 naming discord and why", code, r)
	}
	if d := r.Platforms["discord"]; d.State != platform.Down || d.NextAttempt == nil || r.Platforms["slack"].State != platform.Up {
		t.Errorf("platforms = %+v, want discord down with its next attempt, slack up", r.Platforms)
	}
	if code, body := slashIn(t, base, "C1", "U1", "kep 4639"); code != http.StatusOK || !strings.Contains(body, "KEP-4639") {
		t.Errorf("a Slack slash command while Discord is down: %d %.300s", code, body)
	}
	time.Sleep(2 * time.Second)
	tries := strings.Count(logs.String(), `"message":"discord: start failed; retrying"`)
	elapsed := time.Since(start) + time.Second // the first attempt began before start
	if tries < 1 || float64(tries) > elapsed.Seconds()+1 || !strings.Contains(logs.String(), `"retry_in":`) {
		t.Errorf("%d attempts logged in %s, want one line an attempt, each with its wait, about one a second at most:\n%s", tries, elapsed, logs.String())
	}
	if c := stop(); c != exitOK {
		t.Errorf("serve exited %d after a stop; log:\n%s", c, logs.String())
	}
}

// TestServeKeepsDiscordWhileSlackIsDown: Slack's API refuses connections,
// so Socket Mode cannot connect; serve keeps answering Discord's signed
// interactions, slack-go retries with its backoff (each attempt one log
// line with its wait), and /readyz is 503 naming Slack, with Discord up.
func TestServeKeepsDiscordWhileSlackIsDown(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	base, logs, stop := servePlatforms(t, map[string]string{
		"SLACK_BOT_TOKEN":    "xoxb-1-platforms-test",
		"SLACK_APP_TOKEN":    "xapp-1-platforms-test",
		"SLACK_API_URL":      "http://" + freeAddr(t) + "/api/", // nothing listens
		"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub),
	})
	code, r := waitReadyz(t, base, logs, func(_ int, r readyzBody) bool { return r.Platforms["slack"].Attempts >= 2 })
	if code != http.StatusServiceUnavailable || !strings.HasPrefix(r.Reason, "slack is down: ") || !strings.Contains(r.Reason, "connection refused") {
		t.Errorf("/readyz = %d %+v, want 503 naming slack and why", code, r)
	}
	if r.Platforms["discord"].State != platform.Up || r.Platforms["slack"].NextAttempt == nil {
		t.Errorf("platforms = %+v, want discord up, slack down with its next attempt", r.Platforms)
	}
	b, _ := json.Marshal(map[string]any{"id": "i1", "application_id": "1", "type": 2, "token": "t-i1", "version": 1,
		"guild_id": "2", "channel_id": "3", "member": map[string]any{"user": map[string]any{"id": "4", "username": "ops"}, "permissions": "0"},
		"data": map[string]any{"id": "5", "name": "k8s", "type": 1, "options": []any{map[string]any{
			"name": "kep", "type": 1, "options": []any{map[string]any{"name": "number", "type": 3, "value": "4639"}}}}}})
	req, _ := http.NewRequest(http.MethodPost, base+"/discord/interactions", bytes.NewReader(b))
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), b...))))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "KEP-4639") {
		t.Errorf("a Discord interaction while Slack is down: %d %.300s", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), `"message":"Socket Mode connection failed; retrying"`) || !strings.Contains(logs.String(), `"retry_in":`) {
		t.Errorf("no retry line with its wait:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "xoxb-1-platforms-test") || strings.Contains(logs.String(), "xapp-1-platforms-test") {
		t.Error("a Slack token was logged")
	}
	if c := stop(); c != exitOK {
		t.Errorf("serve exited %d after a stop; log:\n%s", c, logs.String())
	}
}
