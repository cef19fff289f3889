package app

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/kepbot/kepbot/internal/platform"
)

// health serves /healthz (the process answers) and /readyz (it can answer
// questions: not stopping, Ready says yes, and every platform is up).
type health struct {
	ready     func() error
	platforms []Reporter
	draining  atomic.Bool
}

// readiness is /readyz's body.
type readiness struct {
	Status string `json:"status"` // "ready" or "not ready"
	// Reason says why it is not ready: stopping, the knowledge, or each
	// platform that is not up, with its error.
	Reason    string                     `json:"reason,omitempty"`
	Platforms map[string]platform.Status `json:"platforms,omitempty"`
}

func (h *health) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

// readyz answers 200 when kepbot can answer on every platform it runs, and
// 503 otherwise, with a JSON body naming each platform's state. A platform
// named by ?exclude=NAME (repeatable) is shown but does not count: a probe
// that must not fail while the gateway or Socket Mode reconnects (a
// startup probe, or one gating HTTP traffic) can leave it out.
func (h *health) readyz(w http.ResponseWriter, r *http.Request) {
	exclude := r.URL.Query()["exclude"]
	body := readiness{Status: "ready"}
	var why []string
	switch {
	case h.draining.Load():
		why = append(why, "stopping")
	case h.ready != nil:
		if err := h.ready(); err != nil {
			why = append(why, err.Error())
		}
	}
	for _, p := range h.platforms {
		s := p.Status()
		if body.Platforms == nil {
			body.Platforms = map[string]platform.Status{}
		}
		body.Platforms[p.Name()] = s
		if s.State != platform.Up && !slices.Contains(exclude, p.Name()) {
			reason := p.Name() + " is " + string(s.State)
			if s.Error != "" {
				reason += ": " + s.Error
			}
			why = append(why, reason)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if len(why) > 0 {
		body.Status, body.Reason = "not ready", strings.Join(why, "; ")
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	b, _ := json.Marshal(body)
	_, _ = w.Write(append(b, '\n'))
}
