package console

import (
	"strings"
	"testing"
)

// TestChatTakesAPastedManifest: the lines after `scan VERSION` up to a
// blank line are asked as one message with it, indentation kept, as a
// chat platform gets them; the chat says how the manifest ends, once,
// and answers what follows as questions again.
func TestChatTakesAPastedManifest(t *testing.T) {
	manifest := "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web"
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"scan TO", "scan 1.36\n" + manifest + "\n\nkep 4639\nquit\n", []string{"scan 1.36\n" + manifest, "kep 4639"}},
		{"scan FROM TO, a mention", "@kepbot scan 1.32 to 1.36\n" + manifest + "\n\n", []string{"@kepbot scan 1.32 to 1.36\n" + manifest}},
		{"end of input ends it", "scan 1.36\n" + manifest, []string{"scan 1.36\n" + manifest}},
		{"a blank line at once: nothing to scan", "scan 1.36\n\nkep 1\n", []string{"scan 1.36", "kep 1"}},
		{"blank lines inside ``` are kept", "scan 1.36\n```yaml\n" + strings.Replace(manifest, "---", "\n\n---", 1) + "\n```\nkep 1\n",
			[]string{"scan 1.36\n```yaml\n" + strings.Replace(manifest, "---", "\n\n---", 1) + "\n```", "kep 1"}},
		{"a fence opened on the scan line", "scan 1.36 ```\n" + manifest + "\n\n```\nkep 1\n", []string{"scan 1.36 ```\n" + manifest + "\n\n```", "kep 1"}},
		{"not a scan of the grammar", "scan my manifests\nkep 1\n", []string{"scan my manifests", "kep 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, asked := chat(t, tc.input)
			var want []string
			for _, w := range tc.want {
				want = append(want, "console:"+w)
			}
			if strings.Join(asked, "|") != strings.Join(want, "|") {
				t.Errorf("asked %q\nwant  %q", asked, want)
			}
			hints := strings.Count(out, ManifestHint)
			if awaits := strings.HasPrefix(tc.want[0], "scan 1") || strings.HasPrefix(tc.want[0], "@kepbot"); (hints == 1) != awaits {
				t.Errorf("%d hints in:\n%s", hints, out)
			}
		})
	}
}

// TestChatManifestLimits: a line over MaxLineBytes is left out of the
// manifest and said so; past chat's 1 MiB the lines are read and not kept,
// so the reader says the manifest is too large.
func TestChatManifestLimits(t *testing.T) {
	out, asked := chat(t, "scan 1.36\nkind: A\n"+strings.Repeat("x", MaxLineBytes+1)+"\nkind: B\n\n")
	if len(asked) != 1 || asked[0] != "console:scan 1.36\nkind: A\nkind: B" || !strings.Contains(out, "was over 16 KB and was left out") {
		t.Errorf("asked %q\n%s", asked, out)
	}
	line := strings.Repeat("y", 1000)
	_, asked = chat(t, "scan 1.36\n"+strings.Repeat(line+"\n", 3000)+"\n")
	if len(asked) != 1 || len(asked[0]) <= maxManifestBytes || len(asked[0]) > maxManifestBytes+2*len(line) {
		t.Errorf("asked %d bytes, want just over %d", len(asked[0]), maxManifestBytes)
	}
}
