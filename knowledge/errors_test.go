package knowledge

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "kep", 3}, {"kep", "", 3}, {"kep", "kep", 0},
		{"kepp", "kep", 1}, {"ag", "ga", 1}, {"alhpa", "alpha", 1},
		{"realeses", "releases", 2}, {"depracations", "deprecations", 1},
		{"稳定", "稳走", 1}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	vocab := []string{"kep", "releases", "help", "ga", "beta"}
	tests := []struct {
		w    string
		want []string
	}{
		{"kepp", []string{"kep"}},
		{"realeses", []string{"releases"}},
		{"ag", []string{"ga"}},
		{"kep", nil},
		{"x", nil},
		{"bta", []string{"beta"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range Closest(tt.w, vocab) {
			got = append(got, n.Word)
		}
		if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
			t.Errorf("Closest(%q) = %v, want %v", tt.w, got, tt.want)
		}
	}
}
