package slack

import (
	"context"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// eventEnvelope is the part of an Events API delivery kepbot reads, over
// HTTP or as a Socket Mode events_api payload.
type eventEnvelope struct {
	Type      string     `json:"type"`
	Challenge string     `json:"challenge"`
	TeamID    string     `json:"team_id"`
	EventID   string     `json:"event_id"`
	Event     innerEvent `json:"event"`
}

// innerEvent is an app_mention or a message event, or one of the events
// that end digests (see onLifecycle).
type innerEvent struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	User        string `json:"user"`
	BotID       string `json:"bot_id"`
	Text        string `json:"text"`
	Channel     string `json:"channel"`
	ChannelType string `json:"channel_type"`
	TS          string `json:"ts"`
	ThreadTS    string `json:"thread_ts"`
	Tokens      struct {
		Bot []string `json:"bot"` // tokens_revoked: the bot users whose tokens went
	} `json:"tokens"`
	Files []slackFile `json:"files"` // a message with files: the one a scan reads
}

// interaction is the part of a block_actions payload kepbot reads.
type interaction struct {
	Type        string `json:"type"`
	ResponseURL string `json:"response_url"`
	Team        struct {
		ID string `json:"id"`
	} `json:"team"`
	User struct {
		ID       string `json:"id"`
		Username string `json:"username"`
	} `json:"user"`
	Channel struct {
		ID string `json:"id"`
	} `json:"channel"`
	Actions []struct {
		ActionID string `json:"action_id"`
		BlockID  string `json:"block_id"`
		Value    string `json:"value"`
	} `json:"actions"`
	// Container is the message the button sits on: its thread, where a
	// file the button asks for goes.
	Container struct {
		ThreadTS string `json:"thread_ts"`
	} `json:"container"`
	View viewSubmission `json:"view"` // view_submission: the scan form
}

// slash answers a slash command within the inline budget: it returns the
// answer and how to draw it, or a nil answer when it was late. Then onLate
// has acked without it, and the answer goes to the command's response_url
// when ready.
func (a *Adapter) slash(ctx context.Context, cmd slashCommand, via string, onLate func()) (*knowledge.Answer, RenderOptions) {
	text, public := a.slashText(cmd.Text)
	q, err := a.reader.Read(ctx, text)
	return a.slashParsed(ctx, cmd, q, err, public, via, onLate), RenderOptions{Slash: true, Public: public, Files: a.api != nil}
}

// slashParsed is slash for a question already parsed (perr is the parse
// error) and read for --public.
func (a *Adapter) slashParsed(ctx context.Context, cmd slashCommand, q knowledge.Question, perr error, public bool, via string, onLate func()) *knowledge.Answer {
	opts := RenderOptions{Slash: true, Public: public, Files: a.api != nil}
	from := origin(cmd.Team, cmd.Channel, cmd.User, cmd.UserName)
	return a.answerWithin(ctx, q, perr, via, from, onLate, func(ans *knowledge.Answer) {
		a.postResponse(cmd.ResponseURL, Render(ans, opts), cmd.Channel)
	})
}

// onEvent pauses subscriptions on the events that end digests, and
// answers an app_mention, or a message in a DM with the bot, once:
// retries (same event_id) and the same message seen as both a mention and
// a DM (same channel and ts) are answered only the first time. Bots,
// the bot itself, edits and other subtypes are ignored. ctx is the
// request's: only whether its replay check was complete is read from it.
func (a *Adapter) onEvent(ctx context.Context, env eventEnvelope, via, retry string) {
	if a.onLifecycle(env, via) {
		return
	}
	ev := env.Event
	switch {
	case ev.Type == "app_mention":
	case ev.Type == "message" && ev.ChannelType == "im":
	default:
		return
	}
	// A message with files (subtype file_share) is answered only when it
	// asks for a scan.
	if (ev.Subtype != "" && ev.Subtype != "file_share") || ev.BotID != "" || ev.User == "" || ev.User == a.botUserID() || ev.Channel == "" {
		return
	}
	if _, _, _, scan := splitScan(ev.Text); ev.Subtype == "file_share" && !scan {
		return
	}
	now := time.Now()
	if !a.events.first("event:"+env.EventID, now) || !a.events.first("message:"+ev.Channel+":"+ev.TS, now) {
		a.rec.Failed(Platform, metrics.ReasonDuplicate)
		a.log.Debug().Str("event_id", env.EventID).Str("retry", retry).Str("via", via).Msg("event already answered")
		return
	}
	if a.api == nil {
		l := a.log.Sample(&zerolog.BurstSampler{Burst: 1, Period: time.Hour})
		l.Warn().Msg("a mention or DM arrived but SLACK_BOT_TOKEN is not set, so kepbot cannot answer it")
		return
	}
	thread := ev.ThreadTS
	if thread == "" && ev.Type == "app_mention" {
		thread = ev.TS // answer a channel mention in its thread
	}
	if a.eventScan(env, via, thread, now) {
		return
	}
	text := mentionText(ev.Text, a.botUserID())
	from := origin(env.TeamID, ev.Channel, ev.User, "")
	a.bg.Go(func() {
		ans := a.ask(detached(ctx), text, via, from, now)
		a.postMessage(ev.Channel, thread, Render(ans, RenderOptions{Files: a.api != nil}))
	})
}

// onInteraction answers a submitted scan form (onScanSubmit), or a
// button: a page button asks the question in its value again and
// replaces the message with the page asked for; a suggestion button asks
// the question it suggests and replaces the message (the "did you mean")
// with its answer; the share button asks its question again, posts the
// answer to the channel and deletes the private one. ctx is the
// request's, as for onEvent.
func (a *Adapter) onInteraction(ctx context.Context, p interaction) {
	if p.Type == "view_submission" {
		a.onScanSubmit(p)
		return
	}
	if p.Type != "block_actions" || p.ResponseURL == "" {
		return
	}
	for _, act := range p.Actions {
		share := act.ActionID == actionShare
		if act.ActionID != actionPrev && act.ActionID != actionNext && act.ActionID != actionFile && !share && !strings.HasPrefix(act.ActionID, actionAsk) {
			continue
		}
		query, page, public, ok := parsePageValue(act.Value)
		if !ok {
			a.rec.Failed(Platform, metrics.ReasonBadRequest)
			return
		}
		if act.ActionID == actionFile {
			from := origin(p.Team.ID, p.Channel.ID, p.User.ID, p.User.Username)
			start := time.Now()
			a.bg.Go(func() { a.postFile(detached(ctx), query, from, p.ResponseURL, p.Container.ThreadTS, start) })
			return
		}
		via := "button"
		switch {
		case strings.HasPrefix(act.ActionID, actionAsk):
			via, page = "suggestion", 0
		case share:
			via, public = "share", true
		}
		from := origin(p.Team.ID, p.Channel.ID, p.User.ID, p.User.Username)
		start := time.Now()
		a.bg.Go(func() {
			ans := a.ask(detached(ctx), query, via, from, start)
			m := Render(ans, RenderOptions{Slash: true, Public: public, Page: page, Replace: !share, Files: a.api != nil})
			if share && m.ResponseType == InChannel {
				// A new message for the channel, then the private one goes.
				if err := a.doPostResponse(p.ResponseURL, m); err != nil {
					a.rec.Failed(Platform, metrics.ReasonPost)
					a.log.Warn().Err(safeErr(err)).Str("channel", from.Channel).Msg("posting to response_url failed")
					return
				}
				m = &Message{DeleteOriginal: true}
			} else if share {
				m.ReplaceOriginal = true // the answer is now an error: it replaces the private one
			}
			a.postResponse(p.ResponseURL, m, from.Channel)
		})
		return
	}
}
