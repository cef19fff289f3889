package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/kepbot/kepbot/internal/metrics"
)

// runSocket holds the Socket Mode connection until ctx ends. slack-go
// reconnects by itself (on Slack's disconnect, a closed socket or a missed
// ping); runSocket fails only when Slack refuses the tokens.
//
// Every envelope is acked at once, except a slash command, which is acked
// with its answer when that is ready within the inline budget (and small
// enough for an ack), and otherwise acked empty with the answer on
// response_url. Events Slack delivers again after a reconnect are
// recognised by event_id and answered once.
func (a *Adapter) runSocket(ctx context.Context) error {
	if err := a.identify(ctx); err != nil {
		return err
	}
	opts := append([]socketmode.Option{
		socketmode.OptionLog(slackLogger{a.log}),
		socketmode.OptionDebug(a.cfg.Debug),
	}, a.smOpts...)
	sm := socketmode.New(a.api, opts...)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(runCtx) }()
	for {
		select {
		case <-ctx.Done():
			cancel()
			<-done
			return nil
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			a.rec.Failed(Platform, metrics.ReasonConnection)
			return fmt.Errorf("slack Socket Mode stopped: %w (check SLACK_APP_TOKEN: an app-level token with connections:write)", safeErr(err))
		case evt := <-sm.Events:
			a.onSocketEvent(runCtx, sm, evt)
		}
	}
}

// onSocketEvent handles one event from the Socket Mode client without
// blocking the loop for longer than an ack.
func (a *Adapter) onSocketEvent(ctx context.Context, sm *socketmode.Client, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		a.conn.Connecting()
		a.log.Debug().Msg("connecting to Slack Socket Mode")
	case socketmode.EventTypeConnected:
		a.conn.Up()
		a.log.Info().Msg("connected to Slack Socket Mode")
	case socketmode.EventTypeHello:
		a.log.Debug().Msg("Socket Mode hello")
	case socketmode.EventTypeConnectionError:
		// slack-go retries after a wait that doubles from 100 ms to 5
		// minutes (a 429's Retry-After when longer): one line an attempt.
		a.rec.Failed(Platform, metrics.ReasonConnection)
		err := eventErr(evt)
		l := a.log.Warn().Err(err).Str("event", string(evt.Type))
		if ce, ok := evt.Data.(*slackapi.ConnectionErrorEvent); ok {
			a.conn.Down(err, ce.Attempt, a.clock().Add(ce.Backoff))
			l = l.Int("attempt", ce.Attempt).Dur("retry_in", ce.Backoff)
		} else {
			a.conn.Down(err, 0, time.Time{})
		}
		l.Msg("Socket Mode connection failed; retrying")
	case socketmode.EventTypeInvalidAuth:
		a.rec.Failed(Platform, metrics.ReasonConnection)
		a.log.Warn().Err(eventErr(evt)).Str("event", string(evt.Type)).Msg("Socket Mode connection refused")
	case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorBadMessage, socketmode.EventTypeErrorWriteFailed:
		a.rec.Failed(Platform, metrics.ReasonConnection)
		a.log.Warn().Err(eventErr(evt)).Str("event", string(evt.Type)).Msg("Socket Mode message failed")
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slackapi.SlashCommand)
		if !ok || evt.Request == nil {
			return
		}
		envelope := evt.Request.EnvelopeID
		sc := slashCommand{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, UserName: cmd.UserName,
			Command: cmd.Command, Text: cmd.Text, ResponseURL: cmd.ResponseURL, TriggerID: cmd.TriggerID}
		a.bg.Go(func() { a.socketSlash(ctx, sm, envelope, sc) })
	case socketmode.EventTypeEventsAPI:
		if evt.Request == nil {
			return
		}
		a.ack(ctx, sm, evt.Request.EnvelopeID, nil)
		var env eventEnvelope
		if err := json.Unmarshal(evt.Request.Payload, &env); err != nil {
			a.rec.Failed(Platform, metrics.ReasonBadRequest)
			return
		}
		retry := ""
		if evt.Request.RetryAttempt > 0 {
			retry = fmt.Sprint(evt.Request.RetryAttempt)
		}
		a.onEvent(context.Background(), env, "socket", retry)
	case socketmode.EventTypeInteractive:
		if evt.Request == nil {
			return
		}
		a.ack(ctx, sm, evt.Request.EnvelopeID, nil)
		var p interaction
		if err := json.Unmarshal(evt.Request.Payload, &p); err != nil {
			a.rec.Failed(Platform, metrics.ReasonBadRequest)
			return
		}
		a.onInteraction(context.Background(), p)
	}
}

// socketSlash answers a slash command envelope: the answer in the ack when
// it is ready in time and under Slack's ack size limit, else an empty ack
// and the answer on response_url.
func (a *Adapter) socketSlash(ctx context.Context, sm *socketmode.Client, envelope string, cmd slashCommand) {
	if a.slashScan(ctx, cmd, "socket", func(m *Message) {
		if m == nil {
			a.ack(ctx, sm, envelope, nil)
			return
		}
		a.ack(ctx, sm, envelope, json.RawMessage(m.AppendJSON(nil)))
	}) {
		return
	}
	ans, opts := a.slash(ctx, cmd, "socket", func() {
		a.ack(ctx, sm, envelope, nil) // late: the answer follows on response_url
	})
	if ans == nil {
		return
	}
	m := Render(ans, opts)
	payload := m.AppendJSON(nil)
	if len(payload) > MaxSocketAckBytes {
		a.ack(ctx, sm, envelope, nil)
		a.postResponse(cmd.ResponseURL, m, cmd.Channel)
		return
	}
	a.ack(ctx, sm, envelope, json.RawMessage(payload))
}

// ack acknowledges an envelope, with an optional payload.
func (a *Adapter) ack(ctx context.Context, sm *socketmode.Client, envelope string, payload any) {
	if err := sm.AckCtx(ctx, envelope, payload); err != nil {
		a.rec.Failed(Platform, metrics.ReasonAck)
		a.log.Warn().Err(err).Msg("Socket Mode ack failed")
	}
}

// eventErr is the error a connection event carries, without URLs.
func eventErr(evt socketmode.Event) error {
	switch d := evt.Data.(type) {
	case *slackapi.ConnectionErrorEvent:
		return safeErr(d.ErrorObj)
	case *slackapi.IncomingEventError:
		return safeErr(d.ErrorObj)
	case *socketmode.ErrorBadMessage:
		return safeErr(d.Cause)
	case *socketmode.ErrorWriteFailed:
		return safeErr(d.Cause)
	case error:
		return safeErr(d)
	}
	return errors.New(string(evt.Type))
}
