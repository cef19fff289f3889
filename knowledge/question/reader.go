package question

import (
	"context"

	"github.com/kepbot/kepbot/knowledge"
)

// Reader reads the text people type as a question. Its zero value and a
// nil *Reader read the grammar alone.
type Reader struct{}

// Read reads text as a question: the grammar of Parse. It fails as Parse
// does, with an EBADINPUT *knowledge.Error.
func (r *Reader) Read(ctx context.Context, text string) (knowledge.Question, error) {
	return Parse(text)
}

// ChangesSubscription reports whether text asks to subscribe or
// unsubscribe a channel: the questions for which an adapter must find out
// whether the person asking may manage the channel (a Slack users.info
// lookup), and no others.
func ChangesSubscription(text string) bool {
	q, err := Parse(text)
	return err == nil && (q.Kind == knowledge.AskSubscribe || q.Kind == knowledge.AskUnsubscribe)
}
