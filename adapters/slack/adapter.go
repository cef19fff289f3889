package slack

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/kepbot/kepbot/internal/platform"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// Platform is the Origin.Platform and metrics label of this adapter.
const Platform = "slack"

// postTimeout bounds one post of a late answer, a mention reply or a page.
const postTimeout = 15 * time.Second

// Recorder counts answers and errors. *metrics.Metrics implements it.
type Recorder interface {
	Answered(platform, kind string, took time.Duration)
	Failed(platform, reason string)
}

// Adapter serves Slack. Run runs Socket Mode (when configured) and, in
// every mode, finishes the work in flight when its context ends; Mount
// adds the HTTP endpoints to a mux.
type Adapter struct {
	cfg      Config
	answerer knowledge.Answerer
	reader   *question.Reader // reads the text people type as a question
	log      zerolog.Logger
	rec      Recorder
	api      *slackapi.Client // nil without a bot token
	verify   *verifier
	replies  *replyCache // nil unless the answerer says when its answers change
	events   *dedupe
	bg       group
	http     *http.Client
	budget   time.Duration
	botUser  atomic.Pointer[string] // the bot's user ID, once auth.test said
	smOpts   []socketmode.Option
	allowURL func(*url.URL) bool
	pauser   Pauser          // nil: subscriptions are not paused on channel events
	managers map[string]bool // user IDs that may change subscriptions besides admins
	manage   manageCache
	// now is the clock of the permission cache, pauses and the shared
	// replay guard's outage; a pointer, so that tests may move it while
	// Run reads it.
	now atomic.Pointer[func() time.Time]
	// fileClient downloads the files of scans (files.go), each within
	// fileTimeout; modalKey signs the scan modal's private_metadata.
	fileClient  *http.Client
	fileTimeout time.Duration
	modalKey    []byte

	// The signatures of the HTTP requests served (replay.go): kept in this
	// process, and shared by replicas on etcd (nil without); sharedDown is
	// until when (Unix ns) shared is left alone after it failed.
	replay     *memoryReplay
	shared     ReplayGuard
	sharedDown atomic.Int64

	// conn is how the connection to Slack stands, for /readyz (Status).
	conn *platform.Tracker
}

// Option changes an Adapter; tests use them.
type Option func(*Adapter)

// WithRecorder records answers and errors in rec.
func WithRecorder(rec Recorder) Option { return func(a *Adapter) { a.rec = rec } }

// WithClock makes signature checks, and the in-memory replay guard, use now.
func WithClock(now func() time.Time) Option { return func(a *Adapter) { a.verify.now = now } }

// WithSocketModeOptions passes options to the Socket Mode client (a ping
// interval, a dialer).
func WithSocketModeOptions(opts ...socketmode.Option) Option {
	return func(a *Adapter) { a.smOpts = append(a.smOpts, opts...) }
}

// WithFileTimeout bounds each download of a scanned file (default
// DefaultFileTimeout).
func WithFileTimeout(d time.Duration) Option {
	return func(a *Adapter) {
		if d > 0 {
			a.fileTimeout = d
		}
	}
}

// WithReader reads questions with r: the one reader every adapter shares,
// which knows the engine's features by name. Without it questions are read
// without those names (question.NewReader(nil)).
func WithReader(r *question.Reader) Option { return func(a *Adapter) { a.reader = r } }

// WithResponseURLs lets response_url posts go to hosts allow accepts, as
// well as to Slack's hooks.slack.com (for tests and proxies).
func WithResponseURLs(allow func(*url.URL) bool) Option {
	return func(a *Adapter) { a.allowURL = allow }
}

// NewAdapter returns a Slack adapter answering with answerer (the
// knowledge engine) and logging to log. It fails when cfg configures
// neither Socket Mode nor HTTP.
func NewAdapter(cfg Config, answerer knowledge.Answerer, log zerolog.Logger, opts ...Option) (*Adapter, error) {
	if answerer == nil {
		return nil, errors.New("slack: no answerer")
	}
	socket := !cfg.AppToken.IsZero() && !cfg.BotToken.IsZero()
	if !socket && len(cfg.SigningSecrets) == 0 {
		return nil, errors.New("slack: neither Socket Mode (SLACK_APP_TOKEN and SLACK_BOT_TOKEN) nor HTTP (SLACK_SIGNING_SECRET) is configured")
	}
	if cfg.Command == "" {
		cfg.Command = DefaultCommand
	}
	a := &Adapter{
		cfg:      cfg,
		answerer: answerer,
		log:      log.With().Str("adapter", Platform).Logger(),
		rec:      nopRecorder{},
		verify:   newVerifier(cfg.SigningSecrets),
		replies:  newReplyCache(answerer),
		events:   newDedupe(dedupeTTL, dedupeMax),
		http:     cfg.HTTPClient,
		budget:   cfg.InlineBudget,
		managers: map[string]bool{},

		fileTimeout: DefaultFileTimeout,
	}
	for _, u := range cfg.SubscriptionManagers {
		if u = strings.TrimSpace(u); u != "" {
			a.managers[u] = true
		}
	}
	if a.http == nil {
		a.http = &http.Client{Timeout: postTimeout}
	}
	if a.budget <= 0 {
		a.budget = DefaultInlineBudget
	}
	for _, o := range opts {
		o(a)
	}
	if a.reader == nil {
		a.reader = question.NewReader(nil)
	}
	a.replay = newMemoryReplay(DefaultReplayMemory, func() time.Time { return a.verify.now() })
	a.replay.early = a.replayFull
	if a.rec == nil {
		a.rec = nopRecorder{}
	}
	if !cfg.BotToken.IsZero() {
		a.api = a.newClient()
		a.modalKey = modalKey(cfg.BotToken.Value())
	}
	a.fileClient = a.newFileClient()
	a.conn = platform.NewTracker(a.clock)
	return a, nil
}

// newClient returns the Web API client: the bot token, the app token for
// Socket Mode, the API base, our HTTP client and our logger.
func (a *Adapter) newClient() *slackapi.Client {
	opts := []slackapi.Option{
		slackapi.OptionHTTPClient(a.http),
		slackapi.OptionRetry(1), // one retry of a 429, after its Retry-After
		slackapi.OptionLog(slackLogger{a.log}),
		slackapi.OptionDebug(a.cfg.Debug),
	}
	if !a.cfg.AppToken.IsZero() {
		opts = append(opts, slackapi.OptionAppLevelToken(a.cfg.AppToken.Value()))
	}
	if a.cfg.APIURL != "" {
		opts = append(opts, slackapi.OptionAPIURL(withSlash(a.cfg.APIURL)))
	}
	return slackapi.New(a.cfg.BotToken.Value(), opts...)
}

func withSlash(u string) string {
	if u != "" && u[len(u)-1] != '/' {
		return u + "/"
	}
	return u
}

// Name is "slack".
func (a *Adapter) Name() string { return Platform }

// SocketMode reports whether Run holds a Socket Mode connection.
func (a *Adapter) SocketMode() bool { return !a.cfg.AppToken.IsZero() && !a.cfg.BotToken.IsZero() }

// HTTPEnabled reports whether Mount adds the HTTP endpoints.
func (a *Adapter) HTTPEnabled() bool { return len(a.cfg.SigningSecrets) > 0 }

// Run serves until ctx ends: it holds the Socket Mode connection when
// configured, then waits for every answer in flight (late slash answers,
// mention replies, pages) before it returns. It fails when Slack refuses
// the tokens; Status says how the connection stands meanwhile.
func (a *Adapter) Run(ctx context.Context) error {
	var err error
	if a.SocketMode() {
		err = a.runSocket(ctx)
	} else if err = a.identifyOnce(ctx); err == nil {
		a.conn.Up() // the HTTP endpoints need no connection
		<-ctx.Done()
	}
	if err != nil {
		a.conn.Stop(err)
	}
	a.bg.Wait()
	return err
}

// Status says how the connection to Slack stands, for /readyz: with Socket
// Mode, up while connected and down (with the error, the attempt and when
// slack-go tries again) while it reconnects; with the HTTP endpoints alone,
// up once Run has started; stopped when Slack refused the tokens.
func (a *Adapter) Status() platform.Status { return a.conn.Status() }

// identifyOnce runs identify when there is a bot token to identify with.
func (a *Adapter) identifyOnce(ctx context.Context) error {
	if a.api == nil {
		return nil
	}
	return a.identify(ctx)
}

// identify learns the bot's own user ID, so that its own messages are
// never answered. It fails only when Slack refuses the token.
func (a *Adapter) identify(ctx context.Context) error {
	resp, err := a.api.AuthTestContext(ctx)
	if err != nil {
		if fatalAuth(err) {
			return errors.New("slack refused SLACK_BOT_TOKEN (" + err.Error() + "): check the token in the app's OAuth & Permissions page")
		}
		a.log.Warn().Err(safeErr(err)).Msg("auth.test failed; own messages are recognised by bot_id only")
		return nil
	}
	id := resp.UserID
	a.botUser.Store(&id)
	a.log.Info().Str("bot_user", resp.UserID).Str("team", resp.TeamID).Msg("slack bot identified")
	return nil
}

// clock is the time for the permission cache and for pauses.
func (a *Adapter) clock() time.Time {
	if f := a.now.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// setClock makes clock read now (tests).
func (a *Adapter) setClock(now func() time.Time) { a.now.Store(&now) }

func (a *Adapter) botUserID() string {
	if p := a.botUser.Load(); p != nil {
		return *p
	}
	return ""
}

func fatalAuth(err error) bool {
	switch err.Error() {
	case "invalid_auth", "account_inactive", "not_authed", "token_revoked", "token_expired":
		return true
	}
	return false
}

// group runs background work and waits for it. Once Wait has begun, Go
// runs its function inline instead: work that arrives while stopping is
// done, not lost, and Wait never races an Add.
type group struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
}

// Go runs f in the background, or inline once Wait has begun.
func (g *group) Go(f func()) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		f()
		return
	}
	g.wg.Add(1)
	g.mu.Unlock()
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// Wait stops taking background work and waits for what is running.
func (g *group) Wait() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.wg.Wait()
}

type nopRecorder struct{}

func (nopRecorder) Answered(string, string, time.Duration) {}
func (nopRecorder) Failed(string, string)                  {}
