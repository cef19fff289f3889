package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
)

// sigNames maps the tags release notes put before an item ("[网络]",
// "存储 - ", "**APPS:**") to the canonical SIG names of kubernetes/community.
// Keys are lower case without spaces.
//
// Two choices are ours: 安全 (security) is mapped to sig-auth, because the
// notes use it for authentication, authorization and admission features,
// which SIG Auth owns (SIG Security owns no features); and the notes' logging
// and metrics tags go to sig-instrumentation, which owns both.
var sigNames = map[string]string{
	"网络": "sig-network", "network": "sig-network", "networking": "sig-network",
	"存储": "sig-storage", "storage": "sig-storage",
	"节点": "sig-node", "node": "sig-node",
	"调度": "sig-scheduling", "scheduling": "sig-scheduling", "scheduler": "sig-scheduling",
	"auth": "sig-auth", "鉴权": "sig-auth", "认证": "sig-auth", "授权": "sig-auth", "安全": "sig-auth",
	"instrumentation": "sig-instrumentation", "日志": "sig-instrumentation", "metrics": "sig-instrumentation",
	"指标": "sig-instrumentation", "可观测性": "sig-instrumentation",
	"windows": "sig-windows",
	"apps":    "sig-apps", "应用": "sig-apps", "应用负载": "sig-apps", "工作负载": "sig-apps",
	"apimachinery": "sig-api-machinery", "api": "sig-api-machinery", "client-go": "sig-api-machinery",
	"cli": "sig-cli", "kubectl": "sig-cli",
	"kubeadm": "sig-cluster-lifecycle", "集群生命周期": "sig-cluster-lifecycle",
	"autoscaling": "sig-autoscaling", "自动伸缩": "sig-autoscaling", "弹性": "sig-autoscaling",
	"测试": "sig-testing", "testing": "sig-testing",
	"release": "sig-release", "docs": "sig-docs", "文档": "sig-docs",
	"architecture": "sig-architecture", "架构": "sig-architecture",
	"scalability": "sig-scalability", "cloudprovider": "sig-cloud-provider", "云提供商": "sig-cloud-provider",
	"multicluster": "sig-multicluster", "contributorexperience": "sig-contributor-experience",
}

// sigOf returns the canonical SIG for one tag, or "". A compound tag
// ("Auth/Apps", "安全/鉴权/测试") gives its first SIG: Mention has room for
// one, and the notes put the owning SIG first.
func sigOf(tag string) string {
	for _, part := range strings.FieldsFunc(tag, func(r rune) bool { return r == '/' || r == '、' || r == '&' || r == '|' }) {
		k := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(part), " ", ""))
		k = strings.TrimPrefix(k, "sig-")
		if s, ok := sigNames[k]; ok {
			return s
		}
	}
	return ""
}

var (
	// reBracketTag is a leading "[网络]" tag; "[text](url)" is a link, not a tag.
	reBracketTag = lazyre.New(`^\s*\[([^\[\]()]{1,30})\](?:[^(]|$)`)
	// reDashTag is a leading "存储 - " or "API Machinery - " tag.
	reDashTag = lazyre.New(`^\s*([^\s\-–—][^\-–—]{0,20}?)\s+[-–—]\s+`)
	// reBoldTag is a pseudo-heading such as "**APPS:**" or "**网络：**".
	reBoldTag = lazyre.New(`^\*\*([^*]{1,30}?)\s*[:：]?\s*\*\*\s*[:：]?$`)
)

// leadingTag splits a leading SIG tag off a title: "[网络] KEP-1" gives
// sig-network and "KEP-1"; "存储 - X" gives sig-storage and "X". A bracket
// tag that is no SIG ("[Kubeadm]" is one, "[foo]" is not) is still removed
// from the title. A dash prefix that is no SIG is left alone: it may be part
// of the title.
func leadingTag(s string) (sig, rest string) {
	rest = s
	if m := reBracketTag().FindStringSubmatchIndex(rest); m != nil {
		sig = sigOf(rest[m[2]:m[3]])
		rest = strings.TrimSpace(rest[m[3]+1:])
	}
	if m := reDashTag().FindStringSubmatchIndex(rest); m != nil {
		if s := sigOf(rest[m[2]:m[3]]); s != "" {
			if sig == "" {
				sig = s
			}
			rest = strings.TrimSpace(rest[m[1]:])
		}
	}
	return sig, rest
}

// boldTag returns the label of a "**APPS:**" pseudo-heading line, or "".
func boldTag(s string) string {
	if m := reBoldTag().FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
