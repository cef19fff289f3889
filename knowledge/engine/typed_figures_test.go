package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// Issue 21, points 4, 5 and 8, as tests over everything in ../shared and
// over the built-in snapshot: the same answers from both.

// noticePRs are the pull requests of an answer's notices.
func noticePRs(a *knowledge.Answer) map[int]bool {
	out := map[int]bool{}
	for _, n := range a.Notices {
		if n.PR > 0 {
			out[n.PR] = true
		}
	}
	return out
}

// TestListsReadWhatEntriesDo (point 4): an entry is a removal or a
// deprecation by what its words say it does, whatever its kind; one
// change several sources tell is one item naming them all.
func TestListsReadWhatEntriesDo(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for _, tt := range []struct {
				q   string
				pr  int
				why string
			}{
				{"1.34 removals", 131961, "kind bug: kube-proxy removed the iptables CLI wait interval flag"},
				{"1.34 removals", 132352, "kind bug: removed the deprecated flag --wait-interval"},
				{"1.33 removals", 129589, "kind feature: kubeadm removed the feature gate EtcdLearnerMode"},
				{"1.33 deprecations", 129933, "kind cleanup: flipped StorageNamespaceIndex to false and deprecated it"},
				{"1.34 deprecations", 129373, "kind feature: started deprecating --cpu-precent"},
				{"1.36 removals", 134981, "kind bug: three cAdvisor metrics removed"},
			} {
				if a := ask(t, e, tt.q); !noticePRs(a)[tt.pr] {
					t.Errorf("%s lacks PR #%d (%s): %q", tt.q, tt.pr, tt.why, a.Text)
				}
			}
			for _, tt := range []struct {
				q   string
				pr  int
				why string
			}{
				{"1.34 deprecations", 131085, "kind deprecation, but it respects a label"},
				{"1.34 deprecations", 132080, "kind deprecation, but it prefixes error messages"},
			} {
				// upstream's label puts them in the list (issue 30); kepbot's
				// reading still finds no deprecation in their words, and says so
				for _, n := range ask(t, e, tt.q).Notices {
					if n.PR == tt.pr && !n.LabelOnly() {
						t.Errorf("%s reads PR #%d as a %s (%s); want it listed by its label alone", tt.q, tt.pr, n.Kind, tt.why)
					}
				}
			}

			a := ask(t, e, "1.32 removals")
			const gv = "flowcontrol.apiserver.k8s.io/v1beta3"
			var items []knowledge.Notice
			for _, n := range a.Notices {
				if n.API != nil && n.API.GroupVersion == gv || n.PR == 127017 {
					items = append(items, n)
				}
			}
			if len(items) != 1 || items[0].PR != 127017 || items[0].API == nil || items[0].API.ReplacedBy != "flowcontrol.apiserver.k8s.io/v1" {
				t.Fatalf("1.32 removals tells the removal of %s %d times: %+v; want once, with PR #127017 and its replacement", gv, len(items), items)
			}
			told := ""
			for _, n := range a.Notes {
				if strings.Contains(n, gv) {
					told = n
				}
			}
			if !strings.Contains(told, "Kubernetes 1.32 release notes (sig-release)") || !strings.Contains(told, "told by") {
				t.Errorf("1.32 removals names no sources of the one %s removal: notes %q", gv, a.Notes)
			}
			if name == "corpus" && !strings.Contains(told, "told by 6 sources") {
				t.Errorf("on the whole corpus the %s removal is told by the notes, the guide, the Chinese note and three posts: %q", gv, told)
			}
		})
	}
}

// countOf reads the number a release card's fact gives ("5", "321
// entries, 7 action required" is 321).
func countOf(a *knowledge.Answer, fact string) int {
	for _, f := range a.Facts {
		if f.Name == fact {
			var n int
			fmt.Sscanf(f.Value, "%d", &n)
			return n
		}
	}
	return 0
}

var upgradeNotesRe = regexp.MustCompile(`(\d+) upgrade notes? \(action required\)`)

// TestCountsAgree (point 5): each count is computed once and shown the
// same everywhere: the release card, the lists, the upgrade, the JSON.
func TestCountsAgree(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			actions := 0
			for _, v := range []string{"1.33", "1.34", "1.35", "1.36"} {
				card := ask(t, e, v)
				for _, tt := range []struct{ fact, q string }{
					{"Upgrade notes", v + " action required"}, {"Removals", v + " removals"}, {"Deprecations", v + " deprecations"},
				} {
					if got, list := countOf(card, tt.fact), len(ask(t, e, tt.q).Notices); got != list {
						t.Errorf("%s: the card's %q is %d, %q lists %d", v, tt.fact, got, tt.q, list)
					}
				}
				actions += len(ask(t, e, v+" action required").Notices)
				c := card.Release.Enhancements
				if want := fmt.Sprintf("%d GA, %d beta, %d alpha", c.Stable, c.Beta, c.Alpha); c.IsZero() || !strings.Contains(card.Text, want) {
					t.Errorf("%s: release.enhancements %+v, text %q", v, c, card.Text)
				}
				for _, r := range ask(t, e, "releases").Releases {
					if r.Version == v && r.Enhancements != c {
						t.Errorf("releases says %s has %+v, its card %+v", v, r.Enhancements, c)
					}
				}
			}
			u := ask(t, e, "upgrade 1.32 1.36")
			m := upgradeNotesRe.FindStringSubmatch(u.Text)
			if m == nil || m[1] != fmt.Sprint(actions) {
				t.Errorf("upgrade 1.32 1.36: %q; want the %d upgrade notes of 1.33-1.36's action required lists", u.Text, actions)
			}
		})
	}
}

// TestSnapshotNoticesHaveMeaning (point 8): the built-in snapshot keeps
// facts with their meaning: typed changes, whole totals and links, no
// summary made of a note's backticked words.
func TestSnapshotNoticesHaveMeaning(t *testing.T) {
	engines := fullEngines(t)
	for name, e := range engines {
		t.Run(name, func(t *testing.T) {
			for _, n := range ask(t, e, "1.27 removals").Notices {
				if strings.Contains(n.Title, "Seccomp to GA") {
					t.Errorf("1.27 removals: %q (PR #%d) reads as if seccomp's GA were removed", n.Title, n.PR)
				}
			}
			for _, n := range ask(t, e, "1.33 deprecations").Notices {
				if n.PR == 129970 && n.Title != "Deprecated the API resource.k8s.io/v1beta1 (use resource.k8s.io/v1beta2)" {
					t.Errorf("1.33 deprecations: PR #129970 titled %q; v1beta2 replaces v1beta1, it is not deprecated", n.Title)
				}
			}
			for _, n := range ask(t, e, "1.35 removals").Notices {
				if n.PR == 134685 && (n.API != nil || !strings.Contains(n.Title, "kubectl")) {
					t.Errorf("1.35 removals: PR #134685 %q (API %+v); kubectl dropped its support, the API server did not", n.Title, n.API)
				}
			}
			for _, n := range ask(t, e, "upgrade 1.32 1.36").Notices {
				if strings.Contains(n.Title, "no summary") {
					t.Errorf("upgrade 1.32 1.36: %q (PR #%d)", n.Title, n.PR)
				}
			}
			for v, want := range map[string]int{"1.33": 248, "1.34": 321, "1.35": 233, "1.36": 340} {
				if got := countOf(ask(t, e, v), "Release notes"); got != want || got != notesEntries(t, v) {
					t.Errorf("%s: %d release-note entries; the notes hold %d", v, got, want)
				}
			}
			if k := ask(t, e, "kep 753"); k.KEP == nil || len(k.KEP.ReleaseNotes) != 13 {
				t.Errorf("kep 753 names %d release-note entries; 13 link to it", len(k.KEP.ReleaseNotes))
			}
		})
	}
	// Every notice of a release-note entry is titled alike on both
	// databases: from its typed changes, else (the snapshot) its pull
	// request alone, never a fragment of its words.
	full, snap := engines["corpus"], engines["snapshot"]
	prTitle := regexp.MustCompile(`^Pull request #\d+$`)
	for _, v := range []string{"1.25", "1.27", "1.30", "1.33", "1.34", "1.35", "1.36"} {
		titles := map[int]string{}
		for _, n := range ask(t, full, v+" notices").Notices {
			if n.PR > 0 {
				titles[n.PR] = n.Title
			}
		}
		for _, n := range ask(t, snap, v+" notices").Notices {
			if n.PR == 0 {
				continue
			}
			if ft := titles[n.PR]; n.Title != ft && !prTitle.MatchString(n.Title) {
				t.Errorf("%s: PR #%d is titled %q on the snapshot, %q on the corpus", v, n.PR, n.Title, ft)
			}
		}
	}
}

// notesEntries counts the published entries of one release's notes, read
// from ../shared apart from the parser.
func notesEntries(t *testing.T, v string) int {
	t.Helper()
	b, err := os.ReadFile(sharedtest.Path(t, "data", "sig-release", "releases", "release-"+v, "release-notes", "release-notes-draft.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries map[string]struct {
		DoNotPublish bool `json:"do_not_publish"`
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.DoNotPublish {
			n++
		}
	}
	return n
}
