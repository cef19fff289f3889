package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// publicTestAddr stands for a public address (one of GitHub's): dialling
// it is allowed, and the trap answers "no network" instead.
var publicTestAddr = netip.MustParseAddr("140.82.112.3")

// trap is the SSRF harness: a local listener that counts accepts, a stub
// resolver, and a dial hook that sends every dial of anything but the
// trusted test server into the listener. A check that lets a hostile
// address through therefore shows up as an accept.
type trap struct {
	ln       net.Listener
	port     string
	accepts  atomic.Int64
	trusted  string // host:port of the redirecting test server, dialled for real
	mu       sync.Mutex
	dialled  []string // every address the hook was asked to dial
	lookups  map[string]int
	answers  map[string][]netip.Addr
	rebindTo []netip.Addr // rebind.test's answer after the first
}

func newTrap(t *testing.T) *trap {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &trap{ln: ln, lookups: map[string]int{}}
	_, tr.port, _ = net.SplitHostPort(ln.Addr().String())
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			tr.accepts.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	ip := func(s ...string) []netip.Addr {
		var out []netip.Addr
		for _, a := range s {
			out = append(out, netip.MustParseAddr(a))
		}
		return out
	}
	// What a permissive resolver (inet_aton) or a hostile DNS server says.
	tr.answers = map[string][]netip.Addr{
		"github.com":       ip("127.0.0.1"), // an allowed name pointed at loopback
		"api.github.com":   ip("10.1.2.3"),
		"localhost":        ip("127.0.0.1", "::1"),
		"internal.test":    ip("10.0.0.5"),
		"metadata.test":    ip("169.254.169.254"),
		"cgnat.test":       ip("100.64.1.1"),
		"ula.test":         ip("fd12:3456::1"),
		"mapped.test":      ip("::ffff:127.0.0.1"),
		"mixed.test":       ip(publicTestAddr.String(), "127.0.0.1"),
		"unspecified.test": ip("0.0.0.0"),
		"127.1":            ip("127.0.0.1"),
		"2130706433":       ip("127.0.0.1"),
		"0x7f000001":       ip("127.0.0.1"),
		"0177.0.0.1":       ip("127.0.0.1"),
		"rebind.test":      ip(publicTestAddr.String()),
		"example.com":      ip("127.0.0.1"), // the redirecting test server's name
	}
	tr.rebindTo = ip("127.0.0.1")
	return tr
}

func (tr *trap) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lookups[host]++
	if host == "rebind.test" && tr.lookups[host] > 1 {
		return tr.rebindTo, nil
	}
	if a, ok := tr.answers[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func (tr *trap) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	tr.mu.Lock()
	tr.dialled = append(tr.dialled, addr)
	tr.mu.Unlock()
	var d net.Dialer
	if addr == tr.trusted {
		return d.DialContext(ctx, network, addr)
	}
	if ap, err := netip.ParseAddrPort(addr); err == nil && ap.Addr() == publicTestAddr {
		return nil, errors.New("trap: no network to public addresses in tests")
	}
	return d.DialContext(ctx, network, tr.ln.Addr().String()) // a breach: the listener counts it
}

// hostileURLs are the SSRF table: each names the listener's port, so a
// request that got through would land on it.
func hostileURLs(p string) []string {
	return []string{
		"https://127.0.0.1:" + p + "/",
		"https://127.1:" + p + "/",
		"https://2130706433:" + p + "/",
		"https://0x7f000001:" + p + "/",
		"https://0177.0.0.1:" + p + "/",
		"https://0x7f.0.0.1:" + p + "/",
		"https://127.000.000.001:" + p + "/",
		"https://[::1]:" + p + "/",
		"https://[::ffff:127.0.0.1]:" + p + "/",
		"https://[::ffff:7f00:1]:" + p + "/",
		"https://[0:0:0:0:0:ffff:127.0.0.1]:" + p + "/",
		"https://[::127.0.0.1]:" + p + "/",
		"https://[64:ff9b::7f00:1]:" + p + "/",
		"https://[2002:7f00:1::]:" + p + "/",
		"https://0.0.0.0:" + p + "/",
		"https://[::]:" + p + "/",
		"https://169.254.169.254:" + p + "/latest/meta-data/",
		"https://[fe80::1%25lo]:" + p + "/",
		"https://10.0.0.1:" + p + "/",
		"https://172.16.0.1:" + p + "/",
		"https://192.168.1.1:" + p + "/",
		"https://100.64.0.1:" + p + "/",
		"https://[fd00::1]:" + p + "/",
		"https://224.0.0.1:" + p + "/",
		"https://[ff02::1]:" + p + "/",
		"https://255.255.255.255:" + p + "/",
		"http://github.com:" + p + "/",
		"http://127.0.0.1:" + p + "/",
		"ftp://github.com:" + p + "/",
		"gopher://127.0.0.1:" + p + "/",
		"file:///etc/passwd",
		"https://github.com@127.0.0.1:" + p + "/",
		"https://github.com:443@127.0.0.1:" + p + "/",
		"https://127.0.0.1:" + p + "#@github.com/",
		"https://127.0.0.1:" + p + "\\@github.com/",
		"https://github.com:" + p + "/",
		"https://GITHUB.COM.:" + p + "/",
		"https://api.github.com:" + p + "/",
		"https://localhost:" + p + "/",
		"https://internal.test:" + p + "/",
		"https://metadata.test:" + p + "/",
		"https://cgnat.test:" + p + "/",
		"https://ula.test:" + p + "/",
		"https://mapped.test:" + p + "/",
		"https://mixed.test:" + p + "/",
		"https://unspecified.test:" + p + "/",
		"https://nowhere.test:" + p + "/",
	}
}

// trapClient is a Client whose dials go through tr. extra hosts are added
// to the allowlist, as a careless operator might.
func trapClient(t *testing.T, tr *trap, roots *x509.CertPool, extra []string) *Client {
	t.Helper()
	c, err := New(Options{
		AllowedHosts:  append(append([]string{"example.com"}, DefaultHosts...), extra...),
		LoopbackHosts: []string{"example.com"},
		Resolver:      tr,
		RootCAs:       roots,
	})
	if err != nil {
		t.Fatal(err)
	}
	c.testDial = tr.dial
	t.Cleanup(c.Close)
	return c
}

func TestSSRF(t *testing.T) {
	tr := newTrap(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if target := r.URL.Query().Get("to"); target != "" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	tr.trusted = srv.Listener.Addr().String()
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	_, srvPort, _ := net.SplitHostPort(tr.trusted)
	redirector := "https://example.com:" + srvPort + "/?to="

	urls := hostileURLs(tr.port)
	for _, u := range hostileURLs(tr.port) {
		if strings.HasPrefix(u, "https://") && !strings.Contains(u, "@") {
			urls = append(urls, redirector+url.QueryEscape(u)) // the same, one redirect away
		}
	}
	urls = append(urls, redirector+url.QueryEscape(redirector+url.QueryEscape("https://169.254.169.254/")))
	if len(hostileURLs(tr.port)) < 30 {
		t.Fatalf("the table has %d hostile URLs; want at least 30", len(hostileURLs(tr.port)))
	}

	var allHosts []string
	for _, u := range urls {
		if pu, err := url.Parse(u); err == nil && pu.Hostname() != "" {
			allHosts = append(allHosts, pu.Hostname())
		}
	}
	for _, mode := range []struct {
		name  string
		extra []string
	}{
		{"default allowlist", nil},
		{"every hostile host allowlisted", allHosts}, // only the dial-time check stands
	} {
		t.Run(mode.name, func(t *testing.T) {
			c := trapClient(t, tr, roots, mode.extra)
			for _, u := range urls {
				resp, err := c.Get(t.Context(), u, "")
				if err == nil {
					resp.Body.Close()
					t.Errorf("Get(%s) succeeded", u)
					continue
				}
				if !errors.Is(err, ErrNotAllowed) && !strings.Contains(err.Error(), "no such host") {
					t.Errorf("Get(%s): %v; want a refusal", u, err)
				}
			}
		})
	}

	t.Run("rebinding", func(t *testing.T) {
		c := trapClient(t, tr, roots, []string{"rebind.test"})
		for range 3 {
			if _, err := c.Get(t.Context(), "https://rebind.test:"+tr.port+"/", ""); err == nil {
				t.Error("a rebinding host was fetched")
			}
		}
	})

	if n := tr.accepts.Load(); n != 0 {
		t.Errorf("the listener accepted %d connections; want 0", n)
	}
	tr.mu.Lock()
	for _, a := range tr.dialled {
		if a != tr.trusted && a != netip.AddrPortFrom(publicTestAddr, mustPort(t, tr.port)).String() {
			t.Errorf("dialled %s, which no check should allow", a)
		}
	}
	t.Logf("%d hostile URLs (%d with a redirect) in 2 modes, %d dials of the trusted server or the public address, 0 accepts",
		len(hostileURLs(tr.port)), len(urls)-len(hostileURLs(tr.port)), len(tr.dialled))
	tr.mu.Unlock()

	// The harness can see a breach: a fetch of the trusted server dials it,
	// and a plain dial of the listener is counted.
	c := trapClient(t, tr, roots, nil)
	resp, err := c.Get(t.Context(), "https://example.com:"+srvPort+"/", "")
	if err != nil {
		t.Fatalf("the trusted server: %v", err)
	}
	resp.Body.Close()
	conn, err := tr.dial(t.Context(), "tcp", "127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	waitFor(t, func() bool { return tr.accepts.Load() == 1 })
}

func mustPort(t *testing.T, s string) uint16 {
	var p uint16
	if _, err := fmt.Sscan(s, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitFor polls cond for up to two seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 2s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
