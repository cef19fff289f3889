package discord

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestScanHostileAttachments: each attachment kepbot must not or cannot
// read gets a sentence saying what was wrong and what would work, within
// the attachment timeout, without a request to any host but the CDN,
// without the signed URL in the log, and without stopping the next
// question.
func TestScanHostileAttachments(t *testing.T) {
	f := newFakeDiscord(t)
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(scanYAML))
	}))
	defer other.Close()
	stall := make(chan struct{})
	defer close(stall)
	twoMiB := strings.Repeat("a: b\n", (2<<20)/5)
	f.serveAttachment("big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(twoMiB)))
		_, _ = w.Write([]byte(twoMiB))
	})
	f.serveAttachment("chunked", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 32; i++ { // 2 MiB in flushed 64 KiB writes: chunked, no Content-Length
			_, _ = w.Write(bytes.Repeat([]byte("x: y\n"), 64<<10/5))
			w.(http.Flusher).Flush()
		}
	})
	f.serveAttachment("binary", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"))
	})
	f.serveAttachment("redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/stolen", http.StatusFound)
	})
	f.serveAttachment("slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("apiVersion: v1\n"))
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	f.serveAttachment("many", serveText(strings.Repeat("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n", 5001)))
	f.serveAttachment("expired", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "expired", http.StatusNotFound) })
	logger, logs := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL(), UserBurst: 100, UserPerMinute: 100}, scanEngine(t), nil, logger,
		WithAttachmentTimeout(time.Second))
	f.next("PUT", "/api/v9/applications/", 5*time.Second)

	cases := []struct {
		name string
		atts []map[string]any
		want string
	}{
		{"declared-2MiB", []map[string]any{attachment("1", f.attachmentURL("big"), 2<<20, "text/yaml")}, "That file is 2 MiB; I scan files of up to 1 MiB"},
		{"actual-2MiB", []map[string]any{attachment("2", f.attachmentURL("big"), 100, "text/yaml")}, "That file is 2.0 MiB; I scan files of up to 1 MiB"},
		{"chunked-2MiB", []map[string]any{attachment("3", f.attachmentURL("chunked"), 100, "text/yaml")}, "larger than 1 MiB, the most I scan"},
		{"binary", []map[string]any{attachment("4", f.attachmentURL("binary"), 10, "application/zip")}, "That file is not text"},
		{"image", []map[string]any{attachment("5", f.attachmentURL("binary"), 10, "image/png")}, "That file is not text"},
		{"other-host", []map[string]any{attachment("6", other.URL+"/attachments/x.yaml?ex=1&is=2&hm=3", 10, "text/yaml")}, "only download attachments from Discord's own CDN"},
		{"http-cdn", []map[string]any{attachment("7", "http://cdn.discordapp.com/attachments/1/2/x.yaml", 10, "text/yaml")}, "only download attachments from Discord's own CDN"},
		{"redirect", []map[string]any{attachment("8", f.attachmentURL("redirect"), 10, "text/yaml")}, "sent me on to another host"},
		{"slow", []map[string]any{attachment("9", f.attachmentURL("slow"), 1000, "text/yaml")}, "took longer than 1s"},
		{"expired", []map[string]any{attachment("10", f.attachmentURL("expired"), 10, "text/yaml")}, "link may have expired"},
		{"5001-documents", []map[string]any{attachment("13", f.attachmentURL("many"), 250000, "text/yaml")}, "more than 5000 documents"},
		{"two-files", []map[string]any{attachment("11", f.attachmentURL("big"), 10, ""), attachment("12", f.attachmentURL("big"), 10, "")}, "one file a message"},
	}
	for i, tc := range cases {
		start := time.Now()
		ch := "c-" + tc.name
		f.dispatch("MESSAGE_CREATE", withAttachments(message(strconv.Itoa(100+i), ch, testGuild, "100", "!k8s scan 1.36", false), tc.atts...))
		p := f.next("POST", "/api/v9/channels/"+ch+"/", 5*time.Second)
		got := shown(t, p.Body)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "Removed in") {
			t.Errorf("%s: answer %q, want it to say %q", tc.name, got, tc.want)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %s", tc.name, d)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
	out := logs.String()
	if strings.Contains(out, attachmentSignature) || strings.Contains(out, "/attachments/") || strings.Contains(out, other.URL) {
		t.Errorf("the log holds an attachment URL:\n%s", out)
	}
	if c := strings.Count(out, "scan attachment not read"); c != len(cases)-1 { // the reader refuses 5,001 documents, not the download
		t.Errorf("%d refusals logged, want %d", c, len(cases))
	}
	f.dispatch("MESSAGE_CREATE", message("999", "c-after", testGuild, "100", "!k8s 1.29", false))
	if p := f.next("POST", "/api/v9/channels/", 5*time.Second); p.Path != "/api/v9/channels/c-after/messages" {
		t.Errorf("the next question went to %s", p.Path)
	}
	f.checkAllMessagesMuted(t)
}

// TestAttachmentAllowed: only https on Discord's CDN hosts (and the
// configured API host) are downloaded from.
func TestAttachmentAllowed(t *testing.T) {
	a, _, _ := httpAdapter(t, &answerFunc{}, nil, "")
	for raw, want := range map[string]bool{
		"https://cdn.discordapp.com/attachments/1/2/x.yaml?ex=1&is=2&hm=3":   true,
		"https://media.discordapp.net/attachments/1/2/x.yaml?ex=1&is=2&hm=3": true,
		"https://CDN.discordapp.com/attachments/1/2/x.yaml":                  true,
		"http://cdn.discordapp.com/attachments/1/2/x.yaml":                   false,
		"https://cdn.discordapp.com:8443/attachments/x":                      false,
		"https://cdn.discordapp.com.evil.example/x":                          false,
		"https://evil.example/cdn.discordapp.com/x":                          false,
		"https://user:pw@cdn.discordapp.com/x":                               false,
		"https://discord.com/api/v9/users/@me":                               false,
		"https://images-ext-1.discordapp.net/external/x":                     false,
		"https://cdn.discordapp.com@evil.example/x":                          false,
	} {
		u, err := url.Parse(raw)
		if got := err == nil && a.attachmentAllowed(u); got != want {
			t.Errorf("attachmentAllowed(%s) = %v, want %v", raw, got, want)
		}
	}
}
