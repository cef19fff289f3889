package question

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<@U024BE7LH> what went GA in 1.30?", "what went GA in 1.30"},
		{"<!channel> <!here|here> <#C123|general> hi", "hi"},
		{"<@&123> <:party:123> <a:wave:456> ok", "ok"},
		{"@everyone @here @kepbot 1.30", "1.30"},
		{"see https://kubernetes.io/blog/x and <https://a.b/c|link>", "see and"},
		{"what's new? isn't it GA", "what new isnt it GA"},
		{"KEP#3866, KEP-753, kep:4639, sig:node, in-place", "KEP#3866 KEP-753 kep:4639 sig:node in-place"},
		{"v1.30.2. 1.31… 1,32", "v1.30.2 1.31 1 32"},
		{"*bold* _it_ ~s~ `code` ```block```", "bold it s code block"},
		{"1.30 GA 🚀👍🏽 :rocket: :+1:", "1.30 GA"},
		{"（1.30）有哪些 GA 的特性？", "1.30 有哪些 GA 的特性"},
		{"a\u200bb", "ab"},
		{"email me@example.com", "email me example com"},
	}
	for _, tt := range tests {
		got := strings.Join(strings.Fields(clean(tt.in)), " ")
		if got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenizeChinese(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"1.30 有哪些 GA 的特性", []string{"1.30", "有哪些", "ga", "的", "特性"}},
		{"1.35 有哪些需要升级前处理的", []string{"1.35", "有哪些", "需要", "升级前", "处理", "的"}},
		{"边车容器是 GA 了吗", []string{"边车容器", "是", "ga", "了吗"}},
		{"用户命名空间现在是什么状态", []string{"用户命名空间", "现在", "是", "什么", "状态"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range tokenize(clean(tt.in)) {
			got = append(got, tok.text)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("tokenize(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestStemAndCamel(t *testing.T) {
	for in, want := range map[string]string{"containers": "container", "policies": "policy", "class": "class",
		"status": "status", "pods": "pod", "api": "api", "nftables": "nftable"} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVocabulary(t *testing.T) {
	v := NewVocabulary(syntheticKEPs())
	tests := []struct {
		words []string
		sure  int // the KEP number, 0 for not sure
	}{
		{[]string{"sidecar", "containers"}, 753},
		{[]string{"Sidecar"}, 753},                    // an alias
		{[]string{"in-place", "pod", "resize"}, 1287}, // an alias, no word of the name
		{[]string{"SidecarContainers"}, 753},          // a gate
		{[]string{"SideCarContainres"}, 753},          // a misspelt gate
		{[]string{"dra"}, 4381},                       // an alias of the gate, before its acronym
		{[]string{"DynamicResourceAllocation"}, 4381}, // a gate two KEPs list: the one that went furthest (GA)
		{[]string{"kubectl", "debug"}, 1441},
		{[]string{"storage"}, 0}, // two KEPs' names, as much
		{[]string{"containers"}, 0},
		{[]string{"lunch"}, 0},
		{[]string{"restarting", "sidecar", "containers"}, 4438},
	}
	for _, tt := range tests {
		f := v.resolve(tt.words)
		got := 0
		if f.sure {
			got = f.best[0].Number
		}
		if got != tt.sure {
			t.Errorf("resolve(%q) = %d (sure %v, best %+v), want %d", tt.words, got, f.sure, f.best, tt.sure)
		}
	}
	if !v.sigs["api-machinery"] || !v.sigs["node"] || v.sigs["sig-node"] {
		t.Errorf("sigs = %v", v.sigNames())
	}
}

// TestReaderFollowsTheSource builds the vocabulary again when the source
// gives another list (the engine's catalog after Invalidate).
func TestReaderFollowsTheSource(t *testing.T) {
	src := &swapSource{keps: syntheticKEPs()[:1]} // only KEP-24
	r := NewReader(src)
	if _, err := r.Read(context.Background(), "is sidecar containers stable"); err == nil {
		t.Fatal("read a feature the source does not know")
	}
	src.keps = syntheticKEPs()
	q, err := r.Read(context.Background(), "is sidecar containers stable")
	if err != nil || q.Canonical() != "is kep 753 ga" || !q.Free {
		t.Fatalf("Read = %q (free %v), %v; want is kep 753 ga, free", q.Canonical(), q.Free, err)
	}
}

type swapSource struct{ keps []*knowledge.KEP }

func (s *swapSource) KEPs(context.Context) ([]*knowledge.KEP, error) { return s.keps, nil }

// TestReadKeepsTheGrammar reads questions of the grammar exactly as Parse
// does, never as free text, and keeps the grammar's errors for text
// written in it.
func TestReadKeepsTheGrammar(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	for _, in := range []string{"kep 4639", "1.29 ga", "upgrade 1.29 1.32", "search sidecar", "is kep 753 ga", "help"} {
		want, _ := Parse(in)
		got, err := r.Read(context.Background(), in)
		if err != nil || got.Free || !cmp.Equal(want, got) {
			t.Errorf("Read(%q) = %+v, %v; want Parse's %+v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"kep abc":      `"abc" is not a KEP number`,
		"diff 1.29":    "Give two releases",
		"1.29 gamma":   `"gamma" is not a stage`,
		"gate Foo Bar": "one word",
	} {
		_, err := r.Read(context.Background(), in)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Read(%q) = %v; want the grammar's error %q", in, err, msg)
		}
	}
}

// TestReadNeverDowngrades: an upgrade from a newer release to an older one
// is not read as the upgrade the other way.
func TestReadNeverDowngrades(t *testing.T) {
	r := NewReader(nil)
	for _, in := range []string{"how do I upgrade from 1.31 to 1.29", "upgrading 1.32 to 1.30 pls"} {
		q, err := r.Read(context.Background(), in)
		if err == nil {
			t.Errorf("Read(%q) = %q, want no answer", in, q.Canonical())
		}
	}
	q, err := r.Read(context.Background(), "what changed between 1.31 and 1.29")
	if err != nil || q.Canonical() != "diff 1.29 1.31" {
		t.Errorf("a comparison either way round: got %q, %v", q.Canonical(), err)
	}
}

// TestFreeNeverEchoesMentions: the reader's messages and suggestions never
// carry < or @, whatever the text.
func TestFreeNeverEchoesMentions(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	for _, in := range []string{"is <!channel> stable", "what went GA in <@U1> 1.30 lunch", "@everyone is @here GA",
		"is <https://evil.example|x> deprecated", "tell me about <#C1|general> widgets", "@everyone"} {
		_, err := r.Read(context.Background(), in)
		if err == nil {
			t.Fatalf("Read(%q) answered", in)
		}
		e := err.(*knowledge.Error)
		msg := e.Message + strings.Join(e.Suggestions, " ")
		if strings.ContainsAny(msg, "<@>") {
			t.Errorf("Read(%q) message %q echoes a mention", in, msg)
		}
	}
}

// TestAliasesNameKnownGates: every alias names a feature gate of ../shared's
// kep.yaml files, so none stands for nothing.
func TestAliasesNameKnownGates(t *testing.T) {
	v := NewVocabulary(loadShared(t))
	for alias, gate := range aliases {
		if _, ok := v.alias[alias]; !ok {
			t.Errorf("alias %q names gate %s, which no KEP of ../shared lists", alias, gate)
		}
	}
}
