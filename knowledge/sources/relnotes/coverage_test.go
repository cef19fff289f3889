package relnotes

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// rawEntry is an entry as the test reads it, apart from the parser.
type rawEntry struct {
	PR            int    `json:"pr_number"`
	Text          string `json:"text"`
	DoNotPublish  bool   `json:"do_not_publish"`
	Documentation []struct {
		URL  string `json:"url"`
		Type string `json:"type"`
	} `json:"documentation"`
}

// TestEveryEntryIsAChange checks, for each of the twelve releases, that
// every entry not marked do_not_publish becomes one Change of its PR, and
// that every link to a KEP (its tracking issue, its folder) gives that
// KEP's number; links to enhancements pull requests and commits name no
// KEP and are counted apart.
func TestEveryEntryIsAChange(t *testing.T) {
	sharedtest.Root(t)
	total, links, numberless := 0, 0, 0
	for _, v := range sharedReleases {
		t.Run(v.String(), func(t *testing.T) {
			var raw map[string]rawEntry
			if err := json.Unmarshal(readShared(t, v, NotesFile), &raw); err != nil {
				t.Fatal(err)
			}
			want := map[int]rawEntry{}
			for _, e := range raw {
				if !e.DoNotPublish {
					want[e.PR] = e
				}
			}
			c := sharedNotes(t, v)
			if len(c.Changes) != len(want) {
				t.Errorf("%d changes, want %d (the entries not marked do_not_publish)", len(c.Changes), len(want))
			}
			if len(c.Skipped) != 0 {
				t.Errorf("skipped %v", c.Skipped)
			}
			for _, ch := range c.Changes {
				e, ok := want[ch.PR]
				if !ok {
					t.Errorf("PR %d is not an entry to publish", ch.PR)
					continue
				}
				if ch.Release != v || ch.Source != NotesSourceID(v) || ch.Text != strings.TrimSpace(e.Text) ||
					!strings.HasSuffix(ch.URL, "/"+strconv.Itoa(ch.PR)) {
					t.Errorf("PR %d: release %s, source %s, URL %s, text %.40q", ch.PR, ch.Release, ch.Source, ch.URL, ch.Text)
				}
				for _, d := range e.Documentation {
					n, kind := linkedKEP(d.URL)
					switch {
					case kind == "" && d.Type == "KEP":
						t.Errorf("PR %d: a KEP link of a form the test does not know: %s", ch.PR, d.URL)
					case kind == "":
					case n == 0:
						numberless++
					case !slices.Contains(ch.KEPs, n):
						t.Errorf("PR %d: link %s is KEP-%d, not in %v", ch.PR, d.URL, n, ch.KEPs)
					default:
						links++
					}
				}
			}
			total += len(c.Changes)
		})
	}
	t.Logf("%d changes; %d KEP links read, %d links to enhancements pull requests, commits or old KEP files naming no KEP", total, links, numberless)
	if links < 650 {
		t.Errorf("only %d KEP links read; the published entries hold over 650", links)
	}
}

// linkedKEP reads a link to kubernetes/enhancements (or a fork) by string
// operations, apart from the parser's patterns: kind "issue" or "folder"
// with the KEP number, kind "other" (a pull request, a commit, a file of
// the old numbering) with none, or kind "" for a link elsewhere.
func linkedKEP(u string) (int, string) {
	i := strings.Index(u, "enhancements/")
	if i < 0 || !(strings.Contains(u, "github.com/") || strings.Contains(u, "git.k8s.io/")) {
		return 0, ""
	}
	rest := u[i+len("enhancements/"):]
	if strings.Contains(u, "github.com/kubernetes/enhancements/") {
		for _, p := range []string{"issues/", "issue/"} {
			if s, ok := strings.CutPrefix(rest, p); ok {
				return leadingNumber(s), "issue"
			}
		}
	}
	if j := strings.Index(rest, "keps/"); j >= 0 {
		segs := strings.Split(rest[j+len("keps/"):], "/")
		for k, s := range segs {
			if k > 3 {
				break
			}
			end := strings.IndexAny(s, "#?)>] ")
			if end >= 0 {
				s = s[:end]
			}
			digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
			if digits > 0 && strings.IndexByte(s, '-') == digits && !strings.Contains(s, ".") {
				return leadingNumber(s), "folder"
			}
		}
	}
	return 0, "other"
}

func leadingNumber(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}
