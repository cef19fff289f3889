package slack

import (
	"bytes"
	"context"
	"time"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// A scan is `scan 1.36` (or `scan 1.32 1.36`) on the first line and the
// manifests after it, in the same message or slash command, plain or in a
// code block; or a message that says `scan 1.36` with a file attached; or
// a bare `/k8s scan 1.36`, which opens a form to paste them in (modal.go).
// What was pasted reaches the core as pasted (unslack), and nothing of it
// is ever logged or repeated by the adapter: only the core's answer, which
// names objects by apiVersion, kind, namespace and name, is shown.

// splitScan reads text as Slack delivered it (escaped) as a scan: the
// question on its first line, without a trailing --public, and the
// manifests after it with Slack's escaping undone. ok is false when text
// is not a scan.
func splitScan(text string) (head string, manifest []byte, public, ok bool) {
	head, manifest, ok = question.SplitScan(unslack(text))
	if !ok {
		return "", nil, false, false
	}
	head, public = slashText(head)
	return head, manifest, public, true
}

// slashScan answers a /k8s scan: with manifests in the command's text it
// scans them; a bare /k8s scan 1.36 opens the form to paste them in
// (before anything slow: its trigger_id lives 3 s). ack sends the
// command's acknowledgement, once: nil acks empty. An answer of several
// messages, or one not ready within the inline budget, goes to the
// command's response_url, in order. ok is false when the command is not a
// scan.
func (a *Adapter) slashScan(ctx context.Context, cmd slashCommand, via string, ack func(*Message)) bool {
	head, manifest, public, ok := splitScan(cmd.Text)
	if !ok {
		return false
	}
	q, perr := a.reader.Read(ctx, head)
	if perr == nil && len(bytes.TrimSpace(manifest)) == 0 && a.openScanModal(ctx, cmd, q, public) {
		ack(nil)
		return true
	}
	q.Manifest = manifest
	opts := RenderOptions{Slash: true, Public: public}
	from := origin(cmd.Team, cmd.Channel, cmd.User, cmd.UserName)
	ans := a.answerWithin(ctx, q, perr, via, from, func() { ack(nil) }, func(ans *knowledge.Answer) {
		a.postParts(cmd.ResponseURL, RenderParts(ans, opts), cmd.Channel)
	})
	if ans == nil {
		return true // acked late; the answer follows on response_url
	}
	parts := RenderParts(ans, opts)
	if len(parts) == 1 && len(parts[0].AppendJSON(nil)) <= MaxSocketAckBytes {
		ack(parts[0])
		return true
	}
	ack(nil)
	a.bg.Go(func() { a.postParts(cmd.ResponseURL, parts, cmd.Channel) })
	return true
}

// postParts posts the messages of one answer to a response_url in order,
// stopping at the first that fails.
func (a *Adapter) postParts(responseURL string, parts []*Message, channel string) {
	for _, m := range parts {
		if err := a.doPostResponse(responseURL, m); err != nil {
			a.postFailed(err, channel)
			return
		}
	}
}

// postFailed logs and counts a part of an answer that could not be posted.
func (a *Adapter) postFailed(err error, channel string) {
	a.rec.Failed(Platform, metrics.ReasonPost)
	a.log.Warn().Err(safeErr(err)).Str("channel", channel).Msg("posting a scan answer failed")
}

// eventScan answers a mention or a DM that is a scan: the manifests after
// the question, the attached file, or both. It reports false, doing
// nothing, when the text is not a scan. The download and the answer run
// in the background; the answer goes to the thread, in parts.
func (a *Adapter) eventScan(env eventEnvelope, via, thread string, start time.Time) bool {
	ev := env.Event
	head, manifest, _, ok := splitScan(ev.Text)
	if !ok {
		return false
	}
	from := origin(env.TeamID, ev.Channel, ev.User, "")
	files := ev.Files
	a.bg.Go(func() {
		ctx := context.Background()
		q, perr := a.reader.Read(ctx, head)
		if perr == nil && len(files) > 0 {
			data, err := a.readAttached(ctx, files)
			if err != nil {
				a.logFileFailure(ev.Channel, err)
				perr = userError(err)
			}
			manifest = question.JoinManifests(manifest, data)
		}
		q.Manifest = manifest
		ans := a.answer(ctx, q, perr, via, from, start)
		for _, m := range RenderParts(ans, RenderOptions{}) {
			if err := a.doPostMessage(ev.Channel, thread, m); err != nil {
				a.postFailed(err, ev.Channel)
				return
			}
		}
	})
	return true
}
