package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeDiscord is a local fake of Discord's REST API (v9) and gateway,
// speaking the wire protocol discordgo speaks: it records every request,
// answers as Discord would (or as a test's override says), and drives one
// gateway connection: Hello, Identify, READY, then the events a test sends.
type fakeDiscord struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	requests []recorded
	override func(r *http.Request) (status int, body string, ok bool)
	headers  http.Header                 // added to every answer of an override
	nonces   map[string]string           // nonce → the message made with it (enforce_nonce)
	made     int                         // messages made
	attach   map[string]http.HandlerFunc // what /attachments/NAME serves, as the CDN would

	// closeAfterIdentify, when set, is the close code the gateway answers
	// an Identify with (4004: authentication failed).
	closeAfterIdentify int

	got      chan recorded     // every request, as it arrives
	identify chan identifyData // the Identify of each connection
	events   chan string       // dispatch payloads to send
	closed   chan struct{}
	once     sync.Once
}

type recorded struct {
	Method, Path string
	Auth         string
	Body         []byte
}

type identifyData struct {
	Token   string `json:"token"`
	Intents int    `json:"intents"`
}

// botUserID is the bot's own user ID in the fake's READY.
const botUserID = "900000000000000001"

func newFakeDiscord(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{t: t, got: make(chan recorded, 256), identify: make(chan identifyData, 4),
		events: make(chan string, 64), closed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		fmt.Fprintf(w, `{"url":"ws://%s/gw"}`, r.Host)
	})
	mux.HandleFunc("GET /gw/", f.gateway)
	mux.HandleFunc("GET /attachments/", func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		f.mu.Lock()
		h, ok := f.attach[strings.TrimPrefix(r.URL.Path, "/attachments/")]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	})
	mux.HandleFunc("/api/v9/", f.rest)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.once.Do(func() { close(f.closed) })
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

// serveAttachment makes the fake's CDN serve name with h.
func (f *fakeDiscord) serveAttachment(name string, h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.attach == nil {
		f.attach = map[string]http.HandlerFunc{}
	}
	f.attach[name] = h
}

// attachmentSignature is the signed part of every attachment URL the
// fake hands out: it must never reach a log.
const attachmentSignature = "hm=5f1e2d3c4b5a69788796a5b4c3d2e1f0sig"

// attachmentURL is a signed CDN URL of name on the fake, as Discord
// writes them (ex, is and hm parameters).
func (f *fakeDiscord) attachmentURL(name string) string {
	return f.srv.URL + "/attachments/" + name + "?ex=6790a1b2&is=678f5032&" + attachmentSignature + "&"
}

// gatewayURL is the fake's gateway, as DISCORD_GATEWAY_URL.
func (f *fakeDiscord) gatewayURL() string {
	return "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/gw"
}

func (f *fakeDiscord) record(r *http.Request) recorded {
	body, _ := io.ReadAll(r.Body)
	rec := recorded{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body}
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	f.mu.Unlock()
	select {
	case f.got <- rec:
	default:
		f.t.Errorf("fake discord: request channel full at %s %s", rec.Method, rec.Path)
	}
	return rec
}

// setOverride makes the fake answer requests fn accepts as fn says.
func (f *fakeDiscord) setOverride(fn func(r *http.Request) (int, string, bool)) {
	f.mu.Lock()
	f.override = fn
	f.mu.Unlock()
}

// setHeaders adds h to every answer an override gives.
func (f *fakeDiscord) setHeaders(h http.Header) {
	f.mu.Lock()
	f.headers = h
	f.mu.Unlock()
}

// rest answers the REST endpoints kepbot calls, as Discord does.
func (f *fakeDiscord) rest(w http.ResponseWriter, r *http.Request) {
	rec := f.record(r)
	r.Body = io.NopCloser(strings.NewReader(string(rec.Body)))
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	override, headers := f.override, f.headers
	f.mu.Unlock()
	if override != nil {
		if status, body, ok := override(r); ok {
			for k, vs := range headers {
				w.Header()[k] = vs
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
			return
		}
	}
	p := strings.TrimPrefix(r.URL.Path, "/api/v9/")
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(p, "channels/") && strings.HasSuffix(p, "/messages"):
		io.WriteString(w, f.createMessage(strings.Split(p, "/")[1], rec.Body))
	case r.Method == http.MethodPost && strings.HasPrefix(p, "interactions/") && strings.HasSuffix(p, "/callback"):
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(p, "webhooks/") && (r.Method == http.MethodPatch || r.Method == http.MethodPost):
		io.WriteString(w, `{"id":"1","channel_id":"1"}`)
	case r.Method == http.MethodPut && strings.HasPrefix(p, "applications/") && strings.HasSuffix(p, "/commands"):
		w.Write(rec.Body)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"404: Not Found","code":0}`)
	}
}

// createMessage makes a message in channel as Discord does: with
// enforce_nonce, a nonce already used answers the message made with it
// instead of a new one. It returns the message as JSON.
func (f *fakeDiscord) createMessage(channel string, body []byte) string {
	var m struct {
		Nonce        string `json:"nonce"`
		EnforceNonce bool   `json:"enforce_nonce"`
	}
	json.Unmarshal(body, &m)
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.EnforceNonce && m.Nonce != "" {
		if first, ok := f.nonces[m.Nonce]; ok {
			return first
		}
	}
	f.made++
	msg := fmt.Sprintf(`{"id":"%d%04d","channel_id":%q,"nonce":%q}`, time.Now().UnixNano(), f.made, channel, m.Nonce)
	if m.EnforceNonce && m.Nonce != "" {
		if f.nonces == nil {
			f.nonces = map[string]string{}
		}
		f.nonces[m.Nonce] = msg
	}
	return msg
}

// messagesMade returns how many messages the fake made.
func (f *fakeDiscord) messagesMade() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.made
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gateway speaks the gateway protocol: op 10 Hello, read op 2 Identify
// (a Resume gets op 9 Invalid Session first), READY, then dispatch
// f.events; heartbeats are acknowledged.
func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		f.t.Errorf("fake gateway upgrade: %v", err)
		return
	}
	defer c.Close()
	var wmu sync.Mutex
	send := func(s string) error {
		wmu.Lock()
		defer wmu.Unlock()
		return c.WriteMessage(websocket.TextMessage, []byte(s))
	}
	if send(`{"op":10,"d":{"heartbeat_interval":45000}}`) != nil {
		return
	}
	var ident struct {
		Op int          `json:"op"`
		D  identifyData `json:"d"`
	}
	err = c.ReadJSON(&ident)
	if err == nil && ident.Op == 6 {
		// A Resume of the session the adapter closed (a start that failed
		// after READY, then tried again): Discord answers a session closed
		// with a normal close Invalid Session, not resumable, and the
		// client identifies anew.
		if send(`{"op":9,"d":false}`) != nil {
			return
		}
		err = c.ReadJSON(&ident)
	}
	if err != nil || ident.Op != 2 {
		f.t.Errorf("fake gateway: want Identify (op 2), got op %d, %v", ident.Op, err)
		return
	}
	f.identify <- ident.D
	f.mu.Lock()
	code := f.closeAfterIdentify
	f.mu.Unlock()
	if code != 0 {
		_ = c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, "Authentication failed."))
		return
	}
	seq := 1
	ready := fmt.Sprintf(`{"op":0,"s":%d,"t":"READY","d":{"v":9,"session_id":"s1","user":{"id":%q,"username":"kepbot","bot":true},"guilds":[]}}`, seq, botUserID)
	if send(ready) != nil {
		return
	}
	go func() { // heartbeats and the client's close
		for {
			var m struct {
				Op int `json:"op"`
			}
			if err := c.ReadJSON(&m); err != nil {
				return
			}
			if m.Op == 1 {
				send(`{"op":11}`)
			}
		}
	}()
	for {
		select {
		case <-f.closed:
			return
		case <-r.Context().Done():
			return
		case ev := <-f.events:
			seq++
			if send(strings.Replace(ev, `"s":0`, fmt.Sprintf(`"s":%d`, seq), 1)) != nil {
				return
			}
		}
	}
}

// dispatch sends one gateway event of type typ with data d.
func (f *fakeDiscord) dispatch(typ string, d any) {
	b, err := json.Marshal(d)
	if err != nil {
		f.t.Fatal(err)
	}
	f.events <- fmt.Sprintf(`{"op":0,"s":0,"t":%q,"d":%s}`, typ, b)
}

// next returns the next request matching method and a path prefix,
// failing the test after timeout.
func (f *fakeDiscord) next(method, pathPrefix string, timeout time.Duration) recorded {
	f.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case r := <-f.got:
			if r.Method == method && strings.HasPrefix(r.Path, pathPrefix) {
				return r
			}
		case <-deadline:
			f.t.Fatalf("no %s %s within %s", method, pathPrefix, timeout)
			return recorded{}
		}
	}
}

// all returns every request so far.
func (f *fakeDiscord) all() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}

// checkAllMessagesMuted fails the test unless every request that creates
// or edits a message carries allowed_mentions with an empty parse list.
func (f *fakeDiscord) checkAllMessagesMuted(t *testing.T) int {
	t.Helper()
	n := 0
	for _, r := range f.all() {
		carries := (r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/messages")) ||
			strings.HasPrefix(r.Path, "/api/v9/webhooks/")
		if strings.HasSuffix(r.Path, "/callback") {
			var c struct {
				Type int `json:"type"`
			}
			json.Unmarshal(r.Body, &c)
			carries = c.Type == 4 || c.Type == 5 || c.Type == 7
		}
		if !carries {
			continue
		}
		n++
		if !strings.Contains(string(r.Body), `"allowed_mentions":{"parse":[]`) {
			t.Errorf("%s %s lacks \"allowed_mentions\":{\"parse\":[]: %s", r.Method, r.Path, r.Body)
		}
	}
	return n
}
