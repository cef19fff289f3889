package slack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"strconv"
	"sync"
	"time"
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

func newVerifier(secrets []Secret) *verifier {
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
	_, err := v.verified(ts, sig, body)
	return err
}

// signed is what a verified request's headers say: its signature, and
// until when it verifies.
type signed struct {
	header string            // X-Slack-Signature as sent
	mac    [sha256.Size]byte // the signature's bytes
	until  time.Time         // the timestamp plus the window
}

// signature is the signature with its hex in lower case, as Slack sends
// it: the verifier accepts either case, and one request must have one key.
// It allocates only for a signature not in lower case.
func (s *signed) signature() string {
	for i := 3; i < len(s.header); i++ {
		if c := s.header[i]; 'A' <= c && c <= 'F' {
			return "v0=" + hex.EncodeToString(s.mac[:])
		}
	}
	return s.header
}

// verified is check that also returns the request's signature and the
// end of its window.
func (v *verifier) verified(ts, sig string, body []byte) (signed, error) {
	if len(v.keys) == 0 {
		return signed{}, errNoSecret
	}
	if ts == "" || sig == "" {
		return signed{}, errMissingHeaders
	}
	req := signed{header: sig}
	if len(sig) != 3+2*sha256.Size || sig[:3] != "v0=" || !decodeHex(req.mac[:], sig[3:]) {
		return signed{}, errBadSignature
	}
	if len(ts) > 12 {
		return signed{}, errBadTimestamp
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || secs <= 0 {
		return signed{}, errBadTimestamp
	}
	at := time.Unix(secs, 0)
	if d := v.now().Sub(at); d > signatureWindow || d < -signatureWindow {
		return signed{}, errStale
	}
	ok := 0
	for _, k := range v.keys {
		ok |= k.matches(ts, body, &req.mac)
	}
	if ok == 0 {
		return signed{}, errMismatch
	}
	req.until = at.Add(signatureWindow)
	return req, nil
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
	bad := byte(0)
	for i := range dst {
		hi, lo := hexValue[s[2*i]], hexValue[s[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&0xf
	}
	return bad&0xf0 == 0
}

// fromHex is the value of the hex digit c.
func fromHex(c byte) (byte, bool) {
	v := hexValue[c]
	return v, v != 0xff
}

// hexValue maps a hex digit to its value and every other byte to 0xff.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c - '0'
	}
	for c := byte('a'); c <= 'f'; c++ {
		t[c], t[c-'a'+'A'] = c-'a'+10, c-'a'+10
	}
	return t
}()
