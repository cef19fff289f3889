package app

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// OpenShared connects to etcd for `bot serve`; its error names the
// endpoints and says what to check, never the password.
func OpenShared(ctx context.Context, cfg *config.Config) (*etcdstore.Store, error) {
	e := cfg.Store.Etcd
	tlsCfg, err := e.TLS()
	if err != nil {
		return nil, err
	}
	return etcdstore.Open(ctx, etcdstore.Config{Endpoints: e.Endpoints, TLS: tlsCfg, Username: e.Username,
		Password: e.Password.Value(), Prefix: e.Prefix, DialTimeout: e.DialTimeout})
}

// ReplicaID names this replica in the election: the config's (from
// $BOT_REPLICA_ID, the pod's name in the chart), else the host name and
// process ID.
func ReplicaID(cfg *config.Config) string {
	if id := strings.TrimSpace(cfg.ReplicaID); id != "" {
		return id
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// RefreshSetup is the one refresh setup of serve, a leader and bot sync:
// the config's sources section.
func RefreshSetup(src config.Sources) refresh.Setup {
	return refresh.Setup{
		URLs: refresh.URLs{sources.SettingSync: src.SyncURL, sources.SettingRelnotes: src.RelnotesURL, sources.SettingLifecycle: src.LifecycleURL,
			sources.SettingPatches: src.PatchesURL, sources.SettingAPILifecycle: src.APILifecycleURL,
			sources.SettingFeatureGates: src.FeatureGatesURL, sources.SettingVulnDB: src.VulnDBURL},
		AllowHosts: src.AllowHosts, Timeout: src.Timeout, Interval: src.RefreshInterval, StaleAfter: src.StaleAfter,
	}
}
