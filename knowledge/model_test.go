package knowledge

import (
	"testing"
)

// TestNoticeAction: an upgrade note and a notice marked action required
// belong among the urgent notes; only the marked notice of another kind
// carries the tag.
func TestNoticeAction(t *testing.T) {
	for _, tt := range []struct {
		n             Notice
		needs, tagged bool
	}{
		{Notice{Kind: NoticeUpgrade}, true, false},
		{Notice{Kind: NoticeUpgrade, Action: true}, true, false},
		{Notice{Kind: NoticeRemoval, Action: true}, true, true},
		{Notice{Kind: NoticeDeprecation}, false, false},
	} {
		if got := tt.n.NeedsAction(); got != tt.needs {
			t.Errorf("%s action %v: NeedsAction %v, want %v", tt.n.Kind, tt.n.Action, got, tt.needs)
		}
		if got := tt.n.ActionTagged(); got != tt.tagged {
			t.Errorf("%s action %v: ActionTagged %v, want %v", tt.n.Kind, tt.n.Action, got, tt.tagged)
		}
	}
}

// TestAPIChangeJoin: two documents' accounts of one API version join
// into one, and a replacement stays with the kinds its document gives it
// for (issue 30: policy/v1 replaces policy/v1beta1's PodDisruptionBudget,
// not its PodSecurityPolicy).
func TestAPIChangeJoin(t *testing.T) {
	pdb := func() *APIChange {
		return &APIChange{GroupVersion: "policy/v1beta1", Kinds: []string{"PodDisruptionBudget"}, ReplacedBy: "policy/v1", Since: MustVersion("1.21")}
	}
	psp := func() *APIChange {
		return &APIChange{GroupVersion: "policy/v1beta1", Kinds: []string{"PodSecurityPolicy"}}
	}
	for _, tc := range []struct {
		name string
		a, b *APIChange
		want string
	}{
		{"a replacement, then kinds without one", pdb(), psp(), "policy/v1 for PodDisruptionBudget"},
		{"kinds without one, then a replacement", psp(), pdb(), "policy/v1 for PodDisruptionBudget"},
		{"the same replacement", pdb(), &APIChange{Kinds: []string{"Eviction"}, ReplacedBy: "policy/v1"}, "policy/v1"},
		{"another replacement for other kinds", pdb(), &APIChange{Kinds: []string{"X"}, ReplacedBy: "other/v1"}, "policy/v1 for PodDisruptionBudget"},
		{"no kinds said: the version as a whole", &APIChange{ReplacedBy: "policy/v1"}, psp(), "policy/v1"},
		{"nothing new", pdb(), pdb(), "policy/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.a.Join(tc.b)
			if got := tc.a.Replacement(); got != tc.want {
				t.Errorf("Replacement() = %q (kinds %v, for %v); want %q", got, tc.a.Kinds, tc.a.ReplacedFor, tc.want)
			}
		})
	}
}
