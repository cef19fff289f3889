package engine_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// firstRegistered reads, apart from the parser, the first release of
// k8s.io/api (from 1.20: 1.19 is the oldest read, so what it has may be
// older) whose register.go registers each group/version/kind.
func firstRegistered(t *testing.T) map[knowledge.APIRef]knowledge.Version {
	t.Helper()
	root := sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var releases []knowledge.Version
	for _, d := range dirs {
		if v, err := knowledge.ParseVersion(strings.TrimPrefix(d.Name(), "release-")); err == nil {
			releases = append(releases, v)
		}
	}
	sort.Slice(releases, func(i, j int) bool { return releases[i].Less(releases[j]) })
	groupRe := regexp.MustCompile(`const GroupName = "([^"]*)"`)
	kindRe := regexp.MustCompile(`&(\w+)\{\}`)
	first := map[knowledge.APIRef]knowledge.Version{}
	for _, v := range releases {
		files, _ := filepath.Glob(filepath.Join(root, "release-"+v.String(), "*", "*", "register.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g := groupRe.FindSubmatch(b)
			if g == nil {
				continue
			}
			for _, k := range kindRe.FindAllSubmatch(b, -1) {
				kind := string(k[1])
				if strings.HasSuffix(kind, "List") || strings.HasSuffix(kind, "Options") || kind == "Status" || kind == "WatchEvent" {
					continue
				}
				ref := knowledge.APIRef{Group: string(g[1]), Version: filepath.Base(filepath.Dir(f)), Kind: kind}
				if _, ok := first[ref]; !ok {
					first[ref] = v
				}
			}
		}
	}
	for ref, v := range first {
		if v == releases[0] {
			delete(first, ref) // carried by the oldest release read: it may be older
		}
	}
	return first
}

// The API table states no more than its sources (issue 30, point 6): a
// type is introduced in the first release whose register.go registers it
// (ClusterTrustBundle in 1.27, not the 1.26 its markers planned), read
// from the raw folders for every type the modules came to carry after
// 1.19; a replacement and a "will not be removed" a note gives count (v1
// Endpoints: use EndpointSlice, per 1.33 PR 130098); request payloads
// (AdmissionReview, ImageReview) are never "served"; an alpha
// group/version says it needs --runtime-config as well as its gate.
func TestAPITableStatesNoMore(t *testing.T) {
	first := firstRegistered(t)
	if v := first[knowledge.APIRef{Group: "certificates.k8s.io", Version: "v1alpha1", Kind: "ClusterTrustBundle"}]; v.String() != "1.27" {
		t.Fatalf("the raw folders say ClusterTrustBundle v1alpha1 came in %s; the test expects 1.27", v)
	}
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			table, err := e.APIs(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for ref, v := range first {
				l, ok := table.Lookup(ref)
				if !ok {
					continue // a kind no served API has (the parser keeps what it reads)
				}
				checked++
				if l.Introduced != v {
					t.Errorf("%s: introduced %s; its register.go first registers it in %s", ref, l.Introduced, v)
				}
			}
			if checked < 50 {
				t.Errorf("checked %d types' introduction; want the many that came after 1.19", checked)
			}
			a := ask(t, e, "api certificates.k8s.io/v1alpha1")
			text := answerText(a)
			if !strings.Contains(text, "introduced 1.27") || strings.Contains(text, "introduced 1.26") {
				t.Errorf("api certificates.k8s.io/v1alpha1: %s; want ClusterTrustBundle introduced 1.27", text)
			}
			if !strings.Contains(text, "--runtime-config=certificates.k8s.io/v1alpha1=true") {
				t.Errorf("api certificates.k8s.io/v1alpha1 does not say the alpha version needs --runtime-config: %s", text)
			}
			text = answerText(ask(t, e, "api v1 Endpoints"))
			if !strings.Contains(text, "discovery.k8s.io/v1 EndpointSlice") || !strings.Contains(text, "will not be removed") || !strings.Contains(text, "130098") {
				t.Errorf("api v1 Endpoints: %s; want EndpointSlice named and that it will not be removed, per PR #130098", text)
			}
			for _, q := range []string{"api AdmissionReview", "api ImageReview"} {
				text := answerText(ask(t, e, q))
				if strings.Contains(text, "served in") || !strings.Contains(text, "never served") {
					t.Errorf("%s: %s; a request payload is never served", q, text)
				}
			}
		})
	}
}

// answerText is an answer's words: its text, facts, items and notes.
func answerText(a *knowledge.Answer) string {
	parts := []string{a.Text}
	for _, f := range a.Facts {
		parts = append(parts, f.Name+" "+f.Value)
	}
	for _, it := range a.Items {
		parts = append(parts, it.Title, it.Text)
	}
	parts = append(parts, a.Notes...)
	return strings.Join(parts, "\n")
}
