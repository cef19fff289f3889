package manifest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// secretMark is in the data of the seeds' Secrets: it must never reach
// a Result.
const secretMark = "Zq8sEcReT"

func fuzzSeeds() []string {
	seeds := []string{
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: " + secretMark + "\nstringData:\n  token: \"" + secretMark + "\"\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  token: \"" + secretMark + "\n  broken: [\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {v: " + secretMark + "}\n  namespace: [" + secretMark + "]\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  key: *" + secretMark + "\n",
		"apiVersion: v1\nkind: Secret\ndata:\n\tkey: " + secretMark + "\n",
		"apiVersion: v1\nkind: Secret\ndata:\n  key: " + secretMark + ": x\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"k\": \"" + secretMark + "\"}, \"metadata\": {\"name\": 1}}",
		"{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"k\": \"" + secretMark + "\\/\"}}",
		"- apiVersion: v1\n  kind: Secret\n  data: {k: " + secretMark + "}\n- " + secretMark + "\n",
		"apiVersion: v1\nkind: Secret\ndata:\n  k: |\n    " + secretMark + "\n  \tx\n",
		"# Source: chart/templates/x.yaml\n---\napiVersion: v1\nkind: A\n",
		"%YAML 1.2\n---\napiVersion: v1\nkind: A\n...\n",
		"--- !!map\napiVersion: v1\nkind: A\n",
		"apiVersion: v1\nkind: A\n---\n\xef\xbb\xbfapiVersion: v1\r\nkind: B\r\n",
		"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\napiVersion: v1\nkind: A\nmetadata:\n  <<: [*b]\n",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
		"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: A}\n- x\n-\n- - y\n",
		"Server Version: version.Info{Major:\"1\", Minor:\"22+\", GitVersion:\"v1.22.3-eks\"}\n",
	}
	seeds = append(seeds, realWorld...)
	return seeds
}

var (
	// knownMessage matches every Problem message this package writes,
	// with numbers taken out.
	knownMessage = regexp.MustCompile(`^(` + strings.Join([]string{
		`the object has (two \w+ keys|a kind but no apiVersion|an apiVersion but no kind)`,
		`the (apiVersion|kind) of (the object|item N of the list) is (not text|empty)`,
		`item N of the list (is not an object|has no apiVersion and no kind|has two \w+ keys|has a kind but no apiVersion|has an apiVersion but no kind)`,
		`the items of the list are not a list`,
		`N more items of this document have problems`,
		`the document is larger than the [N.]+ (MiB|KiB|bytes) limit for one document`,
		`the document nests more than N levels deep`,
		`the document holds more than N values in a form only the slow YAML reader takes .*`,
		`the document follows more than N aliases or merge keys \(an alias bomb\?\)`,
	}, "|") + `)$`)
	versionForm = regexp.MustCompile(`^([0-9]{1,3}\.[0-9]{1,3})?$`)
	digitsRE    = regexp.MustCompile(`[0-9]+`)
)

func messageKnown(m string) bool {
	if knownMessage.MatchString(digitsRE.ReplaceAllString(m, "N")) {
		return true
	}
	for _, y := range yamlMessages {
		if m == y.msg {
			return true
		}
	}
	return m == msgTab || m == msgInvalid || m == msgPanic || m == msgUTF8 || m == msgControl || m == msgOpenQuote || m == msgMoreThanOne || m == msgJSONEscape
}

// checkResult checks what a Result may hold, whatever the input: fixed
// problem messages, a release for a server version, templates from
// Source comments, and the secret mark only where the input names an
// object with it.
func checkResult(t *testing.T, in []byte, r *Result) {
	t.Helper()
	for _, p := range r.Problems {
		if !messageKnown(p.Message) {
			t.Fatalf("problem message %q is not a fixed one", p.Message)
		}
		if p.Line < 1 || p.Document < 1 {
			t.Fatalf("problem %+v has no place", p)
		}
	}
	if !versionForm.MatchString(r.ServerVersion) {
		t.Fatalf("server version %q", r.ServerVersion)
	}
	for _, o := range r.Objects {
		if o.Template != "" && !fromSource(in, o.Template) {
			t.Fatalf("template %q is not from a Source comment", o.Template)
		}
		if o.APIVersion == "" || o.Kind == "" || o.Line < 1 || o.Document < 1 {
			t.Fatalf("object %+v is incomplete", o)
		}
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(secretMark)) && !markNamesObject(in) {
		t.Fatalf("the secret mark leaked: %s", out)
	}
}

// fromSource reports whether a "# Source:" comment of in names tmpl.
func fromSource(in []byte, tmpl string) bool {
	for _, l := range bytes.Split(in, []byte("\n")) {
		if _, p, ok := bytes.Cut(l, []byte("# Source: ")); ok && string(bytes.TrimSpace(p)) == tmpl {
			return true
		}
	}
	return false
}

// markNamesObject reports whether the input may name an object with the
// secret mark: on a line with one of the keys that are read, through an
// anchor, or on a line that may go on a scalar of the line before.
func markNamesObject(in []byte) bool {
	for _, l := range bytes.Split(in, []byte("\n")) {
		if !bytes.Contains(l, []byte(secretMark)) {
			continue
		}
		for _, k := range []string{"apiVersion", "kind", "name", "items", "metadata", "&", "- " + secretMark, "-" + secretMark} {
			if bytes.Contains(l, []byte(k)) {
				return true
			}
		}
		if t := bytes.TrimSpace(l); bytes.HasPrefix(t, []byte(secretMark)) || bytes.HasPrefix(t, []byte("\""+secretMark)) || bytes.HasPrefix(t, []byte("'"+secretMark)) {
			return true // a line of a multi-line scalar, or a key
		}
		if len(l) > 0 && (l[0] == ' ' || l[0] == '\t') && !bytes.Contains(l, []byte(": ")) {
			return true // the next line of a multi-line plain scalar
		}
	}
	return false
}

// FuzzRead checks Read never panics, bounds what it holds, and never
// lets a value other than the four it reads into the Result.
func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	lim := Limits{MaxBytes: 1 << 20, MaxDocumentBytes: 64 << 10, MaxDepth: 50}
	f.Fuzz(func(t *testing.T, in []byte) {
		r, _ := Read(bytes.NewReader(in), lim)
		if r == nil {
			t.Fatal("nil Result")
		}
		checkResult(t, in, r)
	})
}

// FuzzPaths runs the differential check on fuzzed documents: where the
// fast path reads one, the slow path must read the same.
func FuzzPaths(f *testing.F) {
	for _, s := range fuzzSeeds() {
		for _, d := range splitDocs(s) {
			f.Add(d)
		}
	}
	f.Fuzz(func(t *testing.T, d string) {
		if strings.Contains(d, "\n---") || strings.HasPrefix(d, "---") || strings.Contains(d, "\n...") || strings.HasPrefix(d, "...") || strings.Contains(d, "\r") {
			return // the reader splits and joins these before either path sees them
		}
		ok, fr, sr := bothPaths(d, Limits{MaxDepth: 50})
		if !ok {
			return
		}
		if fr.Problem != sr.Problem || fr.NotObject != sr.NotObject || len(fr.Objects) != len(sr.Objects) {
			t.Fatalf("fast %+v, slow %+v\n%s", fr, sr, quoteDoc(d))
		}
		for i := range fr.Objects {
			if fr.Objects[i] != sr.Objects[i] {
				t.Fatalf("fast %+v, slow %+v\n%s", fr.Objects[i], sr.Objects[i], quoteDoc(d))
			}
		}
	})
}
