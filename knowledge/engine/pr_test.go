package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// prTruth reads the release notes as data of ../shared independently of
// the engine: every published pull request, with the releases whose notes
// list it and the KEPs its documentation links to.
func prTruth(t *testing.T) map[int]prFacts {
	t.Helper()
	out := map[int]prFacts{}
	for minor := 25; minor <= 36; minor++ {
		v := fmt.Sprintf("1.%d", minor)
		b, err := os.ReadFile(sharedtest.Path(t, "data", "sig-release", "releases", "release-"+v, "release-notes", "release-notes-draft.json"))
		if err != nil {
			t.Fatal(err)
		}
		var notes map[string]struct {
			PR           int  `json:"pr_number"`
			DoNotPublish bool `json:"do_not_publish"`
		}
		if err := json.Unmarshal(b, &notes); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		for _, n := range notes {
			if !n.DoNotPublish {
				f := out[n.PR]
				f.releases = append(f.releases, v)
				out[n.PR] = f
			}
		}
	}
	if len(out) < 3000 {
		t.Fatalf("read %d pull requests from the release notes; want them all (over 3,000)", len(out))
	}
	return out
}

type prFacts struct{ releases []string }

// TestPRAnswers: pr N names the release whose notes list pull request N,
// for one in every 40 of the notes' pull requests, on the whole corpus and
// on the built-in snapshot; a pasted link asks the same; a pull request no
// notes list is a miss that names the releases looked in.
func TestPRAnswers(t *testing.T) {
	truth := prTruth(t)
	prs := make([]int, 0, len(truth))
	for n := range truth {
		prs = append(prs, n)
	}
	sort.Ints(prs)
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			checked := 0
			for i := 0; i < len(prs); i += 40 {
				n := prs[i]
				a, err := e.Answer(t.Context(), knowledge.Question{Kind: knowledge.AskPR, Words: fmt.Sprint(n)})
				if err != nil {
					t.Errorf("pr %d: %v", n, err)
					continue
				}
				var got []string
				for _, it := range a.Items {
					got = append(got, it.Release.String())
				}
				if strings.Join(got, ",") != strings.Join(truth[n].releases, ",") {
					t.Errorf("pr %d: releases %v; the notes list it in %v", n, got, truth[n].releases)
				}
				if len(a.Sources) == 0 {
					t.Errorf("pr %d: no source", n)
				}
				checked++
			}
			if checked < 80 {
				t.Errorf("checked %d pull requests; want 80 or more", checked)
			}
			a, err := askChat(t, e, "https://github.com/kubernetes/kubernetes/pull/129207")
			if err != nil || a.UnderstoodAs != "pr 129207" || len(a.Items) != 1 || a.Items[0].Release.String() != "1.33" ||
				!strings.Contains(a.Items[0].Title, "removal notice") {
				t.Errorf("the link to PR 129207: %+v, %v; want its 1.33 entry, a removal notice, read as pr 129207", a, err)
			}
			_, err = e.Answer(t.Context(), knowledge.Question{Kind: knowledge.AskPR, Words: "1"})
			if knowledge.ErrorCode(err) != knowledge.ENOTFOUND || !strings.Contains(err.Error(), "1.25–1.36") {
				t.Errorf("pr 1: %v; want a miss naming the releases looked in (1.25–1.36)", err)
			}
		})
	}
}

// TestAttributeFirst: a question about one attribute of a KEP or a release
// is answered with that attribute first, taken from the sources, then the
// card; the runners-up of a feature's name are named in one line.
func TestAttributeFirst(t *testing.T) {
	keps := kepYAMLTruth(t)
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct{ text, lead string }{
				{"which SIG owns KEP 1287?", "KEP-1287 is owned by " + keps[1287].SIG + "."},
				{"KEP 1287 属于哪个 SIG", "KEP-1287 is owned by " + keps[1287].SIG + "."},
				{"which feature gates does KEP 4639 use?", "KEP-4639 has one feature gate: " + keps[4639].FeatureGates[0] + "."},
				{"who should I ask about KEP 753", "Ask " + keps[753].SIG + ": KEP-753 is theirs."},
				{"1.33 的代号是什么", "The theme (code name) of 1.33 is Octarine (The Color of Magic)."},
				{"when was 1.33 released", "1.33 was released on 2025-04-23."},
			} {
				a, err := askChat(t, e, tc.text)
				if err != nil {
					t.Errorf("%q: %v", tc.text, err)
					continue
				}
				if first, _, _ := strings.Cut(a.Text, "\n"); !strings.HasPrefix(first, tc.lead) || first == a.Text {
					t.Errorf("%q: text %q; want it to lead with %q", tc.text, a.Text, tc.lead)
				}
			}
			// The card itself is unchanged, and asked in the grammar it has no lead.
			a, err := e.Answer(t.Context(), knowledge.Question{Kind: knowledge.AskKEP, KEP: 1287})
			if err != nil || strings.Contains(a.Text, "is owned by") {
				t.Errorf("kep 1287: %v %q", err, a.Text)
			}
		})
	}
}

// TestRunnersUpLine: a lead and an "Also matched" line never change the
// shared answer they are made from, and name each runner-up with a button.
func TestRunnersUpLine(t *testing.T) {
	a := &knowledge.Answer{Kind: knowledge.KindKEP, Text: "card", KEP: &knowledge.KEPFacts{Number: 753, SIG: "sig-node"},
		Notes: make([]string, 1, 4), Suggest: make([]string, 0, 4)}
	q := knowledge.Question{Kind: knowledge.AskKEP, KEP: 753, Free: true, Focus: knowledge.FocusSIG,
		Also: []knowledge.KEPRef{{Number: 4438, Title: "Restarting sidecar containers during Pod termination"}}}
	got := knowledge.Understood(a, q)
	if got.Text != "KEP-753 is owned by sig-node.\ncard" || !strings.HasPrefix(got.Notes[1], "Also matched: KEP-4438 (Restarting sidecar containers") ||
		len(got.Suggest) != 1 || got.Suggest[0] != "kep 4438" {
		t.Errorf("Understood: text %q, notes %q, suggestions %q", got.Text, got.Notes, got.Suggest)
	}
	if a.Text != "card" || len(a.Notes) != 1 || len(a.Suggest[:cap(a.Suggest)][0]) != 0 {
		t.Errorf("the shared answer changed: %+v", a)
	}
	q.Free = false // asked in the grammar: the card as it is
	if got := knowledge.Understood(a, q); got != a {
		t.Errorf("a grammar question's answer was copied: %+v", got)
	}
}

// TestNoticeGatesAreTakenAsTyped: a feature gate only release-note
// notices name (GenericEphemeralVolume, no kep.yaml lists it so) is one
// the engine answers, so the reader must not read it as a KEP's gate
// spelt near it.
func TestNoticeGatesAreTakenAsTyped(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			gates, err := e.NoticeGates(t.Context())
			if err != nil || !contains(gates, "GenericEphemeralVolume") {
				t.Fatalf("NoticeGates: %v; want GenericEphemeralVolume among %d", err, len(gates))
			}
			a, err := askChat(t, e, "gate GenericEphemeralVolume")
			if err != nil || a.UnderstoodAs != "" || !strings.Contains(a.Title, "GenericEphemeralVolume") {
				t.Errorf("gate GenericEphemeralVolume: %v, read as %q, title %q", err, a.UnderstoodAs, a.Title)
			}
		})
	}
}
