package question

import "strings"

// Links pasted into a question name what they point at: a KEP's page
// (https://kep.k8s.io/4639), its tracking issue
// (github.com/kubernetes/enhancements/issues/3866) or its folder
// (…/enhancements/tree/master/keps/sig-node/753-sidecar-containers) name
// the KEP; a SIG's folder of KEPs names the SIG; a pull request of
// kubernetes/kubernetes names the pull request. clean writes each as the
// words the reader reads (kep-4639, sig-node, pr 130135); any other link is
// noise, as before. A pull request of kubernetes/enhancements is a change
// to KEPs, and an issue of kubernetes/kubernetes a bug: neither is a KEP.

// linkHosts are the hosts a link may be pasted with and no scheme.
var linkHosts = []string{"github.com/", "kep.k8s.io/", "kubernetes/kubernetes#", "kubernetes/enhancements#"}

// hasLinkHost reports whether s starts with a host of linkHosts.
func hasLinkHost(s string) bool {
	for _, h := range linkHosts {
		if len(s) >= len(h) && strings.EqualFold(s[:len(h)], h) {
			return true
		}
	}
	return false
}

// linkWords returns the words a link stands for in a question, "" for a
// link that names nothing kepbot answers.
func linkWords(u string) string {
	l := strings.ToLower(u)
	for _, p := range []string{"https://", "http://", "www."} {
		l = strings.TrimPrefix(l, p)
	}
	// GitHub's short references: kubernetes/kubernetes#130135 is a pull
	// request (or issue) of kubernetes/kubernetes, kubernetes/enhancements#3866
	// a KEP's tracking issue.
	if n, ok := strings.CutPrefix(l, "kubernetes/kubernetes#"); ok && isNumber(strings.TrimRight(n, ".,;:!?)")) {
		return "pr " + strings.TrimRight(n, ".,;:!?)")
	}
	if n, ok := strings.CutPrefix(l, "kubernetes/enhancements#"); ok && isNumber(strings.TrimRight(n, ".,;:!?)")) {
		return "kep-" + strings.TrimRight(n, ".,;:!?)")
	}
	if i := strings.IndexAny(l, "?#|>"); i >= 0 {
		l = l[:i]
	}
	parts := strings.Split(strings.Trim(l, "/"), "/")
	switch {
	case parts[0] == "kep.k8s.io" && len(parts) >= 2 && isNumber(parts[1]):
		return "kep-" + parts[1]
	case parts[0] != "github.com" || len(parts) < 5 || parts[1] != "kubernetes":
		return ""
	}
	repo, what, rest := parts[2], parts[3], parts[4:]
	switch {
	case repo == "enhancements" && what == "issues" && isNumber(rest[0]):
		return "kep-" + rest[0]
	case repo == "kubernetes" && what == "pull" && isNumber(rest[0]):
		return "pr " + rest[0]
	case repo == "enhancements" && (what == "tree" || what == "blob") && len(rest) >= 3 && rest[1] == "keps":
		if len(rest) >= 4 {
			if n, _, _ := strings.Cut(rest[3], "-"); isNumber(n) {
				return "kep-" + n // keps/sig-node/753-sidecar-containers
			}
		}
		if len(rest) == 3 && strings.HasPrefix(rest[2], "sig-") && len(rest[2]) > 4 && isGateName(strings.ReplaceAll(rest[2], "-", "")) {
			return rest[2] // keps/sig-node: the SIG's KEPs
		}
		if n, _, _ := strings.Cut(rest[2], "-"); isNumber(n) {
			return "kep-" + n // keps/753-name, a KEP outside a SIG's folder
		}
	}
	return ""
}

// isNumber reports whether s is a number of one to seven digits, not 0.
func isNumber(s string) bool {
	return len(s) <= 7 && allDigits(s) && strings.Trim(s, "0") != ""
}
