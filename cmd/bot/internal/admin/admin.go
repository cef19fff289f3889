package admin

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

	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
)

// File is where serve publishes its admin endpoint for a database.
func File(db string) string { return db + ".admin" }

// Info is what the admin file holds.
type Info struct {
	URL   string `json:"url"`
	Token string `json:"token"`
	PID   int    `json:"pid"`
}

// adminRequest is what `bot sync` asks of a running serve.
type adminRequest struct {
	Only []string `json:"only,omitempty"`
	// Budget bounds the pass's asking (bot sync --timeout); zero for none.
	Budget time.Duration `json:"budget,omitempty"`
}

// adminAnswer is what serve answers: the pass's report, or why it could
// not run one.
type adminAnswer struct {
	Report *refresh.Report `json:"report,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// maxAdminBody caps an admin request and answer.
const maxAdminBody = 1 << 20

// Runner runs a refresh pass: a *refresh.Refresher.
type Runner interface {
	Run(ctx context.Context, opts refresh.Options) (*refresh.Report, error)
}

// Endpoint is serve's side: the handler and the file.
type Endpoint struct {
	// Addr is the HTTP listener's address, once it listens; the admin
	// file's URL is on it.
	Addr  func() string
	path  string
	token string
	r     Runner
	done  func(*refresh.Report, error)
	log   zerolog.Logger
}

// NewEndpoint makes the endpoint of the database at db, on addr until
// Addr is set; done is told of every pass it runs.
func NewEndpoint(db, addr string, r Runner, done func(*refresh.Report, error), log zerolog.Logger) *Endpoint {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return &Endpoint{path: File(db), token: hex.EncodeToString(b), r: r, done: done, log: log,
		Addr: func() string { return addr }}
}

// ServeHTTP runs a pass for `bot sync` and answers its report.
func (a *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	rep, err := a.r.Run(r.Context(), refresh.Options{Force: true, Only: req.Only, Budget: req.Budget})
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

// Publish writes the admin file, replacing any left by a serve that died.
func (a *Endpoint) Publish() error {
	info := Info{URL: "http://" + loopbackAddr(a.Addr()) + "/admin/refresh", Token: a.token, PID: os.Getpid()}
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

// Withdraw removes the admin file, if it is still this serve's.
func (a *Endpoint) Withdraw() {
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

func readAdmin(path string) (Info, error) {
	var info Info
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

// AskRefresh is `bot sync` while another kepbot holds the database at
// db: it asks the running serve, through its admin file, to refresh now
// (only the sources named, if any) and returns the serve's pid and the
// pass's report. Its errors are sentences for the user.
func AskRefresh(ctx context.Context, db string, only []string, budget time.Duration) (pid int, rep *refresh.Report, err error) {
	info, err := readAdmin(File(db))
	if err != nil {
		return 0, nil, fmt.Errorf("another kepbot has %s open and it does not take refresh requests (%v); stop it, or use --db with another path.", db, err)
	}
	u, err := urlOnLoopback(info.URL)
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %v", File(db), err)
	}
	body, _ := json.Marshal(adminRequest{Only: only, Budget: budget})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("another kepbot has %s open, and asking it to refresh failed: %v", db, safeErr(err))
	}
	defer resp.Body.Close()
	var ans adminAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAdminBody)).Decode(&ans); err != nil || (ans.Report == nil && ans.Error == "") {
		return 0, nil, fmt.Errorf("the running kepbot answered HTTP %d without a report.", resp.StatusCode)
	}
	if ans.Error != "" {
		return 0, nil, fmt.Errorf("the running kepbot could not refresh: %s; its knowledge is as it was.", ans.Error)
	}
	return info.PID, ans.Report, nil
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
