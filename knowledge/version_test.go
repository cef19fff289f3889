package knowledge

import (
	"sort"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"1.29", "1.29", true}, {"v1.29", "1.29", true}, {"V1.29", "1.29", true},
		{"1.29.0", "1.29", true}, {"v1.29.3", "1.29", true}, {" 1.9 ", "1.9", true},
		{"1", "", false}, {"1.x", "", false}, {"TBD", "", false}, {"0.0", "", false},
		{"", "", false}, {"1.29.0.1", "", false}, {"-1.2", "", false}, {"1.+2", "", false},
		{"99999.1", "", false}, {"1..2", "", false},
	} {
		v, err := ParseVersion(tc.in)
		if (err == nil) != tc.ok || v.String() != tc.want {
			t.Errorf("ParseVersion(%q) = %q, %v; want %q ok=%v", tc.in, v, err, tc.want, tc.ok)
		}
	}
}

func TestVersionOrder(t *testing.T) {
	vs := []Version{MustVersion("1.10"), MustVersion("1.9"), MustVersion("1.29"), MustVersion("2.0"), MustVersion("1.3")}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
	got := ""
	for _, v := range vs {
		got += v.String() + " "
	}
	if got != "1.3 1.9 1.10 1.29 2.0 " {
		t.Errorf("order = %q", got)
	}
}

func TestVersionText(t *testing.T) {
	var v Version
	if err := v.UnmarshalText([]byte("v1.31")); err != nil || v != MustVersion("1.31") {
		t.Fatalf("UnmarshalText = %v, %v", v, err)
	}
	b, _ := v.MarshalText()
	if string(b) != "1.31" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := v.UnmarshalText([]byte("x.y")); err == nil {
		t.Error("UnmarshalText(x.y) did not fail")
	}
}
