package etcdtest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// Options tune Start. The zero value is a single fast member.
type Options struct {
	// Dir holds the member's data; "" makes a temporary folder that Close
	// removes.
	Dir string
	// ClientPort is the client port on 127.0.0.1; 0 picks a free one.
	ClientPort int
	// Fast shortens the raft heartbeat and election (10 ms, 100 ms) so that
	// the shortest lease etcd grants is 1 s instead of 2 s: tests of leader
	// failover wait less.
	Fast bool
	// LogLevel is etcd's own log level; "" is panic: quiet, since a test
	// that stops etcd on purpose makes it complain.
	LogLevel string
}

// Server is one running embedded etcd member.
type Server struct {
	once    sync.Once
	etcd    *embed.Etcd
	dir     string
	tempDir bool
	// Endpoints are the client URLs to dial, "http://127.0.0.1:PORT".
	Endpoints []string
}

// Start starts one etcd member and waits until it serves. It fails when
// no port can be had or the member does not become ready in 30 s.
func Start(opts Options) (*Server, error) {
	dir, temp := opts.Dir, false
	if dir == "" {
		d, err := os.MkdirTemp("", "kepbot-etcd-")
		if err != nil {
			return nil, fmt.Errorf("etcdtest: %w", err)
		}
		dir, temp = d, true
	}
	var lastErr error
	for range 5 { // a picked port may be taken by the time etcd listens
		s, err := start(dir, opts)
		if err == nil {
			s.tempDir = temp
			return s, nil
		}
		lastErr = err
		if opts.ClientPort != 0 {
			break
		}
	}
	if temp {
		_ = os.RemoveAll(dir)
	}
	return nil, lastErr
}

func start(dir string, opts Options) (*Server, error) {
	cport := opts.ClientPort
	if cport == 0 {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		cport = p
	}
	pport, err := freePort()
	if err != nil {
		return nil, err
	}
	cfg := embed.NewConfig()
	cfg.Name = "kepbot-test"
	cfg.Dir = dir
	cfg.LogLevel = opts.LogLevel
	if cfg.LogLevel == "" {
		cfg.LogLevel = "panic"
	}
	cu := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", cport)}
	pu := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", pport)}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{cu}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{pu}, []url.URL{pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	if opts.Fast {
		cfg.TickMs, cfg.ElectionMs = 10, 100
	}
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("etcdtest: start etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("etcdtest: etcd failed: %w", err)
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, errors.New("etcdtest: etcd did not become ready in 30s")
	}
	return &Server{etcd: e, dir: dir, Endpoints: []string{cu.String()}}, nil
}

// Endpoint returns the endpoints as BOT_ETCD_ENDPOINTS wants them.
func (s *Server) Endpoint() string { return strings.Join(s.Endpoints, ",") }

// Dir returns the member's data folder.
func (s *Server) Dir() string { return s.dir }

// Close stops the member and removes its folder if Start made it.
// Calling it again does nothing.
func (s *Server) Close() {
	s.once.Do(func() {
		s.etcd.Close()
		if s.tempDir {
			_ = os.RemoveAll(s.dir)
		}
	})
}

// freePort returns a loopback TCP port nobody listens on right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("etcdtest: find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// New starts a fast member for t and stops it when t ends.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start(Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
