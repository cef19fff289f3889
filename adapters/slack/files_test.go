package slack

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

// fileObject is a file in a message event, as Slack describes it.
func fileObject(id, urlPrivate string, size int) map[string]any {
	return map[string]any{"id": id, "name": "deploy.yaml", "mimetype": "text/plain", "filetype": "yaml", "mode": "hosted",
		"size": size, "url_private": urlPrivate, "url_private_download": urlPrivate + "?download=1"}
}

// serveText answers with body as a YAML file.
func serveText(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(body))
	}
}

// TestScanAttachedFile: a mention that says scan 1.36 with a file, and a
// DM with one (a file_share message), are answered from the file, which
// is downloaded from Slack's file host with the bot token; a file the
// event names only by its ID is looked up with files.info first.
func TestScanAttachedFile(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := scanAnswerer(t)
	a, logs := newEventsAdapter(t, f, ans)
	f.serveFile("F1", serveText(scanYAML))
	f.mu.Lock()
	f.fileInfo["F2"] = `{"id":"F2","mimetype":"text/plain","size":` + strconv.Itoa(len(scanYAML)) + `,"mode":"hosted","url_private":"` + f.fileURL("F1") + `"}`
	f.mu.Unlock()

	serve(a, eventRequest(mentionEvent("f1", "C1", "<@"+testBotUser+"> scan 1.36", fileObject("F1", f.fileURL("F1"), len(scanYAML))), 0))
	serve(a, eventRequest(mentionEvent("f2", "D1", "scan 1.36", map[string]any{"id": "F2", "file_access": "check_file_info"}), 0))
	waitFor(t, "both answers", func() bool { return postsTo(f, "C1") != "" && postsTo(f, "D1") != "" })
	checkFindings(t, "the mention's answer", postsTo(f, "C1"))
	checkFindings(t, "the DM's answer", postsTo(f, "D1"))
	for _, auth := range f.fileAuths() {
		if auth != "Bearer "+testBotToken {
			t.Errorf("file downloaded with Authorization %q, want the bot token", auth)
		}
	}
	if n := len(f.fileAuths()); n != 2 {
		t.Errorf("%d downloads, want 2", n)
	}
	for _, q := range ans.questions() {
		if string(q.Manifest) != scanYAML {
			t.Errorf("the engine got manifest %q", q.Manifest)
		}
	}
	if strings.Contains(logs.String(), f.fileURL("F1")) || strings.Contains(logs.String(), "/files/") {
		t.Error("the log holds a file URL")
	}
	// A file_share message that is no scan is not answered.
	serve(a, eventRequest(mentionEvent("f3", "D2", "look at this", fileObject("F1", f.fileURL("F1"), 10)), 0))
	time.Sleep(100 * time.Millisecond)
	if postsTo(f, "D2") != "" {
		t.Error("a file shared in a DM without a scan was answered")
	}
}

// TestScanHostileFiles: each file kepbot must not or cannot read gets a
// sentence saying what was wrong and what would work, within the file
// timeout, without a request to any host but Slack's, without the URL in
// the log, and without stopping the next question.
func TestScanHostileFiles(t *testing.T) {
	f := newFakeSlack(t, nil)
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte(scanYAML))
	}))
	defer other.Close()
	stall := make(chan struct{})
	defer close(stall)
	twoMiB := strings.Repeat("a: b\n", (2<<20)/5)
	f.serveFile("big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(twoMiB)))
		_, _ = w.Write([]byte(twoMiB))
	})
	f.serveFile("chunked", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 32; i++ { // 2 MiB in flushed 64 KiB writes: chunked, no Content-Length
			_, _ = w.Write(bytes.Repeat([]byte("x: y\n"), 64<<10/5))
			w.(http.Flusher).Flush()
		}
	})
	f.serveFile("binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	f.serveFile("utf16", serveText("\xff\xfea\x00p\x00i\x00"))
	f.serveFile("redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/stolen", http.StatusFound)
	})
	f.serveFile("slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("apiVersion: v1\n"))
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	f.serveFile("many", serveText(strings.Repeat("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n", 5001)))
	f.serveFile("forbidden", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) })
	f.serveFile("login", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><body>Sign in to Slack</body></html>"))
	})
	a, logs := newEventsAdapter(t, f, scanAnswerer(t), WithFileTimeout(time.Second))

	ext := fileObject("Fx", "https://drive.example.com/x", 10)
	ext["is_external"], ext["mode"] = true, "external"
	cases := []struct {
		name  string
		files []map[string]any
		want  string
	}{
		{"declared-2MiB", []map[string]any{fileObject("Fa", f.fileURL("big"), 2<<20)}, "That file is 2 MiB; I scan files of up to 1 MiB"},
		{"actual-2MiB", []map[string]any{fileObject("Fb", f.fileURL("big"), 100)}, "That file is 2.0 MiB; I scan files of up to 1 MiB"},
		{"chunked-2MiB", []map[string]any{fileObject("Fc", f.fileURL("chunked"), 100)}, "larger than 1 MiB, the most I scan"},
		{"binary", []map[string]any{fileObject("Fd", f.fileURL("binary"), 17)}, "That file is not text"},
		{"image", []map[string]any{func() map[string]any {
			o := fileObject("Fo", f.fileURL("binary"), 17)
			o["mimetype"] = "image/png"
			return o
		}()}, "That file is not text"},
		{"utf16", []map[string]any{fileObject("Fe", f.fileURL("utf16"), 10)}, "saved as UTF-8"},
		{"other-host", []map[string]any{fileObject("Ff", other.URL+"/x.yaml", 10)}, "I only download attachments from Slack's own file host"},
		{"redirect", []map[string]any{fileObject("Fg", f.fileURL("redirect"), 10)}, "sent me on to another host"},
		{"slow", []map[string]any{fileObject("Fh", f.fileURL("slow"), 1000)}, "took longer than 1s"},
		{"forbidden", []map[string]any{fileObject("Fi", f.fileURL("forbidden"), 10)}, "files:read"},
		{"login-page", []map[string]any{fileObject("Fj", f.fileURL("login"), 10)}, "sign-in page"},
		{"external", []map[string]any{ext}, "stored outside Slack"},
		{"two-files", []map[string]any{fileObject("Fk", f.fileURL("big"), 10), fileObject("Fl", f.fileURL("big"), 10)}, "one file a message"},
		{"missing", []map[string]any{fileObject("Fm", f.fileURL("nothing-here"), 10)}, "gone"},
		{"5001-documents", []map[string]any{fileObject("Fn", f.fileURL("many"), 250000)}, "more than 5000 documents"},
	}
	for i, tc := range cases {
		start := time.Now()
		ch := "C" + tc.name
		serve(a, eventRequest(mentionEvent("h"+strconv.Itoa(i), ch, "<@"+testBotUser+"> scan 1.36", tc.files...), 0))
		waitFor(t, tc.name+"'s answer", func() bool { return postsTo(f, ch) != "" })
		got := postsTo(f, ch)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: answer %q, want it to say %q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "Removed in") {
			t.Errorf("%s: the file was scanned", tc.name)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %s", tc.name, d)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
	for _, auth := range f.fileAuths() {
		if auth != "Bearer "+testBotToken {
			t.Errorf("a download carried Authorization %q", auth)
		}
	}
	out := logs.String()
	if strings.Contains(out, "/files/") || strings.Contains(out, other.URL) || strings.Contains(out, "drive.example.com") {
		t.Errorf("the log holds a file URL:\n%s", out)
	}
	if c := strings.Count(out, "scan file not read"); c != len(cases)-1 { // the reader refuses 5,001 documents, not the download
		t.Errorf("%d refusals logged, want %d", c, len(cases))
	}
	// Nothing else is affected: the next question is answered.
	serve(a, eventRequest(mentionEvent("after", "Cafter", "<@"+testBotUser+"> releases"), 0))
	waitFor(t, "the next answer", func() bool { return postsTo(f, "Cafter") != "" })
}

// TestFileAllowed: only https on files.slack.com (and the configured API
// host) may get the bot token.
func TestFileAllowed(t *testing.T) {
	a, _ := newHTTPAdapter(t, &fakeAnswerer{})
	for raw, want := range map[string]bool{
		"https://files.slack.com/files-pri/T1-F1/x.yaml":       true,
		"https://FILES.slack.com/files-pri/T1-F1/x.yaml":       true,
		"http://files.slack.com/files-pri/T1-F1/x.yaml":        false,
		"https://files.slack.com:8443/x":                       false,
		"https://files.slack.com.evil.example/x":               false,
		"https://evil.example/files.slack.com/x":               false,
		"https://user:pw@files.slack.com/x":                    false,
		"https://slack-files.com/T1-F1-abc":                    false,
		"https://hooks.slack.com/commands/T1/1/x":              false,
		"https://files.slack.com@evil.example/x":               false,
		"https://files-origin.slack.com/files-pri/T1-F1/x.txt": false,
	} {
		u, err := url.Parse(raw)
		if got := err == nil && a.fileAllowed(u); got != want {
			t.Errorf("fileAllowed(%s) = %v, want %v", raw, got, want)
		}
	}
}
