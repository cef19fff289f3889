package question

import (
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// Pull requests of kubernetes/kubernetes, typed (PR #130135, pr 130135) or
// pasted as a link: their release-note entries. The grammar reads pr N
// once the engine answers it; until then the reader offers what does
// answer it.

// askPR is the kind of the pull-request question, pr 130135: the release-
// note entries of a pull request of kubernetes/kubernetes. The engine
// names it knowledge.AskPR once it answers it.
const askPR knowledge.QuestionKind = "pr"

// prQuestions reports whether the engine answers pull requests: whether
// knowledge.Question writes askPR as the grammar reads it (pr 130135).
// Until then a pull request, typed or pasted as a link, gets an offer of
// what does answer it: its KEP, its release's notes.
var prQuestions = knowledge.Question{Kind: askPR, Words: "1"}.Canonical() == "pr 1"

// parsePR reads what follows "pr": one pull request number (#130135 too).
func parsePR(args []string) (knowledge.Question, error) {
	if len(args) != 1 {
		return knowledge.Question{}, knowledge.BadInput("pr", "Give one pull request number, e.g. pr 130135.")
	}
	n, err := strconv.Atoi(trimHash(args[0]))
	if err != nil || n <= 0 || len(args[0]) > 8 {
		return knowledge.Question{}, knowledge.BadInput("pr", "%q is not a pull request number.", knowledge.Echo(args[0]))
	}
	return knowledge.Question{Kind: askPR, Words: strconv.Itoa(n)}, nil
}

func trimHash(s string) string {
	if len(s) > 1 && s[0] == '#' {
		return s[1:]
	}
	return s
}

// pullRequest reads a question about a pull request of
// kubernetes/kubernetes: pr N once the engine answers it; until then an
// offer of the KEP its release-note entry links to and the notes of its
// release, as far as v knows them.
func (r *reading) pullRequest(q knowledge.Question, v *Vocabulary) (knowledge.Question, *knowledge.Error) {
	if len(r.prs) > 1 || len(r.keps) > 0 {
		var alts []string
		for _, n := range r.keps {
			alts = append(alts, "kep "+strconv.Itoa(n))
		}
		return q, r.unsure("Ask about one pull request or one KEP at a time.", alts)
	}
	n := r.prs[0]
	if prQuestions {
		q.Kind, q.Words = askPR, strconv.Itoa(n)
		return r.only(q)
	}
	msg := "That is pull request #" + strconv.Itoa(n) + " of kubernetes/kubernetes; I can't show one pull request's release-note entry yet."
	var alts []string
	if ref, ok := v.pullRequest(n); ok {
		k := v.keps[v.answersFor(ref.kep)]
		msg += " The " + ref.release.String() + " release notes list it, linked to KEP-" + strconv.Itoa(k.number)
		if k.title != "" {
			msg += " (" + knowledge.Short(k.title) + ")"
		}
		msg += ": ask about the KEP, or the notes of " + ref.release.String() + "."
		alts = append(alts, "kep "+strconv.Itoa(k.number), ref.release.String()+" notices")
	}
	return q, r.unsure(msg, alts)
}

// prRef is a release-note entry as the vocabulary knows it: the KEP it
// links to and the release whose notes list it.
type prRef struct {
	kep     int32
	release knowledge.Version
}

// pullRequest returns the release-note entry of pull request n that links
// a KEP, when v knows one.
func (v *Vocabulary) pullRequest(n int) (prRef, bool) {
	if v == nil {
		return prRef{}, false
	}
	ref, ok := v.prs[n]
	return ref, ok
}
