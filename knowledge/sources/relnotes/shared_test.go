package relnotes

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// sharedReleases are the releases whose sig-release files ../shared holds.
var sharedReleases = func() []knowledge.Version {
	var vs []knowledge.Version
	for n := 25; n <= 36; n++ {
		vs = append(vs, knowledge.Version{Major: 1, Minor: n})
	}
	return vs
}()

// sharedPath is the path of a file of release v in ../shared.
func sharedPath(t testing.TB, v knowledge.Version, file string) string {
	t.Helper()
	return sharedtest.Path(t, "data", "sig-release", "releases", "release-"+v.String(), file)
}

func readShared(t testing.TB, v knowledge.Version, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedPath(t, v, file))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sharedStamp is what the sig-release SOURCE.md says.
func sharedStamp(t testing.TB) provenance.Stamp {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "data", "sig-release", provenance.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return provenance.Parse(data).Stamp
}

var (
	notesMu    sync.Mutex
	notesCache = map[knowledge.Version]*knowledge.Corpus{}
)

// sharedNotes parses the notes of release v in ../shared, once per run.
func sharedNotes(t testing.TB, v knowledge.Version) *knowledge.Corpus {
	t.Helper()
	notesMu.Lock()
	defer notesMu.Unlock()
	if c, ok := notesCache[v]; ok {
		return c
	}
	c, _, err := ParseNotes(v, fmt.Sprintf("release-%s/%s", v, NotesFile), readShared(t, v, NotesFile), sharedStamp(t))
	if err != nil {
		t.Fatal(err)
	}
	notesCache[v] = c
	return c
}

// change returns the Change of pull request pr in the notes of v.
func change(t testing.TB, v knowledge.Version, pr int) knowledge.Change {
	t.Helper()
	for _, ch := range sharedNotes(t, v).Changes {
		if ch.PR == pr {
			return ch
		}
	}
	t.Fatalf("no change for PR %d in the %s notes", pr, v)
	return knowledge.Change{}
}

// Small made-up files for the tests.
const (
	tinyNotes = `{"1": {"pr_number": 1, "text": "Removed the ` + "`Foo`" + ` flag.", "kinds": ["cleanup"]}}`
	tinyPage  = "# Kubernetes v1.40: Tiny\n- 2026-04-22: Kubernetes v1.40.0 released\n"
)
