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
