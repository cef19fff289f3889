package prose

import "testing"

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Deprecated `x.y` in favour of z. More words.": "Deprecated `x.y` in favour of z.",
		"Removed v1.2.3 support":                       "Removed v1.2.3 support",
		"Moved the `a.b. c` field!  Then":              "Moved the `a.b. c` field!",
		"弃用了该字段。请迁移":                                   "弃用了该字段。",
		"":                                             "",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
