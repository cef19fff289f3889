package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// chaosPlatforms is one local server speaking the parts of Slack's Web API
// and Discord's REST API that replicas call while they send digests:
// Slack auth.test, chat.postMessage (form-encoded, the delivery's nonce
// in the message metadata) and conversations.history (the channel's
// messages with their metadata, or missing_scope when noHistory is set),
// Discord POST /api/v9/channels/{id}/messages
// (JSON with nonce and enforce_nonce: a repeated nonce returns the first
// message, as Discord does). It counts what each channel shows, by nonce.
// Each post takes a few milliseconds, so that a kill can land during one.
type chaosPlatforms struct {
	mu      sync.Mutex
	shown   map[string]map[string]int // channel → nonce → messages shown
	created map[string]string         // discord channel/nonce → message ID
	history map[string][]postedMsg    // channel → messages, oldest first
	total   int
	delay   time.Duration
	// noHistory makes conversations.history answer missing_scope, as for
	// an app without channels:history.
	noHistory bool
}

type postedMsg struct{ ts, nonce string }

func newChaosPlatforms() *chaosPlatforms {
	return &chaosPlatforms{shown: map[string]map[string]int{}, created: map[string]string{}, history: map[string][]postedMsg{}, delay: 3 * time.Millisecond}
}

func (f *chaosPlatforms) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /slack/api/auth.test", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"ok": true, "user_id": "UBOT", "team_id": "T1", "bot_id": "B1"})
	})
	mux.HandleFunc("POST /slack/api/chat.postMessage", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || (r.Header.Get("Authorization") != "Bearer xoxb-1-chaos" && r.PostForm.Get("token") != "xoxb-1-chaos") {
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_auth"})
			return
		}
		var meta struct {
			Payload struct {
				Nonce string `json:"nonce"`
			} `json:"event_payload"`
		}
		_ = json.Unmarshal([]byte(r.PostForm.Get("metadata")), &meta)
		time.Sleep(f.delay)
		ch := r.PostForm.Get("channel")
		id := f.show(ch, meta.Payload.Nonce, false)
		writeJSON(w, map[string]any{"ok": true, "channel": ch, "ts": id})
	})
	mux.HandleFunc("POST /slack/api/conversations.history", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.noHistory {
			writeJSON(w, map[string]any{"ok": false, "error": "missing_scope"})
			return
		}
		var msgs []map[string]any
		for _, m := range f.history[r.PostForm.Get("channel")] {
			msg := map[string]any{"type": "message", "ts": m.ts, "text": "digest"}
			if r.PostForm.Get("include_all_metadata") == "1" {
				msg["metadata"] = map[string]any{"event_type": "kepbot_digest", "event_payload": map[string]any{"nonce": m.nonce}}
			}
			msgs = append([]map[string]any{msg}, msgs...) // newest first, as Slack answers
		}
		writeJSON(w, map[string]any{"ok": true, "messages": msgs, "has_more": false})
	})
	mux.HandleFunc("POST /discord/api/v9/channels/{id}/messages", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Nonce        string `json:"nonce"`
			EnforceNonce bool   `json:"enforce_nonce"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || !strings.HasPrefix(r.Header.Get("Authorization"), "Bot ") {
			http.Error(w, `{"code":50035,"message":"Invalid Form Body"}`, http.StatusBadRequest)
			return
		}
		time.Sleep(f.delay)
		id := f.show(r.PathValue("id"), body.Nonce, body.EnforceNonce)
		writeJSON(w, map[string]any{"id": id, "channel_id": r.PathValue("id"), "nonce": body.Nonce})
	})
	return mux
}

// show shows a message in ch, unless enforce is set and ch already shows
// one with nonce (Discord's enforce_nonce); it returns the message's ID.
func (f *chaosPlatforms) show(ch, nonce string, enforce bool) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := ch + "/" + nonce
	if id, ok := f.created[key]; ok && enforce {
		return id
	}
	if f.shown[ch] == nil {
		f.shown[ch] = map[string]int{}
	}
	f.shown[ch][nonce]++
	f.total++
	id := fmt.Sprintf("%d.%06d", 1700000000+f.total, f.total)
	f.created[key] = id
	f.history[ch] = append(f.history[ch], postedMsg{ts: id, nonce: nonce})
	return id
}

// posts returns how many messages were shown in all.
func (f *chaosPlatforms) posts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.total
}

// snapshot returns, per channel, how many messages each nonce showed.
func (f *chaosPlatforms) snapshot() map[string]map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]map[string]int, len(f.shown))
	for ch, m := range f.shown {
		out[ch] = make(map[string]int, len(m))
		for n, c := range m {
			out[ch][n] = c
		}
	}
	return out
}
