package slack

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack/slacktest"
)

// historyAPI is a Slack Web API whose conversations.history serves pages
// of messages, with metadata only when include_all_metadata is asked for,
// or refuses with code.
type historyAPI struct {
	srv   *slacktest.Server
	mu    sync.Mutex
	calls []url.Values
}

func newHistoryAPI(t *testing.T, pages []string, code string) *historyAPI {
	t.Helper()
	h := &historyAPI{}
	h.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/conversations.history", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			h.mu.Lock()
			h.calls = append(h.calls, r.PostForm)
			n := len(h.calls)
			h.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			if code != "" {
				fmt.Fprintf(w, `{"ok":false,"error":%q}`, code)
				return
			}
			page := pages[min(n, len(pages))-1]
			if r.PostForm.Get("include_all_metadata") != "1" {
				page = strings.ReplaceAll(page, `"metadata"`, `"ignored"`)
			}
			more := n < len(pages)
			fmt.Fprintf(w, `{"ok":true,"messages":[%s],"has_more":%t,"response_metadata":{"next_cursor":%q}}`, page, more, map[bool]string{true: "c2"}[more])
		})
	})
	h.srv.Start()
	t.Cleanup(h.srv.Stop)
	return h
}

func msg(ts, nonce string) string {
	return fmt.Sprintf(`{"type":"message","ts":%q,"text":"x","metadata":{"event_type":"kepbot_digest","event_payload":{"nonce":%q}}}`, ts, nonce)
}

func historyPoster(t *testing.T, h *historyAPI) *Poster {
	t.Helper()
	f := &fakePostAPI{srv: h.srv}
	return newTestPoster(t, f, 5*time.Second)
}

// TestFindPostedReadsTheMetadata: a digest part is found by its nonce in
// the metadata, on a later page, from the time given; another nonce and a
// message without metadata are not it.
func TestFindPostedReadsTheMetadata(t *testing.T) {
	h := newHistoryAPI(t, []string{
		msg("1700000001.000100", "other-nonce") + `,{"type":"message","ts":"1700000001.000200","text":"plain"}`,
		msg("1700000002.000300", "the-nonce"),
	}, "")
	p := historyPoster(t, h)
	since := time.Unix(1700000000, 0)
	ts, found, err := p.FindPosted(context.Background(), "C0123", "the-nonce", since)
	if err != nil || !found || ts != "1700000002.000300" {
		t.Fatalf("FindPosted = %q, %v, %v", ts, found, err)
	}
	first := h.calls[0]
	if first.Get("channel") != "C0123" || first.Get("oldest") != "1700000000.000000" || first.Get("include_all_metadata") != "1" {
		t.Errorf("conversations.history asked with %v", first)
	}
	if _, found, err := p.FindPosted(context.Background(), "C0123", "never-posted", since); err != nil || found {
		t.Errorf("a nonce never posted: found %v, %v", found, err)
	}
}

// TestFindPostedWithoutTheScope: without the history scopes the caller
// learns that it cannot know.
func TestFindPostedWithoutTheScope(t *testing.T) {
	p := historyPoster(t, newHistoryAPI(t, nil, "missing_scope"))
	if _, _, err := p.FindPosted(context.Background(), "C0123", "n", time.Unix(1700000000, 0)); !errors.Is(err, ErrNoHistoryScope) {
		t.Errorf("FindPosted without the scope: %v, want ErrNoHistoryScope", err)
	}
}
