package prose

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Deprecated `x.y` in favour of z. More words.": "Deprecated `x.y` in favour of z.",
		"Removed v1.2.3 support":                       "Removed v1.2.3 support",
		"Moved the `a.b. c` field!  Then":              "Moved the `a.b. c` field!",
		"弃用了该字段。请迁移":                                   "弃用了该字段。",
		"":                                             "",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCamelParts(t *testing.T) {
	for in, want := range map[string][]string{
		"NFTablesProxyMode":          {"nf", "tables", "proxy", "mode"},
		"ImageVolume":                {"image", "volume"},
		"ReadWriteOncePod":           {"read", "write", "once", "pod"},
		"nftables":                   {"nftables"},
		"APIServerTracing":           {"api", "server", "tracing"},
		"DRAAdminAccess":             {"dra", "admin", "access"},
		"InPlacePodVerticalScaling":  {"in", "place", "pod", "vertical", "scaling"},
		"KubeletCgroupDriverFromCRI": {"kubelet", "cgroup", "driver", "from", "cri"},
		"CSIMigrationvSphere2":       {"csi", "migrationv", "sphere", "2"},
		"AnyVolumeDataSource":        {"any", "volume", "data", "source"},
		"IPv6DualStack":              {"i", "pv", "6", "dual", "stack"},
	} {
		if diff := cmp.Diff(want, CamelParts(in)); diff != "" {
			t.Errorf("CamelParts(%q) (-want +got):\n%s", in, diff)
		}
	}
}
