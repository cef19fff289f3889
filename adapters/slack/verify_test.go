package slack

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSignedRequests runs the signed-request table against the real
// handler: only a request signed with a configured secret, within five
// minutes either way, with a form body under MaxBodyBytes, gets an answer.
func TestSignedRequests(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := slashBody("kep 4639", testHooksURL)
	big := slashBody("kep 4639 "+strings.Repeat("x", 2<<20), testHooksURL) // 2 MB
	type mod func(r *http.Request)
	tests := []struct {
		name   string
		secret string
		at     time.Time
		body   []byte
		ctype  string
		modify mod
		tamper bool // send the body with one byte changed after signing
		want   int
	}{
		{name: "valid", secret: testSecret, at: now, want: 200},
		{name: "previous secret during rotation", secret: testOldSecret, at: now, want: 200},
		{name: "4m59s old", secret: testSecret, at: now.Add(-299 * time.Second), want: 200},
		{name: "4m59s ahead", secret: testSecret, at: now.Add(299 * time.Second), want: 200},
		{name: "charset in content type", secret: testSecret, at: now, ctype: formType + "; charset=utf-8", want: 200},
		{name: "uppercase hex", secret: testSecret, at: now, want: 200, modify: func(r *http.Request) {
			r.Header.Set(headerSignature, "v0="+strings.ToUpper(r.Header.Get(headerSignature)[3:]))
		}},
		{name: "tampered body", secret: testSecret, at: now, tamper: true, want: 401},
		{name: "signed 6 minutes ago", secret: testSecret, at: now.Add(-6 * time.Minute), want: 401},
		{name: "signed 6 minutes ahead", secret: testSecret, at: now.Add(6 * time.Minute), want: 401},
		{name: "5m1s old", secret: testSecret, at: now.Add(-301 * time.Second), want: 401},
		{name: "unknown secret", secret: "a-secret-this-app-never-had", at: now, want: 401},
		{name: "retired secret", secret: "0000000000000000retired-secret", at: now, want: 401},
		{name: "missing signature", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) { r.Header.Del(headerSignature) }},
		{name: "missing timestamp", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) { r.Header.Del(headerTimestamp) }},
		{name: "missing both headers", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) {
			r.Header.Del(headerSignature)
			r.Header.Del(headerTimestamp)
		}},
		{name: "v1 prefix", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) {
			r.Header.Set(headerSignature, "v1="+r.Header.Get(headerSignature)[3:])
		}},
		{name: "short signature", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) {
			r.Header.Set(headerSignature, r.Header.Get(headerSignature)[:40])
		}},
		{name: "timestamp not a number", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) { r.Header.Set(headerTimestamp, "soon") }},
		{name: "timestamp changed after signing", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) {
			r.Header.Set(headerTimestamp, strconv.FormatInt(now.Unix()-1, 10))
		}},
		{name: "wrong content type", secret: testSecret, at: now, ctype: "text/plain", want: 401},
		{name: "json content type", secret: testSecret, at: now, ctype: jsonType, want: 401},
		{name: "no content type", secret: testSecret, at: now, want: 401, modify: func(r *http.Request) { r.Header.Del("Content-Type") }},
		{name: "2 MB body", secret: testSecret, at: now, body: big, want: 401},
		{name: "2 MB body without length", secret: testSecret, at: now, body: big, want: 401, modify: func(r *http.Request) { r.ContentLength = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := &fakeAnswerer{}
			a, logs := newHTTPAdapter(t, ans, WithClock(func() time.Time { return now }))
			b := body
			if tt.body != nil {
				b = tt.body
			}
			ctype := formType
			if tt.ctype != "" {
				ctype = tt.ctype
			}
			r := signedRequest(PathCommands, ctype, tt.secret, tt.at, b)
			if tt.tamper {
				signed := r.Header.Clone()
				r = httptest.NewRequest(http.MethodPost, PathCommands, bytes.NewReader(bytes.Replace(b, []byte("4639"), []byte("4638"), 1)))
				r.Header = signed
			}
			if tt.modify != nil {
				tt.modify(r)
			}
			rec := httptest.NewRecorder()
			a.Handler().ServeHTTP(rec, r)
			if rec.Code != tt.want {
				t.Fatalf("status %d, want %d; body %q", rec.Code, tt.want, rec.Body.String())
			}
			asked := len(ans.questions())
			if tt.want == 401 {
				if asked != 0 {
					t.Errorf("the answerer was asked %d times for a refused request", asked)
				}
				if strings.Contains(rec.Body.String(), "4639") || strings.Contains(rec.Body.String(), "blocks") {
					t.Errorf("401 body leaks an answer: %q", rec.Body.String())
				}
				if !strings.HasPrefix(rec.Body.String(), "request not verified: ") {
					t.Errorf("401 body %q does not say why", rec.Body.String())
				}
				assertNoSecrets(t, "the 401 body", rec.Body.String())
			} else {
				if asked != 1 {
					t.Errorf("the answerer was asked %d times, want 1", asked)
				}
				var m struct {
					ResponseType string            `json:"response_type"`
					Text         string            `json:"text"`
					Blocks       []json.RawMessage `json:"blocks"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
					t.Fatalf("answer is not JSON: %v: %s", err, rec.Body.String())
				}
				if m.ResponseType != Ephemeral || !strings.Contains(m.Text, "KEP-4639") || len(m.Blocks) == 0 {
					t.Errorf("answer = %s", rec.Body.String())
				}
			}
			assertNoSecrets(t, "the log", logs.String())
		})
	}
}

// TestVerifierAllocatesNothing guards the fast path: checking a signature
// must not allocate once the HMAC pool is warm.
func TestVerifierAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	a, _ := newHTTPAdapter(t, &fakeAnswerer{})
	body := slashBody("kep 4639", testHooksURL)
	now := time.Now()
	ts := strconv.FormatInt(now.Unix(), 10)
	sig := sign(testOldSecret, ts, body)
	if err := a.verify.check(ts, sig, body); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.verify.check(ts, sig, body) }); n > 0 {
		t.Errorf("check allocates %.1f times per call, want 0", n)
	}
}

func TestVerifierWithoutSecretsRefusesAll(t *testing.T) {
	v := newVerifier(nil)
	if err := v.check("1", "v0="+strings.Repeat("0", 64), nil); err != errNoSecret {
		t.Errorf("check with no secrets = %v, want %v", err, errNoSecret)
	}
}
