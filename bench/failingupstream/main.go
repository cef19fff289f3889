// Command failingupstream is a local upstream that fails every request in
// one way, and counts them: to measure how kepbot asks an upstream that
// fails (bench/restraint.sh points bot sync and bot serve at it).
//
//	go run ./bench/failingupstream -mode 503
//
// It prints its address, then the requests so far each second on stderr,
// and the total when it gets SIGINT. Modes: 503; 429 (Retry-After: 60);
// 403 (GitHub's X-RateLimit-Remaining: 0, reset in an hour); reset (the
// connection dropped with a TCP reset); hang (no answer until the client
// goes).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

func main() {
	mode := flag.String("mode", "503", "how every request fails: 503, 429, 403, reset or hang")
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	flag.Parse()
	faults := map[string]http.HandlerFunc{ // the test kit's, as the restraint tests fail
		"503": upstreamtest.Status(http.StatusServiceUnavailable), "429": upstreamtest.TooManyRequests("60"),
		"403": upstreamtest.RateLimited(time.Now().Add(time.Hour)), "reset": upstreamtest.Reset(), "hang": upstreamtest.Hang(),
	}
	fail, ok := faults[*mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "failingupstream: no mode %q; give 503, 429, 403, reset or hang\n", *mode)
		os.Exit(2)
	}
	var n atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fail(w, r)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go http.Serve(ln, h)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	tick := time.NewTicker(time.Second)
	start := time.Now()
	for {
		select {
		case <-stop:
			fmt.Fprintf(os.Stderr, "total %d requests in %v\n", n.Load(), time.Since(start).Round(time.Millisecond))
			return
		case <-tick.C:
			fmt.Fprintf(os.Stderr, "%v %d\n", time.Since(start).Round(time.Second), n.Load())
		}
	}
}
