// Command devetcd starts, for trying replicas on one machine, an embedded
// etcd on 127.0.0.1 and a small fake of Slack's Web API that shows every
// digest posted, then prints the environment two or three `bot serve`
// replicas need. It runs until Ctrl-C. Not for production: one member, its
// data in a temporary folder.
//
//	go run ./internal/etcdtest/devetcd
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kepbot/kepbot/internal/etcdtest"
)

func main() {
	port := flag.Int("port", 2379, "etcd's client port on 127.0.0.1")
	slackAddr := flag.String("slack", "127.0.0.1:8090", "where the fake Slack Web API listens")
	flag.Parse()
	srv, err := etcdtest.Start(etcdtest.Options{ClientPort: *port})
	if err != nil {
		fmt.Fprintln(os.Stderr, "devetcd:", err)
		os.Exit(1)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *slackAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "devetcd: fake Slack:", err)
		os.Exit(1)
	}
	go func() { _ = http.Serve(ln, fakeSlack()) }()
	fmt.Printf(`etcd is serving at %s; a fake Slack Web API at http://%s/api/ prints each digest posted.
Start replicas in other terminals, each with its own database and port:

  export BOT_STORE_BACKEND=etcd BOT_ETCD_ENDPOINTS=%s BOT_ETCD_LEASE_TTL=3s
  export SLACK_SIGNING_SECRET=0cc175b9c0f1b6a831c399e269772661 SLACK_BOT_TOKEN=xoxb-1-dev SLACK_API_URL=http://%s/api/
  BOT_REPLICA_ID=r1 BOT_DB=./data/r1.db BOT_HTTP_ADDR=127.0.0.1:8081 go run ./cmd/bot serve
  BOT_REPLICA_ID=r2 BOT_DB=./data/r2.db BOT_HTTP_ADDR=127.0.0.1:8082 go run ./cmd/bot serve

Ctrl-C stops etcd (its data goes with it).
`, srv.Endpoint(), ln.Addr(), srv.Endpoint(), ln.Addr())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
}

// fakeSlack answers auth.test, users.info (U… users whose ID ends in
// ADMIN are admins) and chat.postMessage, printing each post.
func fakeSlack() http.Handler {
	var n atomic.Int64
	write := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/auth.test", func(w http.ResponseWriter, r *http.Request) {
		write(w, map[string]any{"ok": true, "user_id": "UBOT", "team_id": "T1", "bot_id": "B1"})
	})
	mux.HandleFunc("POST /api/users.info", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		u := r.PostForm.Get("user")
		write(w, map[string]any{"ok": true, "user": map[string]any{"id": u, "team_id": "T1", "is_admin": len(u) > 5 && u[len(u)-5:] == "ADMIN"}})
	})
	mux.HandleFunc("POST /api/chat.postMessage", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		i := n.Add(1)
		fmt.Printf("%s  digest #%d posted to %s: %.80q\n", time.Now().Format(time.TimeOnly), i, r.PostForm.Get("channel"), r.PostForm.Get("text"))
		write(w, map[string]any{"ok": true, "channel": r.PostForm.Get("channel"), "ts": fmt.Sprintf("1700000000.%06d", i)})
	})
	return mux
}
