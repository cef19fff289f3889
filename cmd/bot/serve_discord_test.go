package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeAnswersDiscordInteractions runs `bot serve` with only Discord's
// public key set, as an operator using the HTTP interactions endpoint
// would: a signed PING gets PONG, a signed /k8s kep gets an embed answered
// from the database, an unsigned request gets 401, and subscriptions say
// they need a bot token.
func TestServeAnswersDiscordInteractions(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	env := map[string]string{
		"BOT_DB": filepath.Join(t.TempDir(), "kepbot.db"), "BOT_HTTP_ADDR": addr, "BOT_LOG_FORMAT": "json", "BOT_REFRESH_INTERVAL": "off",
		"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub),
	}
	ctx, stop := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: &logs, getenv: func(k string) string { return env[k] }})
	}()
	base := "http://" + addr
	waitHealthy(t, base, done, &logs)

	post := func(body map[string]any, sign bool) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, base+"/discord/interactions", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if sign {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			req.Header.Set("X-Signature-Timestamp", ts)
			req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), b...))))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	command := func(id, sub, opt, value string) map[string]any {
		return map[string]any{"id": id, "application_id": "1", "type": 2, "token": "t-" + id, "version": 1,
			"guild_id": "2", "channel_id": "3", "member": map[string]any{"user": map[string]any{"id": "4", "username": "ops"}, "permissions": "0"},
			"data": map[string]any{"id": "5", "name": "k8s", "type": 1, "options": []any{map[string]any{
				"name": sub, "type": 1, "options": []any{map[string]any{"name": opt, "type": 3, "value": value}}}}}}
	}

	if code, out := post(map[string]any{"id": "p", "application_id": "1", "type": 1, "token": "t", "version": 1}, true); code != 200 || out["type"] != float64(1) {
		t.Errorf("signed PING: %d %v, want 200 and PONG", code, out)
	}
	code, out := post(command("a", "kep", "number", "4639"), true)
	data, _ := out["data"].(map[string]any)
	embeds, _ := data["embeds"].([]any)
	if code != 200 || out["type"] != float64(4) || len(embeds) == 0 {
		t.Fatalf("signed /k8s kep 4639: %d %v", code, out)
	}
	if title, _ := embeds[0].(map[string]any)["title"].(string); !strings.Contains(title, "KEP-4639") {
		t.Errorf("embed title %q, want KEP-4639", title)
	}
	if am, _ := data["allowed_mentions"].(map[string]any); am == nil {
		t.Errorf("answer without allowed_mentions: %v", data)
	}
	if code, _ := post(command("b", "kep", "number", "4639"), false); code != http.StatusUnauthorized {
		t.Errorf("unsigned interaction: %d, want 401", code)
	}
	_, out = post(command("c", "ask", "text", "subscribe deprecations"), true)
	if b, _ := json.Marshal(out); !strings.Contains(string(b), "bot token") {
		t.Errorf("subscribe without a bot token: %s, want it to say a bot token is needed", b)
	}
	stop()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve exited %d; log:\n%s", code, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop within 20 s")
	}
}
