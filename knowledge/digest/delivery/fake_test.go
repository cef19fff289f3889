package delivery_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// fakePlatforms is one local HTTP server speaking a small part of Slack's
// Web API (POST /slack/api/chat.postMessage, form-encoded, answers in JSON
// with ok/error, 429 with Retry-After) and of Discord's REST API (POST
// /discord/api/v10/channels/{id}/messages, JSON with nonce and
// enforce_nonce; errors as {"code": N}; 429 with retry_after). It answers
// 429 on a share of posts, 5xx on another, refuses gone channels for good,
// enforces rate limits, and records everything the tests assert on.
//
// Times are scaled: a Retry-After of N means N units, and the poster
// multiplies by the same unit. Limits, gaps and windows are judged by the
// time the bot sent each request (the test posters' X-Sent-At header), so
// that this server falling behind on a busy machine is not blamed on the
// bot, or by when it arrived when it has none (the adapters' posters: an
// arrival is never earlier than the send, so this blames no honest bot);
// windows start when this server answers. Rate limits are judged
// apart (overruns): a request is sent after the bot's limiter let it go,
// so a stall of the bot's own process in between bunches requests that
// the limiter spaced.
type fakePlatforms struct {
	mu   sync.Mutex
	rnd  *rand.Rand
	unit time.Duration

	rateLimited float64 // share of posts answered 429 for the channel
	serverError float64 // share answered 5xx (Discord: half of them after creating the message)
	maxRA       int     // largest Retry-After, in units (the smallest is 1)

	gone        map[string]string // channel → the terminal code it answers
	workspaceOf map[string]string // Slack channel → workspace
	gap         time.Duration     // least time between two posts to a channel
	wsBuckets   map[string]*bucket
	wsRate      float64 // Slack posts per second per workspace; 0 is no limit
	wsBurst     int
	global      *bucket // Discord posts per second; nil is no limit

	posts      map[string]map[string]int // channel → nonce → messages shown
	created    map[string]string         // discord channel/nonce → message ID
	lastAt     map[string]time.Time      // channel → last request
	windowEnd  map[string]time.Time      // scope key → end of its announced Retry-After
	goneCalls  map[string]int
	attempts   map[string]int // "slack", "discord", and each rate-limited scope ("w/T03", "g/discord") → requests
	violations []string       // posts inside a Retry-After window or a channel's gap
	overruns   []string       // posts over a rate limit
	maxWindow  time.Duration  // the longest Retry-After announced
	lastReply  time.Time
	lastShown  map[string]time.Time // platform → when it last showed a message
}

func newFakePlatforms(seed uint64, unit time.Duration) *fakePlatforms {
	return &fakePlatforms{
		rnd: rand.New(rand.NewPCG(seed, seed+1)), unit: unit, maxRA: 30,
		gone: map[string]string{}, workspaceOf: map[string]string{}, wsBuckets: map[string]*bucket{},
		posts: map[string]map[string]int{}, created: map[string]string{}, lastAt: map[string]time.Time{},
		windowEnd: map[string]time.Time{}, lastShown: map[string]time.Time{}, goneCalls: map[string]int{}, attempts: map[string]int{},
	}
}

// bucket is a token bucket with one token of slack for the time a request
// spends between the bot's limiter and this server.
type bucket struct {
	rate, tokens, capacity float64
	at                     time.Time
}

func newBucket(rate float64, burst int) *bucket {
	return &bucket{rate: rate, tokens: float64(burst) + 1, capacity: float64(burst) + 1}
}

// take takes a token at now or says how long until one is there.
func (b *bucket) take(now time.Time) (time.Duration, bool) {
	if now.Before(b.at) { // sent by another worker just before the last one
		now = b.at
	}
	if !b.at.IsZero() {
		b.tokens = min(b.capacity, b.tokens+now.Sub(b.at).Seconds()*b.rate)
	}
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second)), false
}

type reply struct {
	status     int
	retryAfter time.Duration
	global     bool
	code       string // Slack error or Discord code
	id         string
}

func (f *fakePlatforms) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /slack/api/chat.postMessage", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		var meta struct {
			Payload struct {
				Nonce string `json:"nonce"`
			} `json:"event_payload"`
		}
		_ = json.Unmarshal([]byte(r.PostForm.Get("metadata")), &meta)
		rp := f.post("slack", r.PostForm.Get("channel"), meta.Payload.Nonce, false, sentAt(r))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case rp.status == http.StatusTooManyRequests:
			w.Header().Set("Retry-After", strconv.Itoa(int(rp.retryAfter/f.unit)))
			w.WriteHeader(rp.status)
			fmt.Fprint(w, `{"ok":false,"error":"ratelimited"}`)
		case rp.status >= 500:
			w.WriteHeader(rp.status)
		case rp.code != "":
			fmt.Fprintf(w, `{"ok":false,"error":%q}`, rp.code)
		default:
			fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":%q}`, r.PostForm.Get("channel"), rp.id)
		}
	})
	// Discord serves API v9 and v10 alike; discordgo v0.29.0 (the adapter's
	// Poster) speaks v9, the test posters v10.
	discordPost := func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Content         string `json:"content"`
			Nonce           string `json:"nonce"`
			EnforceNonce    bool   `json:"enforce_nonce"`
			AllowedMentions *struct {
				Parse []string `json:"parse"`
			} `json:"allowed_mentions"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.AllowedMentions == nil || len(body.AllowedMentions.Parse) != 0 {
			http.Error(w, `{"code":50035,"message":"Invalid Form Body"}`, http.StatusBadRequest)
			return
		}
		rp := f.post("discord", r.PathValue("id"), body.Nonce, body.EnforceNonce, sentAt(r))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case rp.status == http.StatusTooManyRequests:
			ra := float64(rp.retryAfter / f.unit)
			w.Header().Set("Retry-After", strconv.Itoa(int(ra)))
			w.WriteHeader(rp.status)
			fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%g,"global":%t}`, ra, rp.global)
		case rp.status >= 500:
			w.WriteHeader(rp.status)
		case rp.code != "":
			w.WriteHeader(map[string]int{"10003": 404, "50001": 403, "50013": 403}[rp.code])
			fmt.Fprintf(w, `{"code":%s,"message":"refused"}`, rp.code)
		default:
			fmt.Fprintf(w, `{"id":%q,"channel_id":%q,"nonce":%q}`, rp.id, r.PathValue("id"), body.Nonce)
		}
	}
	mux.HandleFunc("POST /discord/api/v10/channels/{id}/messages", discordPost)
	mux.HandleFunc("POST /discord/api/v9/channels/{id}/messages", discordPost)
	return mux
}

// sentAt is when the bot sent r, or now.
func sentAt(r *http.Request) time.Time {
	if n, err := strconv.ParseInt(r.Header.Get("X-Sent-At"), 10, 64); err == nil {
		return time.Unix(0, n)
	}
	return time.Now()
}

// post decides the answer to one post sent at sent, and records it.
func (f *fakePlatforms) post(platform, ch, nonce string, enforceNonce bool, sent time.Time) reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	f.attempts[platform]++
	f.lastReply = now
	scopes := []string{"c/" + ch}
	if platform == "slack" {
		scopes = append(scopes, "w/"+f.workspaceOf[ch])
	} else {
		scopes = append(scopes, "g/discord")
	}
	f.attempts[scopes[1]]++
	for _, k := range scopes {
		if end, ok := f.windowEnd[k]; ok && sent.Before(end) {
			f.violations = append(f.violations, fmt.Sprintf("%s %s: post %s inside the Retry-After window of %s", platform, ch, end.Sub(sent), k))
		}
	}
	if last, ok := f.lastAt[ch]; ok && sent.Sub(last) < f.gap {
		f.violations = append(f.violations, fmt.Sprintf("%s %s: two posts %s apart, gap is %s", platform, ch, sent.Sub(last), f.gap))
	}
	f.lastAt[ch] = sent

	var b *bucket
	if platform == "slack" && f.wsRate > 0 {
		ws := f.workspaceOf[ch]
		if b = f.wsBuckets[ws]; b == nil {
			b = newBucket(f.wsRate, f.wsBurst)
			f.wsBuckets[ws] = b
		}
	} else if platform == "discord" {
		b = f.global
	}
	if b != nil {
		if wait, ok := b.take(sent); !ok {
			f.overruns = append(f.overruns, fmt.Sprintf("%s %s: over the %s rate limit", platform, ch, scopes[1]))
			wait = max(wait, f.unit)
			f.windowEnd[scopes[1]] = now.Add(wait)
			return reply{status: http.StatusTooManyRequests, retryAfter: wait.Round(f.unit), global: platform == "discord"}
		}
	}
	if code, ok := f.gone[ch]; ok {
		f.goneCalls[ch]++
		return reply{code: code}
	}
	r := f.rnd.Float64()
	switch {
	case r < f.rateLimited:
		ra := time.Duration(1+f.rnd.IntN(f.maxRA)) * f.unit
		f.windowEnd[scopes[0]] = now.Add(ra)
		f.maxWindow = max(f.maxWindow, ra)
		return reply{status: http.StatusTooManyRequests, retryAfter: ra}
	case r < f.rateLimited+f.serverError:
		if platform == "discord" && f.rnd.IntN(2) == 0 {
			f.create(platform, ch, nonce, enforceNonce) // committed, then the gateway failed
		}
		return reply{status: http.StatusBadGateway}
	}
	return reply{id: f.create(platform, ch, nonce, enforceNonce)}
}

// create shows a message, unless Discord already holds one with the nonce.
func (f *fakePlatforms) create(platform, ch, nonce string, enforceNonce bool) string {
	if id, ok := f.created[ch+"/"+nonce]; ok && enforceNonce {
		return id
	}
	if f.posts[ch] == nil {
		f.posts[ch] = map[string]int{}
	}
	f.posts[ch][nonce]++
	f.lastShown[platform] = time.Now()
	id := fmt.Sprintf("%s-%d", platform, len(f.created)+1)
	if platform == "discord" {
		f.created[ch+"/"+nonce] = id
	}
	return id
}

// shown returns, per channel, how many messages each nonce showed.
func (f *fakePlatforms) shown() map[string]map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]map[string]int{}
	for ch, m := range f.posts {
		out[ch] = map[string]int{}
		for n, c := range m {
			out[ch][n] = c
		}
	}
	return out
}
