package question

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// A scan answers what breaks in someone's manifests on the way to a
// release, and it needs the manifests: typed in chat without them ("what
// breaks if I go to 1.36", "我的 yaml 升级到 1.36 会不会有问题"), the reader
// says how to ask it, and never guesses an answer.

// scanHowTo is the reply to a question only a scan answers — what breaks in
// my manifests, my cluster, on the way to a release: how to ask it, with
// the manifests, and the questions that need none. Never a guess.
func (r *reading) scanHowTo() *knowledge.Error {
	to, from := "", ""
	for _, t := range r.toks {
		if t.text == "cluster" || t.text == "clusters" || t.text == "kubeconfig" || strings.Contains(t.text, "集群") {
			return clusterScan(r.versions)
		}
	}
	switch len(r.versions) {
	case 1:
		to = r.versions[0].String()
	case 2:
		a, b := r.versions[0], r.versions[1]
		if b.Less(a) {
			a, b = b, a
		}
		from, to = a.String()+" ", b.String()
	}
	if to == "" {
		return r.unsure("To see what in your manifests breaks on a release, send scan and the release you go to (scan 1.36) "+
			"with the manifests in the same message (after it, or in a code block) or attach a .yaml file; help scan says more.", []string{"help scan"})
	}
	msg := "To see what in your manifests breaks on " + to + ", send scan " + from + to +
		" with the manifests in the same message (after it, or in a code block) or attach a .yaml file; help scan says more."
	alts := []string{"help scan"}
	if len(r.versions) == 1 {
		msg += " Without them I can list what " + to + " asks of everyone: " + to + " action required, " + to + " removals."
		alts = append(alts, to+" action required", to+" removals")
	} else if from != "" {
		msg += " Without them: upgrade " + from + to + "."
		alts = append(alts, "upgrade "+from+to)
	}
	return r.unsure(msg, alts)
}

// clusterScan is the reply to a scan of a live cluster asked in chat: the
// bot holds no cluster credentials, so it says where such a scan runs and
// what it can scan here.
func clusterScan(vs []knowledge.Version) *knowledge.Error {
	to := "1.36"
	if len(vs) > 0 {
		to = vs[len(vs)-1].String()
	}
	return &knowledge.Error{Code: knowledge.EBADINPUT,
		Message: "I don't scan clusters: a chat bot holds no cluster credentials, and should not. Where your kubeconfig is, run bot scan --cluster --to " + to +
			" (its metrics, every object's managedFields and its Helm releases). Here, send scan " + to + " with the manifests (helm template or kubectl get -o yaml output).",
		Suggestions: []string{"help scan"}}
}
