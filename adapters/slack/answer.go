package slack

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// errNoAnswer is what an Answerer that returns neither an answer nor an
// error is logged as.
var errNoAnswer = errors.New("the answerer returned no answer and no error")

// ask parses text, answers it and records it. It never fails: a question
// it cannot parse, a miss and an internal error (logged, never shown) all
// become answers of kind error, and so does a panic in the answerer.
func (a *Adapter) ask(ctx context.Context, text, via string, from knowledge.Origin, start time.Time) *knowledge.Answer {
	q, err := a.reader.Read(ctx, text)
	return a.answer(ctx, q, err, via, from, start)
}

// answer is ask for a question already read: perr is the reader's
// error, if any. It never changes an Answer the answerer gives, which may
// be shared (engine.CachedAnswerer): an answer without Query, or to
// free text (which says how it was read), gets them on a copy.
func (a *Adapter) answer(ctx context.Context, q knowledge.Question, perr error, via string, from knowledge.Origin, start time.Time) (ans *knowledge.Answer) {
	var err error
	defer func() {
		if p := recover(); p != nil {
			ans = a.failed(fmt.Errorf("answer panicked: %v", p), from, knowledge.Question{})
		}
		a.rec.Answered(Platform, string(ans.Kind), time.Since(start))
		if a.log.GetLevel() <= zerolog.DebugLevel {
			l := requestLog(a.log, from.Channel, string(ans.Kind))
			l.Debug().Str("via", via).Str("user", from.User).Str("question", ans.Query).
				Dur("took", time.Since(start)).Msg("answered")
		}
	}()
	if perr != nil {
		return knowledge.ErrorAnswer(perr)
	}
	if (q.Kind == knowledge.AskSubscribe || q.Kind == knowledge.AskUnsubscribe) && replayUnchecked(ctx) {
		return a.failed(errSharedUnchecked, from, q) // maybe a replay another replica served
	}
	q.From, err = a.withManage(ctx, q, from)
	if err != nil {
		return a.failed(err, from, q)
	}
	ans, err = a.answerer.Answer(ctx, q)
	if err == nil && ans == nil {
		err = errNoAnswer
	}
	if err != nil {
		return a.failed(err, from, q)
	}
	if ans.Query == "" {
		cp := *ans
		cp.Query = q.Canonical()
		ans = &cp
	}
	return knowledge.Understood(ans, q)
}

// failed turns err into the error answer; an internal error is logged
// (without the question's text) and counted, and the user sees only an
// apology.
func (a *Adapter) failed(err error, from knowledge.Origin, q knowledge.Question) *knowledge.Answer {
	if knowledge.ErrorCode(err) == knowledge.EINTERNAL {
		a.rec.Failed(Platform, metrics.ReasonInternal)
		l := requestLog(a.log, from.Channel, string(q.Kind))
		l.Error().Err(err).Msg("answer failed")
	}
	ans := knowledge.ErrorAnswer(err)
	if q.Kind != "" {
		ans.Query = q.Canonical()
	}
	return knowledge.Understood(ans, q)
}

// answerWithin answers q (perr is its parse error) on the calling
// goroutine and gives the answer the inline budget. When the budget runs out first, onLate runs at once (from
// a timer: it must send the empty ack, so that Slack's 3 s are kept), and
// the answer, once ready, goes to late in the background group (so a stop
// waits for it) while answerWithin returns nil.
func (a *Adapter) answerWithin(ctx context.Context, q knowledge.Question, perr error, via string, from knowledge.Origin, onLate func(), late func(*knowledge.Answer)) *knowledge.Answer {
	start := time.Now()
	g := &lateGate{}
	t := time.AfterFunc(a.budget, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.state == waiting {
			g.state = wentLate
			a.rec.Failed(Platform, metrics.ReasonLate)
			onLate()
		}
	})
	ans := a.answer(context.WithoutCancel(ctx), q, perr, via, from, start) // a late answer outlives the request
	t.Stop()
	g.mu.Lock()
	inTime := g.state == waiting
	g.state = answered
	g.mu.Unlock()
	if inTime {
		return ans
	}
	a.bg.Go(func() { late(ans) })
	return nil
}

// lateGate decides once whether the answer or the budget came first; its
// lock also orders onLate's writes before the caller goes on.
type lateGate struct {
	mu    sync.Mutex
	state int
}

const (
	waiting = iota
	answered
	wentLate
)

// slashText splits a slash command's text into the question and whether
// the user asked for a public answer with a trailing --public (also —public
// and –public, which is what --public becomes after typographic
// autocorrection). An empty question is help.
func slashText(text string) (question string, public bool) {
	f := strings.Fields(text)
	if n := len(f); n > 0 {
		switch strings.ToLower(f[n-1]) {
		case publicFlag, "—public", "–public":
			public, f = true, f[:n-1]
		}
	}
	question = strings.Join(f, " ")
	if question == "" {
		question = "help"
	}
	return question, public
}

// slashText is slashText with the adapter's setting: with PublicAnswers
// every answer is public, --public or not.
func (a *Adapter) slashText(text string) (question string, public bool) {
	question, public = slashText(text)
	return question, public || a.cfg.PublicAnswers
}

// slashQuestion is slashText for text of ASCII bytes only, in place and
// without allocating: the question is written over the start of text. ok
// is false, and text untouched, when text holds any other byte; then
// slashText must read it.
func slashQuestion(text []byte) (question []byte, public, ok bool) {
	for _, c := range text {
		if c >= utf8.RuneSelf {
			return nil, false, false
		}
	}
	// The last field, to see whether it is --public.
	end := len(text)
	for end > 0 && asciiSpace(text[end-1]) {
		end--
	}
	begin := end
	for begin > 0 && !asciiSpace(text[begin-1]) {
		begin--
	}
	if end-begin == len(publicFlag) && asciiEqualFold(text[begin:end], publicFlag) {
		public, text = true, text[:begin]
	}
	w := 0
	for i := 0; i < len(text); {
		for i < len(text) && asciiSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !asciiSpace(text[j]) {
			j++
		}
		if j > i {
			if w > 0 {
				text[w] = ' '
				w++
			}
			w += copy(text[w:], text[i:j])
		}
		i = j
	}
	if w == 0 {
		return helpQuestion, public, true
	}
	return text[:w], public, true
}

var helpQuestion = []byte("help")

// asciiSpace reports whether c is an ASCII byte unicode.IsSpace accepts.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// asciiEqualFold reports whether b is s, ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// userMention matches a user mention as Slack writes it in message text:
// <@U123> or <@U123|name>.
var userMention = regexp.MustCompile(`<@([A-Z0-9]+)(?:\|[^>]*)?>`)

// mentionText is the question in a mention or a DM: Slack's escaping
// undone, the bot's own mention removed (any leading mention when the
// bot's ID is not known).
func mentionText(text, botUser string) string {
	if botUser != "" {
		text = userMention.ReplaceAllStringFunc(text, func(m string) string {
			if userMention.FindStringSubmatch(m)[1] == botUser {
				return " "
			}
			return m
		})
	} else if loc := userMention.FindStringIndex(strings.TrimSpace(text)); loc != nil && loc[0] == 0 {
		text = strings.TrimSpace(text)[loc[1]:]
	}
	text = unescaper.Replace(text)
	q := strings.Join(strings.Fields(text), " ")
	if q == "" {
		q = "help"
	}
	return q
}

// origin is who asked, for the engine (subscriptions) and the logs.
func origin(team, channel, user, userName string) knowledge.Origin {
	return knowledge.Origin{Platform: Platform, Workspace: team, Channel: channel, User: user, UserName: userName}
}
