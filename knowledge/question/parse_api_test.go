package question

import (
	"context"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

func TestParseAPI(t *testing.T) {
	v := knowledge.MustVersion
	for _, tc := range []struct {
		in    string
		words string
		at    knowledge.Version
	}{
		{"api Ingress", "Ingress", knowledge.Version{}},
		{"api batch/v1beta1", "batch/v1beta1", knowledge.Version{}},
		{"API batch/v1beta1 CronJob", "batch/v1beta1 CronJob", knowledge.Version{}},
		{"api batch/v1beta1 in 1.24", "batch/v1beta1", v("1.24")},
		{"api batch/v1beta1 CronJob v1.24", "batch/v1beta1 CronJob", v("1.24")},
		{"api v1 Pod", "v1 Pod", knowledge.Version{}},
		{"apiversion flowcontrol.apiserver.k8s.io/v1beta3", "flowcontrol.apiserver.k8s.io/v1beta3", knowledge.Version{}},
	} {
		q, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if q.Kind != knowledge.AskAPI || q.Words != tc.words || q.Version != tc.at {
			t.Errorf("Parse(%q) = %s %q %s; want api %q %s", tc.in, q.Kind, q.Words, q.Version, tc.words, tc.at)
		}
		back, err := Parse(q.Canonical())
		if err != nil || back.Words != q.Words || back.Version != q.Version {
			t.Errorf("Parse(%q) of the canonical form gives %+v, %v", q.Canonical(), back, err)
		}
	}
	for _, bad := range []string{"api", "api CronJob batch/v1beta1", "api batch/v1beta1 CronJob Job", "api batch/1", "api Cron-Job", "api in 1.24", "api Ingress 1.x", "api Ingress in 1.24 1.25"} {
		if q, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %+v; want an error", bad, q)
		} else if knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("Parse(%q): %v; want EBADINPUT", bad, err)
		}
	}
}

func TestParseScan(t *testing.T) {
	v := knowledge.MustVersion
	for _, tc := range []struct {
		in       string
		from, to knowledge.Version
		manifest string
	}{
		{"scan 1.36", knowledge.Version{}, v("1.36"), ""},
		{"scan 1.32 1.36", v("1.32"), v("1.36"), ""},
		{"scan 1.32 to 1.36", v("1.32"), v("1.36"), ""},
		{"scan 1.36\napiVersion: v1\nkind: Pod\n", knowledge.Version{}, v("1.36"), "apiVersion: v1\nkind: Pod\n"},
		{"scan 1.36 ```yaml\napiVersion: v1\nkind: Pod\n```", knowledge.Version{}, v("1.36"), "apiVersion: v1\nkind: Pod\n"},
		{"<@U0KEPBOT> scan 1.36\n```\na: 1\n```\ntext between\n```yaml\nb: 2\n```", knowledge.Version{}, v("1.36"), "a: 1\n\n---\nb: 2\n"},
		{"SCAN v1.36\r\napiVersion: v1\r\n", knowledge.Version{}, v("1.36"), "apiVersion: v1\r\n"},
	} {
		q, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if q.Kind != knowledge.AskScan || q.Version != tc.from || q.To != tc.to || string(q.Manifest) != tc.manifest {
			t.Errorf("Parse(%q) = %s %s→%s %q; want scan %s→%s %q", tc.in, q.Kind, q.Version, q.To, q.Manifest, tc.from, tc.to, tc.manifest)
		}
		rq, err := NewReader(nil).Read(t.Context(), tc.in)
		if err != nil || rq.Kind != knowledge.AskScan || string(rq.Manifest) != tc.manifest || rq.Free {
			t.Errorf("Read(%q) = %+v, %v; want the same scan as Parse", tc.in, rq, err)
		}
	}
	for _, bad := range []string{"scan", "scan 1.36 1.32", "scan 1.36 1.36", "scan latest", "scan 1.32 1.34 1.36"} {
		if _, err := Parse(bad); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("Parse(%q): %v; want EBADINPUT", bad, err)
		}
	}
	if _, _, ok := SplitScan("scanner 1.36"); ok {
		t.Error("SplitScan read scanner as scan")
	}
	long := "scan 1.36\n" + strings.Repeat("apiVersion: v1\nkind: ConfigMap\n---\n", 500)
	if q, err := Parse(long); err != nil || q.Kind != knowledge.AskScan || len(q.Manifest) < 10000 {
		t.Errorf("a long manifest: %v (%d bytes kept); want it kept whole, past the question's length limit", err, len(q.Manifest))
	}
}

// TestSplitScanFences: what follows an opening fence on its line is the
// block's language when it is one word, else the manifest's first line
// (Slack writes ```apiVersion: v1 with no line break after the fence).
func TestSplitScanFences(t *testing.T) {
	for in, want := range map[string]string{
		"scan 1.36 ```apiVersion: v1\nkind: Secret```": "apiVersion: v1\nkind: Secret",
		"scan 1.36\n```yaml\na: 1\n```":                "a: 1\n",
		"scan 1.36\n```\na: 1\n```":                    "a: 1\n",
		"scan 1.36 ```{\"kind\":\"x\"}```":             "{\"kind\":\"x\"}",
		"scan 1.36\n```a: 1``` and ```b: 2\nc: 3```":   "a: 1\n---\nb: 2\nc: 3",
		"scan 1.36\nno fences":                         "no fences",
	} {
		_, got, ok := SplitScan(in)
		if !ok || string(got) != want {
			t.Errorf("SplitScan(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestScanOfAClusterIsDeclined: a chat bot holds no cluster credentials;
// asked to scan a cluster, in the grammar or in words, it says so, where
// such a scan runs (bot scan --cluster) and what it can scan here, never
// "cluster is not a release".
func TestScanOfAClusterIsDeclined(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	for _, text := range []string{"scan cluster 1.36", "scan my cluster 1.36", "scan --cluster --to 1.36", "can you scan my cluster for 1.36?", "扫描我的集群 1.36"} {
		_, err := r.Read(context.Background(), text)
		msg := knowledge.ErrorMessage(err)
		if !strings.Contains(msg, "I don't scan clusters") || !strings.Contains(msg, "bot scan --cluster --to 1.36") || strings.Contains(msg, "not a release") {
			t.Errorf("%q: %q; want the cluster declined, bot scan --cluster named", text, msg)
		}
	}
}
