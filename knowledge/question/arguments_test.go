package question

import (
	"context"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// TestNoticeGatesAreNotMended: a feature gate only release notes name is
// known to the engine but not to the reader, which reads KEPs; asked by
// name, it is never read as another gate that is spelt near it.
func TestNoticeGatesAreNotMended(t *testing.T) {
	src := loadFull(t)
	r := NewReader(src)
	v := r.vocabulary(context.Background())
	keps := NewReader(StaticKEPs(src.keps)) // a source without NoticeGates mends them
	checked := 0
	for _, g := range src.noticeGates {
		if _, known := v.gates[strings.ToLower(g)]; known || !isGateName(g) {
			continue
		}
		checked++
		q, err := r.Read(context.Background(), "gate "+g)
		if err != nil {
			t.Errorf("gate %s: %v; want it asked as typed", g, err)
			continue
		}
		if q.Kind != knowledge.AskGate || !strings.EqualFold(q.Words, g) {
			t.Errorf("gate %s read as %s", g, q.Canonical())
		}
	}
	t.Logf("%d gates only notices name", checked)
	if q, err := keps.Read(context.Background(), "gate GenericEphemeralVolume"); err != nil || q.Words != "GenericEphemeralVolumes" {
		t.Errorf("without the notices' gates, gate GenericEphemeralVolume = %q, %v; want it read as the KEP's GenericEphemeralVolumes", q.Canonical(), err)
	}
}

// TestMendedArguments: a misspelt argument of the grammar is read as the
// one name near it and says so (Free); a name known as typed is the
// grammar's, as it was; near several, they are offered.
func TestMendedArguments(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	ctx := context.Background()
	for in, want := range map[string]string{
		"gate SidecarContainer": "gate SidecarContainers", "gate sidecarcontainers": "gate sidecarcontainers",
		"sig nodde": "sig node", "sig-netwrk 1.30": "sig network 1.30", "sig node": "sig node",
	} {
		q, err := r.Read(ctx, in)
		if err != nil || q.Canonical() != want {
			t.Errorf("Read(%q) = %q, %v; want %q", in, q.Canonical(), err, want)
			continue
		}
		if grammar, _ := Parse(in); q.Free != (grammar.Canonical() != want) {
			t.Errorf("Read(%q): Free %v", in, q.Free)
		}
	}
	for in, offers := range map[string][]string{
		"sig ap":        nil,          // too short to mend; offered what the engine would
		"gate Sidecars": nil,          // near nothing: left to the engine
		"sig nod":       {"sig node"}, // three letters: offered, not mended
	} {
		q, err := r.Read(ctx, in)
		e, _ := err.(*knowledge.Error)
		switch {
		case offers == nil && err == nil && q.Free:
			t.Errorf("Read(%q) mended to %q", in, q.Canonical())
		case offers != nil && (e == nil || strings.Join(e.Suggestions, ",") != strings.Join(offers, ",")):
			if err == nil && q.Canonical() == offers[0] {
				continue
			}
			t.Errorf("Read(%q) = %q, %v; want %q offered", in, q.Canonical(), err, offers)
		}
	}
}

// TestPullRequests: pr N is read by the grammar, a pull request typed or
// linked in chat is read as it, and a KEP's link is never taken for a pull
// request, nor the other way round.
func TestPullRequests(t *testing.T) {
	for in, want := range map[string]string{"130135": "pr 130135", "#130135": "pr 130135"} {
		q, err := parsePR([]string{in})
		if err != nil || q.Canonical() != want || q.Words != strings.TrimPrefix(want, "pr ") {
			t.Errorf("parsePR(%q) = %+v, %v; want %s", in, q, err, want)
		}
	}
	for _, in := range [][]string{{"abc"}, {"1", "2"}, {"0"}, {"-5"}, {}} {
		if q, err := parsePR(in); err == nil {
			t.Errorf("parsePR(%q) = %+v; want bad input", in, q)
		}
	}
	if q, err := Parse("pr 130135"); err != nil || q.Canonical() != "pr 130135" {
		t.Errorf("Parse(pr 130135) = %q, %v", q.Canonical(), err)
	}
	r := NewReader(StaticKEPs(syntheticKEPs()))
	for _, in := range []string{"https://github.com/kubernetes/kubernetes/pull/130135", "PR #130135 pls", "what does pull request 130135 do"} {
		q, err := r.Read(context.Background(), in)
		if err != nil || q.Canonical() != "pr 130135" {
			t.Errorf("Read(%q) = %q, %v; want pr 130135", in, q.Canonical(), err)
		}
	}
	for in, want := range map[string]string{
		"https://github.com/kubernetes/enhancements/issues/4639":                                        "kep 4639",
		"github.com/kubernetes/enhancements/tree/master/keps/sig-node/753-sidecar-containers/README.md": "kep 753",
		"<https://kep.k8s.io/3866|the nftables KEP>":                                                    "kep 3866",
	} {
		if q, err := r.Read(context.Background(), in); err != nil || q.Canonical() != want {
			t.Errorf("Read(%q) = %q, %v; want %s", in, q.Canonical(), err, want)
		}
	}
	for _, in := range []string{"https://github.com/kubernetes/enhancements/pull/4639", "https://github.com/kubernetes/kubernetes/issues/4639",
		"https://github.com/someone/enhancements/issues/4639", "https://example.com/kep.k8s.io/4639"} {
		if q, err := r.Read(context.Background(), in); err == nil {
			t.Errorf("Read(%q) = %q; a link to no KEP is not one", in, q.Canonical())
		}
	}
}

// TestTraditionalChinese: traditional characters read as the simplified
// ones, and simplified text is left as it is.
func TestTraditionalChinese(t *testing.T) {
	for in, want := range map[string]string{"1.30 棄用 廢棄 刪除 穩定 測試版": "1.30 弃用 废弃 删除 稳定 测试版",
		"什麼時候 發佈 請問 嗎 還有 支援": "什么时候 发布 请问 吗 还有 支援", "边车容器 已经 GA": "边车容器 已经 GA"} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	for r := range traditionalToSimplified {
		if simplified(r) == r || simplified(simplified(r)) != simplified(r) {
			t.Errorf("%c: simplified %c", r, simplified(r))
		}
		if _, again := traditionalToSimplified[traditionalToSimplified[r]]; again {
			t.Errorf("%c is simplified to %c, which the table folds again", r, traditionalToSimplified[r])
		}
	}
}

// TestPullRequestsOnceAnswered reads pull requests: the grammar's pr N,
// and every way of typing or linking one.
func TestPullRequestsOnceAnswered(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	for _, in := range []string{"pr 130135", "PR #130135", "https://github.com/kubernetes/kubernetes/pull/130135",
		"what's this PR about https://github.com/kubernetes/kubernetes/pull/130135/files", "这个 PR https://github.com/kubernetes/kubernetes/pull/130135 是哪个版本的",
		"what does pull request 130135 do"} {
		q, err := r.Read(context.Background(), in)
		if err != nil || q.Kind != knowledge.AskPR || q.Words != "130135" {
			t.Errorf("Read(%q) = %+v, %v; want the pull request 130135", in, q, err)
		}
	}
	if _, err := r.Read(context.Background(), "pr 130135 and kep 4639"); err == nil {
		t.Error("a pull request and a KEP at once were answered")
	}
}
