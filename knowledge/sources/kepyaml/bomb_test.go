package kepyaml

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// billionLaughs is the classic alias bomb: nine levels of nine aliases,
// 9^9 strings once expanded, under the given key.
func billionLaughs(key string) string {
	var b strings.Builder
	b.WriteString("title: laughs\nkep-number: 123\n")
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	fmt.Fprintf(&b, "%s: *i\n", key)
	return b.String()
}

// flowNest is n nested flow lists under a key.
func flowNest(n int) string {
	return "title: deep\nkep-number: 123\nx: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
}

// blockNest is n nested block mappings.
func blockNest(n int) string {
	var b strings.Builder
	b.WriteString("title: deep\nkep-number: 123\n")
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

func bigMapping(keys int) string {
	var b strings.Builder
	b.WriteString("title: wide\nkep-number: 123\nmilestone:\n")
	for i := 0; i < keys; i++ {
		fmt.Fprintf(&b, "  k%d: v1.%d\n", i, i%40)
	}
	return b.String()
}

// quadratic is a long anchored string aliased many times where kepyaml
// reads values: the milestone list and the title.
func quadratic(strLen, aliases int) string {
	var b strings.Builder
	b.WriteString("kep-number: 123\nanchor: &s \"" + strings.Repeat("v1.2 ", strLen/5) + "\"\ntitle: *s\nmilestone:\n  alpha: [")
	for i := 0; i < aliases; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("*s")
	}
	b.WriteString("]\nfeature-gates: [")
	for i := 0; i < aliases; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("{name: *s}")
	}
	b.WriteString("]\n")
	return b.String()
}

// denseAliases is a list of n aliases, as many YAML nodes as fit the size cap.
func denseAliases(n int) string {
	return "kep-number: 123\ns: &s x\nl: [" + strings.Repeat("*s,", n) + "]\n"
}

// denseScalars is a flow list of n one-letter scalars.
func denseScalars(n int) string {
	return "kep-number: 123\nl: [" + strings.Repeat("a,", n) + "]\n"
}

type bomb struct {
	name     string
	src      string
	maxBytes int64  // 0: the default file limit
	kind     string // "" when the file may be read (harmlessly)
	says     string
}

func bombs() []bomb {
	return []bomb{
		{"billion laughs, unknown key", billionLaughs("lol"), 0, KindBomb, "alias bomb"},
		{"billion laughs, gates", billionLaughs("feature-gates"), 0, KindBomb, "alias bomb"},
		{"billion laughs, milestone", billionLaughs("milestone"), 0, KindBomb, "alias bomb"},
		{"flow nesting 100", flowNest(100), 0, KindBomb, "levels deep"},
		{"flow nesting 10k", flowNest(10_000), 0, KindBomb, "levels deep"},
		{"flow nesting 100k", flowNest(100_000), 0, KindBomb, "more than 20000 lines"},
		{"block nesting 100", blockNest(100), 0, KindBomb, "levels deep"},
		{"3000 keys", bigMapping(3000), 0, KindBomb, "more than 2000 keys"},
		{"quadratic 100 KB x 1000", quadratic(100_000, 1000), 0, "", ""},
		{"dense aliases at the size cap", denseAliases(80_000), 0, KindBomb, "more than 20000 lines, list items and aliases"},
		{"dense scalars at the size cap", denseScalars(120_000), 0, KindBomb, "more than 20000 lines, list items and aliases"},
		{"aliases under the item cap", denseAliases(9_000), 0, "", ""},
		{"1 MB anchor/alias mix, limit raised", quadratic(500_000, 50_000), 4 << 20, KindBomb, "more than 20000 lines"},
		{"1 MB at the default limit", quadratic(500_000, 50_000), 0, KindTooLarge, "over the limit"},
	}
}

// TestBombs checks each bomb is refused with a clear error, or read with
// little memory, and allocates under 20 MB either way.
func TestBombs(t *testing.T) {
	for _, tc := range bombs() {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.maxBytes
			if max == 0 {
				max = DefaultLimits().MaxFileBytes
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := parseFile(testPath, []byte(tc.src), max)
			runtime.ReadMemStats(&after)
			// At the default limit a bomb costs under 20 MB; past it the
			// YAML parser's node tree costs about 50 bytes per input byte.
			budget := uint64(20 << 20)
			if tc.maxBytes != 0 {
				budget = 64 * uint64(len(tc.src))
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > budget {
				t.Errorf("allocated %d MB for a %d-byte file; want under %d MB", alloc>>20, len(tc.src), budget>>20)
			}
			if tc.kind == "" {
				if err != nil {
					t.Errorf("err = %v; want the file read", err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Kind != tc.kind || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %v; want a %q error saying %q", err, tc.kind, tc.says)
			}
		})
	}
}

// TestQuadraticIsCapped checks what the aliased long string turns into:
// a clipped title, no milestone, and no gate (it is not an identifier).
func TestQuadraticIsCapped(t *testing.T) {
	f, err := ParseFile(testPath, []byte(quadratic(100_000, 1000)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(f.KEP.Title)); n > maxTitleRunes+1 {
		t.Errorf("title has %d runes; want it cut to %d", n, maxTitleRunes)
	}
	if len(f.KEP.FeatureGates) != 0 || len(f.Notes) > maxNotes+1 {
		t.Errorf("gates %d, notes %d; want none and at most %d", len(f.KEP.FeatureGates), len(f.Notes), maxNotes+1)
	}
}

func BenchmarkParseBombs(b *testing.B) {
	for _, tc := range bombs() {
		max := tc.maxBytes
		if max == 0 {
			max = DefaultLimits().MaxFileBytes
		}
		data := []byte(tc.src)
		b.Run(strings.ReplaceAll(tc.name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parseFile(testPath, data, max)
			}
		})
	}
}
