package semver

import (
	"cmp"
	"testing"
)

// TestComparePrecedence follows the order semver.org §11 gives, and the
// versions the Go vulnerability database's Kubernetes records use.
func TestComparePrecedence(t *testing.T) {
	ordered := []string{
		"0",
		"0.0.0-20190927203648-9ce6eca90e73",
		"0.0.1",
		"0.18.7-rc.0",
		"0.18.7",
		"1.0.0-alpha",
		"1.0.0-alpha.1",
		"1.0.0-alpha.beta",
		"1.0.0-beta",
		"1.0.0-beta.2",
		"1.0.0-beta.11",
		"1.0.0-rc.1",
		"1.0.0",
		"1.9.10",
		"1.10.0",
		"1.30.0-alpha.0",
		"1.30.0",
		"1.30.2",
		"1.30.10",
		"1.100.0",
	}
	for i := range ordered {
		for j := range ordered {
			want := cmp.Compare(i, j)
			if got := Compare(ordered[i], ordered[j]); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestValidAndBuildMetadata(t *testing.T) {
	for _, s := range []string{"0", "1.2.3", "1.2.3-rc.1+build.5", "0.0.0-20260319175635-5183b7d86137"} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false", s)
		}
	}
	for _, s := range []string{"", "v1.2.3", "1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3-a..b", "1.x.0", "1.2.3+"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true", s)
		}
	}
	if Compare("1.2.3+a", "1.2.3+b") != 0 {
		t.Error("build metadata must not count")
	}
	if Compare("garbage", "0.0.1") != -1 || Compare("1.0.0", "junk") != 1 {
		t.Error("an invalid version must sort before every valid one")
	}
}
