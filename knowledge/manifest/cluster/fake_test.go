package cluster

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeAPIServer speaks the parts of the Kubernetes API a scan reads:
// /version, discovery, lists (paged with limit and continue, as metadata
// alone when asked with the PartialObjectMetadataList Accept), /metrics.
type fakeAPIServer struct {
	t         *testing.T
	minor     string
	resources []fakeResource
	metrics   string
	forbidden map[string]bool // paths answered 403
	failing   map[string]int  // paths answered with this status
	requests  atomic.Int64
	// dieAfter, when above 0, makes every request after that many close
	// its connection without an answer.
	dieAfter int64

	mu       sync.Mutex
	accepts  map[string]string // the Accept each list was asked with
	pageSeen map[string]int    // pages served a path
}

type fakeResource struct {
	group, version, name, kind string
	namespaced                 bool
	items                      []fakeItem
}

type fakeItem struct {
	ns, name    string
	apiVersions []string
	labels      map[string]string
	data        map[string]string // a Secret's or ConfigMap's
}

func (f *fakeAPIServer) start() *Client {
	srv := httptest.NewServer(f)
	f.t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	c := NewClient(u, srv.Client())
	return c
}

func (r fakeResource) gvPath() string {
	if r.group == "" {
		return "/api/" + r.version
	}
	return "/apis/" + r.group + "/" + r.version
}

func (f *fakeAPIServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	n := f.requests.Add(1)
	if f.dieAfter > 0 && n > f.dieAfter {
		hj, ok := w.(http.Hijacker)
		if !ok {
			f.t.Error("cannot hijack")
			return
		}
		conn, _, _ := hj.Hijack()
		conn.Close()
		return
	}
	p := req.URL.Path
	if f.forbidden[p] {
		w.WriteHeader(http.StatusForbidden)
		json.NewEncoder(w).Encode(map[string]any{"kind": "Status", "message": "forbidden: User cannot list"})
		return
	}
	if code := f.failing[p]; code != 0 {
		w.WriteHeader(code)
		return
	}
	send := func(v any) { w.Header().Set("Content-Type", "application/json"); json.NewEncoder(w).Encode(v) }
	switch {
	case p == "/version":
		send(map[string]string{"major": "1", "minor": f.minor, "gitVersion": "v1." + strings.TrimSuffix(f.minor, "+") + ".3"})
		return
	case p == "/metrics":
		w.Write([]byte(f.metrics))
		return
	case p == "/api":
		send(map[string]any{"versions": []string{"v1"}})
		return
	case p == "/apis":
		groups := map[string][]string{}
		var order []string
		for _, r := range f.resources {
			if r.group == "" {
				continue
			}
			if _, ok := groups[r.group]; !ok {
				order = append(order, r.group)
			}
			if !slices.Contains(groups[r.group], r.version) {
				groups[r.group] = append(groups[r.group], r.version)
			}
		}
		var gs []any
		for _, g := range order {
			var vs []any
			for _, v := range groups[g] {
				vs = append(vs, map[string]string{"groupVersion": g + "/" + v, "version": v})
			}
			gs = append(gs, map[string]any{"name": g, "versions": vs, "preferredVersion": vs[0]})
		}
		send(map[string]any{"groups": gs})
		return
	}
	for _, r := range f.resources {
		if p == r.gvPath() {
			var rs []any
			for _, x := range f.resources {
				if x.gvPath() == p {
					rs = append(rs, map[string]any{"name": x.name, "kind": x.kind, "namespaced": x.namespaced, "verbs": []string{"get", "list", "watch"}})
					rs = append(rs, map[string]any{"name": x.name + "/status", "kind": x.kind, "namespaced": x.namespaced, "verbs": []string{"get"}})
				}
			}
			send(map[string]any{"groupVersion": strings.TrimPrefix(strings.TrimPrefix(p, "/apis/"), "/api/"), "resources": rs})
			return
		}
		if p == r.gvPath()+"/"+r.name {
			f.list(w, req, r)
			return
		}
	}
	w.WriteHeader(http.StatusNotFound)
}

// list answers a page of r, as metadata alone when asked so; a Secret asked
// without it comes whole, data and all (what a scan must never ask for).
func (f *fakeAPIServer) list(w http.ResponseWriter, req *http.Request, r fakeResource) {
	q := req.URL.Query()
	accept := req.Header.Get("Accept")
	f.mu.Lock()
	if f.accepts == nil {
		f.accepts, f.pageSeen = map[string]string{}, map[string]int{}
	}
	f.accepts[req.URL.Path+"?"+q.Get("labelSelector")] = accept
	f.pageSeen[req.URL.Path]++
	f.mu.Unlock()
	items := r.items
	if sel := q.Get("labelSelector"); sel != "" {
		k, v, _ := strings.Cut(sel, "=")
		var keep []fakeItem
		for _, it := range items {
			if it.labels[k] == v {
				keep = append(keep, it)
			}
		}
		items = keep
	}
	from, _ := strconv.Atoi(q.Get("continue"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = len(items)
	}
	to := min(from+limit, len(items))
	meta := strings.Contains(accept, "as=PartialObjectMetadataList")
	var out []any
	for _, it := range items[from:to] {
		var mf []any
		for _, av := range it.apiVersions {
			mf = append(mf, map[string]any{"manager": "m", "operation": "Update", "apiVersion": av, "fieldsType": "FieldsV1"})
		}
		o := map[string]any{"metadata": map[string]any{"name": it.name, "namespace": it.ns, "labels": it.labels, "managedFields": mf}}
		if !meta {
			o["data"] = it.data
		}
		out = append(out, o)
	}
	cont := ""
	if to < len(items) {
		cont = strconv.Itoa(to)
	}
	kind := r.kind + "List"
	if meta {
		kind = "PartialObjectMetadataList"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"kind": kind, "metadata": map[string]any{"continue": cont}, "items": out})
}

// basicCluster is a small cluster: Deployments, FlowSchemas (one written
// through v1beta3), Secrets (one a Helm release), ConfigMaps.
func basicCluster(t *testing.T) *fakeAPIServer {
	return &fakeAPIServer{t: t, minor: "31+",
		metrics: "# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n" +
			"# TYPE apiserver_requested_deprecated_apis gauge\n" +
			`apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.k8s.io",removed_release="1.32",resource="flowschemas",subresource="",version="v1beta3"} 1` + "\n" +
			`apiserver_request_total{code="200"} 12` + "\n",
		resources: []fakeResource{
			{group: "apps", version: "v1", name: "deployments", kind: "Deployment", namespaced: true,
				items: []fakeItem{{ns: "prod", name: "web", apiVersions: []string{"apps/v1"}}}},
			{group: "flowcontrol.apiserver.k8s.io", version: "v1", name: "flowschemas", kind: "FlowSchema",
				items: []fakeItem{{name: "legacy", apiVersions: []string{"flowcontrol.apiserver.k8s.io/v1beta3", "flowcontrol.apiserver.k8s.io/v1"}}, {name: "new", apiVersions: []string{"flowcontrol.apiserver.k8s.io/v1"}}}},
			{group: "flowcontrol.apiserver.k8s.io", version: "v1beta3", name: "flowschemas", kind: "FlowSchema"},
			{version: "v1", name: "secrets", kind: "Secret", namespaced: true,
				items: []fakeItem{{ns: "prod", name: "db", apiVersions: []string{"v1"}, data: map[string]string{"password": "aHVudGVyMg=="}}}},
			{version: "v1", name: "configmaps", kind: "ConfigMap", namespaced: true},
		}}
}

func (f *fakeAPIServer) resource(name string) *fakeResource {
	for i := range f.resources {
		if f.resources[i].name == name && len(f.resources[i].items) >= 0 {
			return &f.resources[i]
		}
	}
	panic(fmt.Sprintf("no resource %s", name))
}

// seen returns the Accept a list was asked with and the pages served its
// path, read under the lock the handlers write them under.
func (f *fakeAPIServer) seen(path string) (accept string, pages int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.accepts[path+"?"], f.pageSeen[path]
}
