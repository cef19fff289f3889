package manifest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func read(t *testing.T, src string) *Result {
	t.Helper()
	r, err := Read(strings.NewReader(src), Limits{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return r
}

// obj is an Object written short for tables: document, item, line,
// apiVersion, kind, name, namespace (template left out unless set).
func obj(doc, item, line int, av, kind, name, ns string) Object {
	return Object{Document: doc, Item: item, Line: line, APIVersion: av, Kind: kind, Name: name, Namespace: ns}
}

func TestReadShapes(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		want       []Object
		problems   []int // lines of the problems
		docs, nots int
	}{
		{name: "one document", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: b\n",
			want: []Object{obj(1, 0, 1, "v1", "ConfigMap", "a", "b")}, docs: 1},
		{name: "leading --- and comments", src: "# top\n---\n# a comment\napiVersion: v1 # trailing\nkind: Pod\nmetadata: {name: p}\n",
			want: []Object{obj(1, 0, 4, "v1", "Pod", "p", "")}, docs: 1},
		{name: "three documents, empty ones skipped", src: "---\napiVersion: v1\nkind: A\n---\n---\n# nothing\n--- # comment\napiVersion: v2\nkind: B\n...\n---\napiVersion: v3\nkind: C\n",
			want: []Object{obj(1, 0, 2, "v1", "A", "", ""), obj(2, 0, 8, "v2", "B", "", ""), obj(3, 0, 12, "v3", "C", "", "")}, docs: 3},
		{name: "document end then a bare document", src: "apiVersion: v1\nkind: A\n...\napiVersion: v1\nkind: B\n",
			want: []Object{obj(1, 0, 1, "v1", "A", "", ""), obj(2, 0, 4, "v1", "B", "", "")}, docs: 2},
		{name: "CRLF and BOM", src: "\ufeffapiVersion: apps/v1\r\nkind: Deployment\r\nmetadata:\r\n  name: web\r\n---\r\n\ufeffapiVersion: v1\r\nkind: Service\r\n",
			want: []Object{obj(1, 0, 1, "apps/v1", "Deployment", "web", ""), obj(2, 0, 6, "v1", "Service", "", "")}, docs: 2},
		{name: "quoted scalars", src: "\"apiVersion\": 'networking.k8s.io/v1'\nkind: \"Ingress\"\nmetadata:\n  name: 'it''s'\n  'namespace': \"ns\"\n",
			want: []Object{obj(1, 0, 1, "networking.k8s.io/v1", "Ingress", "it's", "ns")}, docs: 1},
		{name: "double-quoted escapes (slow path)", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"a\\x41\"\n",
			want: []Object{obj(1, 0, 1, "v1", "ConfigMap", "aA", "")}, docs: 1},
		{name: "flow metadata", src: "apiVersion: v1\nkind: Namespace\nmetadata: {name: x, namespace: y, labels: {a: b}}\n",
			want: []Object{obj(1, 0, 1, "v1", "Namespace", "x", "y")}, docs: 1},
		{name: "block scalars are content", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  script: |\n    apiVersion: v0\n    kind: Fake\n    metadata:\n      name: nope\n  folded: >-\n    kind: Other\nkind2: x\n",
			want: []Object{obj(1, 0, 1, "v1", "ConfigMap", "cm", "")}, docs: 1},
		{name: "tags", src: "apiVersion: !!str v1\nkind: !!str Pod\nmetadata:\n  name: !!str 123\n",
			want: []Object{obj(1, 0, 1, "v1", "Pod", "123", "")}, docs: 1},
		{name: "anchors and merge keys", src: "x-common: &common\n  name: shared\n  namespace: team\nx-defaults: &defaults\n  apiVersion: apps/v1\n  kind: Deployment\n" +
			"---\n<<: *defaults\nmetadata: *common\n---\napiVersion: &v batch/v1\nkind: Job\nmetadata:\n  <<: {name: job, namespace: ns}\n  namespace: own\n",
			want: []Object{obj(3, 0, 11, "batch/v1", "Job", "job", "own")}, problems: []int{8}, docs: 3, nots: 1},
		{name: "list", src: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: a\n-\n  apiVersion: v1\n  kind: Service\n  metadata: {name: b, namespace: n}\nmetadata:\n  resourceVersion: \"\"\n",
			want: []Object{obj(1, 1, 4, "apps/v1", "Deployment", "a", ""), obj(1, 2, 9, "v1", "Service", "b", "n")}, docs: 1},
		{name: "kubectl list order (items before kind)", src: "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\nkind: List\n",
			want: []Object{obj(1, 1, 3, "v1", "Pod", "p", "")}, docs: 1},
		{name: "typed list lends apiVersion and kind", src: "apiVersion: apps/v1\nkind: DeploymentList\nitems:\n  - metadata:\n      name: a\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: b\n",
			want: []Object{obj(1, 1, 4, "apps/v1", "Deployment", "a", ""), obj(1, 2, 6, "apps/v1", "Deployment", "b", "")}, docs: 1},
		{name: "empty list", src: "apiVersion: v1\nkind: List\nitems: []\n", docs: 1},
		{name: "top-level sequence", src: "- apiVersion: v1\n  kind: A\n- apiVersion: v1\n  kind: B\n",
			want: []Object{obj(1, 1, 1, "v1", "A", "", ""), obj(1, 2, 3, "v1", "B", "", "")}, docs: 1},
		{name: "json object", src: "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Secret\",\n  \"metadata\": {\"name\": \"s\", \"namespace\": \"n\"},\n  \"data\": {\"k\": \"dmFsdWU=\"}\n}\n",
			want: []Object{obj(1, 0, 2, "v1", "Secret", "s", "n")}, docs: 1},
		{name: "json list", src: `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}, {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}}]}`,
			want: []Object{obj(1, 1, 1, "apps/v1", "Deployment", "d", ""), obj(1, 2, 1, "v1", "Service", "s", "")}, docs: 1},
		{name: "json array", src: "[\n{\"apiVersion\": \"v1\", \"kind\": \"A\"},\n{\"apiVersion\": \"v1\", \"kind\": \"B\"}\n]\n",
			want: []Object{obj(1, 1, 2, "v1", "A", "", ""), obj(1, 2, 3, "v1", "B", "", "")}, docs: 1},
		{name: "concatenated json", src: "{\"apiVersion\": \"v1\", \"kind\": \"A\"}\n{\n \"apiVersion\": \"v1\",\n \"kind\": \"B\"\n}\n",
			want: []Object{obj(1, 0, 1, "v1", "A", "", ""), obj(2, 0, 3, "v1", "B", "", "")}, docs: 2},
		{name: "json with tabs", src: "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"A\",\n\t\"metadata\": {\n\t\t\"name\": \"x\"\n\t}\n}\n",
			want: []Object{obj(1, 0, 2, "v1", "A", "x", "")}, docs: 1},
		{name: "values file is not an object", src: "replicaCount: 2\nimage:\n  repository: nginx\n---\njust text\n", docs: 2, nots: 2},
		{name: "directive and marker with content", src: "%YAML 1.2\n---\napiVersion: v1\nkind: A\n...\n--- !!map\napiVersion: v1\nkind: B\n",
			want: []Object{obj(1, 0, 3, "v1", "A", "", ""), obj(2, 0, 7, "v1", "B", "", "")}, docs: 2},
		{name: "name that is not a string", src: "apiVersion: v1\nkind: A\nmetadata:\n  name: 12\n  namespace: {a: b}\n",
			want: []Object{obj(1, 0, 1, "v1", "A", "", "")}, docs: 1},
		{name: "compact sequences", src: "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    args:\n    - a\n    - b\n    ports:\n    - containerPort: 80\n  volumes: []\nmetadata:\n  name: p\n",
			want: []Object{obj(1, 0, 1, "v1", "Pod", "p", "")}, docs: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := read(t, tc.src)
			if diff := cmp.Diff(tc.want, r.Objects, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			var lines []int
			for _, p := range r.Problems {
				lines = append(lines, p.Line)
			}
			if diff := cmp.Diff(tc.problems, lines, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("problem lines (-want +got):\n%s\n%+v", diff, r.Problems)
			}
			if r.Documents != tc.docs || r.NotObjects != tc.nots {
				t.Errorf("documents %d, not objects %d; want %d, %d", r.Documents, r.NotObjects, tc.docs, tc.nots)
			}
		})
	}
}

func TestHelmTemplate(t *testing.T) {
	src := `---
# Source: app/templates/sa.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: app
---
# Source: app/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
# Source: other/templates/cm.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
---
apiVersion: v1
kind: Secret
metadata:
  name: no-source
`
	r := read(t, src)
	var got []string
	for _, o := range r.Objects {
		got = append(got, o.Template)
	}
	want := []string{"app/templates/sa.yaml", "app/templates/deploy.yaml", "other/templates/cm.yaml", ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}
	// A Source comment inside a document, with content after it, names
	// nothing.
	r = read(t, "apiVersion: v1\nkind: A\n# Source: x/templates/a.yaml\ndata:\n  k: v\n---\napiVersion: v1\nkind: B\n")
	if len(r.Objects) != 2 || r.Objects[0].Template != "" || r.Objects[1].Template != "" {
		t.Errorf("objects %+v; want no template", r.Objects)
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		says string
	}{
		{"tab indentation", "apiVersion: v1\nkind: A\nmetadata:\n\tname: x\n", 4, "tab"},
		{"unclosed quote", "apiVersion: v1\nkind: A\nmetadata:\n  name: \"x\n  namespace: y\n", 4, "not closed"},
		{"bad indentation", "apiVersion: v1\nkind: A\nmetadata:\n  name: x\n   namespace: y\n", 5, "\": \""},
		{"outdented key", "apiVersion: v1\nkind: A\nspec:\n  a:\n    b: 1\n   c: 2\n", 6, "indentation"},
		{"list among keys", "apiVersion: v1\nkind: A\nspec:\n  a: 1\n  - b\n", 5, "indentation"},
		{"value with colon", "apiVersion: v1\nkind: A\nspec:\n  cmd: echo a: b\n", 4, "\": \""},
		{"unclosed flow", "apiVersion: v1\nkind: A\nspec: {a: [1, 2}\n", 3, "not closed"},
		{"duplicate apiVersion", "apiVersion: v1\nkind: A\napiVersion: v2\n", 3, "two apiVersion keys"},
		{"duplicate kind in json", "{\"apiVersion\": \"v1\",\n\"kind\": \"A\",\n\"kind\": \"B\"}\n", 3, "two kind keys"},
		{"kind without apiVersion", "kind: Deployment\nmetadata:\n  name: x\n", 1, "no apiVersion"},
		{"apiVersion that is a number", "apiVersion: 1\nkind: A\n", 1, "not text"},
		{"unknown alias", "apiVersion: v1\nkind: A\nmetadata:\n  name: *nowhere\n", 4, "anchor"},
		{"item not an object", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: A\n- just text\n", 6, "item 2"},
		{"control character", "apiVersion: v1\nkind: A\nx: \x01\n", 3, "control character"},
		{"not UTF-8", "apiVersion: v1\nkind: A\nx: \xff\n", 3, "UTF-8"},
		{"bad escape", "apiVersion: v1\nkind: A\nx: \"\\q\"\n", 3, "escape"},
		{"JSON escape YAML refuses", "{\"apiVersion\": \"v1\",\n\"kind\": \"A\",\n\"x\": \"a\\/b\"}\n", 3, "write the character itself"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src + "---\napiVersion: v1\nkind: After\n"
			r := read(t, src)
			if len(r.Problems) != 1 {
				t.Fatalf("problems = %+v; want one", r.Problems)
			}
			p := r.Problems[0]
			if p.Document != 1 || p.Line != tc.line || !strings.Contains(p.Message, tc.says) {
				t.Errorf("problem = %+v; want document 1, line %d, saying %q", p, tc.line, tc.says)
			}
			if n := len(r.Objects); n == 0 || r.Objects[n-1].Kind != "After" || r.Objects[n-1].Document != 2 {
				t.Errorf("objects = %+v; want the next document read", r.Objects)
			}
		})
	}
}

// TestAnnotationsNotRead checks the last-applied-configuration
// annotation, which holds an older copy of the object, is not read.
func TestAnnotationsNotRead(t *testing.T) {
	for _, src := range []string{
		`apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"extensions/v1beta1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"old"}}
  name: web
  namespace: prod
`,
		`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"extensions/v1beta1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"old\"}}\n"}, "name": "web", "namespace": "prod"}}`,
		`apiVersion: apps/v1
kind: Deployment
metadata:
  annotations: {kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"extensions/v1beta1","kind":"Deployment"}'}
  name: web
  namespace: prod
`,
	} {
		r := read(t, src)
		want := []Object{{Document: 1, Line: 1, APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Namespace: "prod"}}
		if diff := cmp.Diff(want, r.Objects); diff != "" {
			t.Errorf("objects (-want +got):\n%s", diff)
		}
	}
}

func TestStreamErrors(t *testing.T) {
	ok := "apiVersion: v1\nkind: A\n---\n"
	tests := []struct {
		name string
		src  string
		lim  Limits
		is   error
		docs int
	}{
		{"too large", strings.Repeat(ok, 100), Limits{MaxBytes: 1000}, ErrTooLarge, 37},
		{"NUL", ok + ok + "a: \x00\n" + ok, Limits{}, ErrBinary, 2},
		{"UTF-16", "\xff\xfea\x00:\x00", Limits{}, ErrBinary, 0},
		{"too many documents", strings.Repeat(ok, 10), Limits{MaxDocuments: 3}, ErrTooMany, 3},
		{"too many objects", "apiVersion: v1\nkind: List\nitems:\n" + strings.Repeat("- {apiVersion: v1, kind: A}\n", 10), Limits{MaxObjects: 4}, ErrTooMany, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Read(strings.NewReader(tc.src), tc.lim)
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v; want %v", err, tc.is)
			}
			if r == nil || r.Documents != tc.docs {
				t.Errorf("documents = %d; want %d read before the error", r.Documents, tc.docs)
			}
			if strings.Contains(err.Error(), "\x00") {
				t.Errorf("error %q quotes the input", err)
			}
		})
	}
}

func TestDocumentTooLarge(t *testing.T) {
	big := "apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + strings.Repeat("a", 5000) + "\n"
	r, err := Read(strings.NewReader(big+"---\napiVersion: v1\nkind: B\n"), Limits{MaxDocumentBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "larger than the 4 KiB limit") || len(r.Objects) != 1 {
		t.Errorf("result = %+v", r)
	}
}

func TestResultJSON(t *testing.T) {
	r := read(t, "apiVersion: v1\nkind: A\nmetadata:\n  name: n\n")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"objects":[{"document":1,"line":1,"apiVersion":"v1","kind":"A","name":"n"}],"documents":1}`
	if string(b) != want {
		t.Errorf("json = %s; want %s", b, want)
	}
}

// TestProblemLines breaks the real-world documents a line at a time and
// checks the problems point at the broken line (or the next: an
// over-indented first key is valid, and the line after it is not).
func TestProblemLines(t *testing.T) {
	muts := []struct {
		name       string
		mut        func(string) string
		exact, one float64 // shares on the line, and within one line
	}{
		{"indented one more", func(l string) string { return " " + l }, 0.6, 0.9},
		{"indented one less", func(l string) string { return strings.TrimPrefix(l, " ") }, 0.6, 0.9},
		{"tab", func(l string) string { return "\t" + strings.TrimLeft(l, " ") }, 1, 1},
		{"key in a value", func(l string) string { return l + ": x" }, 0.6, 0.9},
		{"quote left open", func(l string) string { return strings.Replace(l, ": ", ": \"", 1) }, 0.75, 0.85},
		{"dash among keys", func(l string) string { return strings.Replace(l, "  ", "- ", 1) }, 0.8, 0.85},
	}
	for _, m := range muts {
		exact, one, total := 0, 0, 0
		for _, d := range realWorld {
			lines := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
			for i := range lines {
				ls := append([]string{}, lines...)
				if ls[i] = m.mut(ls[i]); ls[i] == lines[i] {
					continue
				}
				r := read(t, strings.Join(ls, "\n")+"\n")
				if len(r.Problems) != 1 {
					continue
				}
				total++
				switch l := r.Problems[0].Line; {
				case l == i+1:
					exact++
					one++
				case l == i+2 || l == i:
					one++
				}
			}
		}
		if total == 0 || float64(exact) < m.exact*float64(total) || float64(one) < m.one*float64(total) {
			t.Errorf("%s: %d problems, %d on the line, %d within one; want %.0f%% and %.0f%%", m.name, total, exact, one, 100*m.exact, 100*m.one)
		}
	}
}

// TestReadAfterADocumentOverOneMiB: after a document over 1 MiB the
// reader lets its buffer go; the new buffer must start with the newline a
// document's text is read after, or the next document that takes the
// slow path (an anchor here, as Argo CD's install.yaml has after its
// CRDs of several MiB) reads a NUL, fails as "holds a control character",
// and its object is lost.
func TestReadAfterADocumentOverOneMiB(t *testing.T) {
	var big strings.Builder
	big.WriteString("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: applications.argoproj.io\nspec:\n  description: |\n")
	for big.Len() < 1<<20+4096 {
		big.WriteString("    Application is a definition of Application resource, repeated to pass one MiB.\n")
	}
	small := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: small\n"
	slowDoc := "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: &m\n  name: argocd-server\n  namespace: argocd\n"
	src := big.String() + "---\n" + small + "---\n" + slowDoc
	r, err := Read(strings.NewReader(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 0 || len(r.Objects) != 3 || r.Objects[2].Kind != "Ingress" || r.Objects[2].Name != "argocd-server" {
		t.Errorf("objects %+v, problems %+v; want the CRD, the ConfigMap and the Ingress", r.Objects, r.Problems)
	}
}
