package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/fetch"
)

// StartPprof serves Go's profiles (net/http/pprof) on addr, a loopback
// address of its own apart from the main listener, until ctx ends. It is
// off unless `bot serve --pprof 127.0.0.1:6060` asks for it: profiles show
// what the process does, so they are never on the public port.
func StartPprof(ctx context.Context, addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--pprof %q: want host:port on this machine, e.g. 127.0.0.1:6060", addr)
	}
	if !fetch.IsLoopbackName(host) {
		return "", fmt.Errorf("--pprof %q: profiles are served only on a loopback address, e.g. 127.0.0.1:6060", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("--pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	return ln.Addr().String(), nil
}
