package featuregates

import (
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// BenchmarkLoadDir reads the whole feature-gates data: 19 releases, 138
// files (3.7 MB) parsed with go/parser and yaml.v3.
func BenchmarkLoadDir(b *testing.B) {
	dir := sharedtest.Path(b, "data", "feature-gates")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}
