package apilifecycle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
)

// seedFile adds a file of the shared data to a fuzz corpus when it is
// there; without ../shared the fuzz test still runs on the other seeds.
func seedFile(f *testing.F, elem ...string) {
	root := os.Getenv("KEPBOT_SHARED")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared")
	}
	data, err := os.ReadFile(filepath.Join(append([]string{root, "data", "api-lifecycle"}, elem...)...))
	if err == nil {
		f.Add(data)
	}
}

// bounded fails when a parse of n bytes took long: the parsers are linear.
func bounded(t *testing.T, start time.Time, n int) {
	if d := time.Since(start); d > time.Second+time.Duration(n)*time.Microsecond {
		t.Errorf("%d bytes took %v", n, d)
	}
}

func FuzzParseRegister(f *testing.F) {
	f.Add([]byte("package v1\nconst GroupName = \"apps\"\nfunc f(s *runtime.Scheme) {\n\ts.AddKnownTypes(gv,\n\t\t&Deployment{},\n\t)\n}\n"))
	f.Add([]byte("package v1\nvar SchemeGroupVersion = schema.GroupVersion{\"x.io\", \"v1\"}\nfunc f() { s.AddKnownTypeWithName(SchemeGroupVersion.WithKind(\"K\"), &k{}) }"))
	f.Add([]byte("package v1\n/* unclosed"))
	f.Add([]byte("package v1\nconst GroupName = \"a\nfunc f() { s.AddKnownTypes(`"))
	seedFile(f, "k8s.io-api", "release-1.37", "core", "v1", "register.go")
	seedFile(f, "k8s.io-api", "release-1.37", "scheduling", "v1alpha3", "register.go")
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		group, kinds, err := apilifecycle.ParseRegister(data)
		bounded(t, start, len(data))
		if err != nil {
			if group != "" || kinds != nil {
				t.Errorf("error %v with values %q %v", err, group, kinds)
			}
			if !utf8.ValidString(err.Error()) {
				t.Errorf("error message is not UTF-8: %q", err.Error())
			}
			return
		}
		if len(kinds) == 0 {
			t.Error("no kinds and no error")
		}
		seen := map[string]bool{}
		for _, k := range kinds {
			if seen[k] || k == "" || k[0] < 'A' || k[0] > 'Z' || strings.ContainsAny(k, ". {}&") {
				t.Errorf("kind %q (seen %v)", k, seen[k])
			}
			seen[k] = true
		}
		if strings.ContainsAny(group, " \"/\n") {
			t.Errorf("group %q", group)
		}
	})
}

func FuzzParseMarkers(f *testing.F) {
	f.Add([]byte(markersSample))
	f.Add([]byte("package v1\nfunc (in *X) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 2\n}\n"))
	f.Add([]byte("package v1\nfunc (in *X) APILifecycleReplacement() schema.GroupVersionKind {\n\treturn schema.GroupVersionKind{Group: \"a\", Version: \"v1\", Kind: \"B\"}\n}\n"))
	f.Add([]byte("package v1\nfunc (in *X) APILifecycleRemoved() (major, minor int) {{{{"))
	seedFile(f, "k8s.io-api", "release-1.37", "flowcontrol", "v1beta1", "zz_generated.prerelease-lifecycle.go")
	seedFile(f, "k8s.io-api", "release-1.37", "core", "v1", "zz_generated.prerelease-lifecycle.go")
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		ms, err := apilifecycle.ParseMarkers(data)
		bounded(t, start, len(data))
		if err != nil {
			if ms != nil {
				t.Errorf("error %v with markers", err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Errorf("error message is not UTF-8: %q", err.Error())
			}
			return
		}
		if len(ms) == 0 {
			t.Error("no markers and no error")
		}
		for k, m := range ms {
			if k == "" || strings.ContainsAny(k, ". *{}") {
				t.Errorf("kind %q", k)
			}
			for _, r := range []knowledge.Version{m.Introduced, m.Deprecated, m.Removed} {
				if r.Major < 0 || r.Minor < 0 || r.Major > 99 || r.Minor > 9999 {
					t.Errorf("%s: release %+v", k, r)
				}
			}
			if m.Replacement != nil && (!knowledge.IsAPIVersionName(m.Replacement.Version) || m.Replacement.Kind == "") {
				t.Errorf("%s: replacement %+v", k, *m.Replacement)
			}
		}
	})
}

// FuzzReadModuleTarGz: any stream gives a release or an error, never a
// panic.
func FuzzReadModuleTarGz(f *testing.F) {
	f.Add(tarGz(f, true, entry{name: "api-0.37.2/apps/v1/register.go", body: []byte(fmtRegister("apps", "v1", "Deployment"))}))
	f.Add(tarGz(f, false, entry{name: "apps/v1/register.go", typ: '2', link: "../x"}))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := apilifecycle.ReadModuleTarGzLimits(bytes.NewReader(data), "k8s.io/api", "v0.37.2",
			apilifecycle.TarLimits{MaxTotalBytes: 16 << 20, MaxEntries: 1000})
		if err == nil && len(r.APIs) == 0 {
			t.Error("a release without packages")
		}
	})
}
