package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/internal/metrics"
)

// HTTP interaction limits. Discord documents no replay window for
// X-Signature-Timestamp (discord/discord-api-docs#6209); kepbot accepts
// five minutes either way. Interactions are small; 64 KiB is plenty.
const (
	MaxInteractionBytes = 64 << 10
	SignatureWindow     = 5 * time.Minute
)

// InteractionsHandler returns the handler for POST /discord/interactions.
// It answers 401 to anything not signed with the application's key over
// X-Signature-Timestamp and the raw body, signed more than SignatureWindow
// from now, or seen before; 413 to a body over MaxInteractionBytes; 400 to
// a signed body that is not an interaction. PING gets PONG, autocomplete
// its choices, and a command its answer, or a deferral when the answer
// takes longer than the inline budget (the answer then follows through
// the webhook).
func (a *Adapter) InteractionsHandler() http.Handler {
	return http.HandlerFunc(a.serveInteraction)
}

func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	if a.publicKey == nil {
		http.Error(w, "discord interactions are not configured", http.StatusNotFound)
		return
	}
	sig, ts := r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp")
	if why := a.checkHeaders(sig, ts); why != "" {
		a.unverified(w, why)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxInteractionBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		a.rec.Failed(Platform, metrics.ReasonBadRequest)
		if errors.As(err, &tooBig) {
			http.Error(w, "interaction body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "could not read the body", http.StatusBadRequest)
		return
	}
	rawSig, _ := hex.DecodeString(sig) // checkHeaders checked it
	if !ed25519.Verify(a.publicKey, append([]byte(ts), body...), rawSig) {
		a.unverified(w, "bad signature")
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil || i.Type == 0 {
		a.rec.Failed(Platform, metrics.ReasonBadRequest)
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	if i.Type != discordgo.InteractionPing && !a.replays.first(i.ID, a.clock()) {
		a.rec.Failed(Platform, metrics.ReasonDuplicate)
		a.unverified(w, "replayed interaction")
		return
	}
	log := a.interactionLog(&i, "http")
	first, rest := a.interact(&i, log)
	out, err := first.encode()
	if err != nil {
		log.Error().Str("error", err.Error()).Msg("discord: encode interaction response")
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out) // sent whole when the handler returns, as one write
	if rest == nil {
		return
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush() // Discord must have the response before any follow-up edits it
	}
	ctx, done, ok := a.start(answerTimeout + sendTimeout)
	if !ok {
		return
	}
	go func() {
		defer done()
		rest(ctx)
	}()
}

// checkHeaders says what is wrong with the signature headers, or "".
func (a *Adapter) checkHeaders(sig, ts string) string {
	if sig == "" || ts == "" {
		return "missing signature headers"
	}
	if b, err := hex.DecodeString(sig); err != nil || len(b) != ed25519.SignatureSize {
		return "malformed signature"
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "malformed timestamp"
	}
	if d := a.clock().Sub(time.Unix(sec, 0)); d > SignatureWindow || d < -SignatureWindow {
		return "timestamp outside the window"
	}
	return ""
}

// unverified answers 401. Discord probes endpoints with bad signatures on
// purpose, so this logs at debug only.
func (a *Adapter) unverified(w http.ResponseWriter, why string) {
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	a.log.Debug().Str("reason", why).Msg("discord: unverified interaction refused")
	http.Error(w, "invalid request signature", http.StatusUnauthorized)
}
