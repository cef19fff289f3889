package question

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// KEPSource gives the KEPs whose names a Reader knows. *engine.Engine
// is one (Engine.KEPs): its catalog, read once and dropped on Invalidate.
// A source returns the same slice until its knowledge changes.
type KEPSource interface {
	KEPs(ctx context.Context) ([]*knowledge.KEP, error)
}

// StaticKEPs is a KEPSource of a fixed list, for tests and tools.
type StaticKEPs []*knowledge.KEP

// KEPs returns s.
func (s StaticKEPs) KEPs(context.Context) ([]*knowledge.KEP, error) { return s, nil }

// Reader reads the text people type as a question: the grammar first
// (Parse, exact and fast), and only when that fails, the text as typed in
// chat — whole sentences, greetings and "pls", mentions, code marks,
// misspellings, Chinese, features by name — with the names of the KEPs its
// source knows. It is safe for concurrent use. A nil *Reader reads as one
// with no source: everything but features by name.
type Reader struct {
	src   KEPSource
	mu    sync.Mutex // held while a vocabulary is built
	vocab atomic.Pointer[vocabOf]
	kinds kindsCache // the API kinds of the source's table (see kindsOf)
}

// vocabOf is a vocabulary and the list of KEPs it was built from.
type vocabOf struct {
	keps []*knowledge.KEP
	v    *Vocabulary
}

// NewReader returns a Reader that knows the features of src (nil: none).
func NewReader(src KEPSource) *Reader { return &Reader{src: src} }

// Read reads text as a question. A question of the grammar comes back as
// Parse reads it, but for its feature gate or SIG: one the reader does not
// know, one or two edits from exactly one it knows, is read as that one
// (gate SidecarContainer is gate SidecarContainers, Free set), and near
// several, they are offered. Other text is read as typed in chat; a question read so
// has Free set, and the answer should say how it was read
// (knowledge.Understood). When the reader is not sure what the text asks —
// an unknown word, a feature name several KEPs match, text that asks
// nothing kepbot answers — Read fails with an EBADINPUT *knowledge.Error
// saying what it understood, with the closest questions in Suggestions; it
// never guesses. Text written in the grammar (it starts with a command
// word, a KEP or a release) is read as free text only when the grammar
// could not tell what it meant — a misspelling, chat around it; when the
// grammar could (diff 1.43 1.40: the older first), and when free text is
// not sure either, it fails with the grammar's error, as Parse does.
func (r *Reader) Read(ctx context.Context, text string) (knowledge.Question, error) {
	rp, err := r.read(ctx, text)
	if err == nil && rp.q.Free {
		rp.q.Focus, rp.q.Also = rp.focus, rp.also
	}
	return rp.q, err
}

// reply is what the reader makes of a text: the question, and what its
// answer should put first or name beside it (Read gives them to the
// question as Question.Focus and Question.Also).
type reply struct {
	q knowledge.Question
	// focus is the one attribute asked of a KEP, a gate or a release
	// (focus.go): "which SIG owns KEP 1287" asks its SIG; "" the card.
	focus knowledge.Focus
	// also are the other KEPs a feature's name matched, best first, when
	// the best was answered because its name covered the words clearly
	// better: the runners-up, for one line under the answer.
	also []knowledge.KEPRef
}

// read is Read, with the focus and the runners-up.
func (r *Reader) read(ctx context.Context, text string) (reply, error) {
	if _, _, ok := SplitScan(text); ok {
		q, err := Parse(text) // a scan is read in the grammar, its manifests kept as they are
		return reply{q: q}, err
	}
	norm, err := check(text)
	if err != nil {
		return reply{}, err
	}
	q, err := parseNormalized(norm)
	if err == nil {
		q.Text = norm
		if q.Kind != knowledge.AskGate && q.Kind != knowledge.AskGateDefault && q.Kind != knowledge.AskSIG {
			return reply{q: q}, nil
		}
		return r.mendedGrammar(ctx, text, q) // gate InPlacePodVerticalScalng: one name near it
	}
	grammar := inGrammar(norm)
	if e, ok := err.(*knowledge.Error); norm == "" || (grammar && ok && len(e.Suggestions) > 0) {
		return reply{q: q}, err // the grammar knows what was meant: diff 1.43 1.40 is diff 1.40 1.43
	}
	v := r.vocabulary(ctx)
	if gq, ok := readGateFree(text); ok {
		gq.Free = true // which feature gates changed in 1.34, 1.33 中 ImageVolume 默认开启吗
		return r.mended(ctx, gq, v)
	}
	names := r.apiNames(ctx)
	var kinds, shortGVs map[string]string
	if names != nil {
		kinds, shortGVs = names.kinds, names.shortGVs
	}
	if aq, ok := readAPIFree(text, kinds, shortGVs, v); ok {
		return r.mended(ctx, aq, v) // an API's lifecycle: it names a group/version, or a kind and "removed"
	}
	rp, ferr := readFree(text, v)
	if ferr == nil && rp.q.Kind == knowledge.AskGate && !gateCue(text) {
		if e := r.kindOffer(ctx, text, v); e != nil && len(e.Suggestions) > 1 {
			return reply{q: rp.q}, e // who owns ValidatingAdmissionPolicy: a kind, and a KEP's gate of that name
		}
	}
	if ferr == nil {
		rp.q.Free = true
		mended, merr := r.mended(ctx, rp.q, v)
		if merr != nil {
			return reply{}, merr
		}
		mended.focus, mended.also = rp.focus, rp.also
		return mended, nil
	}
	if grammar && !(ferr != nil && len(ferr.Suggestions) > 0 && len(strings.Fields(norm)) > 3) {
		return reply{q: q}, withSuggestions(err, norm) // kep 4639 foo: the grammar's usage says more
	}
	if offTopic(ferr) {
		if e := r.kindOffer(ctx, text, v); e != nil {
			return reply{q: q}, e // who owns ValidatingAdmissionPolicy: a kind, and a gate of that name
		}
	}
	return reply{q: q}, ferr // KEP for the new kube-proxy backend: which of the KEPs it names
}

// gateCue reports whether text says it asks of a feature gate ("gate",
// "feature flag", 特性门控): a name that is an API kind too is then the
// gate's.
func gateCue(text string) bool {
	low := strings.ToLower(text)
	return strings.Contains(low, "gate") || strings.Contains(low, "feature flag") || strings.Contains(text, "门控") || strings.Contains(text, "門控")
}

// offTopic reports whether e is the free-text reader's "not a question
// about Kubernetes" reply, which offers nothing but help.
func offTopic(e *knowledge.Error) bool {
	return e != nil && (len(e.Suggestions) == 0 || len(e.Suggestions) == 1 && e.Suggestions[0] == "help")
}

// kindOffer is the reply to text the free-text reader found off-topic
// that names a built-in API kind written in CamelCase
// (ValidatingAdmissionPolicy): its lifecycle is offered, and the feature
// gate of that name when one is known. nil when the text names none.
func (r *Reader) kindOffer(ctx context.Context, text string, v *Vocabulary) *knowledge.Error {
	kinds := r.kindsOf(ctx)
	if len(kinds) == 0 {
		return nil
	}
	for _, w := range strings.FieldsFunc(text, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		kind, ok := kinds[strings.ToLower(w)]
		if !ok || !isCamel(w) {
			continue
		}
		offers := []string{"api " + kind}
		if _, spelt, ok := v.gateNamed(kind); ok && strings.EqualFold(spelt, kind) || r.noticeGate(ctx, kind) {
			offers = append(offers, "gate "+kind)
		}
		msg := kind + " is a Kubernetes API kind: ask api " + kind + " for when each of its versions came and went"
		if len(offers) > 1 {
			msg += ", or gate " + kind + " for the feature gate of that name"
		}
		return &knowledge.Error{Code: knowledge.EBADINPUT, Message: msg + ".", Suggestions: offers}
	}
	return nil
}

// isCamel reports whether w is written in CamelCase: a capital first, and
// another after a small letter (CronJob, ValidatingAdmissionPolicy; not
// Pod or CRD).
func isCamel(w string) bool {
	if w == "" || !unicode.IsUpper(rune(w[0])) {
		return false
	}
	lower := false
	for _, c := range w[1:] {
		switch {
		case unicode.IsLower(c):
			lower = true
		case unicode.IsUpper(c) && lower:
			return true
		}
	}
	return false
}

// mendedGrammar is mended for a gate or SIG question of the grammar. A SIG
// the grammar made of several words, none of them a SIG v knows (sig
// storgae kep list), is read as chat, where the SIG is the words after sig;
// or its first words are offered as the SIG meant.
func (r *Reader) mendedGrammar(ctx context.Context, text string, q knowledge.Question) (reply, error) {
	v := r.vocabulary(ctx)
	rp, err := r.mended(ctx, q, v)
	if err != nil || rp.q.Kind != knowledge.AskSIG || v == nil || len(v.sigs) == 0 || v.sigs[rp.q.Words] {
		return rp, err
	}
	if fp, ferr := readFree(text, v); ferr == nil && fp.q.Kind == knowledge.AskSIG {
		fp.q.Free = true
		return fp, nil
	}
	if e := v.sigLeading(rp.q); e != nil {
		return rp, e
	}
	return rp, nil
}

// Warm builds the vocabulary now, so that the first question typed in chat
// does not wait for it. It fails as the source does.
func (r *Reader) Warm(ctx context.Context) error {
	if r == nil || r.src == nil {
		return nil
	}
	keps, err := r.src.KEPs(ctx)
	if err != nil {
		return err
	}
	r.vocabFor(keps)
	return nil
}

// vocabulary returns the vocabulary of the source's KEPs, built once for
// each list the source gives; nil without a source or when it fails (then
// features are not known by name, and the reader says so).
func (r *Reader) vocabulary(ctx context.Context) *Vocabulary {
	if r == nil || r.src == nil {
		return nil
	}
	keps, err := r.src.KEPs(ctx)
	if err != nil {
		return nil
	}
	return r.vocabFor(keps)
}

func (r *Reader) vocabFor(keps []*knowledge.KEP) *Vocabulary {
	if c := r.vocab.Load(); c != nil && sameList(c.keps, keps) {
		return c.v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.vocab.Load(); c != nil && sameList(c.keps, keps) {
		return c.v
	}
	c := &vocabOf{keps: keps, v: NewVocabulary(keps)}
	r.vocab.Store(c)
	return c.v
}

// sameList reports whether a and b are the same list of KEPs: a source
// gives the same slice until its knowledge changes.
func sameList(a, b []*knowledge.KEP) bool {
	return len(a) == len(b) && (len(a) == 0 || (a[0] == b[0] && a[len(a)-1] == b[len(b)-1]))
}

// grammarWords are the words that start a question of the grammar.
var grammarWords = map[string]bool{
	"kep": true, "releases": true, "release": true, "versions": true, "help": true, "帮助": true,
	"gate": true, "featuregate": true, "feature-gate": true, "search": true, "find": true, "diff": true,
	"upgrade": true, "sig": true, "subscribe": true, "unsubscribe": true, "subscriptions": true,
	"supported": true, "latest": true, "eol": true, "patches": true, "urgent": true,
	"api": true, "apiversion": true, "scan": true, "pr": true, "gates": true, "featuregates": true, "feature-gates": true,
}

// inGrammar reports whether normalised text starts as a question of the
// grammar does: a command word, a KEP or a release. Its errors then come
// from the grammar, which knows what was meant to follow.
func inGrammar(norm string) bool {
	head, _, _ := strings.Cut(norm, " ")
	head = strings.ToLower(head)
	if hasLinkHost(head) || hasURLPrefix(head) {
		return false // kep.k8s.io/753: a link, read as chat
	}
	if grammarWords[head] || strings.HasPrefix(head, "sig-") || looksVersion(head) {
		return true
	}
	_, ok, _ := kepToken(head)
	return ok
}

// ChangesSubscription reports whether text asks to subscribe or
// unsubscribe a channel: the questions for which an adapter must find out
// whether the person asking may manage the channel (a Slack users.info
// lookup), and no others. It reads as Read does; subscription questions
// never depend on the names of features.
func ChangesSubscription(text string) bool {
	q, err := (*Reader)(nil).Read(context.Background(), text)
	return err == nil && (q.Kind == knowledge.AskSubscribe || q.Kind == knowledge.AskUnsubscribe)
}

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
// only the generic apology. An answer to text read as free text says how it
// was read (Answer.UnderstoodAs), a miss included.
func (a *Asker) Ask(ctx context.Context, text string, from knowledge.Origin) *knowledge.Answer {
	ans, _ := a.AskErr(ctx, text, from)
	return ans
}

// AskErr is Ask that also returns the answerer's error, when there was
// one, for the caller's log: the answer only apologises for an internal
// error, and the error says what went wrong.
func (a *Asker) AskErr(ctx context.Context, text string, from knowledge.Origin) (*knowledge.Answer, error) {
	q, err := a.Reader.Read(ctx, text)
	if err != nil {
		return knowledge.ErrorAnswer(err), nil
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
	return knowledge.Understood(ans, q), err
}
