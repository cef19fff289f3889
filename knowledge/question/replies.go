package question

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

func errNotUnderstood() *knowledge.Error {
	return knowledge.Errorf(knowledge.EBADINPUT, "I don't understand that. Ask e.g. kep 4639, 1.29, 1.29 ga, search WORDS, or help for everything I answer.")
}

func prefixAll(p string, ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, p+s)
	}
	return out
}

// The replies of the free-text reader when it is not sure: an EBADINPUT
// error whose message says what it understood, and whose suggestions are
// the closest questions, each one the grammar reads (adapters offer them as
// buttons). User words are echoed only through knowledge.Echo.

// examples are the questions the short help offers.
const examples = "what went GA in 1.30?, is sidecar containers stable?, when does 1.31 go end of life? or kep 4639"

// unsure is an EBADINPUT error with msg and the suggestions that parse.
func (r *reading) unsure(msg string, suggestions []string) *knowledge.Error {
	e := &knowledge.Error{Code: knowledge.EBADINPUT, Message: msg}
	for _, s := range suggestions {
		if _, err := parseNormalized(normalize(s)); err == nil && len(e.Suggestions) < maxChoices {
			e.Suggestions = append(e.Suggestions, s)
		}
	}
	return e
}

// notAll is the error for a question read but for some of its words.
func (r *reading) notAll(q knowledge.Question) *knowledge.Error {
	c := q.Canonical()
	var left []string
	for _, t := range r.content {
		left = append(left, knowledge.Echo(t.raw))
	}
	msg := "I read that as " + c
	if len(left) > 0 {
		msg += ", but not " + knowledge.Short(strings.Join(left, " "))
	} else {
		msg += ", but not all of it"
	}
	return r.unsure(msg+". Is that what you mean?", []string{c})
}

// offTopic is the short help for text that asks nothing kepbot answers:
// a greeting, thanks, or anything else.
func (r *reading) offTopic() *knowledge.Error {
	switch {
	case r.thanks:
		return r.unsure("You're welcome! Ask me about Kubernetes releases and KEPs any time, e.g. "+examples+".", nil)
	case r.greeting:
		return r.unsure("Hello! I answer questions about Kubernetes releases and KEPs, e.g. "+examples+". Ask help for everything I answer.", []string{"help"})
	}
	return r.unsure("That doesn't look like a question about Kubernetes releases or KEPs. Ask e.g. "+examples+"; help lists everything I answer.", []string{"help"})
}

// positive offers the question without its negation: "is sidecar not GA"
// offers is kep 753 ga.
func (r *reading) positive(v *Vocabulary) []string {
	cp := *r
	cp.negated = false
	q, err := cp.decide(v)
	if err != nil {
		return err.Suggestions
	}
	return []string{q.Canonical()}
}

// stageChoices offers the release at each stage said.
func (r *reading) stageChoices(v knowledge.Version) []string {
	var out []string
	for _, st := range r.stages {
		q := knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v, Stage: st}
		switch st {
		case knowledge.StageDeprecated:
			q = knowledge.Question{Kind: knowledge.AskNotices, Version: v, Notice: knowledge.NoticeDeprecation}
		case knowledge.StageRemoved:
			q = knowledge.Question{Kind: knowledge.AskNotices, Version: v, Notice: knowledge.NoticeRemoval}
		}
		out = append(out, q.Canonical())
	}
	return out
}
