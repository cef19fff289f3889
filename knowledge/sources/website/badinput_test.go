package website

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"

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
		{"no name", "", []byte("---\ntitle: 'Kubernetes v1.40: Test'\n---\n"), ErrNoName},
		{"NUL bytes", "a.md", []byte("---\ntitle: x\n---\n\x00\x01\x02"), ErrBinary},
		{"10 KB of random bytes", "a.md", garbage, ErrBinary},
		{"Latin-1, not UTF-8", "a.md", []byte("# Kubernetes v1.40: Caf\xe9\n"), ErrNotUTF8},
		{"UTF-16", "a.md", []byte("\xff\xfe#\x00 \x00K\x00"), ErrBinary},
		{"too large", "a.md", bytes.Repeat([]byte("x"), MaxSize+1), ErrTooLarge},
		{"10 KB of printable garbage", "a.md", printable, ErrUnrecognised},
		{"a README", "README.md", []byte("# kepbot\n\nA chat bot.\n\n## Build\n\nRun make.\n"), ErrUnrecognised},
		{"a blog post on another subject", "a.md", []byte("---\ntitle: 'Ten years of pods'\ndate: 2024-06-06\n---\n\nWords.\n"), ErrUnrecognised},
		{"a title but no announcement", "a.md", []byte("---\ntitle: 'Kubernetes v1.40: Test'\n---\n\nA story.\n"), ErrUnrecognised},
		{"removals without a version", "a.md", []byte("---\ntitle: 'Removals and deprecations'\n---\n\n## Removal of x\n\nGone.\n"), ErrUnrecognised},
		{"a source list", "SOURCE.md", []byte("# Source: somewhere\n\n| file | repository path |\n| --- | --- |\n"), ErrDescribesSources},
		{"a source list by its heading", "origins.md", []byte("# Sources of the posts\n\n| file | repository path |\n"), ErrDescribesSources},
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
	_, err := Parse("a.md", []byte("# Kubernetes\n\nab\xffcd"))
	if err == nil || !strings.Contains(err.Error(), "offset 16") {
		t.Fatalf("got %v, want the offset of the bad byte (16)", err)
	}
}

// TestParseSmallDocuments checks each type on short documents written here.
func TestParseSmallDocuments(t *testing.T) {
	ann := "---\ntitle: \"Kubernetes v1.40: Tiny\"\ndate: 2030-01-02\nslug: kubernetes-v1-40-release\n---\n\n" +
		"Announcing the release of Kubernetes v1.40!\n\nThis release consists of 3 enhancements: 1 is entering Alpha, " +
		"1 has graduated to Beta and 1 has graduated to Stable.\n\n## Graduations to stable\n\n" +
		"* [A thing](https://kep.k8s.io/9)\n\n## New alpha features\n\n### Widgets ([SIG Apps](https://github.com/kubernetes/community/tree/master/sig-apps))\n\n" +
		"Enable the `WidgetGate` feature gate to try it. See [KEP-12](https://kep.k8s.io/12).\n\n" +
		"## Deprecations and removals\n\n### Removal of the old flag\n\nThe old flag is gone.\n"
	c, err := Parse("tiny.md", []byte(ann))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Releases[0]
	if r.Version != v("1.40") || r.Date != "2030-01-02" || r.Theme != "Tiny" ||
		r.Enhancements != (knowledge.Counts{Total: 3, Stable: 1, Beta: 1, Alpha: 1}) {
		t.Errorf("release %+v", r)
	}
	if len(c.Mentions) != 2 {
		t.Fatalf("got %d mentions, want 2: %+v", len(c.Mentions), c.Mentions)
	}
	if m := c.Mentions[0]; m.KEP != 9 || m.Stage != knowledge.StageStable || m.Title != "A thing" || m.Line != 13 || m.Via != "link" {
		t.Errorf("first mention %+v", m)
	}
	if m := c.Mentions[1]; m.KEP != 12 || m.Stage != knowledge.StageAlpha || m.SIG != "sig-apps" || m.Title != "Widgets" ||
		len(m.FeatureGates) != 1 || m.FeatureGates[0] != "WidgetGate" || m.Section != "New alpha features" {
		t.Errorf("second mention %+v", m)
	}
	if len(c.Notices) != 1 || c.Notices[0].Kind != knowledge.NoticeRemoval || c.Notices[0].Title != "Removal of the old flag" {
		t.Errorf("notices %+v", c.Notices)
	}
	if got := c.Sources[0].URL; got != "https://kubernetes.io/blog/2030/01/02/kubernetes-v1-40-release/" {
		t.Errorf("URL %q", got)
	}

	guide := "---\ntitle: Deprecated API Migration Guide\n---\n\n## Removed APIs by release\n\n### v1.40\n\n" +
		"#### Widget\n\nThe **widgets.example.io/v1beta1** API version of Widget is no longer served as of v1.40.\n\n" +
		"* Migrate to use the **widgets.example.io/v1** API version.\n\n#### Gadget\n\nGadgets are gone.\n"
	c, err = Parse("guide.md", []byte(guide))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notices) != 1 || c.Notices[0].Release != v("1.40") || c.Notices[0].API.ReplacedBy != "widgets.example.io/v1" {
		t.Errorf("guide notices %+v", c.Notices)
	}
	if len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0].Path, "Gadget") {
		t.Errorf("a section naming no API version should be a skip: %+v", c.Skipped)
	}
}

// TestParseTruncatedDocuments cuts every document at nine points, keeping
// the head and the tail. Nothing panics; each part is rejected as
// unrecognised or parsed as the same type and release, with no KEP the whole
// document does not give.
func TestParseTruncatedDocuments(t *testing.T) {
	parsed, rejected := 0, 0
	for _, name := range docNames {
		data := readDoc(t, name)
		full := parseDoc(t, name)
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
					if !errors.Is(err, ErrUnrecognised) && !errors.Is(err, ErrNotUTF8) {
						t.Errorf("%s %s %d/10: got %v, want a parse or an unrecognised document", name, part, tenth, err)
					}
					rejected++
					continue
				}
				parsed++
				if c.Sources[0].Kind != full.Sources[0].Kind || c.Sources[0].Name != full.Sources[0].Name {
					t.Errorf("%s %s %d/10: read as %q, the whole as %q", name, part, tenth, c.Sources[0].Name, full.Sources[0].Name)
				}
				for _, m := range c.Mentions {
					if m.KEP != 0 && !whole[m.KEP] {
						t.Errorf("%s %s %d/10: KEP-%d is not in the whole document's corpus", name, part, tenth, m.KEP)
					}
				}
			}
		}
	}
	t.Logf("%d parts parsed, %d rejected", parsed, rejected)
	if parsed == 0 {
		t.Error("no part parsed")
	}
}
