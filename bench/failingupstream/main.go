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
	"strconv"
	"sync/atomic"
	"time"
)

func main() {
	mode := flag.String("mode", "503", "how every request fails: 503, 429, 403, reset or hang")
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	flag.Parse()
	var n atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		switch *mode {
		case "503":
			http.Error(w, "down", http.StatusServiceUnavailable)
		case "429":
			w.Header().Set("Retry-After", "60")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case "403":
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
			http.Error(w, "API rate limit exceeded", http.StatusForbidden)
		case "reset":
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			conn.Close()
		case "hang":
			<-r.Context().Done()
		}
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
