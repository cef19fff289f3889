package lazyre_test

import (
	"testing"

	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	_ "github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	_ "github.com/kepbot/kepbot/knowledge/sources/lifecycle"
	_ "github.com/kepbot/kepbot/knowledge/sources/provenance"
	_ "github.com/kepbot/kepbot/knowledge/sources/releasenote"
	_ "github.com/kepbot/kepbot/knowledge/sources/relnotes"
	_ "github.com/kepbot/kepbot/knowledge/sources/website"
)

// TestEveryParserExpressionCompiles compiles the expressions of every
// source parser, which are otherwise compiled only where a document
// reaches them: an invalid one fails here, not in the middle of an ingest.
func TestEveryParserExpressionCompiles(t *testing.T) {
	if n := lazyre.CompileAll(); n < 100 {
		t.Errorf("compiled %d expressions; the parsers hold over 100", n)
	}
}

func TestNewCompilesOnce(t *testing.T) {
	re := lazyre.New(`^kep-(\d+)$`)
	a, b := re(), re()
	if a != b {
		t.Error("two calls compiled the expression twice")
	}
	if m := a.FindStringSubmatch("kep-4639"); len(m) != 2 || m[1] != "4639" {
		t.Errorf("match = %q", m)
	}
	list := lazyre.List(`a+`, `b+`)
	if got := list(); len(got) != 2 || got[0] != list()[0] || !got[1].MatchString("bb") {
		t.Errorf("List = %v", got)
	}
}
