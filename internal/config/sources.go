package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Sources says where kepbot refreshes its knowledge from and how often.
// Every URL has a default (the project's own files on GitHub, and the Go
// vulnerability database); change one
// for a mirror or a test server, and add its host to AllowHosts.
type Sources struct {
	// SyncURL is the kubernetes/enhancements tarball; empty, GitHub's.
	SyncURL string `yaml:"sync_url" env:"BOT_SYNC_URL"`
	// RelnotesURL is sig-release's releases folder; empty, GitHub's.
	RelnotesURL string `yaml:"relnotes_url" env:"BOT_RELNOTES_URL"`
	// LifecycleURL is endoflife.date's kubernetes.md; empty, GitHub's.
	LifecycleURL string `yaml:"lifecycle_url" env:"BOT_LIFECYCLE_URL"`
	// PatchesURL is endoflife.date release-data's kubernetes.json; empty,
	// GitHub's.
	PatchesURL string `yaml:"patches_url" env:"BOT_PATCHES_URL"`
	// APILifecycleURL is the folder of kubernetes/api's tarballs per tag,
	// <url>/v0.N.P.tar.gz, read at the latest patch of each release from
	// 1.19 the lifecycle data knows; empty, GitHub's.
	APILifecycleURL string `yaml:"api_lifecycle_url" env:"BOT_API_LIFECYCLE_URL"`
	// FeatureGatesURL is the Go module proxy whose zips of
	// k8s.io/kubernetes and k8s.io/client-go give each new release's
	// feature gates; empty, https://proxy.golang.org.
	FeatureGatesURL string `yaml:"feature_gates_url" env:"BOT_FEATURE_GATES_URL"`
	// VulnDBURL is the Go vulnerability database's HTTP API: its
	// index/modules.json, then only the records of Kubernetes-owned
	// modules new or modified, ID/<id>.json; empty, https://vuln.go.dev.
	VulnDBURL string `yaml:"vulndb_url" env:"BOT_VULNDB_URL"`
	// AllowHosts are hosts fetched from besides GitHub's, proxy.golang.org
	// and vuln.go.dev (comma-separated in the variable). Plain http:// is fetched only from loopback hosts
	// (127.0.0.1, ::1, localhost).
	AllowHosts []string `yaml:"allow_hosts" env:"BOT_SOURCES_ALLOW_HOSTS"`
	// Refresh is whether serve refreshes the knowledge on its own
	// (BOT_REFRESH_INTERVAL=off turns it off).
	Refresh bool `yaml:"refresh" env:"BOT_REFRESH_INTERVAL"`
	// RefreshInterval is how often serve asks every source for news; at
	// least 1s.
	RefreshInterval time.Duration `yaml:"refresh_interval" env:"BOT_REFRESH_INTERVAL"`
	// StaleAfter is how long a source may fail before answers say their
	// knowledge may be out of date, and since when.
	StaleAfter time.Duration `yaml:"stale_after" env:"BOT_STALE_AFTER"`
	// Timeout bounds one source's fetch in serve, and the whole of a
	// `bot sync` (its --timeout).
	Timeout time.Duration `yaml:"timeout" env:"BOT_SOURCES_TIMEOUT"`
}

// Defaults of the sources section.
const (
	DefaultRefreshInterval = time.Hour
	DefaultStaleAfter      = 48 * time.Hour
	DefaultSourcesTimeout  = 5 * time.Minute
	MinRefreshInterval     = time.Second
)

// Environment variables of the sources section.
const (
	EnvSyncURL         = "BOT_SYNC_URL"
	EnvRelnotesURL     = "BOT_RELNOTES_URL"
	EnvLifecycleURL    = "BOT_LIFECYCLE_URL"
	EnvPatchesURL      = "BOT_PATCHES_URL"
	EnvAPILifecycleURL = "BOT_API_LIFECYCLE_URL"
	EnvFeatureGatesURL = "BOT_FEATURE_GATES_URL"
	EnvVulnDBURL       = "BOT_VULNDB_URL"
	EnvAllowHosts      = "BOT_SOURCES_ALLOW_HOSTS"
	EnvRefreshInterval = "BOT_REFRESH_INTERVAL"
	EnvStaleAfter      = "BOT_STALE_AFTER"
	EnvSourcesTimeout  = "BOT_SOURCES_TIMEOUT"
)

func defaultSources() Sources {
	return Sources{Refresh: true, RefreshInterval: DefaultRefreshInterval, StaleAfter: DefaultStaleAfter, Timeout: DefaultSourcesTimeout}
}

// applyEnv reads the section's variables over s.
func (s *Sources) applyEnv(getenv func(string) string) error {
	for _, v := range []struct {
		dst  *string
		name string
	}{{&s.SyncURL, EnvSyncURL}, {&s.RelnotesURL, EnvRelnotesURL}, {&s.LifecycleURL, EnvLifecycleURL}, {&s.PatchesURL, EnvPatchesURL},
		{&s.APILifecycleURL, EnvAPILifecycleURL}, {&s.FeatureGatesURL, EnvFeatureGatesURL}, {&s.VulnDBURL, EnvVulnDBURL}} {
		if x := strings.TrimSpace(getenv(v.name)); x != "" {
			*v.dst = x
		}
	}
	if x := strings.TrimSpace(getenv(EnvAllowHosts)); x != "" {
		s.AllowHosts = nil
		for _, h := range strings.Split(x, ",") {
			if h = strings.TrimSpace(h); h != "" {
				s.AllowHosts = append(s.AllowHosts, h)
			}
		}
	}
	for _, v := range []struct {
		dst  *time.Duration
		name string
	}{{&s.RefreshInterval, EnvRefreshInterval}, {&s.StaleAfter, EnvStaleAfter}, {&s.Timeout, EnvSourcesTimeout}} {
		x := strings.TrimSpace(getenv(v.name))
		if x == "" {
			continue
		}
		if v.name == EnvRefreshInterval && strings.EqualFold(x, "off") {
			s.Refresh = false
			continue
		}
		d, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("%s: %q is not a duration like 1h or 30s", v.name, x)
		}
		*v.dst = d
	}
	return nil
}

// problems checks the section; the messages name the key and variable.
func (s *Sources) problems() []string {
	var p []string
	for _, u := range []struct{ key, env, val string }{
		{"sources.sync_url", EnvSyncURL, s.SyncURL}, {"sources.relnotes_url", EnvRelnotesURL, s.RelnotesURL},
		{"sources.lifecycle_url", EnvLifecycleURL, s.LifecycleURL}, {"sources.patches_url", EnvPatchesURL, s.PatchesURL},
		{"sources.api_lifecycle_url", EnvAPILifecycleURL, s.APILifecycleURL},
		{"sources.feature_gates_url", EnvFeatureGatesURL, s.FeatureGatesURL}, {"sources.vulndb_url", EnvVulnDBURL, s.VulnDBURL},
	} {
		if u.val == "" {
			continue
		}
		parsed, err := url.Parse(u.val)
		if err != nil || parsed.Host == "" || (parsed.Scheme != "https" && parsed.Scheme != "http") {
			p = append(p, fmt.Sprintf("%s (%s) is not an http(s) URL with a host", u.key, u.env))
		}
	}
	for _, h := range s.AllowHosts {
		if !isHostName(h) {
			p = append(p, fmt.Sprintf("sources.allow_hosts (%s) holds %q, which is not a host name or IP address (no scheme, port or path)", EnvAllowHosts, clipValue(h)))
		}
	}
	if s.RefreshInterval < MinRefreshInterval {
		p = append(p, fmt.Sprintf("sources.refresh_interval (%s) must be at least 1s, e.g. 1h; it is %s (off turns refreshing off)", EnvRefreshInterval, s.RefreshInterval))
	}
	if s.StaleAfter <= 0 {
		p = append(p, fmt.Sprintf("sources.stale_after (%s) must be positive, e.g. 48h; it is %s", EnvStaleAfter, s.StaleAfter))
	}
	if s.Timeout <= 0 || s.Timeout > time.Hour {
		p = append(p, fmt.Sprintf("sources.timeout (%s) must be between 1s and 1h, e.g. 5m; it is %s", EnvSourcesTimeout, s.Timeout))
	}
	return p
}

// isHostName reports whether h is a bare host: a DNS name or an IP address.
func isHostName(h string) bool {
	if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return true
	}
	if h == "" || len(h) > 253 || strings.ContainsAny(h, ":/?#@ ") {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return false
			}
		}
	}
	return true
}

func clipValue(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
