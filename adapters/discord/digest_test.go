package discord

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// testDigest is a digest built by hand from made-up notices in our own
// words: a deprecation, a removal of a feature gate and an API version
// removal over two releases, one title trying a mass mention.
func testDigest() *digest.Digest {
	v30, v31 := knowledge.MustVersion("1.30"), knowledge.MustVersion("1.31")
	return &digest.Digest{
		ID:     "0123456789abcdef0123456789abcdef",
		Window: "release",
		Title:  "Deprecations and removals in Kubernetes 1.30 to 1.31",
		Groups: []digest.DigestGroup{
			{Release: v30, Items: []knowledge.Notice{
				{Kind: knowledge.NoticeDeprecation, Release: v30, KEP: 9101, Title: "The widget v1 flag is deprecated",
					Text: "Switch to the widget v2 flag before the next release.", FeatureGates: []string{"WidgetV1"}, Source: "notes"},
				{Kind: knowledge.NoticeRemoval, Release: v30, Title: "@everyone the GizmoSidecars gate is gone",
					Text: "The gate is locked on and removed.", FeatureGates: []string{"GizmoSidecars"}, Source: "notes"},
			}},
			{Release: v31, Items: []knowledge.Notice{
				{Kind: knowledge.NoticeRemoval, Release: v31, KEP: 9102, Title: "gizmos.example.io/v1beta1 is no longer served",
					Text: "Move manifests to the v1 API.", Source: "guide",
					API: &knowledge.APIChange{GroupVersion: "gizmos.example.io/v1beta1", Kinds: []string{"Gizmo"}, ReplacedBy: "gizmos.example.io/v1"}},
			}},
		},
	}
}

// bigDigest holds n made-up deprecations in one release, each with a long
// quote: too many for one message.
func bigDigest(n int) *digest.Digest {
	v := knowledge.MustVersion("1.32")
	d := &digest.Digest{ID: "big", Window: "release", Title: "Deprecations in Kubernetes 1.32"}
	g := digest.DigestGroup{Release: v}
	for i := range n {
		g.Items = append(g.Items, knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, KEP: 9200 + i,
			Title: fmt.Sprintf("Widget knob %d is deprecated", i), Text: strings.Repeat("Turn the knob off first. ", 20),
			FeatureGates: []string{fmt.Sprintf("WidgetKnob%d", i)}, Source: "notes"})
	}
	d.Groups = []digest.DigestGroup{g}
	return d
}

// TestRenderDigestGolden renders the digest answer of each format as the
// channel message a Poster sends, within Discord's limits, as one message,
// with nothing mentionable.
func TestRenderDigestGolden(t *testing.T) {
	p := &Poster{}
	for _, format := range []string{digest.FormatCompact, digest.FormatFull} {
		t.Run(format, func(t *testing.T) {
			a := digest.RenderDigest(testDigest(), format)
			if !p.Fits(a) {
				t.Fatalf("a three-notice digest does not fit one message")
			}
			m := render(a, 1)[0]
			checkMessageInert(t, format, m)
			post := encodeJSON(t, digestPost{Content: m.Content, Embeds: m.Embeds, AllowedMentions: noMentions(), Nonce: "golden", EnforceNonce: true})
			goldentest.Compare(t, filepath.Join("testdata", "golden", "digest_"+format+".json"), post, *update)
		})
	}
}

// TestDigestSplitsIntoMessagesThatFit splits digests too big for one
// message as the worker does (digest.SplitAnswer with Fits): every part
// renders as exactly one message within the limits, and no notice is lost.
func TestDigestSplitsIntoMessagesThatFit(t *testing.T) {
	p := &Poster{}
	for _, n := range []int{1, 12, 60, 400} {
		for _, format := range []string{digest.FormatCompact, digest.FormatFull} {
			a := digest.RenderDigest(bigDigest(n), format)
			parts := digest.SplitAnswer(a, p.Fits)
			total := 0
			for i, part := range parts {
				msgs := Render(part)
				if len(msgs) != 1 {
					t.Errorf("%d notices, %s: part %d renders as %d messages", n, format, i, len(msgs))
				}
				checkMessageInert(t, fmt.Sprintf("%d/%s part %d", n, format, i), msgs[0])
				total += len(part.Notices)
			}
			if total != n {
				t.Errorf("%d notices, %s: the parts hold %d", n, format, total)
			}
			if (n == 400 || (n >= 60 && format == digest.FormatFull)) && len(parts) < 2 {
				t.Errorf("%d notices, %s: %d part(s), want several", n, format, len(parts))
			}
		}
	}
}

// TestPostRendersOneMessageEvenWhenTooBig checks the last resort: an answer
// that does not fit still goes out as one message, ending in "…and N more".
func TestPostRendersOneMessageEvenWhenTooBig(t *testing.T) {
	a := digest.RenderDigest(bigDigest(200), digest.FormatFull)
	if (&Poster{}).Fits(a) {
		t.Fatal("200 long notices fit one message?")
	}
	msgs := render(a, 1)
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	checkMessageInert(t, "too big", msgs[0])
	last := msgs[0].Embeds[len(msgs[0].Embeds)-1].Description
	if !strings.Contains(last, "more*") {
		t.Errorf("no “…and N more” at the end: %q", last[max(0, len(last)-80):])
	}
}
