package logging

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces every secret the Redactor finds.
const Mask = "[REDACTED]"

// secretPatterns match credentials by shape, whoever wrote them: Slack
// tokens (xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-, xapp-), Slack's signed
// URLs (response_url and webhooks on hooks.slack.com, the Socket Mode
// ticket), and Discord bot tokens.
var secretPatterns = regexp.MustCompile(strings.Join([]string{
	`xox[abposr]-[0-9A-Za-z-]+`,
	`xapp-[0-9A-Za-z-]+`,
	`(?i:https?:(?:\\?/){2}hooks\.slack\.com)(?:\\/|[^\s"'<>\\])*`,
	`ticket=[^&\s"'<>\\]+`,
	`[MN][A-Za-z\d]{23,}\.[\w-]{6}\.[\w-]{27,}`,
}, "|"))

// minSecretLen is the shortest configured secret the Redactor replaces
// literally; shorter ones would scrub ordinary words.
const minSecretLen = 6

// Redactor is an io.Writer that scrubs secrets from what passes through it
// before writing to the writer below: the configured secrets (also in
// their JSON-escaped form) and anything shaped like a Slack token, a
// hooks.slack.com URL, a Socket Mode ticket or a Discord token.
//
// It works on whole writes; zerolog writes each event in one call. Writes
// are serialised, so several loggers may share one Redactor.
type Redactor struct {
	mu      sync.Mutex
	out     io.Writer
	secrets [][]byte
}

// NewRedactor returns a Redactor writing to out that also scrubs secrets.
func NewRedactor(out io.Writer, secrets ...string) *Redactor {
	r := &Redactor{out: out}
	seen := map[string]bool{}
	for _, s := range secrets {
		if len(s) < minSecretLen || seen[s] {
			continue
		}
		seen[s] = true
		r.secrets = append(r.secrets, []byte(s))
		for _, esc := range jsonEscapes(s) {
			if esc != s && !seen[esc] {
				seen[esc] = true
				r.secrets = append(r.secrets, []byte(esc))
			}
		}
	}
	return r
}

// jsonEscapes returns s as JSON encoders write it inside a string: with
// and without HTML escaping (zerolog leaves <, > and & alone).
func jsonEscapes(s string) []string {
	var out []string
	for _, html := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if err := enc.Encode(s); err == nil {
			q := bytes.TrimSpace(b.Bytes())
			out = append(out, string(q[1:len(q)-1]))
		}
	}
	return out
}

// Write scrubs p and writes the result. It reports len(p) on success, as
// io.Writer asks, even when the scrubbed line is shorter.
func (r *Redactor) Write(p []byte) (int, error) {
	clean := r.Scrub(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.out.Write(clean); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Scrub returns p with every secret replaced by Mask. It returns p itself
// when there is nothing to replace.
func (r *Redactor) Scrub(p []byte) []byte {
	out := p
	for _, s := range r.secrets {
		if bytes.Contains(out, s) {
			out = bytes.ReplaceAll(out, s, []byte(Mask))
		}
	}
	if secretPatterns.Match(out) {
		out = secretPatterns.ReplaceAll(out, []byte(Mask))
	}
	return out
}
