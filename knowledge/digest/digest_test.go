package digest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// digestNotices are made-up notices in words of our own: two documents
// telling the same API removal, a KEP deprecation, a SIG named only in the
// words, and an upgrade note that digests leave out.
func digestNotices() []knowledge.Notice {
	v := knowledge.MustVersion
	return []knowledge.Notice{
		{Kind: knowledge.NoticeRemoval, Release: v("1.43"), Title: "Gadget v1beta1", Source: "guide", Line: 3,
			API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}},
		{Kind: knowledge.NoticeRemoval, Release: v("1.43"), Title: "Gadget (gadgets.example.io/v1beta1)", Source: "notes-1.43", Line: 9,
			Text: "The beta gadget API stops being served.",
			API:  &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}, ReplacedBy: "gadgets.example.io/v1"}},
		{Kind: knowledge.NoticeDeprecation, Release: v("1.41"), KEP: 9001, Title: "KEP-9001", FeatureGates: []string{"OldSprocket"}, Source: "notes-1.41"},
		{Kind: knowledge.NoticeDeprecation, Release: v("1.41"), KEP: 9001, Title: "KEP-9001", FeatureGates: []string{"OlderSprocket"}, Source: "post-1.41"},
		{Kind: knowledge.NoticeDeprecation, Release: v("1.42"), Title: "The flux flag", Text: "Owned by SIG Node; use the new flag.", Source: "notes-1.42"},
		{Kind: knowledge.NoticeRemoval, Release: v("1.40"), KEP: 9002, Title: "KEP-9002", Source: "notes-1.40"},
		{Kind: knowledge.NoticeUpgrade, Release: v("1.43"), Title: "Restart the gadget controller", Source: "notes-1.43"},
	}
}

var digestSIGs = map[int]string{9001: "sig-network", 9002: "sig-storage"}

func TestNoticeKeyJoinsDocuments(t *testing.T) {
	ns := digestNotices()
	if a, b := digest.NoticeKey(ns[0]), digest.NoticeKey(ns[1]); a != b {
		t.Errorf("one API removal, two keys: %q, %q", a, b)
	}
	if a, b := digest.NoticeKey(ns[2]), digest.NoticeKey(ns[3]); a != b {
		t.Errorf("one KEP deprecation, two keys: %q, %q", a, b)
	}
	set := digest.NewNoticeSet(ns, digestSIGs, nil)
	if set.Len() != 4 {
		t.Fatalf("set holds %d notices, want 4 (upgrade notes left out, repeats joined): %v", set.Len(), set.Keys())
	}
	d, _, ok := digest.BuildDigest(set, digest.Filter{}, digest.Seen{}, "w")
	if !ok {
		t.Fatal("no digest")
	}
	var gadget, kep knowledge.Notice
	for _, g := range d.Groups {
		for _, n := range g.Items {
			switch {
			case n.API != nil:
				gadget = n
			case n.KEP == 9001:
				kep = n
			}
		}
	}
	if gadget.API.ReplacedBy != "gadgets.example.io/v1" || gadget.Text == "" {
		t.Errorf("joined removal lost the fuller words: %+v %+v", gadget, gadget.API)
	}
	if diff := cmp.Diff([]string{"OldSprocket", "OlderSprocket"}, kep.FeatureGates); diff != "" {
		t.Errorf("joined deprecation gates (-want +got):\n%s", diff)
	}
	if got := ns[2].FeatureGates; len(got) != 1 {
		t.Errorf("joining wrote into the caller's notice: %v", got)
	}
}

func titles(d digest.Digest) []string {
	var out []string
	for _, g := range d.Groups {
		for _, n := range g.Items {
			out = append(out, g.Release.String()+" "+n.Title)
		}
	}
	return out
}

func TestBuildDigestFilters(t *testing.T) {
	set := digest.NewNoticeSet(digestNotices(), digestSIGs, nil)
	v := knowledge.MustVersion
	tests := []struct {
		name string
		f    digest.Filter
		want []string
	}{
		{"everything, oldest release first", digest.Filter{},
			[]string{"1.40 KEP-9002", "1.41 KEP-9001", "1.42 The flux flag", "1.43 Gadget v1beta1"}},
		{"from 1.41 means after 1.41", digest.Filter{From: v("1.41")},
			[]string{"1.42 The flux flag", "1.43 Gadget v1beta1"}},
		{"sig by the KEP's SIG", digest.Filter{SIG: "network"}, []string{"1.41 KEP-9001"}},
		{"sig by the words", digest.Filter{SIG: "node"}, []string{"1.42 The flux flag"}},
		{"sig and from", digest.Filter{SIG: "storage", From: v("1.40")}, nil},
		{"a SIG nobody names", digest.Filter{SIG: "apps"}, nil},
	}
	for _, tt := range tests {
		d, _, ok := digest.BuildDigest(set, tt.f, digest.Seen{}, "w")
		if ok != (tt.want != nil) {
			t.Errorf("%s: ok = %v", tt.name, ok)
		}
		if diff := cmp.Diff(tt.want, titles(d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestBuildDigestOnlyWhatIsNew(t *testing.T) {
	ns := digestNotices()
	seq := map[string]uint64{}
	for i, n := range ns[:4] { // the ledger saw the first four documents' notices first
		seq[digest.NoticeKey(n)] = uint64(i/2 + 1)
	}
	seq[digest.NoticeKey(ns[4])] = 7
	seq[digest.NoticeKey(ns[5])] = 8
	set := digest.NewNoticeSet(ns, digestSIGs, seq)

	d, seen, ok := digest.BuildDigest(set, digest.Filter{}, digest.Seen{Through: 2}, "w")
	if !ok || seen.Through != 8 {
		t.Fatalf("ok %v, seen %+v; want a digest and Through 8", ok, seen)
	}
	if diff := cmp.Diff([]string{"1.40 KEP-9002", "1.42 The flux flag"}, titles(d)); diff != "" {
		t.Errorf("new since 2 (-want +got):\n%s", diff)
	}
	if _, again, ok := digest.BuildDigest(set, digest.Filter{}, seen, "w"); ok || again != seen {
		t.Errorf("nothing is new after Through 8, got ok %v seen %+v", ok, again)
	}
}

func TestDigestIDIsDeterministic(t *testing.T) {
	ns := digestNotices()
	a, _, _ := digest.BuildDigest(digest.NewNoticeSet(ns, digestSIGs, nil), digest.Filter{}, digest.Seen{}, "weekly:2026-11-23T09:00Z")
	rev := make([]knowledge.Notice, len(ns))
	for i := range ns {
		rev[len(ns)-1-i] = ns[i]
	}
	b, _, _ := digest.BuildDigest(digest.NewNoticeSet(rev, digestSIGs, nil), digest.Filter{}, digest.Seen{}, "weekly:2026-11-23T09:00Z")
	if a.ID == "" || a.ID != b.ID {
		t.Errorf("same content, IDs %q and %q", a.ID, b.ID)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same notices in another order built another digest (-a +b):\n%s", diff)
	}
	c, _, _ := digest.BuildDigest(digest.NewNoticeSet(ns, digestSIGs, nil), digest.Filter{}, digest.Seen{}, "weekly:2026-11-30T09:00Z")
	if c.ID == a.ID {
		t.Error("another window, same ID")
	}
	d, _, _ := digest.BuildDigest(digest.NewNoticeSet(ns, digestSIGs, nil), digest.Filter{From: knowledge.MustVersion("1.41")}, digest.Seen{}, "weekly:2026-11-23T09:00Z")
	if d.ID == a.ID {
		t.Error("other content, same ID")
	}
	if len(a.ID) != 32 {
		t.Errorf("ID %q: want 32 hex characters", a.ID)
	}
}

func TestRenderDigest(t *testing.T) {
	d, _, _ := digest.BuildDigest(digest.NewNoticeSet(digestNotices(), digestSIGs, nil), digest.Filter{}, digest.Seen{}, "w")
	compact := digest.RenderDigest(&d, digest.FormatCompact)
	full := digest.RenderDigest(&d, digest.FormatFull)
	if compact.Kind != knowledge.KindList || compact.Title != "Deprecation digest: Kubernetes 1.40 to 1.43" {
		t.Errorf("compact: kind %q title %q", compact.Kind, compact.Title)
	}
	want := "New since this channel's last digest: 2 deprecations and 2 removals (1 API version no longer served) in Kubernetes 1.40 to 1.43."
	if compact.Text != want {
		t.Errorf("text %q\nwant %q", compact.Text, want)
	}
	for _, n := range compact.Notices {
		if n.Text != "" {
			t.Errorf("compact digest quotes %q", n.Text)
		}
	}
	var quoted int
	for _, n := range full.Notices {
		if n.Text != "" {
			quoted++
		}
	}
	if quoted != 2 {
		t.Errorf("full digest quotes %d notices, want 2", quoted)
	}
	if len(full.Facts) != 4 || full.Facts[3] != (knowledge.Fact{Name: "1.43", Value: "1 removal (1 API version no longer served)"}) {
		t.Errorf("facts %+v", full.Facts)
	}
	if d.Groups[3].Items[0].Text == "" {
		t.Error("rendering compact cleared the digest's own words")
	}
}

func TestSplitAnswer(t *testing.T) {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: "T", Text: "summary", Facts: []knowledge.Fact{{Name: "a", Value: "b"}}, Notes: []string{"note"}}
	for i := range 10 {
		a.Notices = append(a.Notices, knowledge.Notice{Title: fmt.Sprintf("n%d", i)})
	}
	size := func(p *knowledge.Answer) int { b, _ := json.Marshal(p); return len(b) }
	limit := size(&knowledge.Answer{Kind: a.Kind, Title: "T (99/99)", Text: a.Text, Facts: a.Facts, Notices: a.Notices[:3]})
	fits := func(p *knowledge.Answer) bool { return size(p) <= limit }

	parts := digest.SplitAnswer(a, fits)
	var got []string
	for i, p := range parts {
		if !fits(p) {
			t.Errorf("part %d does not fit", i)
		}
		for _, n := range p.Notices {
			got = append(got, n.Title)
		}
		if (p.Text != "") != (i == 0) || (len(p.Notes) > 0) != (i == len(parts)-1) {
			t.Errorf("part %d: text %q notes %v", i, p.Text, p.Notes)
		}
		if want := fmt.Sprintf("T (%d/%d)", i+1, len(parts)); p.Title != want {
			t.Errorf("part %d title %q, want %q", i, p.Title, want)
		}
	}
	if len(parts) < 3 {
		t.Errorf("%d parts; want at least 3", len(parts))
	}
	if diff := cmp.Diff([]string{"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"}, got); diff != "" {
		t.Errorf("notices lost or reordered (-want +got):\n%s", diff)
	}
	if one := digest.SplitAnswer(a, nil); len(one) != 1 || one[0] != a {
		t.Error("a nil fits must give the answer whole")
	}
	if one := digest.SplitAnswer(a, func(*knowledge.Answer) bool { return false }); len(one) != 10 {
		t.Errorf("nothing fits: %d parts, want one notice each", len(one))
	}
	if strings.Contains(a.Title, "(") {
		t.Error("splitting renamed the original")
	}
}
