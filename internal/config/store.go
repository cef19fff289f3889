package config

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Store says where kepbot keeps the state its replicas share. The default,
// bbolt, is the single process with one database file (db). etcd lets
// several replicas run beside each other: subscriptions, the digest outbox
// and ledger, the sources' states and the knowledge generation live in
// etcd, and each replica keeps its own copy of the knowledge in db.
type Store struct {
	// Backend is bbolt (one process, everything in db) or etcd (several
	// replicas).
	Backend string `yaml:"backend" env:"BOT_STORE_BACKEND"`
	// Etcd is how to reach etcd when Backend is etcd.
	Etcd Etcd `yaml:"etcd"`
}

// Etcd configures the etcd backend. The password comes from
// BOT_ETCD_PASSWORD or a file (password_file, BOT_ETCD_PASSWORD_FILE),
// never from the YAML file.
type Etcd struct {
	// Endpoints are etcd's client URLs, http://host:2379 or https://…
	// (comma-separated in the variable).
	Endpoints []string `yaml:"endpoints" env:"BOT_ETCD_ENDPOINTS"`
	// Prefix starts every key kepbot writes.
	Prefix string `yaml:"prefix" env:"BOT_ETCD_PREFIX"`
	// CAFile is the CA that signed etcd's certificate (TLS).
	CAFile string `yaml:"ca_file" env:"BOT_ETCD_CA_FILE"`
	// CertFile is the client's certificate, for mutual TLS.
	CertFile string `yaml:"cert_file" env:"BOT_ETCD_CERT_FILE"`
	// KeyFile is the client certificate's key, for mutual TLS.
	KeyFile string `yaml:"key_file" env:"BOT_ETCD_KEY_FILE"`
	// Username is the user of etcd's own authentication.
	Username string `yaml:"username" env:"BOT_ETCD_USERNAME"`
	// PasswordFile is a file holding its password, never in the YAML file.
	PasswordFile string `yaml:"password_file" env:"BOT_ETCD_PASSWORD,BOT_ETCD_PASSWORD_FILE"`
	// LeaseTTL is the leader's lease: a dead leader is replaced within it
	// (1s to 1m).
	LeaseTTL time.Duration `yaml:"lease_ttl" env:"BOT_ETCD_LEASE_TTL"`
	// DialTimeout is how long start-up waits for etcd before it says so
	// and exits 3.
	DialTimeout time.Duration `yaml:"dial_timeout" env:"BOT_ETCD_DIAL_TIMEOUT"`

	Password Secret `yaml:"-"`
}

// Store backends and the store section's defaults.
const (
	BackendBbolt       = "bbolt"
	BackendEtcd        = "etcd"
	DefaultEtcdPrefix  = "/kepbot/"
	DefaultLeaseTTL    = 10 * time.Second
	DefaultDialTimeout = 5 * time.Second
)

// Environment variables of the store section.
const (
	EnvStoreBackend    = "BOT_STORE_BACKEND"
	EnvEtcdEndpoints   = "BOT_ETCD_ENDPOINTS"
	EnvEtcdPrefix      = "BOT_ETCD_PREFIX"
	EnvEtcdCAFile      = "BOT_ETCD_CA_FILE"
	EnvEtcdCertFile    = "BOT_ETCD_CERT_FILE"
	EnvEtcdKeyFile     = "BOT_ETCD_KEY_FILE"
	EnvEtcdUsername    = "BOT_ETCD_USERNAME"
	EnvEtcdPassword    = "BOT_ETCD_PASSWORD"
	EnvEtcdLeaseTTL    = "BOT_ETCD_LEASE_TTL"
	EnvEtcdDialTimeout = "BOT_ETCD_DIAL_TIMEOUT"
)

func defaultStore() Store {
	return Store{Backend: BackendBbolt, Etcd: Etcd{Prefix: DefaultEtcdPrefix, LeaseTTL: DefaultLeaseTTL, DialTimeout: DefaultDialTimeout}}
}

// UsesEtcd reports whether replicas share their state through etcd.
func (c *Config) UsesEtcd() bool { return c.Store.Backend == BackendEtcd }

func (s *Store) applyEnv(getenv func(string) string) error {
	for _, v := range []struct {
		dst  *string
		name string
	}{{&s.Backend, EnvStoreBackend}, {&s.Etcd.Prefix, EnvEtcdPrefix}, {&s.Etcd.CAFile, EnvEtcdCAFile},
		{&s.Etcd.CertFile, EnvEtcdCertFile}, {&s.Etcd.KeyFile, EnvEtcdKeyFile}, {&s.Etcd.Username, EnvEtcdUsername}} {
		if x := strings.TrimSpace(getenv(v.name)); x != "" {
			*v.dst = x
		}
	}
	s.Backend = strings.ToLower(s.Backend)
	if x := strings.TrimSpace(getenv(EnvEtcdEndpoints)); x != "" {
		s.Etcd.Endpoints = nil
		for _, e := range strings.Split(x, ",") {
			if e = strings.TrimSpace(e); e != "" {
				s.Etcd.Endpoints = append(s.Etcd.Endpoints, e)
			}
		}
	}
	for _, v := range []struct {
		dst  *time.Duration
		name string
	}{{&s.Etcd.LeaseTTL, EnvEtcdLeaseTTL}, {&s.Etcd.DialTimeout, EnvEtcdDialTimeout}} {
		if x := strings.TrimSpace(getenv(v.name)); x != "" {
			d, err := time.ParseDuration(x)
			if err != nil {
				return fmt.Errorf("%s: %q is not a duration like 10s", v.name, x)
			}
			*v.dst = d
		}
	}
	return nil
}

func (s *Store) problems() []string {
	var p []string
	switch s.Backend {
	case BackendBbolt:
		return nil
	case BackendEtcd:
	default:
		return []string{fmt.Sprintf("store.backend (%s) is %q; use bbolt (one process, the default) or etcd (several replicas)", EnvStoreBackend, clipValue(s.Backend))}
	}
	e := &s.Etcd
	if len(e.Endpoints) == 0 {
		p = append(p, fmt.Sprintf("store.etcd.endpoints (%s) is empty; store.backend etcd needs at least one, e.g. http://etcd:2379", EnvEtcdEndpoints))
	}
	for _, ep := range e.Endpoints {
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			p = append(p, fmt.Sprintf("store.etcd.endpoints (%s) holds %q; give URLs like http://etcd:2379 or https://etcd:2379, without user or path", EnvEtcdEndpoints, clipValue(ep)))
		}
	}
	if !strings.HasPrefix(e.Prefix, "/") || len(e.Prefix) > 128 || strings.ContainsAny(e.Prefix, " \t\n") {
		p = append(p, fmt.Sprintf("store.etcd.prefix (%s) is %q; use a key prefix that starts with /, e.g. %s", EnvEtcdPrefix, clipValue(e.Prefix), DefaultEtcdPrefix))
	}
	if (e.CertFile == "") != (e.KeyFile == "") {
		p = append(p, fmt.Sprintf("store.etcd.cert_file (%s) and store.etcd.key_file (%s) go together; set both or neither", EnvEtcdCertFile, EnvEtcdKeyFile))
	}
	for _, f := range []struct{ key, env, path string }{
		{"store.etcd.ca_file", EnvEtcdCAFile, e.CAFile}, {"store.etcd.cert_file", EnvEtcdCertFile, e.CertFile}, {"store.etcd.key_file", EnvEtcdKeyFile, e.KeyFile},
	} {
		if f.path != "" {
			if _, err := os.Stat(f.path); err != nil {
				p = append(p, fmt.Sprintf("%s (%s): cannot read %s: %v", f.key, f.env, f.path, err))
			}
		}
	}
	if (e.Username == "") != e.Password.IsZero() {
		p = append(p, fmt.Sprintf("store.etcd.username (%s) and the password (%s or %s_FILE) go together; set both or neither", EnvEtcdUsername, EnvEtcdPassword, EnvEtcdPassword))
	}
	if e.LeaseTTL < time.Second || e.LeaseTTL > time.Minute {
		p = append(p, fmt.Sprintf("store.etcd.lease_ttl (%s) must be between 1s and 1m, e.g. 10s; it is %s", EnvEtcdLeaseTTL, e.LeaseTTL))
	}
	if e.DialTimeout < 100*time.Millisecond || e.DialTimeout > time.Minute {
		p = append(p, fmt.Sprintf("store.etcd.dial_timeout (%s) must be between 100ms and 1m, e.g. 5s; it is %s", EnvEtcdDialTimeout, e.DialTimeout))
	}
	return p
}

// TLS returns the client's TLS configuration: nil when no endpoint is
// https and no file is set. It fails naming the key whose file does not
// hold what it should.
func (e *Etcd) TLS() (*tls.Config, error) {
	https := false
	for _, ep := range e.Endpoints {
		https = https || strings.HasPrefix(ep, "https://")
	}
	if !https && e.CAFile == "" && e.CertFile == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if e.CAFile != "" {
		pem, err := os.ReadFile(e.CAFile)
		if err != nil {
			return nil, fmt.Errorf("store.etcd.ca_file (%s): %w", EnvEtcdCAFile, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("store.etcd.ca_file (%s): %s holds no PEM certificate", EnvEtcdCAFile, e.CAFile)
		}
	}
	if e.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(e.CertFile, e.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("store.etcd.cert_file and key_file (%s, %s) do not hold a certificate and its key: %w", EnvEtcdCertFile, EnvEtcdKeyFile, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
