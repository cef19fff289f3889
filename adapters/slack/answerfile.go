package slack

import (
	"cmp"
	"context"
	"errors"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// A long upgrade answer offers its whole list as a file: the button posts
// it to the channel it was pressed in with files.uploadV2 (slack-go's
// UploadFileContext: files.getUploadURLExternal, the upload,
// files.completeUploadExternal; https://api.slack.com/messaging/files#uploading_files),
// which needs the files:write scope. The file is the answer's plain text
// (knowledge.AnswerFile), in the order every platform draws it.

// Words the person who pressed the button is told.
const (
	filePosted   = "I posted the whole list to this channel as a file."
	fileNoScope  = "I could not post the file: this Slack app lacks the files:write scope. Ask an admin to add it, or page through the list with the buttons."
	fileNotIn    = "I could not post the file here: invite me to this channel first, or page through the list with the buttons."
	fileFailed   = "I could not post the file just now. Try again in a moment, or page through the list with the buttons."
	fileNoClient = "I can't post files here: I have no bot token. Page through the list with the buttons."
)

// postFile answers query again and posts its whole list as a text file to
// the person's channel (in thread, when the button sat in one), then says
// through responseURL that it did, or why it could not. The file has a
// title, no comment: nothing of the question's words can mention anyone.
func (a *Adapter) postFile(ctx context.Context, query string, from knowledge.Origin, responseURL, thread string, start time.Time) {
	say := func(text string) {
		a.postResponse(responseURL, &Message{ResponseType: Ephemeral, Text: text}, from.Channel)
	}
	if a.api == nil {
		say(fileNoClient)
		return
	}
	ans := a.ask(ctx, query, "file", from, start)
	if ans.Kind == knowledge.KindError { // the knowledge changed or failed since: say it privately, post nothing
		say(cmp.Or(ans.Text, fileFailed)) // an error answer's text is safe to show (knowledge.ErrorAnswer)
		return
	}
	name, body := knowledge.AnswerFile(ans)
	_, err := a.api.UploadFileContext(ctx, slackapi.UploadFileParameters{
		Channel: from.Channel, ThreadTimestamp: thread, Filename: name, Title: ans.Title,
		Content: string(body), FileSize: len(body),
	})
	if err == nil {
		say(filePosted)
		return
	}
	a.rec.Failed(Platform, metrics.ReasonPost)
	a.log.Warn().Err(safeErr(err)).Str("channel", from.Channel).Msg("posting the answer's file failed")
	switch slackCode(err) {
	case "missing_scope":
		say(fileNoScope)
	case "not_in_channel", "channel_not_found":
		say(fileNotIn)
	default:
		say(fileFailed)
	}
}

// slackCode is the error code of a Slack Web API error ("missing_scope"),
// or "" for another error.
func slackCode(err error) string {
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return ""
}
