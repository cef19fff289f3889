package slack

import (
	"context"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"
)

// TestNoGoroutineLeaks runs Socket Mode through a slash command, a mention
// (answered with chat.postMessage) and a stop, and checks that no goroutine
// of the adapter or of slack-go outlives Run.
func TestNoGoroutineLeaks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	func() {
		acks := make(chan []string, 1)
		f := newFakeSlack(t, func(n int, c *websocket.Conn) {
			_ = c.WriteJSON(map[string]any{"type": "hello"})
			_ = c.WriteJSON(envelope("slash_commands", "env-1", 0, slashPayload("kep 4639", testHooksURL)))
			_ = c.WriteJSON(envelope("events_api", "env-2", 0, mentionPayload("EvLeak", "9.1", "<@"+testBotUser+"> kep 4639")))
			acks <- readAcksUntil(c, "env-1", "env-2")
			drain(c)
		})
		a := newSocketAdapter(t, f, &fakeAnswerer{}, false, &logBuffer{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- a.Run(ctx) }()
		<-acks
		waitFor(t, "the mention answer", func() bool { return len(f.postedMessages()) == 1 })
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		f.srv.Stop()
	}()
	time.Sleep(50 * time.Millisecond)
}
