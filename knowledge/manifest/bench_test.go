package manifest

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

var kinds = []struct{ file, av, kind string }{
	{"deployment", "apps/v1", "Deployment"},
	{"service", "v1", "Service"},
	{"configmap", "v1", "ConfigMap"},
	{"ingress", "networking.k8s.io/v1", "Ingress"},
	{"cronjob", "batch/v1", "CronJob"},
	{"flowschema", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"},
	{"certificate", "cert-manager.io/v1", "Certificate"},
	{"hpa", "autoscaling/v2", "HorizontalPodAutoscaler"},
}

// benchFile is one file of the benchmark corpus: 100 documents of helm
// template output, as in /tmp/scancorpus.
func benchFile(app int) []byte {
	var b bytes.Buffer
	for d := 0; d < 100; d++ {
		k := kinds[(app+d)%len(kinds)]
		fmt.Fprintf(&b, `# Source: app%03d/templates/%s-%d.yaml
---
apiVersion: %s
kind: %s
metadata:
  name: app%03d-%03d
  namespace: ns%d
  labels:
    app.kubernetes.io/name: app%03d
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: c
        image: nginx:1.27
`, app, k.file, d, k.av, k.kind, app, d, d%10, app)
	}
	return b.Bytes()
}

// benchCorpus is the benchmark folder: 100 files of 100 documents.
func benchCorpus() [][]byte {
	files := make([][]byte, 100)
	for i := range files {
		files[i] = benchFile(i)
	}
	return files
}

// BenchmarkRead reads the 10,000 documents of the benchmark corpus, a
// file at a time, as a scan of the folder does.
func BenchmarkRead(b *testing.B) {
	files := benchCorpus()
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	var st stats
	for b.Loop() {
		for _, f := range files {
			s := newStream(DefaultLimits())
			if err := s.read(bytes.NewReader(f)); err != nil || len(s.res.Objects) != 100 {
				b.Fatalf("err %v, %d objects", err, len(s.res.Objects))
			}
			st = s.stats
		}
	}
	b.ReportMetric(float64(st.fastYAML)/float64(st.fastYAML+st.fastJSON+st.slow), "fast-share")
}

// BenchmarkReadSlowPath reads the same corpus through the slow path only,
// for comparison.
func BenchmarkReadSlowPath(b *testing.B) {
	files := benchCorpus()
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	lim := DefaultLimits()
	for b.Loop() {
		for _, f := range files {
			for _, d := range splitDocs(string(f)) {
				var e extraction
				slow([]byte("\n"+d), lim, &e, nil)
			}
		}
	}
}

// BenchmarkReadJSON reads the corpus written as one `kubectl get -o json`
// List.
func BenchmarkReadJSON(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": [\n")
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		k := kinds[i%len(kinds)]
		fmt.Fprintf(&sb, `        {
            "apiVersion": %q,
            "kind": %q,
            "metadata": {
                "labels": {"app.kubernetes.io/name": "app%03d"},
                "name": "app-%05d",
                "namespace": "ns%d"
            },
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"image": "nginx:1.27", "name": "c"}]}}}
        }`, k.av, k.kind, i%100, i, i%10)
	}
	sb.WriteString("\n    ]\n}\n")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	lim := Limits{MaxDocumentBytes: 16 << 20}
	for b.Loop() {
		r, err := Read(bytes.NewReader(data), lim)
		if err != nil || len(r.Objects) != 10_000 {
			b.Fatalf("err %v, %d objects", err, len(r.Objects))
		}
	}
}

var _ = io.Discard
