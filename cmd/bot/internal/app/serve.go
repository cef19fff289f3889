package app

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/internal/platform"
)

// Adapter is one chat platform connection. Run serves until ctx ends, then
// finishes the work it has in flight and returns; it returns early, with
// an error, only when the platform refuses it for good (a revoked token).
type Adapter interface {
	Name() string
	Run(ctx context.Context) error
}

// Reporter is an Adapter that connects to a chat platform (Slack,
// Discord) and says how that stands: /readyz shows it, and its failing
// for good stops only itself while another platform serves.
type Reporter interface {
	Adapter
	Status() platform.Status
}

// Mounter is an Adapter with HTTP endpoints on the shared server, which
// it adds itself.
type Mounter interface {
	Mount(mux *http.ServeMux)
}

// Router is an Adapter with HTTP endpoints given as ServeMux patterns
// ("POST /discord/interactions") and their handlers.
type Router interface {
	Routes() map[string]http.Handler
}

// Deps is what Run needs. Config is required.
type Deps struct {
	Config *config.Config
	// Ready reports whether kepbot can answer: the database open and the
	// knowledge loaded. nil means always ready.
	Ready   func() error
	Logger  zerolog.Logger
	Metrics *metrics.Metrics // nil: new metrics on their own registry
	Version string           // for kepbot_build_info
	// Adapters are the chat adapters to run (Slack, Discord), built by the
	// caller over the knowledge engine; nil entries are skipped.
	Adapters []Adapter
	// Listener is where the HTTP server listens; nil listens on
	// Config.HTTP.Addr.
	Listener net.Listener
}

// ErrNoAdapters is what Run returns when nothing is configured to serve.
var ErrNoAdapters = errors.New("no chat adapter is configured: set SLACK_APP_TOKEN and SLACK_BOT_TOKEN for Slack Socket Mode, " +
	"or SLACK_SIGNING_SECRET for the Slack HTTP endpoints, or DISCORD_BOT_TOKEN / DISCORD_PUBLIC_KEY for Discord (see configs/bot.example.yaml)")

// HTTP server timeouts. Slack gives an answer 3 s; nothing kepbot serves
// should take longer to read or write.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 15 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// Run serves until ctx ends or an adapter fails: a platform (a Reporter)
// that fails for good stops alone while another serves, and Run fails when
// the last has. It fails at once with
// ErrNoAdapters when none is configured, and when it cannot listen. On a
// stop it shuts the HTTP server down (no new requests, handlers in flight
// finish) and waits for every adapter's work in flight, each within
// Config.HTTP.ShutdownTimeout; it returns nil after a clean stop.
func Run(ctx context.Context, d Deps) error {
	if d.Config == nil {
		return errors.New("serve: Config is required")
	}
	cfg, log := d.Config, d.Logger
	m := d.Metrics
	if m == nil {
		m = metrics.New(d.Version)
	}
	var adapters []Adapter
	for _, a := range d.Adapters {
		if a != nil {
			adapters = append(adapters, a)
		}
	}
	if len(adapters) == 0 {
		return ErrNoAdapters
	}
	h := &health{ready: d.Ready}
	for _, a := range adapters {
		if r, ok := a.(Reporter); ok {
			h.platforms = append(h.platforms, r)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.healthz)
	mux.HandleFunc("GET /readyz", h.readyz)
	mux.Handle("GET /metrics", m.Handler())
	if err := mount(mux, adapters); err != nil {
		return err
	}
	ln := d.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", cfg.HTTP.Addr); err != nil {
			return fmt.Errorf("listen on %s (http.addr, BOT_HTTP_ADDR): %w", cfg.HTTP.Addr, err)
		}
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          stdlog.New(httpErrorLog{log}, "", 0),
	}
	return run(ctx, log, cfg.HTTP.ShutdownTimeout, srv, ln, adapters, h)
}

// mount adds every adapter's HTTP endpoints to mux. Two adapters claiming
// the same pattern is a wiring mistake, reported instead of net/http's
// panic.
func mount(mux *http.ServeMux, adapters []Adapter) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("serve: adapters' HTTP routes conflict: %v", p)
		}
	}()
	for _, a := range adapters {
		if mt, ok := a.(Mounter); ok {
			mt.Mount(mux)
		}
		if rt, ok := a.(Router); ok {
			for pattern, h := range rt.Routes() {
				mux.Handle(pattern, h)
			}
		}
	}
	return nil
}

// run serves srv on ln and runs the adapters until ctx ends or one fails,
// then stops everything within timeout.
func run(ctx context.Context, log zerolog.Logger, timeout time.Duration, srv *http.Server, ln net.Listener, adapters []Adapter, h *health) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex
		failure error // the first adapter or server failure
	)
	fail := func(err error) {
		mu.Lock()
		if failure == nil {
			failure = err
		}
		mu.Unlock()
		cancel()
	}
	failed := func() error {
		mu.Lock()
		defer mu.Unlock()
		return failure
	}

	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fail(fmt.Errorf("http server on %s: %w", ln.Addr(), err))
		}
	}()
	var wg sync.WaitGroup
	names := make([]string, len(adapters))
	platforms := 0
	for _, a := range adapters {
		if _, ok := a.(Reporter); ok {
			platforms++
		}
	}
	var stopped atomic.Int32 // platforms that failed for good
	for i, a := range adapters {
		names[i] = a.Name()
		_, isPlatform := a.(Reporter)
		wg.Go(func() {
			err := a.Run(runCtx)
			switch {
			case err == nil || runCtx.Err() != nil:
			case isPlatform && int(stopped.Add(1)) < platforms:
				// One platform refusing (a revoked token) leaves the
				// others serving; /readyz says which is stopped.
				log.Error().Err(err).Str("adapter", a.Name()).Msg("a platform stopped; the others keep serving")
			default:
				fail(fmt.Errorf("%s: %w", a.Name(), err))
			}
		})
	}
	log.Info().Str("addr", ln.Addr().String()).Str("adapters", strings.Join(names, ",")).Msg("serving")

	<-runCtx.Done()
	h.draining.Store(true)
	if err := failed(); err == nil {
		log.Info().Msg("stopping: finishing the answers in flight")
	} else {
		log.Error().Err(err).Msg("stopping")
	}
	shutCtx, shutCancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer shutCancel()
	var stopErr error
	if err := srv.Shutdown(shutCtx); err != nil {
		stopErr = fmt.Errorf("http server did not finish its requests within %s: %w", timeout, err)
		_ = srv.Close()
	}
	<-served
	adaptersDone := make(chan struct{})
	go func() { wg.Wait(); close(adaptersDone) }()
	select {
	case <-adaptersDone:
	case <-shutCtx.Done():
		stopErr = errors.Join(stopErr, fmt.Errorf("adapters did not finish their work within %s (http.shutdown_timeout)", timeout))
	}
	if err := failed(); err != nil {
		return errors.Join(err, stopErr)
	}
	if stopErr == nil {
		log.Info().Msg("stopped")
	}
	return stopErr
}

// httpErrorLog sends net/http's own complaints (bad requests, TLS errors)
// to the log at warn level.
type httpErrorLog struct{ l zerolog.Logger }

func (e httpErrorLog) Write(p []byte) (int, error) {
	e.l.Warn().Str("source", "net/http").Msg(strings.TrimSpace(string(p)))
	return len(p), nil
}
