package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// ErrNotAllowed is wrapped by every refusal of a URL, a host or an address.
var ErrNotAllowed = errors.New("not allowed")

// NotAllowedError says why a URL, a redirect or an address was refused.
// errors.Is(err, ErrNotAllowed) finds it.
type NotAllowedError struct{ Reason string }

func (e *NotAllowedError) Error() string        { return e.Reason }
func (e *NotAllowedError) Is(target error) bool { return target == ErrNotAllowed }

func refuse(format string, args ...any) error {
	return &NotAllowedError{Reason: fmt.Sprintf(format, args...)}
}

// maxURLBytes bounds a URL before it is parsed.
const maxURLBytes = 2048

// checkURL parses raw and refuses it unless it is https (or plain http to a
// loopback host the Client may reach, for mirrors and tests on the same
// machine), carries no user name or password, and names a host on the
// allowlist, written as a DNS name or a standard IP address (never 127.1,
// 2130706433 or 0x7f000001).
func (c *Client) checkURL(raw string) (*url.URL, error) {
	if len(raw) > maxURLBytes {
		return nil, refuse("the URL is longer than %d bytes", maxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, refuse("not a URL")
	}
	switch {
	case u.Scheme == "http" && c.plainLoopback && c.loopback[normalizeHost(u.Hostname())] && IsLoopbackName(u.Hostname()):
	case u.Scheme == "http" && c.plainLoopback:
		return nil, refuse("plain http is fetched only from a loopback host (127.0.0.1, ::1, localhost) on the allowlist; use https for %q", clip(u.Hostname()))
	case u.Scheme != "https":
		return nil, refuse("only https URLs are fetched, and this one is %q", clip(u.Scheme+":"))
	case u.User != nil:
		return nil, refuse("the URL carries a user name or password; kepbot sends no credentials in URLs")
	case u.Host == "" || u.Opaque != "":
		return nil, refuse("the URL names no host")
	}
	host := normalizeHost(u.Hostname())
	if odd := oddNumericHost(host); odd {
		return nil, refuse("host %q is an IP address in a non-standard form; write it as a name on the allowlist", clip(host))
	}
	if !c.allowed[host] {
		return nil, refuse("host %q is not on the allowlist (%s)", clip(host), strings.Join(c.allowList, ", "))
	}
	return u, nil
}

// IsLoopbackName reports whether host names this machine: localhost, or a
// loopback IP address written in its standard form.
func IsLoopbackName(host string) bool {
	h := normalizeHost(strings.Trim(host, "[]"))
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// normalizeHost lower-cases a host name and drops a trailing dot, so that
// GitHub.com. and github.com are one host.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// oddNumericHost reports whether h is meant as an IP address but is not a
// standard one: its last label is all digits or hex with 0x (no top-level
// domain is), and netip does not read it. Such forms (127.1, 2130706433,
// 0x7f000001, 0177.0.0.1) are read as loopback by some resolvers.
func oddNumericHost(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return false
	}
	last := h[strings.LastIndexByte(h, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		return true
	}
	if last == "" {
		return false
	}
	for _, r := range last {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// special are the address blocks that are not the public internet, beyond
// those netip names (loopback, private, link-local, multicast,
// unspecified): the IANA special-purpose registries, and the IPv6 forms
// that carry an IPv4 address inside.
var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `a "this network" address`},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT (shared) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a 6to4 relay address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("64:ff9b::/96"), "a NAT64 address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a NAT64 address"},
	{netip.MustParsePrefix("100::/64"), "a discard address"},
	{netip.MustParsePrefix("2001::/23"), "an IETF protocol address (Teredo and others)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
}

// addrProblem says why ip may not be dialled, or "" when it may: only
// global unicast addresses outside every special block are dialled, and
// loopback ones only when loopbackOK (a host the options name for tests).
func addrProblem(ip netip.Addr, loopbackOK bool) string {
	ip = ip.WithZone("")
	switch {
	case !ip.IsValid():
		return "not an address"
	case ip.Is4In6():
		return "an IPv4-mapped IPv6 address"
	case ip.IsLoopback():
		if loopbackOK {
			return ""
		}
		return "a loopback address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsPrivate():
		return "a private address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata lives there)"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, s := range special {
		if s.prefix.Contains(ip) {
			return s.what
		}
	}
	if !ip.IsGlobalUnicast() {
		return "not a global unicast address"
	}
	return ""
}

// dialContext is the transport's only way out. It checks the host again,
// resolves it once, refuses it if any address is not allowed, and dials
// the checked addresses themselves, so a second DNS answer (rebinding)
// never reaches a socket. A net.Dialer Control hook checks the address of
// the socket once more.
func (c *Client) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	h, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, refuse("cannot dial %q: %v", clip(addr), err)
	}
	host := normalizeHost(h)
	if !c.allowed[host] {
		return nil, refuse("host %q is not on the allowlist (%s)", clip(host), strings.Join(c.allowList, ", "))
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, refuse("port %q is not a port number", clip(portText))
	}
	addrs, err := c.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	loopbackOK := c.loopback[host]
	for _, a := range addrs {
		if why := addrProblem(a, loopbackOK); why != "" {
			return nil, refuse("host %q resolves to %s, %s; refused", host, a, why)
		}
	}
	var errs []error
	for _, a := range addrs {
		conn, err := c.dial(ctx, network, netip.AddrPortFrom(a.WithZone(""), uint16(port)).String(), loopbackOK)
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// resolve returns the addresses of host: itself when it is an IP address,
// else what the resolver says.
func (c *Client) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	addrs, err := c.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("look up %s: no address", host)
	}
	return slices.Clone(addrs), nil
}

// dial connects to addr, an IP address and port already checked.
func (c *Client) dial(ctx context.Context, network, addr string, loopbackOK bool) (net.Conn, error) {
	if c.testDial != nil {
		return c.testDial(ctx, network, addr)
	}
	d := net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return refuse("cannot check the socket address %q", clip(address))
		}
		if why := addrProblem(ap.Addr(), loopbackOK); why != "" {
			return refuse("the socket address %s is %s; refused", ap.Addr(), why)
		}
		return nil
	}}
	return d.DialContext(ctx, network, addr)
}

// clip shortens text that came from outside for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
