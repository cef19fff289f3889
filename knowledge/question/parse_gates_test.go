package question

import (
	"context"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// TestGateQuestions reads the gate questions of the issue, in the grammar
// and typed in chat, English and Chinese, to their canonical form.
func TestGateQuestions(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		free       bool
	}{
		{"gate ImageVolume", "gate ImageVolume", false},
		{"is ImageVolume on by default in 1.33", "is ImageVolume on by default in 1.33", false},
		{"is ImageVolume enabled in 1.33", "is ImageVolume on by default in 1.33", false},
		{"is ImageVolume enabled by default in v1.33", "is ImageVolume on by default in 1.33", false},
		{"ImageVolume default in 1.33", "is ImageVolume on by default in 1.33", false},
		{"gate SidecarContainers in 1.28", "is SidecarContainers on by default in 1.28", false},
		{"gate ImageVolume v1.35", "is ImageVolume on by default in 1.35", false},
		{"1.34 gates", "1.34 gates", false},
		{"gates 1.34", "1.34 gates", false},
		{"v1.34 feature gates", "1.34 gates", false},
		{"which feature gates changed in 1.34?", "1.34 gates", true},
		{"what feature gates changed in v1.34", "1.34 gates", true},
		{"1.34 有哪些特性门控变化", "1.34 gates", true},
		{"1.34 的特性门控有哪些变化？", "1.34 gates", true},
		{"1.34 改了哪些特性门控", "1.34 gates", true},
		{"1.34 版本变更了哪些功能门控？", "1.34 gates", true},
		{"1.33 中 ImageVolume 默认开启吗", "is ImageVolume on by default in 1.33", true},
		{"ImageVolume 在 1.33 中默认开启吗？", "is ImageVolume on by default in 1.33", true},
		{"Is the ImageVolume feature gate on by default in 1.33?", "is ImageVolume on by default in 1.33", true},
		// not gate questions
		{"is kep 4639 beta in 1.33", "is kep 4639 beta in 1.33", false},
		{"is 1.31 supported", "is 1.31 supported", false},
	} {
		q, err := (*Reader)(nil).Read(context.Background(), tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if got := q.Canonical(); got != tc.want || q.Free != tc.free {
			t.Errorf("%q read as %q (free %t); want %q (free %t)", tc.text, got, q.Free, tc.want, tc.free)
		}
		if back, err := Parse(q.Canonical()); err != nil || back.Canonical() != q.Canonical() {
			t.Errorf("%q: its canonical %q reads back as %q, %v", tc.text, q.Canonical(), back.Canonical(), err)
		}
	}
	for _, text := range []string{"gate ImageVolume in foo", "gate ImageVolume on 1.33", "gate 1.33 in 1.34"} {
		if q, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) = %q; want a message that says what a gate question is", text, q.Canonical())
		}
	}
	for _, text := range []string{"ImageVolume enabled in 1.33", "is ImageVolume purple in 1.33", "1.34 gates please now"} {
		if q, err := Parse(text); err == nil && (q.Kind == knowledge.AskGateDefault || q.Kind == knowledge.AskGateChanges) {
			t.Errorf("Parse(%q) = %q; want no gate question", text, q.Canonical())
		}
	}
}

// gateSource knows one KEP's gate and the code's gates.
type gateSource struct{ StaticKEPs }

func (gateSource) CodeGates(context.Context) ([]string, error) {
	return []string{"ImageVolume", "KMSv1", "KMSv2"}, nil
}

// TestGateNamesMended: a gate's name one edit off a known one is read as
// it, in a default question too; a gate only the code declares (KMSv1) is
// never read as a kep.yaml gate near it.
func TestGateNamesMended(t *testing.T) {
	src := gateSource{StaticKEPs{{Number: 4639, Title: "OCI images as VolumeSource", Source: "y", FeatureGates: []string{"ImageVolume"}},
		{Number: 3299, Title: "KMS v2 Improvements", Source: "y", FeatureGates: []string{"KMSv2"}}}}
	r := NewReader(src)
	for text, want := range map[string]string{
		"is ImageVolum on by default in 1.33": "is ImageVolume on by default in 1.33",
		"gate imagevolum":                     "gate ImageVolume",
		"gate KMSv1":                          "gate KMSv1",
		"is KMSv1 on by default in 1.30":      "is KMSv1 on by default in 1.30",
	} {
		q, err := r.Read(context.Background(), text)
		if err != nil || q.Canonical() != want {
			t.Errorf("%q read as %q, %v; want %q", text, q.Canonical(), err, want)
		}
	}
}
