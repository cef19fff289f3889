package limit

import "testing"

func TestOr(t *testing.T) {
	for _, tt := range []struct{ v, d, want int64 }{{0, 5, 5}, {-1, 5, 5}, {1, 5, 1}, {7, 5, 7}} {
		if got := Or(tt.v, tt.d); got != tt.want {
			t.Errorf("Or(%d, %d) = %d, want %d", tt.v, tt.d, got, tt.want)
		}
	}
	if got := Or(0, 3); got != 3 {
		t.Errorf("Or(0, 3) = %d for int", got)
	}
}
