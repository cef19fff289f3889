package question

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/ingest"
)

// The KEPs of ../shared, read once: every kep.yaml, with the names the
// release notes and posts give them.
var (
	sharedOnce sync.Once
	sharedList []*knowledge.KEP
	sharedErr  error
)

// loadShared reads the KEPs of ../shared (skipping the test without it, or
// failing it when CI is set).
func loadShared(t testing.TB) []*knowledge.KEP {
	t.Helper()
	paths := []string{sharedtest.Path(t, "seeds"), sharedtest.Path(t, "data", "enhancements"), sharedtest.Path(t, "data", "website")}
	sharedOnce.Do(func() {
		res, err := ingest.Load(paths)
		if err != nil {
			sharedErr = err
			return
		}
		k := knowledge.Compile(res.Corpus)
		for i := range k.KEPs {
			sharedList = append(sharedList, &k.KEPs[i])
		}
	})
	if sharedErr != nil {
		t.Fatalf("read ../shared: %v", sharedErr)
	}
	return sharedList
}

// rates reads every phrasing with r and returns the share read right in
// each category, logging each miss; confidentWrong counts the phrasings
// answered with a question other than the one wanted (for negatives: any).
func rates(t *testing.T, r *Reader) (byCat map[string][2]int, confidentWrong []string) {
	byCat = map[string][2]int{}
	for _, p := range phrasings {
		q, err := r.Read(context.Background(), p.text)
		got := ""
		if err == nil {
			got = q.Canonical()
		}
		c := byCat[p.cat]
		c[1]++
		if got == p.want {
			c[0]++
		} else {
			msg := ""
			if e, ok := err.(*knowledge.Error); ok {
				msg = e.Message
			}
			t.Logf("miss [%s] %q: got %q %s, want %q", p.cat, p.text, got, msg, p.want)
			if got != "" {
				confidentWrong = append(confidentWrong, fmt.Sprintf("[%s] %q read as %q", p.cat, p.text, got))
			}
		}
		byCat[p.cat] = c
	}
	return byCat, confidentWrong
}

// report logs the rate of each category and overall, and fails under the
// targets: 95% overall, no negative answered.
func report(t *testing.T, byCat map[string][2]int, wrong []string) {
	cats := make([]string, 0, len(byCat))
	right, all := 0, 0
	for c, n := range byCat {
		cats = append(cats, c)
		right += n[0]
		all += n[1]
	}
	sort.Strings(cats)
	var b strings.Builder
	for _, c := range cats {
		n := byCat[c]
		fmt.Fprintf(&b, "\n  %-20s %3d/%3d  %5.1f%%", c, n[0], n[1], 100*float64(n[0])/float64(n[1]))
	}
	fmt.Fprintf(&b, "\n  %-20s %3d/%3d  %5.1f%%", "overall", right, all, 100*float64(right)/float64(all))
	t.Logf("phrasings read right:%s", b.String())
	if 100*right < 95*all {
		t.Errorf("%d of %d phrasings read right (%.1f%%); the target is 95%%", right, all, 100*float64(right)/float64(all))
	}
	for _, w := range wrong {
		if strings.HasPrefix(w, "["+catNegative+"]") {
			t.Errorf("a negative was answered as a fact: %s", w)
		}
	}
	if len(wrong) > 0 {
		t.Logf("answered with another question than wanted: %d\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
}

// TestPhrasings reads every phrasing with the names of ../shared's KEPs.
func TestPhrasings(t *testing.T) {
	if len(phrasings) < 150 {
		t.Fatalf("%d phrasings; the set must hold at least 150", len(phrasings))
	}
	r := NewReader(StaticKEPs(loadShared(t)))
	byCat, wrong := rates(t, r)
	report(t, byCat, wrong)
}

// TestHeldOut reads the phrasings written after tuning (heldOut) and
// reports their rate; it fails only when a negative is answered.
func TestHeldOut(t *testing.T) {
	r := NewReader(StaticKEPs(loadShared(t)))
	saved := phrasings
	phrasings = heldOut
	defer func() { phrasings = saved }()
	byCat, wrong := rates(t, r)
	right, all := 0, 0
	for _, n := range byCat {
		right += n[0]
		all += n[1]
	}
	t.Logf("held-out phrasings read right: %d/%d (%.1f%%)", right, all, 100*float64(right)/float64(all))
	for _, w := range wrong {
		if strings.HasPrefix(w, "["+catNegative+"]") {
			t.Errorf("a negative was answered as a fact: %s", w)
		}
	}
}
