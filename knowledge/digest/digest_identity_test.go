package digest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

func TestNoticeAliases(t *testing.T) {
	v := knowledge.MustVersion("1.41")
	long := strings.Repeat("a very long title ", 20)
	tests := []struct {
		name string
		n    knowledge.Notice
		want []string
	}{
		{"a release-note entry is its PR, whatever KEP and gates it names",
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, PR: 501, KEP: 9001, FeatureGates: []string{"OldSprocket"}, Title: "Deprecate sprockets."},
			[]string{"deprecation|1.41|pr=501"}},
		{"an entry removing an API version is also that version",
			knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, PR: 502, Title: "Stop serving gadgets.",
				API: &knowledge.APIChange{GroupVersion: "Gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}},
			[]string{"removal|1.41|api=gadgets.example.io/v1beta1", "removal|1.41|pr=502"}},
		{"an API removal is its group/version, without kinds",
			knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, KEP: 9003, Title: "Gadget",
				API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget", "GadgetList"}}},
			[]string{"removal|1.41|api=gadgets.example.io/v1beta1", "removal|1.41|kep=9003"}},
		{"a KEP the document names, and each gate",
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, KEP: 9001, FeatureGates: []string{"OldSprocket", "OlderSprocket"}, Title: "KEP-9001"},
			[]string{"deprecation|1.41|gate=oldersprocket", "deprecation|1.41|gate=oldsprocket", "deprecation|1.41|kep=9001"}},
		{"a KEP found through a gate is not the notice's",
			knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, KEP: 9001, KEPVia: knowledge.KEPViaGate, FeatureGates: []string{"OldSprocket"}, Title: "Gate gone"},
			[]string{"removal|1.41|gate=oldsprocket"}},
		{"only words: the title and the place",
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: "  The  Flux flag ", Source: "notes-1.41", Line: 12},
			[]string{"deprecation|1.41|at=notes-1.41#12", "deprecation|1.41|title=the flux flag"}},
		{"only words, place unknown",
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: "The flux flag", Source: "snapshot"},
			[]string{"deprecation|1.41|title=the flux flag"}},
		{"a long title is kept as its hash",
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: long},
			[]string{"deprecation|1.41|title=sha256:"}},
	}
	for _, tt := range tests {
		got := digest.NoticeAliases(tt.n)
		if strings.HasSuffix(tt.want[0], "sha256:") {
			if len(got) != 1 || !strings.HasPrefix(got[0], tt.want[0]) || len(got[0]) != len(tt.want[0])+32 {
				t.Errorf("%s: %q; want one %s<32 hex digits>", tt.name, got, tt.want[0])
			}
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// gateCorpus is a note's removal that names only a feature gate, and,
// with kep, the kep.yaml of the KEP that owns the gate.
func gateCorpus(kep bool) *knowledge.Corpus {
	c := &knowledge.Corpus{Notices: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.41"),
		Title: "The OldSprocket gate is gone", FeatureGates: []string{"OldSprocket"}, Source: "notes-1.41", Line: 7}}}
	if kep {
		c.KEPs = []knowledge.KEP{{Number: 9001, Title: "Sprockets", SIG: "sig-network", FeatureGates: []string{"OldSprocket"}, Source: "kep.yaml"}}
	}
	return c
}

func onlyNotice(t *testing.T, k *knowledge.Knowledge) knowledge.Notice {
	t.Helper()
	if len(k.Releases) != 1 || len(k.Releases[0].Notices) != 1 {
		t.Fatalf("want one release with one notice: %+v", k.Releases)
	}
	return k.Releases[0].Notices[0]
}

// TestKEPFromAGateKeepsTheAliases: when kep.yaml links a notice to a KEP
// through its gate, Compile says so (KEPVia), the item it belongs to
// changes (NoticeKey) and what the ledger knows it by does not.
func TestKEPFromAGateKeepsTheAliases(t *testing.T) {
	before := onlyNotice(t, knowledge.Compile(gateCorpus(false)))
	after := onlyNotice(t, knowledge.Compile(gateCorpus(true)))
	if after.KEP != 9001 || after.KEPVia != knowledge.KEPViaGate || before.KEPVia != "" {
		t.Fatalf("before %d %q, after %d %q; want KEP-9001 via gate once kep.yaml is known", before.KEP, before.KEPVia, after.KEP, after.KEPVia)
	}
	if diff := cmp.Diff(digest.NoticeAliases(before), digest.NoticeAliases(after)); diff != "" {
		t.Errorf("aliases changed with kep.yaml (-before +after):\n%s", diff)
	}
	if digest.NoticeKey(before) == digest.NoticeKey(after) {
		t.Errorf("item key %q did not change: the test no longer covers a key that moves", digest.NoticeKey(after))
	}
}

// TestNoticeSetItems: what documents tell of one thing is one item (one
// API version removed, listed with other kinds by the guide; one KEP
// deprecated, told by two notes); two release-note entries are two items
// even about one KEP and one gate.
func TestNoticeSetItems(t *testing.T) {
	v := knowledge.MustVersion("1.43")
	ns := []knowledge.Notice{
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget (gadgets.example.io/v1beta1)", Source: "notes-1.43", Line: 4,
			API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget and GadgetClass", Source: "guide", Line: 40,
			API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget", "GadgetClass"}, ReplacedBy: "gadgets.example.io/v1"}},
		{Kind: knowledge.NoticeDeprecation, Release: v, KEP: 9001, Title: "Sprockets", Source: "notes-1.43", Line: 9},
		{Kind: knowledge.NoticeDeprecation, Release: v, KEP: 9001, Title: "Sprockets, again", FeatureGates: []string{"OldSprocket"}, Source: "post-1.43", Line: 3},
		{Kind: knowledge.NoticeDeprecation, Release: v, PR: 601, KEP: 9001, FeatureGates: []string{"OldSprocket"}, Title: "Deprecate the sprocket flag.", Source: "notes-1.43.json"},
		{Kind: knowledge.NoticeDeprecation, Release: v, PR: 602, KEP: 9001, FeatureGates: []string{"OldSprocket"}, Title: "Deprecate the sprocket field.", Source: "notes-1.43.json"},
	}
	set := digest.NewNoticeSet(ns, nil, nil)
	want := []string{
		"deprecation|1.43|kep:9001",
		"deprecation|1.43|pr:601",
		"deprecation|1.43|pr:602",
		"removal|1.43|api:gadgets.example.io/v1beta1",
	}
	if diff := cmp.Diff(want, set.Keys()); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	ids := set.Identities()
	if diff := cmp.Diff([]string{"deprecation|1.43|gate=oldsprocket", "deprecation|1.43|kep=9001"}, ids[0].Aliases); diff != "" {
		t.Errorf("the KEP's item's aliases, from both notes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"removal|1.43|api:gadgets.example.io/v1beta1:gadget", "removal|1.43|api:gadgets.example.io/v1beta1:gadget,gadgetclass"}, ids[3].Legacy); diff != "" {
		t.Errorf("the API item's legacy keys, one per document (-want +got):\n%s", diff)
	}
	for _, id := range ids[1:3] {
		if len(id.Legacy) != 0 || len(id.LegacyAtUpgrade) != 1 || id.LegacyAtUpgrade[0] != "deprecation|1.43|kep:9001" {
			t.Errorf("a release-note entry's old keys: %q always, %q at the upgrade; want its KEP's at the upgrade only", id.Legacy, id.LegacyAtUpgrade)
		}
	}
	for _, id := range ids {
		for _, a := range id.Aliases {
			for _, l := range id.Legacy {
				if a == l {
					t.Errorf("alias %q is also a legacy key", a)
				}
			}
		}
	}
}

// ledgerSim is a channel subscribed to everything, over a real store,
// told what is new after each change of knowledge.
type ledgerSim struct {
	t    *testing.T
	db   *store.DB
	seen digest.Seen
}

func newLedgerSim(t *testing.T) *ledgerSim {
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &ledgerSim{t: t, db: db}
}

// tell replaces the knowledge with c compiled, and returns the titles of
// what is new to the channel, which it then counts as told.
func (s *ledgerSim) tell(c *knowledge.Corpus) []string {
	s.t.Helper()
	ctx := context.Background()
	if err := s.db.Knowledge().ReplaceKnowledge(ctx, knowledge.Compile(c)); err != nil {
		s.t.Fatal(err)
	}
	set, err := digest.LoadNoticeSet(ctx, s.db.Knowledge(), s.db.Subscriptions())
	if err != nil {
		s.t.Fatal(err)
	}
	d, seen, ok := digest.BuildDigest(set, digest.Filter{}, s.seen, "release")
	s.seen = seen
	if !ok {
		return nil
	}
	return titles(d)
}

// TestLedgerKeepsWhatWasTold walks one channel through knowledge that
// grows: what it was told is never new again, whatever links, joins or
// kinds the new sources add; a new release-note entry about a KEP it was
// told of is new.
func TestLedgerKeepsWhatWasTold(t *testing.T) {
	v := knowledge.MustVersion("1.41")
	note := knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, Title: "The OldSprocket gate is gone", FeatureGates: []string{"OldSprocket"}, Source: "notes-1.41", Line: 7}
	api := knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget v1beta1", Source: "notes-1.41", Line: 9,
		API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}}
	words := knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: "The flux flag", Source: "notes-1.41", Line: 11}
	entry := func(pr int) knowledge.Change {
		return knowledge.Change{Release: v, PR: pr, KEPs: []int{9001}, Names: []string{"OldSprocket"}, Notice: knowledge.NoticeDeprecation,
			Text: "Deprecated the OldSprocket feature gate.", Source: "notes-1.41.json"}
	}
	kep := knowledge.KEP{Number: 9001, Title: "Sprockets", FeatureGates: []string{"OldSprocket"}, Source: "kep.yaml"}

	s := newLedgerSim(t)
	first := s.tell(&knowledge.Corpus{Notices: []knowledge.Notice{note, api, words}, Changes: []knowledge.Change{entry(701)}})
	if len(first) != 4 {
		t.Fatalf("first digest %q; want the four notices", first)
	}
	steps := []struct {
		name string
		c    knowledge.Corpus
		want []string
	}{
		{"kep.yaml links the note to KEP-9001",
			knowledge.Corpus{KEPs: []knowledge.KEP{kep}, Notices: []knowledge.Notice{note, api, words}, Changes: []knowledge.Change{entry(701)}}, nil},
		{"a post names KEP-9001 with the gate; the guide lists more kinds",
			knowledge.Corpus{KEPs: []knowledge.KEP{kep}, Changes: []knowledge.Change{entry(701)}, Notices: []knowledge.Notice{note, api, words,
				{Kind: knowledge.NoticeRemoval, Release: v, KEP: 9001, Title: "Sprockets lose a gate", FeatureGates: []string{"OldSprocket"}, Source: "post-1.41", Line: 2},
				{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget and GadgetClass", Source: "guide", Line: 30,
					API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget", "GadgetClass"}}},
			}}, nil},
		{"the note is reworded in place, and loses kep.yaml",
			knowledge.Corpus{Changes: []knowledge.Change{entry(701)}, Notices: []knowledge.Notice{note, api,
				{Kind: knowledge.NoticeDeprecation, Release: v, Title: "The --flux flag is deprecated", Source: "notes-1.41", Line: 11}}}, nil},
		{"a second entry about KEP-9001",
			knowledge.Corpus{KEPs: []knowledge.KEP{kep}, Notices: []knowledge.Notice{note, api, words}, Changes: []knowledge.Change{entry(701), entry(702)}},
			[]string{"1.41 Deprecated the OldSprocket feature gate."}},
	}
	for _, st := range steps {
		if diff := cmp.Diff(st.want, s.tell(&st.c)); diff != "" {
			t.Errorf("%s: new (-want +got):\n%s", st.name, diff)
		}
	}
}

// TestLedgerOrderDoesNotMatter: the same three sources told in any order
// end with the channel told each thing once.
func TestLedgerOrderDoesNotMatter(t *testing.T) {
	v := knowledge.MustVersion("1.41")
	parts := map[string]knowledge.Corpus{
		"note": {Notices: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gates gone", FeatureGates: []string{"OldSprocket", "OldGadget"}, Source: "notes-1.41", Line: 7}}},
		"post": {Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Release: v, KEP: 9001, Title: "Sprockets lose a gate", FeatureGates: []string{"OldSprocket"}, Source: "post-1.41", Line: 2},
			{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget gate gone", FeatureGates: []string{"OldGadget"}, Source: "post-1.41", Line: 5},
		}},
		"kep.yaml": {KEPs: []knowledge.KEP{
			{Number: 9001, Title: "Sprockets", FeatureGates: []string{"OldSprocket"}, Source: "kep.yaml"},
			{Number: 9002, Title: "Gadgets", FeatureGates: []string{"OldGadget"}, Source: "kep.yaml"},
		}},
	}
	for _, order := range [][]string{
		{"note", "post", "kep.yaml"}, {"note", "kep.yaml", "post"}, {"post", "note", "kep.yaml"},
		{"post", "kep.yaml", "note"}, {"kep.yaml", "note", "post"}, {"kep.yaml", "post", "note"},
	} {
		s := newLedgerSim(t)
		var c knowledge.Corpus
		told := 0
		for i, name := range order {
			p := parts[name]
			c.Add(&p)
			got := s.tell(&c)
			told += len(got)
			if i > 0 && name == "kep.yaml" && len(got) > 0 {
				t.Errorf("%v: kep.yaml alone made %q new", order, got)
			}
		}
		// The note's removal and the post's two share gates: the channel
		// hears of them once, as the first document with notices tells.
		first := order[0]
		if first == "kep.yaml" {
			first = order[1]
		}
		if want := map[string]int{"note": 1, "post": 2}[first]; told != want {
			t.Errorf("%v: told %d items in all, want %d", order, told, want)
		}
	}
}
