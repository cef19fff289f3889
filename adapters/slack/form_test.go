package slack

import "testing"

// TestValidFormValue: the quick check accepts exactly what unescapeForm
// decodes: valid escapes, and UTF-8 once decoded.
func TestValidFormValue(t *testing.T) {
	for _, v := range []string{
		"", "kep+4639", "https%3A%2F%2Fhooks.slack.com%2Fx", "%E4%BD%A0%E5%A5%BD", "1.29+%E7%A8%B3%E5%AE%9A",
		"%FF", "%E4%BD", "%C3%28", "%4", "%", "a%zz", "%3A%", "%3a%2f", "ok%20then%", "\xff", "caf\xc3\xa9",
	} {
		_, want := unescapeForm([]byte(v))
		if got := validFormValue([]byte(v)); got != want {
			t.Errorf("validFormValue(%q) = %v, unescapeForm says %v", v, got, want)
		}
	}
}

// FuzzValidFormValue: the quick check and the decoder never disagree.
func FuzzValidFormValue(f *testing.F) {
	for _, s := range []string{"kep+4639", "%E4%BD%A0", "%FF%3A", "a%2", "%e4%bd%a0%3A"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if _, want := unescapeForm(v); validFormValue(v) != want {
			t.Errorf("validFormValue(%q) = %v, unescapeForm says %v", v, !want, want)
		}
	})
}
