package fetch

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestAddrProblem(t *testing.T) {
	for _, tc := range []struct {
		addr       string
		loopbackOK bool
		want       string // a word of the reason; "" means allowed
	}{
		{"140.82.112.3", false, ""},
		{"185.199.108.133", false, ""},
		{"2606:50c0:8000::154", false, ""},
		{"127.0.0.1", false, "loopback"},
		{"127.0.0.1", true, ""},
		{"127.255.255.254", false, "loopback"},
		{"::1", false, "loopback"},
		{"::1", true, ""},
		{"::ffff:127.0.0.1", true, "IPv4-mapped"}, // a loopback host may not use the mapped form
		{"::ffff:140.82.112.3", false, "IPv4-mapped"},
		{"0.0.0.0", false, "unspecified"},
		{"::", false, "unspecified"},
		{"0.1.2.3", false, "this network"},
		{"10.0.0.1", false, "private"},
		{"172.16.5.4", false, "private"},
		{"172.31.255.255", false, "private"},
		{"192.168.0.1", false, "private"},
		{"10.0.0.1", true, "private"}, // loopbackOK allows loopback only
		{"fd00::1", false, "private"},
		{"fc00::1", false, "private"},
		{"169.254.169.254", false, "link-local"},
		{"169.254.169.254", true, "link-local"},
		{"fe80::1", false, "link-local"},
		{"fe80::1%eth0", false, "link-local"},
		{"100.64.0.1", false, "carrier-grade NAT"},
		{"100.127.255.254", false, "carrier-grade NAT"},
		{"224.0.0.1", false, "multicast"},
		{"239.255.255.250", false, "multicast"},
		{"ff02::1", false, "multicast"},
		{"ff0e::1", false, "multicast"},
		{"255.255.255.255", false, "reserved"},
		{"240.0.0.1", false, "reserved"},
		{"192.0.2.1", false, "documentation"},
		{"198.51.100.7", false, "documentation"},
		{"203.0.113.9", false, "documentation"},
		{"2001:db8::1", false, "documentation"},
		{"198.18.0.1", false, "benchmarking"},
		{"192.0.0.8", false, "IETF"},
		{"::127.0.0.1", false, "IPv4-compatible"},
		{"64:ff9b::7f00:1", false, "NAT64"},
		{"2002:7f00:1::", false, "6to4"},
		{"2001::1", false, "Teredo"},
		{"fec0::1", false, "site-local"},
		{"100::1", false, "discard"},
	} {
		got := addrProblem(netip.MustParseAddr(tc.addr), tc.loopbackOK)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("addrProblem(%s, loopbackOK=%v) = %q; want %q", tc.addr, tc.loopbackOK, got, tc.want)
		}
	}
	if got := addrProblem(netip.Addr{}, true); got == "" {
		t.Error("the zero Addr is allowed")
	}
}

func TestOddNumericHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.1": true, "2130706433": true, "0x7f000001": true, "0177.0.0.1": true, "0x7f.0.0.1": true,
		"127.0.0.01": true, "1.2.3.4.5": true, "017700000001": true,
		"127.0.0.1": false, "::1": false, "github.com": false, "codeload.github.com": false,
		"1password.com": false, "example.123abc": false, "a": false, "": false,
	} {
		if got := oddNumericHost(host); got != want {
			t.Errorf("oddNumericHost(%q) = %v; want %v", host, got, want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		"https://api.github.com/repos/kubernetes/enhancements/tarball",
		"https://codeload.github.com/kubernetes/enhancements/tar.gz/refs/heads/master",
		"https://GitHub.com./kubernetes/enhancements",
		"HTTPS://github.com:443/x",
	} {
		if _, err := c.checkURL(raw); err != nil {
			t.Errorf("checkURL(%q): %v", raw, err)
		}
	}
	for raw, want := range map[string]string{
		"http://github.com/x":                  `only https URLs are fetched, and this one is "http:"`,
		"file:///etc/passwd":                   "only https",
		"ftp://github.com/x":                   "only https",
		"github.com/x":                         "only https",
		"https://u:p@github.com/x":             "user name or password",
		"https://github.com@evil.test/":        "user name or password",
		"https:github.com":                     "names no host",
		"https:///x":                           "names no host",
		"https://evil.test/":                   `host "evil.test" is not on the allowlist (api.github.com, codeload.github.com, github.com)`,
		"https://github.com.evil.test/":        "not on the allowlist",
		"https://evilgithub.com/":              "not on the allowlist",
		"https://127.0.0.1/":                   "not on the allowlist",
		"https://127.1/":                       "non-standard form",
		"https://%zz/":                         "not a URL",
		"https://" + strings.Repeat("a", 3000): "longer than 2048 bytes",
	} {
		_, err := c.checkURL(raw)
		if !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), want) {
			t.Errorf("checkURL(%.60q): %v; want a refusal saying %q", raw, err, want)
		}
	}
}

func TestNewRefusesALoopbackHostThatIsNotAllowed(t *testing.T) {
	_, err := New(Options{LoopbackHosts: []string{"127.0.0.1"}})
	if err == nil || !strings.Contains(err.Error(), `loopback host "127.0.0.1" is not an allowed host`) {
		t.Errorf("New: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for raw, want := range map[string]string{
		"https://api.github.com/repos/kubernetes/enhancements/tarball": "https://api.github.com/repos/kubernetes/enhancements/tarball",
		"https://codeload.github.com/o/r/legacy.tar.gz/main?token=ABC": "https://codeload.github.com/o/r/legacy.tar.gz/main",
		"https://user:ABC@github.com/x":                                "https://github.com/x",
		"https://github.com/x?":                                        "https://github.com/x",
		"https://github.com/x#ABC":                                     "https://github.com/x",
		"https://github.com/x?a=1#ABC":                                 "https://github.com/x",
		"https://ABC@github.com/x?b=ABC#ABC":                           "https://github.com/x",
		"https://%zzABC":                                               "(a URL that does not parse)",
	} {
		if got := Redact(raw); got != want {
			t.Errorf("Redact(%q) = %q; want %q", raw, got, want)
		}
	}
}
