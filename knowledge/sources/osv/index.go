package osv

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// IndexPath and RecordPath are where the database's HTTP API serves its
// module index and one record, below its base URL (https://vuln.go.dev).
const IndexPath = "index/modules.json"

// RecordPath returns the path of record id below the base URL:
// ID/GO-2024-3286.json.
func RecordPath(id string) string { return "ID/" + id + ".json" }

// IndexEntry is one record the module index lists for a module, and when
// it was last modified.
type IndexEntry struct {
	ID       string
	Modified time.Time
}

// moduleMeta is one module of index/modules.json (golang.org/x/vuln's
// ModuleMeta: its path and each record's ID, modified time and the newest
// fixed version).
type moduleMeta struct {
	Path  string `json:"path"`
	Vulns []struct {
		ID       string    `json:"id"`
		Modified time.Time `json:"modified"`
		Fixed    string    `json:"fixed"`
	} `json:"vulns"`
}

// kubernetesOwners are the module path prefixes of the Kubernetes
// project's own modules: what the shared tree's copy of the database
// holds, and what a refresh asks the index for.
var kubernetesOwners = []string{"k8s.io/", "sigs.k8s.io/", "github.com/kubernetes/", "github.com/kubernetes-sigs/", "github.com/kubernetes-csi/"}

// KubernetesOwned reports whether module is one of the Kubernetes
// project's: k8s.io/*, sigs.k8s.io/*, github.com/kubernetes/*,
// github.com/kubernetes-sigs/*, github.com/kubernetes-csi/*.
func KubernetesOwned(module string) bool {
	for _, p := range kubernetesOwners {
		if strings.HasPrefix(module, p) && len(module) > len(p) {
			return true
		}
	}
	return false
}

// ParseIndex reads index/modules.json and returns the records of
// Kubernetes-owned modules, each once (with the newest modified time any
// module gives it), by ID. It fails on JSON that is not the index, and on
// an entry whose ID could not name a record path.
func ParseIndex(data []byte) ([]IndexEntry, error) {
	var mods []moduleMeta
	if err := json.Unmarshal(data, &mods); err != nil {
		return nil, fmt.Errorf("not the module index of a vulnerability database: %v", err)
	}
	byID := map[string]time.Time{}
	for _, m := range mods {
		if !KubernetesOwned(m.Path) {
			continue
		}
		for _, v := range m.Vulns {
			if !safeID(v.ID) {
				return nil, fmt.Errorf("module %s lists a record %q, which is not an ID", m.Path, v.ID)
			}
			if t, ok := byID[v.ID]; !ok || v.Modified.After(t) {
				byID[v.ID] = v.Modified
			}
		}
	}
	out := make([]IndexEntry, 0, len(byID))
	for id, t := range byID {
		out = append(out, IndexEntry{ID: id, Modified: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// safeID reports whether id can be put in a record's path: letters,
// digits and dashes, as GO-2024-3286.
func safeID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
