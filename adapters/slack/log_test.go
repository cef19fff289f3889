package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// failingTransport fails every request, as an unreachable host does; the
// client's error then names the full URL, which must not reach the log.
type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("connection refused")
}

// TestLogsNeverHoldSecrets runs Socket Mode and HTTP with slack-go's own
// debug output on and the log at debug level: a slash command, a mention,
// a page button, refused requests and a failing response_url post. The
// log must hold none of the tokens, the signing secrets, the Socket Mode
// ticket or the response_url, and no line at info or above may hold the
// text of a question.
func TestLogsNeverHoldSecrets(t *testing.T) {
	const word = "zebraunicorn" // a question word that must stay out of info lines
	done := make(chan struct{})
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-s", 0, slashPayload("search "+word, testHooksURL)))
		_ = c.WriteJSON(envelope("events_api", "env-e", 0, mentionPayload("EvLog", "5.1", "<@"+testBotUser+"> search "+word)))
		interaction, _ := json.Marshal(map[string]any{
			"type": "block_actions", "response_url": f.responseURL("p"), "user": map[string]string{"id": "U1"},
			"actions": []map[string]string{{"action_id": actionNext, "value": pageValue("1.40 ga", 1, false)}},
		})
		_ = c.WriteJSON(envelope("interactive", "env-i", 0, string(interaction)))
		readAcksUntil(c, "env-s", "env-e", "env-i")
		close(done)
		drain(c)
	})
	logs := &logBuffer{}
	a := newSocketAdapter(t, f, &fakeAnswerer{}, true, logs)
	runAdapter(t, a)
	<-done
	waitFor(t, "the mention answer and the page", func() bool {
		return len(f.postedMessages()) == 1 && len(f.responsePosts()) == 1
	})

	// HTTP: a valid command, a forged one, and a late answer whose post to
	// hooks.slack.com fails with an error that names the URL.
	serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("search "+word, testHooksURL)))
	serve(a, signedRequest(PathCommands, formType, "forged-secret-0123456789", time.Now(), slashBody("kep 1", testHooksURL)))
	a.http = &http.Client{Transport: failingTransport{}}
	a.budget = time.Millisecond
	slow := &fakeAnswerer{delay: 50 * time.Millisecond}
	a.answerer = slow
	serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("kep 4639", testHooksURL)))
	waitFor(t, "the failed post to be logged", func() bool { return strings.Contains(logs.String(), "posting to response_url failed") })

	// slack-go before v0.35.0 logged raw envelopes and responses; a line
	// like theirs, through the same logger, must come out scrubbed too.
	_ = slackLogger{a.log}.Output(2, `Received WebSocket message: {"token":"`+testBotToken+`","response_url":"`+testHooksURL+
		`","url":"wss://wss.slack.com/link/?ticket=`+ticket+`&app_id=A1","app_token":"`+testAppToken+`"}`)

	out := logs.String()
	assertNoSecrets(t, "the log", out)
	for _, s := range []string{ticket, "ticket=tkt"} {
		if strings.Contains(out, s) {
			t.Errorf("the log holds the Socket Mode ticket %q", s)
		}
	}
	if !strings.Contains(out, `"source":"slack-go"`) {
		t.Error("no slack-go debug line reached the log: the test would prove nothing")
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Errorf("not a JSON log line: %q", line)
			continue
		}
		if m["level"] != "debug" && strings.Contains(line, word) {
			t.Errorf("question text at level %v: %s", m["level"], line)
		}
	}
}

// TestSafeErr: a URL error loses its URL (a response_url is a bearer
// capability) and keeps what it wrapped.
func TestSafeErr(t *testing.T) {
	secret := "https://hooks.slack.com/commands/T1/2/SECRET"
	err := safeErr(fmt.Errorf("respond: %w", &url.Error{Op: "Post", URL: secret, Err: context.DeadlineExceeded}))
	if strings.Contains(err.Error(), "SECRET") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("safeErr gave %q (deadline kept: %v)", err, errors.Is(err, context.DeadlineExceeded))
	}
	if plain := errors.New("x"); safeErr(plain) != plain {
		t.Error("an error without a URL changed")
	}
}
