package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// registered reads, apart from the parser, the group/versions k8s.io/api
// registers in one release: each folder with a register.go, named by its
// GroupName ("" is the core group).
func registered(t *testing.T, release string) map[string]string {
	t.Helper()
	root := sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", "release-"+release)
	files, err := filepath.Glob(filepath.Join(root, "*", "*", "register.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no register.go under %s: %v", root, err)
	}
	groupRe := regexp.MustCompile(`const GroupName = "([^"]*)"`)
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := groupRe.FindSubmatch(b)
		if m == nil {
			continue
		}
		version := filepath.Base(filepath.Dir(f))
		gv := version
		if len(m[1]) > 0 {
			gv = string(m[1]) + "/" + version
		}
		out[gv] = f
	}
	return out
}

// deprecatedBy reads, apart from the parser, the kinds whose lifecycle
// markers in one release say they are deprecated in it, by group/version.
func deprecatedBy(t *testing.T, release string) map[string][]string {
	t.Helper()
	minor := strings.TrimPrefix(release, "1.")
	depRe := regexp.MustCompile(`func \(in \*(\w+)\) APILifecycleDeprecated\(\) \(major, minor int\) \{\s+return 1, ` + minor + `\s`)
	out := map[string][]string{}
	for gv, reg := range registered(t, release) {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(reg), "zz_generated.prerelease-lifecycle.go"))
		if err != nil {
			continue // a GA version: no markers
		}
		for _, m := range depRe.FindAllSubmatch(b, -1) {
			if k := string(m[1]); !strings.HasSuffix(k, "List") {
				out[gv] = append(out[gv], k)
			}
		}
	}
	return out
}

// A release's lists hold what the API table says of it (issue 30, point
// 5), and an upgrade is the union of the lists of the releases it goes
// through, computed once: `1.37 removals` names every group/version
// release-1.37 of k8s.io/api no longer registers (read from the raw
// folders), `which APIs are deprecated in 1.36?` the kinds the 1.36
// markers deprecate in 1.36 (resource.k8s.io/v1beta2), 1.33 PR 130347
// (apidiscovery.k8s.io/v2beta1 off by default) is in `1.33 action
// required` and in `upgrade 1.32 1.33`, and every notice of 1.33-1.36's
// lists is in `upgrade 1.32 1.36`.
func TestReleaseListsHoldTheAPITable(t *testing.T) {
	before, after := registered(t, "1.36"), registered(t, "1.37")
	var gone []string
	for gv := range before {
		if _, ok := after[gv]; !ok {
			gone = append(gone, gv)
		}
	}
	if len(gone) == 0 {
		t.Fatal("release-1.37 of k8s.io/api registers every group/version of release-1.36; the test needs one it drops")
	}
	deprecated := deprecatedBy(t, "1.36")
	if len(deprecated["resource.k8s.io/v1beta2"]) == 0 {
		t.Fatalf("the 1.36 markers deprecate no kind of resource.k8s.io/v1beta2 in 1.36: %v", deprecated)
	}
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			apis := func(a *knowledge.Answer, kind knowledge.NoticeKind) map[string][]string {
				out := map[string][]string{}
				for _, n := range a.Notices {
					if n.API != nil && n.Lists(kind) {
						out[n.API.GroupVersion] = append(out[n.API.GroupVersion], n.API.Kinds...)
					}
				}
				return out
			}
			a := ask(t, e, "1.37 removals")
			got := apis(a, knowledge.NoticeRemoval)
			for _, gv := range gone {
				if _, ok := got[gv]; !ok {
					t.Errorf("1.37 removals (%q) lacks %s, which release-1.37 of k8s.io/api no longer registers", a.Text, gv)
				}
			}
			d, err := askChat(t, e, "which APIs are deprecated in 1.36?")
			if err != nil {
				t.Fatal(err)
			}
			got = apis(d, knowledge.NoticeDeprecation)
			for _, k := range deprecated["resource.k8s.io/v1beta2"] {
				if !contains(got["resource.k8s.io/v1beta2"], k) {
					t.Errorf("which APIs are deprecated in 1.36? lacks resource.k8s.io/v1beta2 %s (deprecated in 1.36 by its markers): %v", k, got)
				}
			}
			for _, q := range []string{"1.33 action required", "upgrade 1.32 1.33"} {
				if !listsPR(ask(t, e, q), 130347) {
					t.Errorf("%s lacks PR #130347 (apidiscovery.k8s.io/v2beta1 off by default)", q)
				}
			}
			up := ask(t, e, "upgrade 1.32 1.36")
			in := map[string]bool{}
			for _, n := range up.Notices {
				in[noticeID(n)] = true
			}
			removed := map[string]bool{}
			for _, n := range up.Notices {
				if n.IsAPIRemoval() {
					removed[n.API.GroupVersion] = true
				}
			}
			for _, v := range []string{"1.33", "1.34", "1.35", "1.36"} {
				for _, q := range []string{v + " deprecations", v + " removals", v + " action required"} {
					for _, n := range ask(t, e, q).Notices {
						if n.Kind == knowledge.NoticeDeprecation && n.API != nil && removed[n.API.GroupVersion] {
							continue // the range's removal of it stands for it
						}
						if !in[noticeID(n)] {
							t.Errorf("%s lists %q, which upgrade 1.32 1.36 does not", q, n.Title)
						}
					}
				}
			}
		})
	}
}

// noticeID names a notice the same in every list that holds it.
func noticeID(n knowledge.Notice) string {
	if n.API != nil {
		return fmt.Sprintf("%s|%s|%s", n.Release, n.Kind, n.API.GroupVersion)
	}
	return fmt.Sprintf("%s|%s|%d|%s", n.Release, n.Kind, n.PR, n.Title)
}
