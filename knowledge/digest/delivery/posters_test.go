package delivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// The posters below speak to fakePlatforms the way the adapters will speak
// to Slack and Discord, and classify errors the way the worker expects. A
// Retry-After of N means N units of unit.

// apiError is a refused post; Terminal says whether the platform
// refuses the channel for good.
type apiError struct {
	platform string
	status   int
	code     string // Slack error, Discord JSON code
}

func (e *apiError) Error() string { return fmt.Sprintf("%s: HTTP %d %s", e.platform, e.status, e.code) }

var terminalCodes = map[string]bool{
	"channel_not_found": true, "not_in_channel": true, "is_archived": true, "account_inactive": true, "token_revoked": true,
	"10003": true, "10004": true, "50001": true, "50013": true,
}

func (e *apiError) Terminal() (string, bool) { return e.code, terminalCodes[e.code] }

// rateLimitError is a 429.
type rateLimitError struct {
	platform   string
	retryAfter time.Duration
	global     bool
}

func (e *rateLimitError) Error() string {
	return fmt.Sprintf("%s: rate limited for %s", e.platform, e.retryAfter)
}

func (e *rateLimitError) RetryAfter() time.Duration { return e.retryAfter }

func (e *rateLimitError) RetryScope() delivery.Scope {
	if e.global {
		return delivery.ScopePlatform
	}
	return delivery.ScopeChannel
}

// text renders an answer as the fakes need it: plain lines.
func text(a *knowledge.Answer) string {
	var b strings.Builder
	b.WriteString(a.Title + "\n" + a.Text + "\n")
	for _, n := range a.Notices {
		fmt.Fprintf(&b, "- %s %s: %s\n", n.Kind, n.Release, n.Title)
	}
	return b.String()
}

type slackPoster struct {
	base     string
	unit     time.Duration
	maxChars int // Fits: the rendered text is at most this long; 0 fits all
	client   *http.Client
}

func (p *slackPoster) Fits(a *knowledge.Answer) bool {
	return p.maxChars == 0 || len(text(a)) <= p.maxChars
}

func (p *slackPoster) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	meta, _ := json.Marshal(map[string]any{"event_type": "kepbot_digest", "event_payload": map[string]string{"nonce": nonce}})
	form := url.Values{"channel": {channel}, "text": {text(a)}, "metadata": {string(meta)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/slack/api/chat.postMessage", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Sent-At", strconv.FormatInt(time.Now().UnixNano(), 10))
	resp, err := p.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusTooManyRequests {
		n, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return "", &rateLimitError{platform: "slack", retryAfter: time.Duration(n) * p.unit}
	}
	if resp.StatusCode != http.StatusOK {
		return "", &apiError{platform: "slack", status: resp.StatusCode}
	}
	var r struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		TS    string `json:"ts"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return "", err
	}
	if !r.OK {
		return "", &apiError{platform: "slack", status: 200, code: r.Error}
	}
	return r.TS, nil
}

type discordPoster struct {
	base   string
	unit   time.Duration
	client *http.Client
}

func (p *discordPoster) Idempotent() bool { return true }

func (p *discordPoster) Fits(a *knowledge.Answer) bool { return len(text(a)) <= 2000 }

func (p *discordPoster) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	body, _ := json.Marshal(map[string]any{
		"content": text(a), "nonce": nonce, "enforce_nonce": true,
		"allowed_mentions": map[string][]string{"parse": {}},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/discord/api/v10/channels/"+channel+"/messages", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Sent-At", strconv.FormatInt(time.Now().UnixNano(), 10))
	resp, err := p.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r struct {
		ID         string  `json:"id"`
		Code       int     `json:"code"`
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	_ = json.Unmarshal(raw, &r)
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return "", &rateLimitError{platform: "discord", global: r.Global, retryAfter: time.Duration(r.RetryAfter * float64(p.unit))}
	case resp.StatusCode != http.StatusOK:
		return "", &apiError{platform: "discord", status: resp.StatusCode, code: strconv.Itoa(r.Code)}
	}
	return r.ID, nil
}
