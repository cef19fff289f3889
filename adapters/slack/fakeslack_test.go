package slack

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack/slacktest"
	"github.com/slack-go/slack/socketmode"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
)

// fakeSlack is slack-go's slacktest server with the methods kepbot calls
// recorded: chat.postMessage (form), response_url posts (JSON, under
// /response/), auth.test, apps.connections.open (a URL with a ticket, as
// Slack's has) and, for Socket Mode, a /ws handler the test scripts.
type fakeSlack struct {
	srv       *slacktest.Server
	mu        sync.Mutex
	bodies    []string // every request the fake received: path, then body
	posts     []url.Values
	responses []map[string]any
	views     []map[string]any            // views.open requests (JSON)
	files     map[string]http.HandlerFunc // what /files/NAME serves
	fileAuth  []string                    // the Authorization header of each file download
	fileInfo  map[string]string           // files.info: file ID to the file's JSON
	opens     atomic.Int32
	// openFailures is how many apps.connections.open calls answer 503
	// first, as Slack behind a failing proxy would.
	openFailures atomic.Int32
	conns        atomic.Int32
	authErr      atomic.Pointer[string]
	users        map[string]string // users.info: user ID to the user's JSON; others are user_not_found
	usersErr     string            // users.info answers every call with this error when set (missing_scope)
	userCalls    map[string]int
	// uploads are the files posted with files.uploadV2: what
	// files.completeUploadExternal shared, with the bytes uploaded.
	uploads     []fakeUpload
	uploadBytes map[string][]byte // file ID → the bytes sent to its upload URL
	uploadErr   string            // files.getUploadURLExternal fails with this code when set
	fileNames   []string          // the filename of each upload URL asked for
}

// fakeUpload is one file files.completeUploadExternal shared.
type fakeUpload struct {
	ID, Title, Channel, Thread, Name string
	Body                             []byte
}

// postedFiles returns the files shared so far.
func (f *fakeSlack) postedFiles() []fakeUpload {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeUpload(nil), f.uploads...)
}

// setUser makes users.info answer id with the user JSON fields given,
// e.g. `"is_admin":true`.
func (f *fakeSlack) setUser(id, fields string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.users == nil {
		f.users = map[string]string{}
	}
	f.users[id] = `{"id":"` + id + `","team_id":"T1","name":"n"` + fields + `}`
}

// setUsersError makes users.info fail with code, as Slack does for an app
// without users:read (missing_scope).
func (f *fakeSlack) setUsersError(code string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.usersErr = code
}

// usersInfoCalls is how often users.info was asked about id.
func (f *fakeSlack) usersInfoCalls(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.userCalls[id]
}

// setAuthError makes auth.test fail with code.
func (f *fakeSlack) setAuthError(code string) { f.authErr.Store(&code) }

// ticket is the secret part of the Socket Mode URL; it must never be logged.
const ticket = "tkt-SECRET-9f8e7d"

// newFakeSlack starts the fake; ws, when set, serves each Socket Mode
// connection (n counts from 1).
func newFakeSlack(t *testing.T, ws func(n int, c *websocket.Conn)) *fakeSlack {
	t.Helper()
	f := &fakeSlack{files: map[string]http.HandlerFunc{}, fileInfo: map[string]string{}}
	f.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c = recordingCustomize{c, f}
		c.Handle("/views.open", func(w http.ResponseWriter, r *http.Request) {
			var m map[string]any
			_ = json.NewDecoder(r.Body).Decode(&m)
			f.mu.Lock()
			f.views = append(f.views, m)
			f.mu.Unlock()
			_, _ = io.WriteString(w, `{"ok":true,"view":{"id":"V1"}}`)
		})
		c.Handle("/files.info", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			f.mu.Lock()
			info, ok := f.fileInfo[r.Form.Get("file")]
			f.mu.Unlock()
			if !ok {
				_, _ = io.WriteString(w, `{"ok":false,"error":"file_not_found"}`)
				return
			}
			_, _ = io.WriteString(w, `{"ok":true,"file":`+info+`}`)
		})
		c.Handle("/files/", func(w http.ResponseWriter, r *http.Request) {
			f.mu.Lock()
			f.fileAuth = append(f.fileAuth, r.Header.Get("Authorization"))
			h, ok := f.files[strings.TrimPrefix(r.URL.Path, "/files/")]
			f.mu.Unlock()
			if !ok {
				http.NotFound(w, r)
				return
			}
			h(w, r)
		})
		// files.uploadV2, as slack-go's UploadFileContext calls it: an upload
		// URL (on the API's host), the bytes posted to it, then the share.
		c.Handle("/files.getUploadURLExternal", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			f.mu.Lock()
			code := f.uploadErr
			n := len(f.uploadBytes) + 1
			if f.uploadBytes == nil {
				f.uploadBytes = map[string][]byte{}
			}
			f.mu.Unlock()
			if code != "" {
				_, _ = io.WriteString(w, `{"ok":false,"error":"`+code+`"}`)
				return
			}
			id := "F" + strconv.Itoa(n)
			f.mu.Lock()
			f.uploadBytes[id] = nil
			f.fileNames = append(f.fileNames, r.PostForm.Get("filename"))
			f.mu.Unlock()
			_, _ = io.WriteString(w, `{"ok":true,"file_id":"`+id+`","upload_url":"`+f.srv.GetAPIURL()+`upload/`+id+`"}`)
		})
		c.Handle("/upload/", func(w http.ResponseWriter, r *http.Request) {
			id := strings.TrimPrefix(r.URL.Path, "/upload/")
			file, _, err := r.FormFile("file")
			if err != nil {
				http.Error(w, "no file", http.StatusBadRequest)
				return
			}
			b, _ := io.ReadAll(file)
			f.mu.Lock()
			f.uploadBytes[id] = b
			f.mu.Unlock()
			_, _ = io.WriteString(w, "OK - "+strconv.Itoa(len(b)))
		})
		c.Handle("/files.completeUploadExternal", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			var files []struct{ ID, Title string }
			_ = json.Unmarshal([]byte(r.PostForm.Get("files")), &files)
			f.mu.Lock()
			for i, fl := range files {
				name := ""
				if i < len(f.fileNames) {
					name = f.fileNames[len(f.fileNames)-1]
				}
				f.uploads = append(f.uploads, fakeUpload{ID: fl.ID, Title: fl.Title, Channel: r.PostForm.Get("channel_id"),
					Thread: r.PostForm.Get("thread_ts"), Name: name, Body: f.uploadBytes[fl.ID]})
			}
			f.mu.Unlock()
			out, _ := json.Marshal(map[string]any{"ok": true, "files": files})
			_, _ = w.Write(out)
		})
		c.Handle("/auth.test", func(w http.ResponseWriter, r *http.Request) {
			if e := f.authErr.Load(); e != nil {
				_, _ = io.WriteString(w, `{"ok":false,"error":"`+*e+`"}`)
				return
			}
			_, _ = io.WriteString(w, `{"ok":true,"user_id":"`+testBotUser+`","team_id":"T1","bot_id":"B1"}`)
		})
		c.Handle("/chat.postMessage", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			f.mu.Lock()
			f.posts = append(f.posts, r.PostForm)
			f.mu.Unlock()
			_, _ = io.WriteString(w, `{"ok":true,"channel":"`+r.PostForm.Get("channel")+`","ts":"1700000000.000100"}`)
		})
		c.Handle("/users.info", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			id := r.PostForm.Get("user")
			f.mu.Lock()
			if f.userCalls == nil {
				f.userCalls = map[string]int{}
			}
			f.userCalls[id]++
			u, ok := f.users[id]
			usersErr := f.usersErr
			f.mu.Unlock()
			if usersErr != "" {
				_, _ = io.WriteString(w, `{"ok":false,"error":"`+usersErr+`","needed":"users:read","provided":"commands,app_mentions:read,chat:write,im:history"}`)
				return
			}
			if !ok {
				_, _ = io.WriteString(w, `{"ok":false,"error":"user_not_found"}`)
				return
			}
			_, _ = io.WriteString(w, `{"ok":true,"user":`+u+`}`)
		})
		c.Handle("/response/", func(w http.ResponseWriter, r *http.Request) {
			var m map[string]any
			_ = json.NewDecoder(r.Body).Decode(&m)
			f.mu.Lock()
			f.responses = append(f.responses, m)
			f.mu.Unlock()
			_, _ = io.WriteString(w, "ok")
		})
		c.Handle("/apps.connections.open", func(w http.ResponseWriter, r *http.Request) {
			if f.opens.Add(1) <= f.openFailures.Load() {
				http.Error(w, "upstream connect error", http.StatusServiceUnavailable)
				return
			}
			ws := strings.Replace(f.srv.GetAPIURL(), "http://", "ws://", 1) + "ws?ticket=" + ticket
			_, _ = io.WriteString(w, `{"ok":true,"url":"`+ws+`"}`)
		})
		if ws != nil {
			c.Handle("/ws", slacktest.Websocket(func(c *websocket.Conn) { ws(int(f.conns.Add(1)), c) }))
		}
	})
	f.srv.Start()
	t.Cleanup(f.srv.Stop)
	return f
}

func (f *fakeSlack) apiURL() string { return f.srv.GetAPIURL() }

// recordingCustomize records the body of every request a handler gets.
type recordingCustomize struct {
	slacktest.Customize
	f *fakeSlack
}

func (c recordingCustomize) Handle(pattern string, h http.HandlerFunc) {
	c.Customize.Handle(pattern, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		c.f.mu.Lock()
		c.f.bodies = append(c.f.bodies, r.URL.String()+"\n"+string(body))
		c.f.mu.Unlock()
		h(w, r)
	})
}

// received is everything the fake was sent, request by request.
func (f *fakeSlack) received() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.bodies, "\n\n")
}

// serveFile makes /files/name answer with h.
func (f *fakeSlack) serveFile(name string, h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[name] = h
}

// fileURL is the url_private of /files/name on the fake.
func (f *fakeSlack) fileURL(name string) string { return f.apiURL() + "files/" + name }

// openedViews returns the views.open requests so far.
func (f *fakeSlack) openedViews() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.views...)
}

// fileAuths returns the Authorization header of each file download.
func (f *fakeSlack) fileAuths() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.fileAuth...)
}

// responseURL is a response_url on the fake.
func (f *fakeSlack) responseURL(name string) string { return f.apiURL() + "response/" + name }

func (f *fakeSlack) postedMessages() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.posts...)
}

func (f *fakeSlack) responsePosts() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.responses...)
}

// newSocketAdapter returns an adapter in Socket Mode (and HTTP) against f.
func newSocketAdapter(t *testing.T, f *fakeSlack, ans knowledge.Answerer, debug bool, logs *logBuffer, opts ...Option) *Adapter {
	t.Helper()
	cfg := Config{
		BotToken: config.NewSecret(testBotToken), AppToken: config.NewSecret(testAppToken),
		SigningSecrets: []config.Secret{config.NewSecret(testSecret)},
		APIURL:         f.apiURL(), Debug: debug,
	}
	a, err := NewAdapter(cfg, ans, testLogger(logs, testBotToken, testAppToken, testSecret),
		append([]Option{WithSocketModeOptions(socketmode.OptionPingInterval(time.Hour))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// envelope is a Socket Mode message from Slack.
func envelope(typ, id string, retry int, payload string) map[string]any {
	return map[string]any{"type": typ, "envelope_id": id, "retry_attempt": retry, "payload": json.RawMessage(payload),
		"accepts_response_payload": typ == "slash_commands"}
}

// mentionPayload is an events_api payload of an app_mention.
func mentionPayload(eventID, ts, text string) string {
	b, _ := json.Marshal(map[string]any{
		"type": "event_callback", "team_id": "T1", "event_id": eventID,
		"event": map[string]any{"type": "app_mention", "user": "U1", "text": text, "channel": "C1", "ts": ts},
	})
	return string(b)
}

// slashPayload is a slash_commands payload.
func slashPayload(text, responseURL string) string {
	b, _ := json.Marshal(map[string]any{
		"team_id": "T1", "channel_id": "C1", "user_id": "U1", "user_name": "u", "command": "/k8s",
		"text": text, "response_url": responseURL, "trigger_id": "1.2.3",
	})
	return string(b)
}

// readAcks reads acks from c until it has n or the connection fails.
func readAcks(c *websocket.Conn, n int) []map[string]any {
	var acks []map[string]any
	for len(acks) < n {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		var m map[string]any
		if err := c.ReadJSON(&m); err != nil {
			return acks
		}
		acks = append(acks, m)
	}
	return acks
}
