package releasenote

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

func TestParseRejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	garbage := make([]byte, 10<<10)
	rng.Read(garbage)
	printable := make([]byte, 10<<10)
	for i := range printable {
		printable[i] = byte(' ' + rng.Intn(95))
	}
	tests := []struct {
		name string
		doc  string
		data []byte
		want error
	}{
		{"empty", "a.md", nil, ErrEmpty},
		{"blank", "a.md", []byte(" \n\t\n"), ErrEmpty},
		{"no name", "", []byte("# Kubernetes v1.29"), ErrNoName},
		{"NUL bytes", "a.md", []byte("# Kubernetes v1.29\x00\x01\x02"), ErrBinary},
		{"GBK, not UTF-8", "a.md", []byte("# Kubernetes v1.29 \xb7\xa2\xb2\xbc\n"), ErrNotUTF8},
		{"Latin-1, not UTF-8", "a.md", []byte("# Kubernetes v1.29 caf\xe9 notes\n"), ErrNotUTF8},
		{"10 KB of random bytes", "a.md", garbage, ErrBinary},
		{"10 KB of printable garbage", "a.md", printable, ErrNoVersion},
		{"no version", "a.md", []byte("# Release notes\n\n## GA\n\n- [x](https://kep.k8s.io/1)\n"), ErrNoVersion},
		{"a version of Go, not Kubernetes", "a.md", []byte("# Notes\n\nBuilt with go 1.22.\n"), ErrNoVersion},
		{"too large", "a.md", bytes.Repeat([]byte("x"), MaxSize+1), ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.doc, tt.data)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse: got error %v, want %v", err, tt.want)
			}
			if c != nil {
				t.Errorf("Parse returned a corpus with its error")
			}
			msg := err.Error()
			if msg != strings.ToLower(msg[:1])+msg[1:] || !strings.Contains(msg, "expected") {
				t.Errorf("error %q should start lower case and say what was expected", msg)
			}
			if tt.doc != "" && !strings.Contains(msg, tt.doc) {
				t.Errorf("error %q should name the document", msg)
			}
		})
	}
}

func TestParseNotUTF8SaysWhere(t *testing.T) {
	_, err := Parse("a.md", []byte("# Kubernetes v1.29\n\nab\xffcd"))
	if err == nil || !strings.Contains(err.Error(), "offset 22") {
		t.Fatalf("got %v, want the offset of the bad byte (22)", err)
	}
}

// TestParseTruncatedSeeds cuts every seed at nine points, keeping the head
// and the tail, cuts included mid-character. Nothing panics; each part is
// either rejected for want of a version or parsed as the same release, with
// no KEP the whole note does not give (but for a typo the whole note
// corrects from a part that was cut off).
func TestParseTruncatedSeeds(t *testing.T) {
	parsed, rejected := 0, 0
	for _, name := range seedNames {
		data := readSeed(t, name)
		full := parseSeed(t, name)
		wantV := full.Releases[0].Version
		whole := map[int]bool{}
		for _, m := range full.Mentions {
			whole[m.KEP] = true
		}
		for _, n := range full.Notices {
			whole[n.KEP] = true
		}
		for tenth := 1; tenth <= 9; tenth++ {
			cut := len(data) * tenth / 10
			for part, piece := range map[string][]byte{"head": data[:cut], "tail": data[cut:]} {
				c, err := Parse(name, piece)
				if err != nil {
					if !errors.Is(err, ErrNoVersion) {
						t.Errorf("%s %s %d/10: got %v, want a parse or ErrNoVersion (a cut character is dropped)", name, part, tenth, err)
					}
					rejected++
					continue
				}
				if got := c.Releases[0].Version; got != wantV {
					t.Errorf("%s %s %d/10: version %v, want %v", name, part, tenth, got, wantV)
				}
				parsed++
				for _, m := range c.Mentions {
					if _, corrected := leftOut[name][m.KEP]; corrected {
						continue // cut off from the list that corrects it, a typo stands as written
					}
					if !whole[m.KEP] {
						t.Errorf("%s %s %d/10: KEP-%d is not in the whole note's corpus", name, part, tenth, m.KEP)
					}
				}
			}
		}
	}
	t.Logf("%d parts parsed, %d rejected for want of a version", parsed, rejected)
	if parsed == 0 {
		t.Error("no part parsed")
	}
}

// TestParseFirstHalfKeepsReleaseFacts checks that the first half of each
// note, cut in the middle, still gives the release facts of its preamble.
func TestParseFirstHalfKeepsReleaseFacts(t *testing.T) {
	for _, name := range seedNames {
		data := readSeed(t, name)
		full := parseSeed(t, name)
		half := data[:len(data)/2]
		if utf8.Valid(half) {
			half = append(half, 0xe4) // make sure a character is cut too
		}
		c, err := Parse(name, half)
		if err != nil {
			t.Fatalf("%s first half: %v", name, err)
		}
		if got, want := c.Releases[0], full.Releases[0]; got.Version != want.Version || got.Date != want.Date || got.Enhancements != want.Enhancements {
			t.Errorf("%s first half: release %+v, want the whole note's %+v", name, got, want)
		}
		if len(c.Mentions) == 0 || len(c.Mentions) > len(full.Mentions) {
			t.Errorf("%s first half: %d mentions, the whole note has %d", name, len(c.Mentions), len(full.Mentions))
		}
	}
}

// TestParseMinimal checks the smallest useful note and the corpus shape.
func TestParseMinimal(t *testing.T) {
	doc := "# Kubernetes v1.40\n\n## GA\n\n- [KEP-9 the thing](https://kep.k8s.io/19)\n"
	c, err := Parse("min.md", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Mentions) != 1 {
		t.Fatalf("got %d mentions, want 1", len(c.Mentions))
	}
	m := c.Mentions[0]
	if m.KEP != 19 || m.Stage != knowledge.StageStable || m.Line != 5 || m.Section != "GA" || m.Title != "the thing" {
		t.Errorf("got %+v", m)
	}
	if c.Sources[0].Lang != "en" || c.Sources[0].Name != "Kubernetes 1.40 release note (en)" {
		t.Errorf("source %+v", c.Sources[0])
	}
}
