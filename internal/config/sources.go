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
	// SyncURL is the kubernetes/enhancements tarball (BOT_SYNC_URL).
	SyncURL string `yaml:"sync_url"`
	// RelnotesURL is sig-release's releases folder (BOT_RELNOTES_URL).
	RelnotesURL string `yaml:"relnotes_url"`
	// LifecycleURL is endoflife.date's kubernetes.md (BOT_LIFECYCLE_URL).
	LifecycleURL string `yaml:"lifecycle_url"`
	// PatchesURL is release-data's kubernetes.json (BOT_PATCHES_URL).
	PatchesURL string `yaml:"patches_url"`
	// APILifecycleURL is the folder of kubernetes/api's tarballs per tag,
	// <url>/v0.N.P.tar.gz, whose API lifecycle markers are read for each
	// release the lifecycle data knows (BOT_API_LIFECYCLE_URL). The CRD and
	// APIService groups (k8s.io/apiextensions-apiserver, kube-aggregator)
	// are not refreshed: they come from `bot ingest` or the snapshot.
	APILifecycleURL string `yaml:"api_lifecycle_url"`
	// VulnDBURL is the Go vulnerability database's HTTP API, whose
	// index/modules.json is asked for news and then only the records of
	// Kubernetes-owned modules that are new or modified, ID/<id>.json
	// (BOT_VULNDB_URL; default https://vuln.go.dev).
	VulnDBURL string `yaml:"vulndb_url"`
	// AllowHosts are hosts fetched from besides GitHub's and vuln.go.dev
	// (BOT_SOURCES_ALLOW_HOSTS, comma-separated). Plain http:// is fetched
	// only from loopback hosts (127.0.0.1, ::1, localhost).
	AllowHosts []string `yaml:"allow_hosts"`
	// Refresh turns serve's refreshing on (the default) or off.
	Refresh bool `yaml:"refresh"`
	// RefreshInterval is how often serve asks every source for news
	// (BOT_REFRESH_INTERVAL); at least 1s, default 1h.
	RefreshInterval time.Duration `yaml:"refresh_interval"`
	// StaleAfter is how long a source may fail before answers say their
	// knowledge may be stale, and since when (BOT_STALE_AFTER).
	StaleAfter time.Duration `yaml:"stale_after"`
	// Timeout bounds one source's fetch (BOT_SOURCES_TIMEOUT).
	Timeout time.Duration `yaml:"timeout"`
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
		{&s.APILifecycleURL, EnvAPILifecycleURL}, {&s.VulnDBURL, EnvVulnDBURL}} {
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
		{"sources.api_lifecycle_url", EnvAPILifecycleURL, s.APILifecycleURL}, {"sources.vulndb_url", EnvVulnDBURL, s.VulnDBURL},
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
