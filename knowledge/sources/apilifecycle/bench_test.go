package apilifecycle_test

import (
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
)

// BenchmarkLoadDir reads the whole shared api-lifecycle tree: 21 module
// releases, 1,708 files, 16 MB.
func BenchmarkLoadDir(b *testing.B) {
	dir := sharedtest.Path(b, "data", "api-lifecycle")
	b.ReportAllocs()
	for b.Loop() {
		c, err := apilifecycle.LoadDir(dir)
		if err != nil || len(c.APITypes) == 0 {
			b.Fatal(err)
		}
	}
}
