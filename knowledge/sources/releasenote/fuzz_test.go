package releasenote

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// FuzzParse feeds Parse arbitrary bytes: it must never panic, must fail only
// with one of its documented errors, and what it returns must hold together.
// The seed corpus is made-up Markdown plus the shared notes when present
// (read at run time, never stored in testdata). Run it with a short
// -fuzzminimizetime (2s): minimising inputs grown from the 30 KB notes
// otherwise takes up to a minute each and looks like a stall.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"# Kubernetes v1.40\n\n## GA\n\n- [KEP-1 x](https://kep.k8s.io/2)\n",
		"---\ntitle: Kubernetes 1.41\ndate: 2025-01-02\n---\n## 🚀 (Alpha)\n\n### [KEP-3](https://kep.k8s.io/3) y\n\n启用特性门控 FooGate\n",
		"# Kubernetes 1.42\n\n## 升级注意事项\n\n短标题\n\n一段话已被移除。\n\n### 其他\n\n- 弃用 `FooGate` 特性门控\n",
		"```\n# HELP\n",
		"[KEP-1](",
		"## 删除和废弃\n\n### API 移除\n\nfoo.k8s.io/v1beta1 的 Kind 已被移除 v1.43",
	} {
		f.Add([]byte(s))
	}
	if root, ok := sharedRoot(); ok {
		paths, _ := filepath.Glob(filepath.Join(root, "seeds", "*.txt"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	documented := []error{ErrEmpty, ErrBinary, ErrNotUTF8, ErrTooLarge, ErrNoVersion}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.md", data)
		if err != nil {
			for _, e := range documented {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("undocumented error: %v", err)
		}
		if len(c.Sources) != 1 || len(c.Releases) != 1 || c.Releases[0].Version.IsZero() {
			t.Fatalf("corpus shape: %d sources, %d releases", len(c.Sources), len(c.Releases))
		}
		rel := c.Releases[0].Version
		for _, m := range c.Mentions {
			if m.Release != rel || m.Source != "fuzz.md" || m.Line < 1 || m.KEP < 0 || m.KEP > maxKEP ||
				!utf8.ValidString(m.Text) || utf8.RuneCountInString(m.Text) > maxTextRunes+1 || m.Stage > knowledge.StageStable {
				t.Fatalf("bad mention %+v", m)
			}
		}
		for _, n := range c.Notices {
			if n.Release != rel || n.Line < 1 || !utf8.ValidString(n.Text) {
				t.Fatalf("bad notice %+v", n)
			}
		}
	})
}

// sharedRoot finds ../shared the way sharedtest does, without skipping:
// the fuzz target runs on its made-up seeds when the notes are absent.
func sharedRoot() (string, bool) {
	root := os.Getenv("KEPBOT_SHARED")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared") // knowledge/releasenote -> repo -> ..
	}
	if _, err := os.Stat(filepath.Join(root, "seeds")); err != nil {
		return "", false
	}
	return root, true
}
