package question

import (
	"context"
	"errors"

	"github.com/kepbot/kepbot/knowledge"
)

// Asker reads typed text with a Reader and answers it with an Answerer:
// what the terminal chat and `bot ask` call. Slack and Discord do the same
// two steps themselves, around their own time budgets.
type Asker struct {
	Reader   *Reader // nil reads the grammar alone
	Answerer knowledge.Answerer
}

// NewAsker returns an Asker answering with a and reading with r.
func NewAsker(r *Reader, a knowledge.Answerer) *Asker { return &Asker{Reader: r, Answerer: a} }

// Ask reads text, answers it, and turns any failure into an Answer of kind
// error that is safe to show; it never returns nil. An internal error shows
// only the generic apology.
func (a *Asker) Ask(ctx context.Context, text string, from knowledge.Origin) *knowledge.Answer {
	q, err := a.Reader.Read(ctx, text)
	if err != nil {
		return knowledge.ErrorAnswer(err)
	}
	q.From = from
	ans, err := a.Answerer.Answer(ctx, q)
	if err == nil && ans == nil {
		err = errors.New("the answerer returned no answer and no error")
	}
	if err != nil {
		ans = knowledge.ErrorAnswer(err)
		ans.Query = q.Canonical()
	}
	return ans
}
