package question

import (
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// Pull requests of kubernetes/kubernetes, typed (PR #130135, pr 130135) or
// pasted as a link: pr N, their release-note entries.

// parsePR reads what follows "pr": one pull request number (#130135 too).
func parsePR(args []string) (knowledge.Question, error) {
	if len(args) != 1 {
		return knowledge.Question{}, knowledge.BadInput("pr", "Give one pull request number, e.g. pr 130135.")
	}
	n, err := strconv.Atoi(trimHash(args[0]))
	if err != nil || n <= 0 || len(args[0]) > 8 {
		return knowledge.Question{}, knowledge.BadInput("pr", "%q is not a pull request number.", knowledge.Echo(args[0]))
	}
	return knowledge.Question{Kind: knowledge.AskPR, Words: strconv.Itoa(n)}, nil
}

func trimHash(s string) string {
	if len(s) > 1 && s[0] == '#' {
		return s[1:]
	}
	return s
}

// pullRequest reads a question about one pull request of
// kubernetes/kubernetes as pr N; several, or one with a KEP, are asked
// about one at a time.
func (r *reading) pullRequest(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	if len(r.prs) > 1 || len(r.keps) > 0 {
		var alts []string
		for _, n := range r.keps {
			alts = append(alts, "kep "+strconv.Itoa(n))
		}
		return q, r.unsure("Ask about one pull request or one KEP at a time.", alts)
	}
	q.Kind, q.Words = knowledge.AskPR, strconv.Itoa(r.prs[0])
	return r.only(q)
}
