package cluster

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// helmRelease stores a release revision as Helm does: JSON, gzip, base64;
// a Secret's value is base64 once more.
func helmRelease(t *testing.T, name, ns string, revision int, manifest string, secret bool) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"name": name, "namespace": ns, "version": revision, "info": map[string]any{"status": "deployed"}, "manifest": manifest})
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	s := base64.StdEncoding.EncodeToString(z.Bytes())
	if secret {
		s = base64.StdEncoding.EncodeToString([]byte(s))
	}
	return s
}

func found(read *knowledge.ManifestRead) []string {
	var out []string
	for _, o := range read.Objects {
		out = append(out, fmt.Sprintf("%s %s %s %s/%s %s", o.Source, o.APIVersion, o.Kind, o.Namespace, o.Name, o.HelmRelease))
	}
	sort.Strings(out)
	return out
}

// notV1 keeps what is not a v1 or apps/v1 API: the test's stand-in for the
// API table's "would be a finding".
func notV1(apiVersion, kind string) bool {
	return apiVersion != "v1" && apiVersion != "apps/v1" && !strings.HasSuffix(apiVersion, "/v1")
}

// TestReadThreeSignals: the metric, the objects' managedFields and the
// Helm releases (Secret and ConfigMap storage, the latest deployed
// revision), each object saying which found it; the server's release;
// lists asked as metadata alone, so a Secret's data is never fetched.
func TestReadThreeSignals(t *testing.T) {
	f := basicCluster(t)
	secrets := f.resource("secrets")
	ing := "---\n# Source: shop/templates/ingress.yaml\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: shop\n"
	secrets.items = append(secrets.items,
		fakeItem{ns: "prod", name: "sh.helm.release.v1.shop.v1", labels: map[string]string{"owner": "helm", "status": "superseded"},
			data: map[string]string{"release": helmRelease(t, "shop", "prod", 1, strings.Replace(ing, "shop\n", "shop-v1\n", 1), true)}},
		fakeItem{ns: "prod", name: "sh.helm.release.v1.shop.v2", labels: map[string]string{"owner": "helm", "status": "deployed"},
			data: map[string]string{"release": helmRelease(t, "shop", "prod", 2, ing, true)}})
	cms := f.resource("configmaps")
	cms.items = append(cms.items, fakeItem{ns: "ops", name: "cron.v3", labels: map[string]string{"owner": "helm", "status": "deployed"},
		data: map[string]string{"release": helmRelease(t, "cron", "ops", 3, "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n", false)}})
	c := f.start()
	read, err := Read(context.Background(), c, Options{Check: notV1})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"helm-release batch/v1beta1 CronJob ops/nightly cron",
		"helm-release networking.k8s.io/v1beta1 Ingress prod/shop shop",
		"metrics flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema /flowschemas ",
		"object flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema /legacy ",
	}
	if got := found(read); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if read.ServerVersion.String() != "1.31" || len(read.Problems) != 0 || len(read.Skipped) != 0 {
		t.Errorf("server %s, problems %+v, skipped %+v", read.ServerVersion, read.Problems, read.Skipped)
	}
	if read.ServerPatch != "1.31.3" || read.ServerBuild != "v1.31.3" {
		t.Errorf("server patch %q, build %q; want what /version's gitVersion names, 1.31.3", read.ServerPatch, read.ServerBuild)
	}
	if a, _ := f.seen("/api/v1/secrets"); !strings.Contains(a, "as=PartialObjectMetadataList") {
		t.Errorf("Secrets were listed with Accept %q: their data crossed the wire", a)
	}
	for _, o := range read.Objects {
		if o.Source == knowledge.SourceHelmRelease && (o.Template != "shop/templates/ingress.yaml" && o.Name == "shop" || !strings.HasPrefix(o.File, "k8s://")) {
			t.Errorf("a Helm object %+v: want its template and its storage", o)
		}
	}
}

// TestReadPermissionsAreNotFatal: what the credentials may not read (the
// metric, a resource, the Secrets) is said, and the rest is read.
func TestReadPermissionsAreNotFatal(t *testing.T) {
	f := basicCluster(t)
	f.forbidden = map[string]bool{"/metrics": true, "/apis/apps/v1/deployments": true, "/api/v1/secrets": true}
	read, err := Read(context.Background(), f.start(), Options{Check: notV1})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, s := range read.Skipped {
		reasons[s.File] = s.Reason
	}
	for file, want := range map[string]string{"k8s://apiserver/metrics": ReasonNoMetrics, "k8s://deployments.apps": ReasonNoList, "k8s://secrets.core": ReasonNoHelm} {
		if reasons[file] != want {
			t.Errorf("skipped %s: %q; want %q (all %v)", file, reasons[file], want, reasons)
		}
	}
	if got := found(read); len(got) != 1 || !strings.HasPrefix(got[0], "object flowcontrol.apiserver.k8s.io/v1beta3") {
		t.Errorf("found %v; want the FlowSchema's managedFields", got)
	}
	if len(read.Problems) != 0 {
		t.Errorf("problems %+v; a missing permission is not a problem", read.Problems)
	}
}

// TestReadPages: a list is read a page at a time, following continue,
// every object counted.
func TestReadPages(t *testing.T) {
	f := basicCluster(t)
	cms := f.resource("configmaps")
	for i := range 2*PageSize + 17 {
		av := "v1"
		if i == PageSize+3 {
			av = "extensions/v1beta1" // made-up: one object on the second page a writer wrote otherwise
		}
		cms.items = append(cms.items, fakeItem{ns: "ns", name: fmt.Sprintf("cm-%d", i), apiVersions: []string{av}})
	}
	read, err := Read(context.Background(), f.start(), Options{Check: notV1})
	if err != nil {
		t.Fatal(err)
	}
	if _, pages := f.seen("/api/v1/configmaps"); pages != 3+1 { // three pages of objects, one of Helm's
		t.Errorf("%d requests of configmaps; want three pages and Helm's one", pages)
	}
	if read.Documents < 2*PageSize+17 {
		t.Errorf("%d objects looked at; want every ConfigMap", read.Documents)
	}
	var hit bool
	for _, o := range read.Objects {
		hit = hit || o.Name == fmt.Sprintf("cm-%d", PageSize+3)
	}
	if !hit {
		t.Error("the object on the second page was not found")
	}
}

// TestReadHugeListHoldsOnePage: 20,000 objects (40 pages) are read with the memory
// of a page and the findings, not of the list.
func TestReadHugeListHoldsOnePage(t *testing.T) {
	f := basicCluster(t)
	cms := f.resource("configmaps")
	cms.items = make([]fakeItem, 20000)
	for i := range cms.items {
		cms.items[i] = fakeItem{ns: "ns", name: "cm-" + strconvItoa(i), apiVersions: []string{"v1"}}
	}
	c := f.start()
	defer debug.SetGCPercent(debug.SetGCPercent(20)) // the heap's peak near what is live
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the heap while the scan runs
		defer close(done)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	read, err := Read(context.Background(), c, Options{Check: notV1})
	close(stop)
	<-done
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if read.Documents < 20000 || len(read.Objects) != 2 {
		t.Errorf("%d objects looked at, %d kept; want 20,000 and the two FlowSchema findings", read.Documents, len(read.Objects))
	}
	// The fake server's own 200,000 items live in this process too; what
	// the reader adds on top is a page and the findings.
	grew := int64(peak) - int64(before.HeapAlloc)
	t.Logf("the heap grew by at most %.1f MiB reading 20,000 objects", float64(grew)/(1<<20))
	if grew > 8<<20 {
		t.Errorf("the heap grew by %d MiB while reading; want the memory of a page", grew>>20)
	}
}

// TestReadServerDiesMidScan: an apiserver that stops answering ends the
// read promptly with what was read and a problem that says so, not a hang
// or a failure for each resource left.
func TestReadServerDiesMidScan(t *testing.T) {
	f := basicCluster(t)
	for i := range 10 {
		f.resources = append(f.resources, fakeResource{group: "extra.example.com", version: "v1", name: fmt.Sprintf("things%d", i), kind: fmt.Sprintf("Thing%d", i)})
	}
	f.dieAfter = 12 // after discovery and a few lists
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	read, err := Read(ctx, f.start(), Options{Check: notV1})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	last := read.Problems[len(read.Problems)-1]
	if !strings.Contains(last.Message, "stopped answering") || len(read.Problems) != maxFailures+1 {
		t.Errorf("problems %+v; want %d failed lists then one line saying the apiserver stopped answering", read.Problems, maxFailures)
	}
}

// TestReadCredentialsRefused: a 401 from the start is an error, not a
// report of nothing.
func TestReadCredentialsRefused(t *testing.T) {
	f := basicCluster(t)
	f.failing = map[string]int{"/version": http.StatusUnauthorized}
	_, err := Read(context.Background(), f.start(), Options{})
	if err == nil || !strings.Contains(err.Error(), "refused the credentials") {
		t.Errorf("err %v; want the credentials refused", err)
	}
}

func strconvItoa(i int) string { return fmt.Sprint(i) }
