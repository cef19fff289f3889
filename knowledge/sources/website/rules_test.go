package website

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// The inputs below are written for these tests, in the shapes the posts
// use; none is taken from a post.

func TestPlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{"**Bold** and _slanted_ and *leaning*", "Bold and slanted and leaning"},
		{"keep snake_case and `a_b*c` code", "keep snake_case and a_b*c code"},
		{"see [the docs](/docs/x/) and ![logo](x.png)", "see the docs and"},
		{"a {{< note >}}shortcode{{< /note >}} here <br/> too", "a shortcode here too"},
		{"[KEP #12](https://kep.k8s.io/12) by [SIG\nApps](https://x)", "KEP #12 by SIG Apps"},
	}
	for _, tt := range tests {
		if got := plain(tt.in); got != tt.want {
			t.Errorf("plain(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestKEPRefs(t *testing.T) {
	in := "See [KEP-7](https://kep.k8s.io/7), [x](https://github.com/kubernetes/enhancements/issues/8#c), " +
		"[y](https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/0009-name/README.md), KEP #10, " +
		"KEP [#11](https://github.com/kubernetes/enhancements/issues/11) and KEP-7 again; not PR #12 or go1.22."
	want := []kepRef{
		{Num: 7, URL: "https://kep.k8s.io/7"},
		{Num: 8, URL: "https://github.com/kubernetes/enhancements/issues/8#c"},
		{Num: 9, URL: "https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/0009-name/README.md", SIG: "sig-node"},
		{Num: 10},
		{Num: 11, URL: "https://github.com/kubernetes/enhancements/issues/11"},
	}
	if diff := cmp.Diff(want, kepRefs(in)); diff != "" {
		t.Errorf("kepRefs (-want +got):\n%s", diff)
	}
}

func TestGatesIn(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Turn on the `FooBar` feature gate.", []string{"FooBar"}},
		{"It sits behind a feature gate named `BazQux`, off by default.", []string{"BazQux"}},
		{"The feature gates `OneGate`, `TwoGate`, and `ThreeGate` are gone.", []string{"OneGate", "TwoGate", "ThreeGate"}},
		{"The `FooBar` [feature gate](/docs/x) is on; set `Mode` to `Fast`.", []string{"FooBar"}},
		{"Set the field `spec.fooBar` and the `Always` policy.", nil},
		{"The `OldGate` feature gate was off, and it used `SomeMode` behavior.", []string{"OldGate"}},
		{"These feature gates are removed:\n\n`AlphaGate`\n: one\n\n`BetaGate`\n: two", []string{"AlphaGate", "BetaGate"}},
	}
	for _, tt := range tests {
		_, blocks := splitBlocks(tt.in)
		if got := gatesIn(blocks); !cmp.Equal(got, tt.want) {
			t.Errorf("gatesIn(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestBodyStage(t *testing.T) {
	rel := v("1.40")
	tests := []struct {
		in   string
		want knowledge.Stage
	}{
		{"The widget moves to beta in this release.", knowledge.StageBeta},
		{"Try out this alpha feature on one node.", knowledge.StageAlpha},
		{"In v1.40 the field graduated to stable.", knowledge.StageStable},
		{"It went to beta in v1.38. It is still off by default.", knowledge.StageNone}, // another release
		{"It is targeting graduation to stable in v1.41.", knowledge.StageNone},        // a plan
		{"The registry has been generally available for months.", knowledge.StageNone}, // in passing
		{"The core part [got promoted to beta](#other-section).", knowledge.StageNone}, // another section's words
		{"Nothing about stages here.", knowledge.StageNone},
	}
	for _, tt := range tests {
		_, blocks := splitBlocks(tt.in)
		if got := bodyStage(blocks, rel); got != tt.want {
			t.Errorf("bodyStage(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNoticeKind(t *testing.T) {
	dep, rem, upg := knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade
	tests := []struct {
		heading, context, body string
		want                   knowledge.NoticeKind
	}{
		{"Removal of the old flag", "Deprecations and removals", "", rem},
		{"Removed the old plugin, deprecated since v1.38", "", "", rem},
		{"Deprecation of the widget field", "", "It will be removed in a future release.", dep},
		{"Support for old annotations", "", "They were deprecated long ago and have now been completely removed.", rem},
		{"Looking ahead", "", "The x/v1beta1 API version of Widget will be removed.", rem},
		{"A note about old certificates", "", "If you rely on them, you must opt back in.", upg},
		{"The new queue", "Release notes and upgrade actions required", "It changes behaviour.", upg},
		{"Legacy repositories", "Deprecations and removals", "They were formally deprecated.", dep},
		{"Entering maintenance", "Deprecations and removals", "No new features will be added.", dep},
		{"Widget", "Removals:", "Widget", rem},
	}
	for _, tt := range tests {
		if got := noticeKind(tt.heading, tt.context, tt.body); got != tt.want {
			t.Errorf("noticeKind(%q, %q, %q) = %s, want %s", tt.heading, tt.context, tt.body, got, tt.want)
		}
	}
}

func TestAPIRemovals(t *testing.T) {
	tests := []struct {
		in   string
		want []knowledge.APIChange
	}{
		{"The a.example.io/v1beta1 API version of Widget and Gadget is no longer served. Migrate to use the a.example.io/v1 API version.",
			[]knowledge.APIChange{{GroupVersion: "a.example.io/v1beta1", Kinds: []string{"Widget", "Gadget"}, ReplacedBy: "a.example.io/v1"}}},
		{"The ext/v1beta1 and b.io/v1beta2 API versions of Thing are no longer served. Use the b.io/v1 API version.",
			[]knowledge.APIChange{
				{GroupVersion: "ext/v1beta1", Kinds: []string{"Thing"}, ReplacedBy: "b.io/v1"},
				{GroupVersion: "b.io/v1beta2", Kinds: []string{"Thing"}, ReplacedBy: "b.io/v1"}}},
		{"Policy in the p.io/v1beta1 API version is no longer served.", []knowledge.APIChange{{GroupVersion: "p.io/v1beta1", Kinds: []string{"Policy"}}}},
		{"Removal of s.io/v1beta1 from Capacity.", []knowledge.APIChange{{GroupVersion: "s.io/v1beta1", Kinds: []string{"Capacity"}}}},
		{"The widget API supports many versions of things.", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, apiRemovals(tt.in)); diff != "" {
			t.Errorf("apiRemovals(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSimilarTitle(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Widget access mode", "Widget Access Mode", true},
		{"Prevent unauthorized widget changes during restore", "Prevent unauthorised widget changes during restore", true},
		{"recovery from sudden widget loss", "Sudden widget loss", true},
		{"OpenAPI v3", "OpenAPI v3 for widgets and gadgets", false}, // two words are too few to contain
		{"Widget secrets for drivers", "Introduce widgetSecret in driver source", false},
	}
	for _, tt := range tests {
		if got := similarTitle(tt.a, tt.b); got != tt.want {
			t.Errorf("similarTitle(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestFeatureName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"`WidgetDefault` graduates to stable", "WidgetDefault"},
		{"Widget proxy (alpha)", "Widget proxy"},
		{"Generally available: widget recovery", "widget recovery"},
		{"Widget mode ([SIG Storage](https://x/sig-storage))", "Widget mode"},
		{"Widgets graduate to beta", "Widgets"},
		{"Beta support for widgets", "Beta support for widgets"},
	}
	for _, tt := range tests {
		if got := featureName(tt.in); got != tt.want {
			t.Errorf("featureName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
