package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStoreDefaultsToBbolt(t *testing.T) {
	c, err := Load("", env{}.get)
	if err != nil {
		t.Fatal(err)
	}
	if c.UsesEtcd() || c.Store.Backend != BackendBbolt {
		t.Errorf("default backend %q; want bbolt, the single process", c.Store.Backend)
	}
}

func TestStoreEtcdFromEnvironment(t *testing.T) {
	pw := writeFile(t, "pw", "s3cret-etcd-pw\n")
	c, err := Load("", env{
		"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://a:2379, http://b:2379",
		"BOT_ETCD_USERNAME": "kepbot", "BOT_ETCD_PASSWORD_FILE": pw, "BOT_ETCD_LEASE_TTL": "4s", "BOT_ETCD_PREFIX": "/staging/",
	}.get)
	if err != nil {
		t.Fatal(err)
	}
	e := c.Store.Etcd
	if !c.UsesEtcd() || !cmp.Equal(e.Endpoints, []string{"http://a:2379", "http://b:2379"}) || e.Username != "kepbot" ||
		e.Password.Value() != "s3cret-etcd-pw" || e.LeaseTTL != 4*time.Second || e.Prefix != "/staging/" || e.DialTimeout != DefaultDialTimeout {
		t.Errorf("etcd config = %+v", e)
	}
	if !strings.Contains(strings.Join(c.Secrets(), " "), "s3cret-etcd-pw") {
		t.Error("the etcd password is not among the secrets the log scrubs")
	}
	if tls, err := e.TLS(); err != nil || tls != nil {
		t.Errorf("TLS for http endpoints = %v, %v; want none", tls, err)
	}
}

func TestStoreProblemsNameTheKey(t *testing.T) {
	for _, tc := range []struct {
		env  env
		want string
	}{
		{env{"BOT_STORE_BACKEND": "redis"}, "store.backend (BOT_STORE_BACKEND)"},
		{env{"BOT_STORE_BACKEND": "etcd"}, "store.etcd.endpoints (BOT_ETCD_ENDPOINTS) is empty"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "etcd:2379"}, "give URLs like http://etcd:2379"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://u:p@etcd:2379"}, "without user or path"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://e:2379", "BOT_ETCD_USERNAME": "x"}, "store.etcd.username (BOT_ETCD_USERNAME) and the password"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://e:2379", "BOT_ETCD_LEASE_TTL": "500ms"}, "store.etcd.lease_ttl (BOT_ETCD_LEASE_TTL) must be between 1s and 1m"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://e:2379", "BOT_ETCD_CERT_FILE": "/x"}, "go together"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://e:2379", "BOT_ETCD_CA_FILE": "/nowhere/ca.pem"}, "store.etcd.ca_file (BOT_ETCD_CA_FILE): cannot read"},
		{env{"BOT_STORE_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://e:2379", "BOT_ETCD_PREFIX": "kepbot"}, "store.etcd.prefix (BOT_ETCD_PREFIX)"},
		{env{"BOT_ETCD_DIAL_TIMEOUT": "soon"}, "BOT_ETCD_DIAL_TIMEOUT: \"soon\" is not a duration"},
	} {
		_, err := Load("", tc.env.get)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.env, err, tc.want)
		}
	}
}

func TestStoreRefusesAnInlinePassword(t *testing.T) {
	p := writeFile(t, "bot.yaml", "store:\n  backend: etcd\n  etcd:\n    endpoints: [http://e:2379]\n    username: u\n    password: hunter2hunter2\n")
	_, err := Load(p, env{}.get)
	if err == nil || !strings.Contains(err.Error(), "store.etcd.password") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("inline password: %v", err)
	}
}
