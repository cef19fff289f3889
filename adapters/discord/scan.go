package discord

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// A scan is `!k8s scan 1.36` (or `@kepbot scan 1.32 1.36`) on the first
// line and the manifests after it, plain or in a code block, or in a file
// attached to the message; or /k8s scan with the file in its file option.
// What was pasted reaches the core as pasted, and nothing of it is ever
// logged or repeated by the adapter: only the core's answer, which names
// objects by apiVersion, kind, namespace and name, is shown.

// splitScan reads the question in a message as a scan: the question on
// its first line, and what follows it. ok is false when it is not a scan.
func splitScan(text string) (head string, manifest []byte, ok bool) {
	return question.SplitScan(text)
}

// askParsed answers a question already read (perr is the reader's error)
// and records it; on failure it is an answer of kind error that is safe
// to show. Internal errors are logged, not shown.
func (a *Adapter) askParsed(ctx context.Context, q knowledge.Question, perr error, from knowledge.Origin, log zerolog.Logger) *knowledge.Answer {
	start := time.Now()
	ans := a.answerParsed(ctx, q, perr, from, log)
	a.rec.Answered(Platform, string(ans.Kind), time.Since(start))
	return ans
}

func (a *Adapter) answerParsed(ctx context.Context, q knowledge.Question, perr error, from knowledge.Origin, log zerolog.Logger) *knowledge.Answer {
	if perr != nil {
		return knowledge.ErrorAnswer(perr)
	}
	actx, cancel := context.WithTimeout(ctx, answerTimeout)
	defer cancel()
	q.From = from
	ans, err := a.answerer.Answer(actx, q)
	if err == nil && ans == nil {
		err = errors.New("the answerer returned no answer and no error")
	}
	if err != nil {
		if knowledge.ErrorCode(err) == knowledge.EINTERNAL {
			a.rec.Failed(Platform, metrics.ReasonInternal)
			log.Error().Str("error", secrets.scrub(err.Error())).Str("question", q.Canonical()).Msg("discord: answer failed")
		}
		ans = knowledge.ErrorAnswer(err)
		ans.Query = q.Canonical()
		return ans
	}
	if ans.Query == "" {
		cp := *ans
		cp.Query = q.Canonical()
		ans = &cp
	}
	return ans
}

// scanMessage answers a message that is a scan: the manifests after the
// question, the attached file, or both. head is the question's line.
func (a *Adapter) scanMessage(ctx context.Context, m *discordgo.MessageCreate, head string, inline []byte, from knowledge.Origin, log zerolog.Logger) {
	q, perr := a.reader.Read(ctx, head)
	if perr == nil && len(m.Attachments) > 0 {
		data, err := a.readAttachments(ctx, m.Attachments)
		if err != nil {
			a.logAttachmentFailure(log, err)
			perr = userError(err)
		}
		inline = question.JoinManifests(inline, data)
	}
	q.Manifest = inline
	ans := a.askParsed(ctx, q, perr, from, log)
	log.Debug().Str("kind", string(ans.Kind)).Msg("discord: answered")
	a.reply(ctx, log, m, Render(ans))
}

// isScanCommand reports whether i is /k8s scan.
func isScanCommand(i *discordgo.Interaction) bool {
	if i.Type != discordgo.InteractionApplicationCommand {
		return false
	}
	d := i.ApplicationCommandData()
	return d.Name == CommandName && len(d.Options) == 1 && d.Options[0] != nil && d.Options[0].Name == "scan"
}

// scanAttachment returns the file given in /k8s scan's file option, as
// the interaction's resolved data describes it, or nil.
func scanAttachment(d discordgo.ApplicationCommandInteractionData) *discordgo.MessageAttachment {
	if len(d.Options) != 1 || d.Options[0] == nil || d.Resolved == nil {
		return nil
	}
	for _, o := range d.Options[0].Options {
		if o == nil || o.Name != "file" || o.Type != discordgo.ApplicationCommandOptionAttachment {
			continue
		}
		if id, ok := o.Value.(string); ok {
			return d.Resolved.Attachments[id]
		}
	}
	return nil
}

// interactScan answers /k8s scan: a question it cannot read, a missing
// file, or one refused before any download (too large, not on Discord's
// CDN, an image) is answered at once and privately. Otherwise it defers,
// privately (the file was the asker's alone), and the download, the
// answer and its further messages follow.
func (a *Adapter) interactScan(i *discordgo.Interaction, from knowledge.Origin, log zerolog.Logger) (*callback, later) {
	refuse := func(err error) (*callback, later) { return reply(errorMessage(knowledge.ErrorAnswer(err))), nil }
	d := i.ApplicationCommandData()
	text, err := commandText(d)
	if err != nil {
		return refuse(err)
	}
	q, err := a.reader.Read(context.Background(), text)
	if err != nil {
		return refuse(err)
	}
	att := scanAttachment(d)
	if att == nil {
		return refuse(knowledge.Errorf(knowledge.EBADINPUT, "Attach your manifests in the file option: one .yaml or .json file of up to 1 MiB. Or paste them after !%s %s in a message.", CommandName, q.Canonical()))
	}
	if err := a.checkAttachment(att); err != nil {
		a.logAttachmentFailure(log, err)
		return refuse(userError(err))
	}
	a.rec.Failed(Platform, metrics.ReasonLate)
	return deferredPrivately(), func(ctx context.Context) {
		data, err := a.download(ctx, att)
		var perr error
		if err != nil {
			a.logAttachmentFailure(log, err)
			perr = userError(err)
		}
		q.Manifest = data
		ans := a.askParsed(ctx, q, perr, from, log)
		log.Debug().Str("kind", string(ans.Kind)).Bool("deferred", true).Msg("discord: answered")
		msgs := Render(ans)
		for n := range msgs {
			msgs[n].Ephemeral = true
		}
		if err := a.rest.editOriginal(ctx, i, msgs[0]); err != nil {
			a.rec.Failed(Platform, metrics.ReasonPost)
			log.Warn().Str("error", err.Error()).Msg("discord: deferred response edit failed")
			return
		}
		if more := a.followups(i, log, msgs[1:]); more != nil {
			more(ctx)
		}
	}
}

// deferredPrivately buys time like deferred, for an answer only the asker
// sees: the edit of the original response stays ephemeral.
func deferredPrivately() *callback {
	return &callback{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{AllowedMentions: noMentions(), Flags: discordgo.MessageFlagsEphemeral}}
}
