package discord

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/internal/platform"
)

// WithBackoff sets the wait between attempts to register /k8s and open
// the gateway after a failure (default platform.DefaultBackoff).
func WithBackoff(b platform.Backoff) Option { return func(a *Adapter) { a.backoff = b } }

// Status says how the adapter's connection to Discord stands, for
// /readyz: up once /k8s is registered and the gateway open (at once when
// only the HTTP interactions endpoint is served, or the leader holds the
// gateway), down while an attempt is retried, stopped when Discord refused
// for good (a bad token, an unknown application).
func (a *Adapter) Status() platform.Status { return a.conn.Status() }

// gatewayState follows the gateway once it is open: discordgo reconnects
// by itself, and says so with Connect and Disconnect events.
type gatewayState struct {
	held atomic.Bool // the gateway is meant to be open
}

// connect registers /k8s (when register is set; once, even if the gateway
// then fails) and opens the gateway (when gateway is set), retrying with
// backoff and jitter, one log line an attempt, until both succeed, Discord
// refuses for good (returned) or ctx ends (nil). Only the gateway's note
// is logged on success.
func (a *Adapter) connect(ctx context.Context, register, gateway bool, note string) error {
	if !register && !gateway {
		a.conn.Up()
		return nil
	}
	registered := !register
	return platform.Retry(ctx, a.backoff, a.conn, a.log, "discord: start", func(ctx context.Context) error {
		if !registered {
			if err := a.Register(ctx); err != nil {
				return startError(err)
			}
			registered = true
		}
		if !gateway {
			return nil
		}
		if err := a.openGateway(note); err != nil {
			return err
		}
		a.gw.held.Store(true)
		return nil
	})
}

// startError marks what another attempt will not cure: Discord refusing
// the token (401), the application or its commands (403, 404), or the
// request (400).
func startError(err error) error {
	var e *APIError
	if errors.As(err, &e) {
		switch e.Status {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusBadRequest:
			return platform.Permanent(err)
		}
	}
	return err
}

// fatalClose reports whether the gateway closed with a code Discord says
// not to reconnect after: authentication failed, invalid shard, sharding
// required, invalid API version, invalid or disallowed intents
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
func fatalClose(err error) bool {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) {
		return false
	}
	switch ce.Code {
	case 4004, 4010, 4011, 4012, 4013, 4014:
		return true
	}
	return false
}

// onConnect and onDisconnect follow discordgo's own reconnects of an open
// gateway in the adapter's status.
func (a *Adapter) onConnect(_ *discordgo.Session, _ *discordgo.Connect) {
	if a.gw.held.Load() {
		a.conn.Up()
	}
}

func (a *Adapter) onDisconnect(_ *discordgo.Session, _ *discordgo.Disconnect) {
	if a.gw.held.Load() {
		a.conn.Down(errors.New("discord gateway disconnected; reconnecting"), 0, time.Time{})
	}
}
