package slack

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"hash"
	"strconv"
	"sync"
	"time"

	"github.com/kepbot/kepbot/internal/config"
)

// Slack request signing (https://docs.slack.dev/authentication/verifying-requests-from-slack):
// X-Slack-Signature is "v0=" + hex(HMAC-SHA256(secret, "v0:" + timestamp +
// ":" + raw body)), and X-Slack-Request-Timestamp is the Unix time it was
// signed at.
const (
	headerSignature = "X-Slack-Signature"
	headerTimestamp = "X-Slack-Request-Timestamp"
	// signatureWindow is how far, before or after now, a timestamp may be.
	signatureWindow = 5 * time.Minute
	// MaxBodyBytes caps every request body. Most of Slack's are a few KiB;
	// a scan pastes manifests into a slash command or a message (Slack
	// takes up to 40,000 characters of message text), which form or JSON
	// escaping can grow several times.
	MaxBodyBytes = 256 << 10
)

// Why a request failed verification. None of them says which secret or
// which bytes were wrong.
var (
	errMissingHeaders = errors.New("missing X-Slack-Signature or X-Slack-Request-Timestamp")
	errBadSignature   = errors.New("malformed signature")
	errBadTimestamp   = errors.New("malformed timestamp")
	errStale          = errors.New("timestamp outside the 5-minute window")
	errMismatch       = errors.New("signature does not match")
	errNoSecret       = errors.New("no signing secret configured")
)

// verifier checks signatures against one or more secrets (the current one
// and, while rotating, the previous one). It keeps a pool of HMAC states
// per secret so that a check allocates nothing.
type verifier struct {
	keys []*hmacKey
	now  func() time.Time
}

type hmacKey struct{ pool sync.Pool }

// macState is one pooled HMAC with scratch space for the prefix and sum.
type macState struct {
	h   hash.Hash
	buf [64]byte
	sum [sha256.Size]byte
}

func newVerifier(secrets []config.Secret) *verifier {
	v := &verifier{now: time.Now}
	for _, s := range secrets {
		if s.IsZero() {
			continue
		}
		key := []byte(s.Value())
		v.keys = append(v.keys, &hmacKey{pool: sync.Pool{New: func() any {
			return &macState{h: hmac.New(sha256.New, key)}
		}}})
	}
	return v
}

// check verifies one request: its two headers and its raw body. It tries
// every secret, each in constant time, and fails with why.
func (v *verifier) check(ts, sig string, body []byte) error {
	if len(v.keys) == 0 {
		return errNoSecret
	}
	if ts == "" || sig == "" {
		return errMissingHeaders
	}
	var want [sha256.Size]byte
	if len(sig) != 3+2*sha256.Size || sig[:3] != "v0=" || !decodeHex(want[:], sig[3:]) {
		return errBadSignature
	}
	if len(ts) > 12 {
		return errBadTimestamp
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || secs <= 0 {
		return errBadTimestamp
	}
	if d := v.now().Sub(time.Unix(secs, 0)); d > signatureWindow || d < -signatureWindow {
		return errStale
	}
	ok := 0
	for _, k := range v.keys {
		ok |= k.matches(ts, body, &want)
	}
	if ok == 0 {
		return errMismatch
	}
	return nil
}

// matches returns 1 when want is the signature of ts and body under k.
func (k *hmacKey) matches(ts string, body []byte, want *[sha256.Size]byte) int {
	st := k.pool.Get().(*macState)
	defer k.pool.Put(st)
	st.h.Reset()
	p := append(st.buf[:0], "v0:"...)
	p = append(p, ts...)
	p = append(p, ':')
	st.h.Write(p)
	st.h.Write(body)
	got := st.h.Sum(st.sum[:0])
	if hmac.Equal(got, want[:]) {
		return 1
	}
	return 0
}

// decodeHex decodes lower- or upper-case hex s into dst, which must be
// exactly half as long; it reports false for anything else.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, ok1 := fromHex(s[2*i])
		lo, ok2 := fromHex(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
