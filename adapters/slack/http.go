package slack

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// The HTTP endpoints Mount adds; configure them as the Request URLs in the
// Slack app (slash command, event subscriptions, interactivity).
const (
	PathCommands     = "/slack/commands"
	PathEvents       = "/slack/events"
	PathInteractions = "/slack/interactions"
)

const (
	formType = "application/x-www-form-urlencoded"
	jsonType = "application/json"
)

var (
	errContentType = errors.New("unsupported content type")
	errTooLarge    = errors.New("body over 256 KiB")
	errRead        = errors.New("body could not be read")

	jsonHeader  = []string{"application/json; charset=utf-8"}
	plainHeader = []string{"text/plain; charset=utf-8"}
	nosniff     = []string{"nosniff"}
)

// bodyPool holds request and response buffers between requests.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Mount adds POST /slack/commands, /slack/events and /slack/interactions
// to mux when a signing secret is configured, and nothing otherwise.
func (a *Adapter) Mount(mux *http.ServeMux) {
	if !a.HTTPEnabled() {
		return
	}
	mux.HandleFunc("POST "+PathCommands, a.handleCommand)
	mux.HandleFunc("POST "+PathEvents, a.handleEvents)
	mux.HandleFunc("POST "+PathInteractions, a.handleInteraction)
}

// Handler returns a handler serving only the Slack endpoints, for tests.
func (a *Adapter) Handler() http.Handler {
	mux := http.NewServeMux()
	a.Mount(mux)
	return mux
}

// handleCommand answers a slash command in the HTTP response itself when
// the answer is ready within the inline budget, else acks with an empty
// 200 and posts the answer to response_url when it is ready. A question
// answered before, in the answerer's current generation, gets the reply
// kept then (see replyCache).
func (a *Adapter) handleCommand(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ctx, buf, body, ok := a.readVerified(w, r, formType)
	if !ok {
		return
	}
	defer bodyPool.Put(buf)
	form, err := scanSlashForm(body)
	if err != nil {
		a.badRequest(w, err)
		return
	}
	if a.replies != nil && a.replyKept(w, &form, start) {
		return
	}
	cmd, err := form.decode()
	if err != nil {
		a.badRequest(w, err)
		return
	}
	if a.slashScan(ctx, cmd, "http", func(m *Message) {
		if m == nil {
			ackEmpty(w)
			return
		}
		out := m.AppendJSON(nil)
		writeJSON(w, out, []string{strconv.Itoa(len(out))})
	}) {
		return
	}
	text, public := a.slashText(cmd.Text)
	q, perr := a.reader.Read(ctx, text)
	key, keep := engine.CacheKey(q)
	keep = keep && perr == nil && a.replies != nil
	var gen uint64
	if keep {
		gen = a.replies.generation() // before asking
	}
	ans := a.slashParsed(ctx, cmd, q, perr, public, "http", func() { ackEmpty(w) })
	if ans == nil {
		return // acked by ackEmpty; the answer follows on response_url
	}
	out := Render(ans, RenderOptions{Slash: true, Public: public, Files: a.api != nil}).AppendJSON((*buf)[:0])
	*buf = out[:0] // keep the grown buffer for the next request
	if keep {
		a.replies.keep(text, key, public, gen, ans, out)
	}
	writeJSON(w, out, []string{strconv.Itoa(len(out))})
}

// replyKept writes the kept reply to the command in form, if there is one
// for the answerer's current generation, and records it as answered. It
// allocates nothing unless the log is at debug level.
func (a *Adapter) replyKept(w http.ResponseWriter, form *slashForm, start time.Time) bool {
	var scratch [512]byte
	text, ok := appendUnescaped(scratch[:0], form.text)
	if !ok {
		return false
	}
	question, public, ok := slashQuestion(text)
	if !ok {
		return false
	}
	public = public || a.cfg.PublicAnswers
	rep := a.replies.lookup(question, public)
	if rep == nil {
		return false
	}
	writeJSON(w, rep.body, rep.length)
	a.rec.Answered(Platform, rep.kind, time.Since(start))
	if a.log.GetLevel() <= zerolog.DebugLevel {
		cmd, _ := form.decode()
		l := requestLog(a.log, cmd.Channel, rep.kind)
		l.Debug().Str("via", "http").Str("user", cmd.User).Str("question", rep.query).Bool("kept", true).
			Dur("took", time.Since(start)).Msg("answered")
	}
	return true
}

// writeJSON sends body, length bytes of JSON, as a complete 200.
func writeJSON(w http.ResponseWriter, body []byte, length []string) {
	h := w.Header()
	h["Content-Type"] = jsonHeader
	h["X-Content-Type-Options"] = nosniff
	h["Content-Length"] = length
	_, _ = w.Write(body)
}

// ackEmpty sends a complete empty 200 while the handler is still busy: the
// slash command's ack, when its answer is late.
func ackEmpty(w http.ResponseWriter) {
	w.Header()["Content-Length"] = []string{"0"}
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// handleEvents answers url_verification, and acks event callbacks at once:
// mentions and DMs are answered in the background with chat.postMessage,
// each event once however often Slack retries it.
func (a *Adapter) handleEvents(w http.ResponseWriter, r *http.Request) {
	ctx, buf, body, ok := a.readVerified(w, r, jsonType)
	if !ok {
		return
	}
	defer bodyPool.Put(buf)
	var env eventEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		a.badRequest(w, errors.New("malformed event JSON"))
		return
	}
	switch env.Type {
	case "url_verification":
		if env.Challenge == "" || len(env.Challenge) > 512 || strings.ContainsAny(env.Challenge, "<>\"'&\r\n") {
			a.badRequest(w, errors.New("malformed challenge"))
			return
		}
		h := w.Header()
		h["Content-Type"] = plainHeader
		h["X-Content-Type-Options"] = nosniff
		_, _ = io.WriteString(w, env.Challenge)
		return
	case "event_callback":
		a.onEvent(ctx, env, "http", r.Header.Get("X-Slack-Retry-Num"))
	case "app_rate_limited":
		a.log.Warn().Msg("slack says the app is rate limited: more than 30,000 events an hour")
	}
	w.WriteHeader(http.StatusOK)
}

// handleInteraction acks a button press at once and answers it (a page of
// a long list) on its response_url.
func (a *Adapter) handleInteraction(w http.ResponseWriter, r *http.Request) {
	ctx, buf, body, ok := a.readVerified(w, r, formType)
	if !ok {
		return
	}
	defer bodyPool.Put(buf)
	raw, ok := formValue(body, "payload")
	if !ok {
		a.badRequest(w, errors.New("no payload"))
		return
	}
	var p interaction
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		a.badRequest(w, errors.New("malformed payload JSON"))
		return
	}
	a.onInteraction(ctx, p)
	w.WriteHeader(http.StatusOK)
}

// readVerified reads the body (at most MaxBodyBytes) into a pooled buffer,
// verifies its signature and records it with the replay guards. Anything
// that fails, a replay among them, gets 401 and no answer; ok is false
// then, and the buffer is already back in the pool. ctx is the request's,
// marked when the shared guard could not be asked (replayUnchecked).
func (a *Adapter) readVerified(w http.ResponseWriter, r *http.Request, wantType string) (ctx context.Context, buf *[]byte, body []byte, ok bool) {
	if !hasType(r.Header["Content-Type"], wantType) {
		a.unauthorized(w, errContentType)
		return nil, nil, nil, false
	}
	if r.ContentLength > MaxBodyBytes {
		a.unauthorized(w, errTooLarge)
		return nil, nil, nil, false
	}
	buf = bodyPool.Get().(*[]byte)
	body, err := readBody(http.MaxBytesReader(w, r.Body, MaxBodyBytes), (*buf)[:0])
	*buf = body[:0]
	if err != nil {
		bodyPool.Put(buf)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			err = errTooLarge
		} else {
			err = errRead
		}
		a.unauthorized(w, err)
		return nil, nil, nil, false
	}
	req, err := a.verify.verified(first(r.Header[headerTimestamp]), first(r.Header[headerSignature]), body)
	if err != nil {
		bodyPool.Put(buf)
		a.unauthorized(w, err)
		return nil, nil, nil, false
	}
	// The same signed bytes again, here or (with etcd) on another replica:
	// refused before anything is read, answered or changed.
	ctx = r.Context()
	replayed, unchecked := a.replayed(ctx, &req)
	if replayed {
		bodyPool.Put(buf)
		a.rec.Failed(Platform, metrics.ReasonDuplicate)
		a.unauthorized(w, errReplayed)
		return nil, nil, nil, false
	}
	if unchecked {
		ctx = withReplayUnchecked(ctx)
	}
	return ctx, buf, body, true
}

// readBody appends all of r to b.
func readBody(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// hasType reports whether the Content-Type header is want (parameters
// such as charset allowed).
func hasType(v []string, want string) bool {
	if len(v) != 1 {
		return false
	}
	if v[0] == want {
		return true
	}
	mt, _, err := mime.ParseMediaType(v[0])
	return err == nil && mt == want
}

// rejectLog samples rejections so a flood of forged requests cannot flood
// the log: five a minute, then silence until the next minute.
var rejectSampler = &zerolog.BurstSampler{Burst: 5, Period: time.Minute}

// unauthorized answers 401 with why, counts it, and logs a sample.
func (a *Adapter) unauthorized(w http.ResponseWriter, why error) {
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	l := a.log.Sample(rejectSampler)
	l.Warn().Str("reason", why.Error()).Msg("slack request refused")
	h := w.Header()
	h["Content-Type"] = plainHeader
	h["X-Content-Type-Options"] = nosniff
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = io.WriteString(w, "request not verified: "+why.Error()+"\n")
}

// badRequest answers 400 to a verified request kepbot cannot read.
func (a *Adapter) badRequest(w http.ResponseWriter, why error) {
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	a.log.Warn().Str("reason", why.Error()).Msg("slack request unreadable")
	http.Error(w, "bad request: "+why.Error(), http.StatusBadRequest)
}
