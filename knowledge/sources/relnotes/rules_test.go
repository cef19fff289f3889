package relnotes

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

const (
	dep = knowledge.NoticeDeprecation
	rem = knowledge.NoticeRemoval
	upg = knowledge.NoticeUpgrade
)

// TestClassifyRealEntries checks each rule of Classify on real entries of
// the notes in ../shared, found by release and PR number; why says what
// the entry says that decides it.
func TestClassifyRealEntries(t *testing.T) {
	sharedtest.Root(t)
	tests := []struct {
		release string
		pr      int
		want    knowledge.NoticeKind
		why     string
	}{
		// rule 1: kind deprecation, removed or not
		{"1.25", 108624, rem, "kind deprecation; the deprecated flag was removed"},
		{"1.25", 109798, rem, "kind deprecation; an admission plugin deprecated since 1.21 is removed"},
		{"1.28", 116720, rem, `kind deprecation; a removal after a comma, past a clause holding "to be"`},
		{"1.26", 112797, dep, "kind deprecation; deprecated now, removal promised for a later release"},
		{"1.31", 124500, dep, "kind deprecation; plugins deprecated and only taken out of the defaults"},
		{"1.35", 134539, dep, "kind deprecation; marked deprecated, removal in the future"},
		{"1.36", 136400, dep, "kind deprecation; a volume plugin disabled, no removal word"},
		{"1.33", 130347, upg, "an API group/version off by default: served no more unless asked for (issue 30)"},
		{"1.28", 118143, dep, "kind deprecation, action required: still a deprecation"},
		// rule 2: api-change or cleanup removing a named thing
		{"1.25", 108797, rem, "cleanup, action required: beta APIs due for removal stop being served"},
		{"1.25", 111618, rem, "cleanup, action required: an in-tree volume plugin completely removed"},
		{"1.26", 112015, rem, "cleanup: an in-tree driver deprecated in 1.25 is now removed"},
		{"1.29", 119495, rem, "cleanup: an API version no longer served"},
		{"1.29", 121246, rem, "cleanup: a GA feature gate removed"},
		{"1.31", 124546, rem, "cleanup, action required: an in-tree plugin removed"},
		{"1.31", 124316, rem, "cleanup: an alpha gRPC API no longer supported (its text says ACTION-REQUIRED, its flag does not)"},
		{"1.32", 127017, rem, "cleanup: an API version no longer served"},
		{"1.35", 134913, rem, `cleanup: opens with "Dropped"; an API version in kubectl`},
		{"1.36", 135322, rem, "cleanup: an in-tree volume plugin and its GA feature gate removed"},
		// rule 2's limits: no thing users name, not this release, not a thing
		{"1.25", 110022, "", `cleanup: a removal of an earlier release, after "given"`},
		{"1.26", 112000, "", "cleanup: the use of a flag removed, not the flag"},
		{"1.27", 107826, dep, `cleanup: functions deprecated; their removal comes only "until" later`},
		{"1.27", 113267, "", "cleanup: an RBAC rule removed; nothing users name (api in a role name is not an API)"},
		{"1.32", 128296, "", "api-change: restrictions on a flag removed, not the flag"},
		{"1.35", 133778, dep, `cleanup: a flag deprecated; "no longer served" a purpose is no removal`},
		// rule 3: deprecations stated in api-change, cleanup and feature entries
		{"1.25", 111485, dep, "cleanup: a provisioner deprecated in this release"},
		{"1.29", 120903, dep, `cleanup: opens with "Deprecated"`},
		{"1.33", 129970, dep, "api-change: an API version deprecated, to be removed in 1.36"},
		{"1.34", 132965, dep, `feature: opens with "Deprecated"`},
		{"1.28", 116530, "", `cleanup: a flag "un-deprecated"`},
		{"1.34", 132741, "", `cleanup: "deprecated" as the adjective of a package replaced`},
		{"1.25", 110410, "", "feature: a gate that will be removed later; features state no removals"},
		// rule 4: bug fixes
		{"1.31", 125540, "", "bug and api-change: a fix of a wrong deprecation warning"},
		// rule 5: upgrade notes
		{"1.25", 109111, upg, "feature, action required"},
		{"1.34", 131215, upg, `cleanup, action required: removed from the default configuration only`},
		{"1.31", 124505, rem, "bug and regression, action required: it removes an admission plugin, whatever its kinds (rule 1)"},
		{"1.34", 131961, rem, "kind bug: kube-proxy removed a flag (rule 1)"},
		{"1.34", 132352, rem, "kind bug: a deprecated flag removed (rule 1)"},
		{"1.33", 129589, rem, "kind feature: kubeadm removed a feature gate (rule 1)"},
		{"1.36", 134981, rem, "kind bug: three cAdvisor metrics removed (rule 1)"},
		{"1.33", 129933, dep, "kind cleanup: a gate flipped to false and deprecated (rule 1)"},
		{"1.34", 129373, dep, "kind feature: a kubectl flag deprecated after a comma (rule 1)"},
		{"1.34", 131085, "", "kind deprecation alone: it respects a label and deprecates nothing"},
		{"1.34", 132080, "", "kind deprecation alone: error messages prefixed"},
		{"1.31", 125163, "", "its text opens ACTION REQUIRED but action_required is not set"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s#%d", tt.release, tt.pr), func(t *testing.T) {
			ch := change(t, knowledge.MustVersion(tt.release), tt.pr)
			if ch.Notice != tt.want {
				t.Errorf("PR %d (%v, action %v) is %q, want %q: %s\ntext: %.300s", tt.pr, ch.Kinds, ch.Action, ch.Notice, tt.want, tt.why, ch.Text)
			}
		})
	}
}

// TestNoticeCounts pins how many entries of each release's notes each rule
// classes, so a change to the rules shows its whole effect.
func TestNoticeCounts(t *testing.T) {
	sharedtest.Root(t)
	type counts struct{ Deprecations, Removals, Upgrades, Action int }
	want := map[string]counts{
		"1.25": {6, 21, 5, 11}, "1.26": {7, 14, 1, 2}, "1.27": {5, 16, 2, 5}, "1.28": {11, 18, 1, 5},
		"1.29": {3, 16, 2, 3}, "1.30": {5, 16, 0, 0}, "1.31": {6, 29, 4, 9}, "1.32": {3, 26, 4, 6},
		"1.33": {9, 14, 6, 5}, "1.34": {6, 22, 5, 7}, "1.35": {4, 16, 3, 5}, "1.36": {6, 12, 4, 5},
	}
	got := map[string]counts{}
	for _, v := range sharedReleases {
		var c counts
		for _, ch := range sharedNotes(t, v).Changes {
			switch ch.Notice {
			case dep:
				c.Deprecations++
			case rem:
				c.Removals++
			case upg:
				c.Upgrades++
			}
			if ch.Action {
				c.Action++
			}
		}
		got[v.String()] = c
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notice counts per release (-want +got):\n%s", diff)
	}
}

// TestClassifyRules checks the rules on made-up texts, one edge each.
func TestClassifyRules(t *testing.T) {
	tests := []struct {
		kinds  []string
		text   string
		action bool
		want   knowledge.NoticeKind
	}{
		{[]string{"deprecation"}, "The `--foo` flag is deprecated.", false, dep},
		{[]string{"deprecation"}, "The deprecated `--foo` flag has been removed.", false, rem},
		{[]string{"deprecation"}, "The `--foo` flag is deprecated and will be removed in v1.99.", false, dep},
		{[]string{"deprecation"}, "Users should finish moving before support for it is removed.", false, ""},
		{[]string{"deprecation"}, "Deprecated the Bar plugins and removed them from the default set.", false, dep},
		{[]string{"cleanup"}, "Removed the `FooGate` feature gate.", false, rem},
		{[]string{"cleanup"}, "kubelet: remove deprecated flag `--foo`", false, rem},
		{[]string{"cleanup"}, "'Removed the GA feature gate `Foo`.'", false, rem},
		{[]string{"cleanup"}, "Removed a log line that nobody read.", false, ""},
		{[]string{"cleanup"}, "The `foo/v1beta1` API is no longer served.", true, rem},
		{[]string{"cleanup"}, "Removed the use of the `--foo` flag in the installer.", false, ""},
		{[]string{"api-change"}, "Removed the restriction on the `--foo` flag.", false, ""},
		{[]string{"cleanup"}, "Since the plugin was removed in 1.20, the `--foo` flag does nothing.", false, ""},
		{[]string{"cleanup"}, "The `--foo` flag is deprecated, please use `--bar`.", false, dep},
		{[]string{"cleanup"}, "Marked the `Foo` feature gate as deprecated.", false, dep},
		{[]string{"cleanup"}, "kubectl: Deprecated the `--foo` flag.", false, dep},
		{[]string{"cleanup"}, "kubelet: un-deprecated the `--foo` flag.", false, ""},
		{[]string{"cleanup"}, "Replaced the deprecated `foo` helper with `bar`.", false, ""},
		{[]string{"feature"}, "Added `Bar`; started the deprecation of `Foo`.", false, dep},
		{[]string{"feature"}, "Removed the `Foo` feature gate.", false, rem},
		{[]string{"bug", "api-change"}, "Fixed a warning saying the API is deprecated.", false, ""},
		{[]string{"bug"}, "Removed the `Foo` feature gate.", true, rem},
		{[]string{"bug"}, "Added the `Foo` feature gate.", true, upg},
		{[]string{"feature"}, "New plugin API.", true, upg},
		{[]string{"mystery-kind"}, "Removed the `Foo` feature gate.", false, rem},
		{[]string{"mystery-kind"}, "Removed a log line that nobody read.", false, ""},
		{[]string{"deprecation"}, "Disabled the `foo` volume plugin by default.", false, dep},
		{[]string{"feature"}, "Disabled the `foo` volume plugin by default.", false, ""},
		{nil, "", false, ""},
	}
	for _, tt := range tests {
		if got := Classify(tt.kinds, tt.text, tt.action, Effects(knowledge.MustVersion("1.30"), tt.text)); got != tt.want {
			t.Errorf("Classify(%v, %q, %v) = %q, want %q", tt.kinds, tt.text, tt.action, got, tt.want)
		}
	}
}
