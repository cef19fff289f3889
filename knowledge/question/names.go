package question

import (
	"slices"
	"strings"
)

// aliases are names people give features that neither a KEP's name, its
// documents nor its feature gates hold ("in-place pod resize" is KEP-1287,
// "In-place Update of Pod Resources"), or that would tie with another KEP's
// name ("sidecar" alone). Each names the feature gate of its KEP, so the
// vocabulary finds the KEP from what the knowledge says, and an alias whose
// gate the knowledge does not hold is left out. Keys are lower case, words
// stemmed (stemPhrase) and single-spaced; Chinese as written. A test checks
// each against the kep.yaml files of ../shared.
var aliases = stemKeys(map[string]string{
	"in place pod resize": "InPlacePodVerticalScaling", "in place resize": "InPlacePodVerticalScaling",
	"pod resize": "InPlacePodVerticalScaling", "in place pod vertical scaling": "InPlacePodVerticalScaling",
	"in place update": "InPlacePodVerticalScaling", "原地调整": "InPlacePodVerticalScaling",
	"原地扩缩容":   "InPlacePodVerticalScaling",
	"sidecar": "SidecarContainers", "native sidecar": "SidecarContainers", "sidecar container": "SidecarContainers",
	"边车": "SidecarContainers", "边车容器": "SidecarContainers",
	"user namespace": "UserNamespacesSupport", "userns": "UserNamespacesSupport",
	"用户命名空间": "UserNamespacesSupport",
	"swap":   "NodeSwap", "node swap": "NodeSwap", "swap memory": "NodeSwap", "交换内存": "NodeSwap",
	"nftable": "NFTablesProxyMode", "nftables kube proxy": "NFTablesProxyMode", "nftables proxy": "NFTablesProxyMode",
	"image volume": "ImageVolume", "oci volume": "ImageVolume", "oci image volume": "ImageVolume",
	"镜像卷": "ImageVolume",
	"dra": "DynamicResourceAllocation", "动态资源分配": "DynamicResourceAllocation",
	"dynamic resource allocation": "DynamicResourceAllocation",
	"cel admission":               "CELValidatingAdmission", "validating admission policy": "CELValidatingAdmission",
	"vap": "CELValidatingAdmission",
})

// stemKeys rewrites each key of m with stemPhrase.
func stemKeys(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[stemPhrase(strings.Fields(k))] = v
	}
	return out
}

// stemPhrase writes words as an alias key: each lower case and stemmed,
// dashes split, stop words left out (in-place is place), joined by single
// spaces.
func stemPhrase(words []string) string {
	var b strings.Builder
	for _, w := range words {
		for w != "" {
			p, rest, _ := strings.Cut(w, "-")
			w = rest
			if p == "" {
				continue
			}
			p = strings.ToLower(p)
			if stopWords[p] {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(stem(p))
		}
	}
	return b.String()
}

// containsFold reports whether ss holds s, ignoring case.
func containsFold(ss []string, s string) bool {
	return slices.ContainsFunc(ss, func(x string) bool { return strings.EqualFold(x, s) })
}

// dedupe returns ts without repeats, in order, in ts's own array.
func dedupe(ts []string) []string {
	out := ts[:0]
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// sortStrings sorts ss in place.
func sortStrings(ss []string) { slices.Sort(ss) }
