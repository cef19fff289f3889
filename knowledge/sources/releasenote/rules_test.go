package releasenote

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// The inputs below are made up for the rules; none is a note's sentence.

func TestFeatureGates(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"启用 `FooBarGate` 特性门控", []string{"FooBarGate"}},
		{"特征门控 `FooBarGate` 可用", []string{"FooBarGate"}},
		{"`GateOne` 和 `GateTwo` 功能门控", []string{"GateOne", "GateTwo"}},
		{"移除 GateOne、GateTwo、\nGateThree 特性门控", []string{"GateOne", "GateTwo", "GateThree"}},
		{"特性门控 FooGate 和 BarPlugin 准入插件", []string{"FooGate"}}, // the plugin is not a gate
		{"--feature-gates=FooGate=true,BarGate=false", []string{"FooGate", "BarGate"}},
		{"功能 FooGate 默认开启", []string{"FooGate"}},
		{"因依赖 Beta 功能 FooGate 默认关闭", nil},
		{"FooGate 旧的特性门控已被删除", []string{"FooGate"}},
		{"the FooBarGate feature gate", []string{"FooBarGate"}},
		{"the `GateOne` and `GateTwo` Feature-Gates", []string{"GateOne", "GateTwo"}},
		{"xFooGate 特性门控", nil}, // part of another word
		{"`KMSv9` 特性门控", []string{"KMSv9"}},
		{"新的 `ServiceThing` 对象和 `FooBar` 字段", nil}, // CamelCase alone is not a gate
		{"WebSockets 升级请求，添加 `FooGate` 特性门控", []string{"FooGate"}},
		{"`APPS` 特性门控", nil},    // no small letter
		{"`Sidecar` 特性门控", nil}, // one capital
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, featureGates(tt.in)); diff != "" {
			t.Errorf("featureGates(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestBodyStage(t *testing.T) {
	rel := knowledge.MustVersion("1.27")
	S, B, A, N := knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha, knowledge.StageNone
	tests := []struct {
		in   string
		want knowledge.Stage
	}{
		{"在 v1.25 中升级为 Beta", N}, // another release
		{"在 v1.27 中升级为 Beta", B},
		{"在 v1.24 中作为 Alpha 引入，1.27 升级为 GA", S},
		{"直接跳过 Alpha 阶段", N},
		{"需要 v1beta1 API", N},
		{"进入 Alpha2", A},
		{"被标记为 Bata 版", B},
		{"功能 GA。", S},
		{"升级为测试版", B},
		{"Graduate the thing to GA.", S},
		{"目前仍然是 alpha 级别", A},
		{"GAP 和 Alphabet", N},
		{"现在该提案已正式发布", S},
	}
	for _, tt := range tests {
		if got := bodyStage(tt.in, rel); got != tt.want {
			t.Errorf("bodyStage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLeadingTag(t *testing.T) {
	tests := []struct{ in, sig, rest string }{
		{"[网络] KEP-1：x", "sig-network", "KEP-1：x"},
		{"[Auth/Apps] KEP-1 x", "sig-auth", "KEP-1 x"},
		{"[CLI]x", "sig-cli", "x"},
		{"[Kubeadm] x", "sig-cluster-lifecycle", "x"},
		{"[client-go] x", "sig-api-machinery", "x"},
		{"[Foo] x", "", "x"}, // a tag, but no SIG
		{"存储 - x", "sig-storage", "x"},
		{"API Machinery - x", "sig-api-machinery", "x"},
		{"安全/鉴权/测试 - x", "sig-auth", "x"},
		{"自动伸缩 - x", "sig-autoscaling", "x"},
		{"Foo Bar - x", "", "Foo Bar - x"}, // no SIG: part of the title
		{"[KEP-1](https://kep.k8s.io/1) x", "", "[KEP-1](https://kep.k8s.io/1) x"},
	}
	for _, tt := range tests {
		sig, rest := leadingTag(tt.in)
		if sig != tt.sig || rest != tt.rest {
			t.Errorf("leadingTag(%q) = %q, %q; want %q, %q", tt.in, sig, rest, tt.sig, tt.rest)
		}
	}
	for in, want := range map[string]string{"**APPS:**": "APPS", "**网络：**": "网络", "**Lease:**": "Lease", "plain": "", "**bold** text": ""} {
		if got := boldTag(in); got != want {
			t.Errorf("boldTag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKEPRefs(t *testing.T) {
	type ref = kepRef
	tests := []struct {
		in   string
		want []ref
	}{
		{"[KEP-4292 x](https://kep.k8s.io/1769)", []ref{{1769, "https://kep.k8s.io/1769"}}}, // the link wins
		{"KEP-2831 和 KEP-647：x", []ref{{2831, ""}, {647, ""}}},
		{"KEP-3063/KEP-4381 x", []ref{{3063, ""}, {4381, ""}}},
		{"[KEP-0024](https://kep.k8s.io/24) x", []ref{{24, "https://kep.k8s.io/24"}}},
		{"see KEP3141 now", []ref{{3141, ""}}},
		{"[x](https://github.com/kubernetes/enhancements/issues/3756) y", []ref{{3756, "https://github.com/kubernetes/enhancements/issues/3756"}}},
		{"[KEP-2589]() x", []ref{{2589, ""}}},
		{"[x](https://github.com/kubernetes/enhancements/pull/123)", nil}, // a PR number is no KEP
		{"[Issue #125689](https://github.com/kubernetes/kubernetes/issues/125689)", nil},
		{"myKEP-12 and KEP-1234567", nil},
		{"<https://kep.k8s.io/>", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, kepRefs(tt.in), cmp.AllowUnexported(kepRef{})); diff != "" {
			t.Errorf("kepRefs(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	for in, want := range map[string]string{
		"[KEP-1 标题](https://kep.k8s.io/1)":   "标题",
		"KEP-2831 和 KEP-647：Tracing":         "Tracing",
		"[KEP-9](https://kep.k8s.io/9) Name": "Name",
		"[Name](https://kep.k8s.io/9)":       "Name",
	} {
		if got := stripKEPs(in); got != want {
			t.Errorf("stripKEPs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReleaseFactsRules(t *testing.T) {
	for in, want := range map[string]string{
		"主题为 {release-name} 的 Kubernetes v9.9 发布": "",
		"主题为 Calm（安静）的 Kubernetes 9.9":            "Calm",
		"主题为 Calm Seas ❤️ 的 Kubernetes v9.9":      "Calm Seas",
		"本次的主题是 。它是 “Calm Seas” 的意思。":             "Calm Seas",
		"本次的主题是：__Calm（安静）__ ✨":                   "Calm",
		"The release theme is Calm Seas.":         "Calm Seas",
		"没有主题的段落":                                 "",
	} {
		if got := releaseTheme([]string{inline(in)}); got != want {
			t.Errorf("releaseTheme(%q) = %q, want %q", in, got, want)
		}
	}
	tests := []struct {
		in   string
		want knowledge.Counts
	}{
		{"跟踪了 **50 个 enhancements**。其中 10 个功能升级为稳定版，20 个已有功能进行优化升级为 Beta，另有 20 个 Alpha 级别的功能",
			knowledge.Counts{Total: 50, Stable: 10, Beta: 20, Alpha: 20}},
		{"包含 40 项改进。有 9 项已晋升为稳定版，另外有 8 项正在进入 Beta 阶段，以及最后的 23 项为 Alpha 阶段",
			knowledge.Counts{Total: 40, Stable: 9, Beta: 8, Alpha: 23}},
		{"7 项已晋升为稳定版，6 项正在进入 Beta 阶段，以及新增 5 项功能", knowledge.Counts{Stable: 7, Beta: 6, Alpha: 5}},
		{"新增了 4 个特性门控", knowledge.Counts{}},
	}
	for _, tt := range tests {
		if got := releaseCounts([]string{inline(tt.in)}); got != tt.want {
			t.Errorf("releaseCounts(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestDocVersionAndDate(t *testing.T) {
	tests := []struct {
		doc, version, date string
	}{
		{"---\ntitle: Kubernetes 1.31 notes\ndate: 2024-08-13  10:00:00\n---\n\ntext v1.30 v1.30\n", "1.31", "2024-08-13"},
		{"# Kubernetes v1.30 out\n\n太平洋时间 2024 年 4 月 17 日，Kubernetes v1.30 正式发布。\n\n## x\n", "1.30", "2024-04-17"},
		// The date of another sentence is not the release day.
		{"# Kubernetes 1.29\n\n旧仓库已于 2023 年 9 月 13 日冻结，Kubernetes v1.29 发布软件包。\n", "1.29", ""},
		// No title: the version named most often.
		{"some v1.28 and Kubernetes 1.29, then v1.29 again", "1.29", ""},
		{"# Kubernetes 1.29\n\n2023 年 2 月 30 日，Kubernetes 1.29 正式发布。", "1.29", ""}, // no such day
	}
	for _, tt := range tests {
		c, err := Parse("doc.md", []byte(tt.doc))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.doc, err)
			continue
		}
		if r := c.Releases[0]; r.Version.String() != tt.version || r.Date != tt.date {
			t.Errorf("Parse(%q): version %v date %q, want %s %q", tt.doc, r.Version, r.Date, tt.version, tt.date)
		}
	}
}

func TestSplitBlocks(t *testing.T) {
	doc := "---\ndate: 2024-01-02\n---\n# Title\n\n```text\n# HELP not a heading\n```\n\n- item one\n  continued\n- item two\n\n> quoted\n> more\n\npara\nline two\n\n## Section ##\n\n~~~\nunclosed\n# still code"
	fm, blocks := splitBlocks(doc)
	if fm["date"] != "2024-01-02" {
		t.Errorf("front matter %v", fm)
	}
	type row struct {
		Kind  blockKind
		Level int
		Text  string
		Line  int
	}
	var got []row
	for _, b := range blocks {
		got = append(got, row{b.kind, b.level, b.text, b.line})
	}
	want := []row{
		{blockHeading, 1, "Title", 4},
		{blockCode, 0, "# HELP not a heading", 6},
		{blockItem, 0, "item one continued", 10},
		{blockItem, 0, "item two", 12},
		{blockQuote, 0, "quoted more", 14},
		{blockParagraph, 0, "para line two", 17},
		{blockHeading, 2, "Section", 20},
		{blockCode, 0, "unclosed\n# still code", 22},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("splitBlocks (-want +got):\n%s", diff)
	}
	// An unclosed front matter is no front matter.
	if fm, _ := splitBlocks("---\ntitle: x\n"); fm != nil {
		t.Errorf("unclosed front matter read as %v", fm)
	}
}

func TestTitleOf(t *testing.T) {
	for in, want := range map[string]string{
		"在 Kubernetes v1.99 中，FooThing 升级为 Beta，默认可用": "FooThing 升级为 Beta",
		"如果条件不满足，插件可以用作子命令":                           "如果条件不满足，插件可以用作子命令",
		"其中 需要重点关注的，FooGate 已被删除":                     "FooGate 已被删除",
		"管理 IP 范围 (因依赖 Beta API, 默认关闭)":               "管理 IP 范围",
		"短": "短",
	} {
		if got := titleOf(in); got != want {
			t.Errorf("titleOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifySections(t *testing.T) {
	tests := []struct {
		title string
		kind  sectionKind
		stage knowledge.Stage
	}{
		{"GA 和稳定的功能", secStage, knowledge.StageStable},
		{"🔥 推广试用 (Beta)", secStage, knowledge.StageBeta},
		{"进入 Alpha 阶段的功能", secStage, knowledge.StageAlpha},
		{"删除和废弃功能", secNotices, knowledge.StageNone},
		{"🗑️ 不顶用了", secNotices, knowledge.StageNone},
		{"弃用 (Deprecation)", secDeprecation, knowledge.StageNone},
		{"移除 (Removal)", secRemoval, knowledge.StageNone},
		{"升级注意事项", secUpgrade, knowledge.StageNone},
		{"📉 破坏性变更", secUpgrade, knowledge.StageNone},
		{"DaoCloud 社区贡献", secContrib, knowledge.StageNone},
		{"历史文档", secSkip, knowledge.StageNone},
		{"发布主题和 Logo", secSkip, knowledge.StageNone},
		{"重要功能", secFeatures, knowledge.StageNone},
	}
	for _, tt := range tests {
		if k, st := classify(tt.title); k != tt.kind || st != tt.stage {
			t.Errorf("classify(%q) = %v, %v; want %v, %v", tt.title, k, st, tt.kind, tt.stage)
		}
	}
}

func TestClassifyNotice(t *testing.T) {
	rel := knowledge.MustVersion("1.27")
	for in, want := range map[string]knowledge.NoticeKind{
		"FooGate 特性门控已经废弃，将在未来版本移除":               knowledge.NoticeDeprecation,
		"v1beta1 API 在 v1.24 中已被弃用，将在 v1.27 中被移除": knowledge.NoticeRemoval,
		"kubelet 移除了命令行参数 --foo":                  knowledge.NoticeRemoval,
		"弃用了 Alpha 状态的注解":                         knowledge.NoticeDeprecation,
		"Linux/foo 将不会在 Kubernetes 1.27 中发布":      "",
	} {
		if got := classifyNotice(in, rel); got != want {
			t.Errorf("classifyNotice(%q) = %q, want %q", in, got, want)
		}
	}
}
