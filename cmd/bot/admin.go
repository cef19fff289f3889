package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
)

// While `bot serve` runs it holds the database (bbolt lets one process have
// the file), so `bot sync` asks it to refresh instead: serve writes
// <db>.admin (mode 0600, beside the database, which only its owner may
// read) with the URL of POST /admin/refresh on its own HTTP listener and a
// random token made at start; `bot sync` reads it, posts with the token as
// a bearer token, and prints the pass's report. The endpoint answers only
// requests from this machine (a loopback address) that carry the token, and
// the file goes when serve stops.

// adminFile is where serve publishes its admin endpoint for a database.
func adminFile(db string) string { return db + ".admin" }

// adminInfo is what the admin file holds.
type adminInfo struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	PID   int    `json:"pid"`
}

// adminRequest is what `bot sync` asks of a running serve.
type adminRequest struct {
	Only []string `json:"only,omitempty"`
}

// adminAnswer is what serve answers: the pass's report, or why it could
// not run one.
type adminAnswer struct {
	Report *refresh.Report `json:"report,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// maxAdminBody caps an admin request and answer.
const maxAdminBody = 1 << 20

// adminEndpoint is serve's side: the handler and the file.
type adminEndpoint struct {
	path  string
	addr  func() string // the listener's address, once it listens
	token string
	r     *refresh.Refresher
	done  func(*refresh.Report, error)
	log   zerolog.Logger
}

func newAdminEndpoint(cfg *config.Config, r *refresh.Refresher, done func(*refresh.Report, error), log zerolog.Logger) *adminEndpoint {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return &adminEndpoint{path: adminFile(cfg.DB), token: hex.EncodeToString(b), r: r, done: done, log: log,
		addr: func() string { return cfg.HTTP.Addr }}
}

// Routes mounts POST /admin/refresh on serve's HTTP server.
func (a *refreshAdapter) Routes() map[string]http.Handler {
	return map[string]http.Handler{"POST /admin/refresh": a.admin}
}

// ServeHTTP runs a pass for `bot sync` and answers its report.
func (a *adminEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	ip := net.ParseIP(host)
	got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ip == nil || !ip.IsLoopback() || subtle.ConstantTimeCompare([]byte(got), []byte(a.token)) != 1 {
		a.log.Warn().Str("remote", host).Msg("refused an admin request: not from this machine, or without the token")
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	var req adminRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, maxAdminBody)).Decode(&req); err != nil && !errors.Is(err, io.EOF) {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	rep, err := a.r.Run(r.Context(), refresh.Options{Force: true, Only: req.Only})
	a.done(rep, err)
	ans := adminAnswer{Report: rep}
	status := http.StatusOK
	if err != nil {
		ans, status = adminAnswer{Error: err.Error()}, http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(ans)
}

// publish writes the admin file, replacing any left by a serve that died.
func (a *adminEndpoint) publish() error {
	info := adminInfo{URL: "http://" + loopbackAddr(a.addr()) + "/admin/refresh", Token: a.token, PID: os.Getpid()}
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(a.path), filepath.Base(a.path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), a.path)
}

// withdraw removes the admin file, if it is still this serve's.
func (a *adminEndpoint) withdraw() {
	if info, err := readAdmin(a.path); err == nil && info.Token == a.token {
		os.Remove(a.path)
	}
}

// loopbackAddr is addr with an unspecified host (":8080", "0.0.0.0:8080")
// made this machine's loopback address.
func loopbackAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port)
}

func readAdmin(path string) (adminInfo, error) {
	var info adminInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return info, err
	}
	if len(b) > maxAdminBody {
		return info, fmt.Errorf("%s is too large to be an admin file", path)
	}
	if err := json.Unmarshal(b, &info); err != nil || info.URL == "" || info.Token == "" {
		return info, fmt.Errorf("%s is not an admin file kepbot wrote", path)
	}
	return info, nil
}

// askServe is `bot sync` while another kepbot holds the database: it asks
// the running serve, through its admin file, to refresh now, and prints
// the report as a sync of its own would.
func askServe(ctx context.Context, sio stdio, db string, opts refresh.Options, from string) int {
	if from != "" {
		fmt.Fprintf(sio.err, "bot sync: another kepbot (such as `bot serve`) has %s open; --from needs the database itself: stop it first, or let it refresh from the network (bot sync without --from).\n", db)
		return exitFailure
	}
	info, err := readAdmin(adminFile(db))
	if err != nil {
		fmt.Fprintf(sio.err, "bot sync: another kepbot has %s open and it does not take refresh requests (%v); stop it, or use --db with another path.\n", db, err)
		return exitFailure
	}
	u, err := urlOnLoopback(info.URL)
	if err != nil {
		fmt.Fprintf(sio.err, "bot sync: %s: %v\n", adminFile(db), err)
		return exitFailure
	}
	body, _ := json.Marshal(adminRequest{Only: opts.Only})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintf(sio.err, "bot sync: %v\n", err)
		return exitFailure
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(sio.err, "bot sync: another kepbot has %s open, and asking it to refresh failed: %v\n", db, safeErr(err))
		return exitFailure
	}
	defer resp.Body.Close()
	var ans adminAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAdminBody)).Decode(&ans); err != nil || (ans.Report == nil && ans.Error == "") {
		fmt.Fprintf(sio.err, "bot sync: the running kepbot answered HTTP %d without a report.\n", resp.StatusCode)
		return exitFailure
	}
	if ans.Error != "" {
		fmt.Fprintf(sio.err, "bot sync: the running kepbot could not refresh: %s; its knowledge is as it was.\n", ans.Error)
		return exitFailure
	}
	fmt.Fprintf(sio.out, "The running kepbot (pid %d) refreshed its knowledge.\n", info.PID)
	printSync(sio, db, ans.Report)
	return ans.Report.Severity()
}

// urlOnLoopback accepts only an http URL on this machine: the admin file
// must never send the token anywhere else.
func urlOnLoopback(raw string) (string, error) {
	req, err := http.NewRequest(http.MethodPost, raw, nil)
	if err != nil {
		return "", errors.New("the URL in it does not parse")
	}
	if req.URL.Scheme != "http" || !fetch.IsLoopbackName(req.URL.Hostname()) {
		return "", errors.New("the URL in it is not on this machine; refusing to send the token there")
	}
	return req.URL.String(), nil
}

// safeErr drops the URL from a transport error.
func safeErr(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}
