package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/internal/platform"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// Time budgets.
const (
	// inlineBudget is how long an interaction waits for its answer before
	// deferring: Discord invalidates an interaction not answered in 3 s.
	inlineBudget = 1500 * time.Millisecond
	// answerTimeout bounds the work on one question.
	answerTimeout = 30 * time.Second
	// sendTimeout bounds posting one answer, retries included.
	sendTimeout = 30 * time.Second
	// drainTimeout is how long Run waits for answers in flight at shutdown.
	drainTimeout = 10 * time.Second
)

// Platform is the platform name in origins, logs and metrics.
const Platform = "discord"

// Recorder counts answers and errors. *metrics.Metrics implements it.
type Recorder interface {
	Answered(platform, kind string, took time.Duration)
	Failed(platform, reason string)
}

type nopRecorder struct{}

func (nopRecorder) Answered(string, string, time.Duration) {}
func (nopRecorder) Failed(string, string)                  {}

// Option changes an Adapter.
type Option func(*Adapter)

// WithRecorder records answers and errors in rec.
func WithRecorder(rec Recorder) Option {
	return func(a *Adapter) {
		if rec != nil {
			a.rec = rec
		}
	}
}

// WithReader reads questions with r: the one reader every adapter shares,
// which knows the engine's features by name. Without it questions are read
// without those names (question.NewReader(nil)).
func WithReader(r *question.Reader) Option { return func(a *Adapter) { a.reader = r } }

// WithAttachmentTimeout bounds each download of a scanned attachment
// (default DefaultAttachmentTimeout).
func WithAttachmentTimeout(d time.Duration) Option {
	return func(a *Adapter) {
		if d > 0 {
			a.attachmentTimeout = d
		}
	}
}

// WithClock makes signature windows, rate limits and refusals use now.
func WithClock(now func() time.Time) Option {
	return func(a *Adapter) {
		if now != nil {
			a.now = now
		}
	}
}

// Adapter serves kepbot on Discord. Make it with NewAdapter; run the
// gateway with Run and mount Routes on the HTTP server.
type Adapter struct {
	cfg       Config
	answerer  knowledge.Answerer
	reader    *question.Reader // reads the text people type as a question
	catalog   atomic.Value     // catalogBox
	log       zerolog.Logger
	rec       Recorder
	session   *discordgo.Session
	rest      *rest
	users     *userLimiter
	publicKey ed25519.PublicKey
	replays   *seenIDs
	memo      *renderMemo // nil unless the answerer shares its answers

	now          func() time.Time
	inlineBudget time.Duration

	mu      sync.Mutex
	base    context.Context // Run's context; Background before Run
	closing bool
	// leaderGateway: the gateway runs in RunGateway, not in Run.
	leaderGateway bool
	wg            sync.WaitGroup // answers in flight
	invalid       invalidCounter

	// conn is how the connection to Discord stands (connect.go); backoff
	// spaces the attempts to register and open the gateway.
	conn    *platform.Tracker
	backoff platform.Backoff
	gw      gatewayState

	pauser Pauser             // nil: deleted channels pause nothing
	lister SubscriptionLister // nil: a server's removal pauses nothing

	// attachments downloads the files of scans (attachments.go), each
	// within attachmentTimeout.
	attachments       *http.Client
	attachmentTimeout time.Duration
}

// NewAdapter returns the Discord adapter for cfg (defaults are filled in
// and it is validated), answering with answerer and offering autocomplete
// from catalog (nil offers none). It routes discordgo's own logging through
// logger with tokens scrubbed. It fails with a message naming the config
// key at fault.
func NewAdapter(cfg Config, answerer knowledge.Answerer, catalog Catalog, logger zerolog.Logger, opts ...Option) (*Adapter, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Enabled() {
		return nil, errors.New("config: discord is not configured: set DISCORD_BOT_TOKEN (gateway) or DISCORD_PUBLIC_KEY (HTTP interactions)")
	}
	if answerer == nil {
		return nil, errors.New("discord adapter: no answerer")
	}
	secrets.add(cfg.BotToken.Value())
	a := &Adapter{
		cfg:          cfg,
		answerer:     answerer,
		log:          logger.With().Str("adapter", Platform).Logger(),
		rec:          nopRecorder{},
		users:        newUserLimiter(cfg.UserPerMinute, cfg.UserBurst),
		replays:      newSeenIDs(maxSeenIDs),
		memo:         newRenderMemo(answerer),
		now:          time.Now,
		inlineBudget: inlineBudget,
		base:         context.Background(),

		attachmentTimeout: DefaultAttachmentTimeout,
		backoff:           platform.DefaultBackoff,
	}
	a.SetCatalog(catalog)
	for _, o := range opts {
		o(a)
	}
	if a.reader == nil {
		a.reader = question.NewReader(nil)
	}
	a.conn = platform.NewTracker(a.clock)
	a.attachments = a.newAttachmentClient()
	if cfg.PublicKey != "" {
		key, _ := hex.DecodeString(cfg.PublicKey) // Validate checked it
		a.publicKey = ed25519.PublicKey(key)
	}
	routeLibraryLog(a.log)
	s, err := newSession(cfg, a.countStatus)
	if err != nil {
		return nil, err
	}
	a.session = s
	a.rest = &rest{s: s, invalid: &a.invalid, refused: &refusedChannels{}, noReply: &refusedChannels{}, now: a.clock}
	if cfg.Gateway() && !cfg.PrefixCommands {
		a.log.Info().Str("prefix", cfg.Prefix).Msg("discord: prefix commands are off, so the Message Content intent is not asked for: " +
			"kepbot answers /k8s, mentions and DMs; set DISCORD_PREFIX_COMMANDS=true (discord.prefix_commands) to answer the prefix in server channels too")
	}
	s.AddHandler(a.onReady)
	s.AddHandler(a.onMessageCreate)
	s.AddHandler(a.onInteractionCreate)
	s.AddHandler(a.onConnect)
	s.AddHandler(a.onDisconnect)
	a.addCleanupHandlers(s)
	return a, nil
}

// catalogBox lets atomic.Value hold a nil Catalog.
type catalogBox struct{ c Catalog }

// SetCatalog replaces what autocomplete offers, for example after the
// knowledge was synced; nil offers nothing. Safe to call while serving.
func (a *Adapter) SetCatalog(c Catalog) { a.catalog.Store(catalogBox{c}) }

func (a *Adapter) currentCatalog() Catalog {
	b, _ := a.catalog.Load().(catalogBox)
	return b.c
}

// Name returns "discord".
func (a *Adapter) Name() string { return Platform }

// Routes returns the HTTP routes to mount on the server's mux, keyed by
// pattern: POST /discord/interactions when a public key is configured.
func (a *Adapter) Routes() map[string]http.Handler {
	if a.publicKey == nil {
		return map[string]http.Handler{}
	}
	return map[string]http.Handler{"POST /discord/interactions": a.InteractionsHandler()}
}

// Run registers /k8s (when a bot token and an application ID are set),
// connects to the gateway (when a bot token is set) and serves until ctx
// ends, then disconnects and waits up to 10 s for answers in flight. While
// Discord cannot be reached it retries both with backoff (see connect),
// and the HTTP interactions endpoint answers meanwhile; it fails only when
// Discord refuses for good (a bad token, an unknown application), and
// discordgo reconnects by itself after an open gateway is lost.
func (a *Adapter) Run(ctx context.Context) error {
	a.mu.Lock()
	a.base = ctx
	a.closing = false
	a.mu.Unlock()
	gateway := a.cfg.Gateway() && !a.leaderGateway
	if err := a.connect(ctx, a.cfg.Register() && !a.leaderGateway, gateway, "discord gateway connected"); err != nil {
		return err
	}
	<-ctx.Done()
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	if gateway {
		a.closeGateway()
	}
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(drainTimeout):
		a.log.Warn().Msg("discord: answers still in flight at shutdown")
	}
	return nil
}

// openGateway connects to the gateway and logs note, or fails with the
// reason, scrubbed of the token; a close code Discord says not to
// reconnect after (a bad token, intents not allowed) is Permanent.
func (a *Adapter) openGateway(note string) error {
	if err := a.session.Open(); err != nil {
		a.rec.Failed(Platform, metrics.ReasonConnection)
		e := fmt.Errorf("discord: open gateway: %s", secrets.scrub(err.Error()))
		if fatalClose(err) {
			return platform.Permanent(e)
		}
		return e
	}
	l := a.log.Info().Bool("prefix_commands", a.cfg.PrefixCommands)
	if a.cfg.PrefixCommands {
		l = l.Str("prefix", a.cfg.Prefix)
	}
	l.Msg(note)
	return nil
}

// closeGateway disconnects, when the gateway was opened, logging a
// failure to.
func (a *Adapter) closeGateway() {
	if !a.gw.held.Swap(false) {
		return
	}
	if err := a.session.Close(); err != nil {
		a.log.Warn().Str("error", secrets.scrub(err.Error())).Msg("discord gateway close")
	}
}

// Register replaces the application's commands with Commands: in every
// configured guild, or globally when none is. It fails on the first
// refusal.
func (a *Adapter) Register(ctx context.Context) error {
	guilds := a.cfg.Guilds
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	for _, g := range guilds {
		rctx, cancel := context.WithTimeout(ctx, sendTimeout)
		err := a.rest.register(rctx, a.cfg.AppID, g, Commands())
		cancel()
		if err != nil {
			return fmt.Errorf("register /%s: %w", CommandName, err)
		}
		a.log.Info().Str("guild", g).Msg("discord commands registered")
	}
	return nil
}

// InvalidRequests returns how many of kepbot's requests Discord refused
// (401, 403, 429) in the last 10 minutes; past InvalidLimit kepbot stops
// posting until the count falls.
func (a *Adapter) InvalidRequests() int { return a.invalid.count(a.clock()) }

func (a *Adapter) clock() time.Time { return a.now() }

// countStatus counts a response toward the invalid-request budget.
func (a *Adapter) countStatus(status int) {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
		a.invalid.add(a.clock())
	}
}

// start begins one unit of work (an event, a follow-up): it returns a
// context that outlives Run's own cancellation by at most timeout, so
// that answers in flight at shutdown still go out, and false when the
// adapter is shutting down.
func (a *Adapter) start(timeout time.Duration) (context.Context, context.CancelFunc, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closing {
		return nil, nil, false
	}
	a.wg.Add(1)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.base), timeout)
	return ctx, func() { cancel(); a.wg.Done() }, true
}

// ask answers text as typed: read, answer, and on failure an answer of
// kind error that is safe to show. Internal errors are logged, not shown.
// The answer is recorded with the time it took.
func (a *Adapter) ask(ctx context.Context, text string, from knowledge.Origin, log zerolog.Logger) *knowledge.Answer {
	start := time.Now()
	ans := a.answer(ctx, text, from, log)
	a.rec.Answered(Platform, string(ans.Kind), time.Since(start))
	return ans
}

func (a *Adapter) answer(ctx context.Context, text string, from knowledge.Origin, log zerolog.Logger) *knowledge.Answer {
	actx, cancel := context.WithTimeout(ctx, answerTimeout)
	defer cancel()
	ans, err := question.NewAsker(a.reader, a.answerer).AskErr(actx, text, from)
	if knowledge.ErrorCode(err) == knowledge.EINTERNAL {
		a.rec.Failed(Platform, metrics.ReasonInternal)
		log.Error().Str("error", secrets.scrub(err.Error())).Str("question", ans.Query).Msg("discord: answer failed")
	}
	return ans
}

// botUser returns the bot's own user ID once the gateway is ready. discordgo
// keeps the READY user in its state before it runs any handler, even with
// the state cache off.
func (a *Adapter) botUser() string {
	st := a.session.State
	if st == nil {
		return ""
	}
	st.RLock()
	defer st.RUnlock()
	if st.User == nil {
		return ""
	}
	return st.User.ID
}
