package slack

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// The form a bare `/k8s scan 1.36` opens: one multi-line text box for the
// manifests. Its answer goes, privately unless --public was given, to the
// channel of the command, through the command's response_url; both are
// kept in the view's private_metadata, signed, and checked on submission.
const (
	scanCallbackID = "kepbot_scan"
	scanBlockID    = "kepbot_manifests"
	scanActionID   = "manifests"
	// modalOpenTimeout bounds views.open: the command's trigger_id and its
	// ack both expire 3 s after the command.
	modalOpenTimeout = 2 * time.Second
	// modalTTL is how long a form may be submitted: a response_url takes
	// posts for 30 minutes.
	modalTTL = 30 * time.Minute
)

// scanHint is what the form says under the text box.
func scanHint(q knowledge.Question) string {
	return "Up to 3,000 characters: Slack's limit for a text box. For longer manifests (up to 1 MiB), attach the .yaml file to a message that mentions me and says " +
		q.Canonical() + ", or send it to me in a direct message."
}

// scanMeta is what a scan form remembers of its command.
type scanMeta struct {
	Team        string `json:"t"`
	Channel     string `json:"c"`
	User        string `json:"u"`
	Question    string `json:"q"` // the scan question: "scan 1.32 1.36"
	Public      bool   `json:"p,omitempty"`
	ResponseURL string `json:"r"`
	Expires     int64  `json:"e"` // Unix seconds
}

var errMetadata = errors.New("scan form metadata is not kepbot's, or has expired")

// modalKey derives the key that signs scan forms' metadata from the bot
// token: every replica holding the token can check any form, and nobody
// without it can forge one.
func modalKey(botToken string) []byte {
	m := hmac.New(sha256.New, []byte(botToken))
	m.Write([]byte("kepbot scan form metadata v1"))
	return m.Sum(nil)
}

// sealMeta writes m as private_metadata: base64 JSON, a dot, and its HMAC.
func (a *Adapter) sealMeta(m scanMeta) string {
	body, _ := json.Marshal(m) // a struct of strings, bools and ints cannot fail
	p := base64.RawURLEncoding.EncodeToString(body)
	mac := hmac.New(sha256.New, a.modalKey)
	mac.Write([]byte(p))
	return p + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// openMeta reads private_metadata that sealMeta wrote for user and that
// has not expired; anything else fails.
func (a *Adapter) openMeta(s, user string) (scanMeta, error) {
	p, sig, ok := strings.Cut(s, ".")
	if !ok || len(a.modalKey) == 0 || len(s) > 3000 {
		return scanMeta{}, errMetadata
	}
	want := hmac.New(sha256.New, a.modalKey)
	want.Write([]byte(p))
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, want.Sum(nil)) {
		return scanMeta{}, errMetadata
	}
	body, err := base64.RawURLEncoding.DecodeString(p)
	var m scanMeta
	if err != nil || json.Unmarshal(body, &m) != nil {
		return scanMeta{}, errMetadata
	}
	if m.User == "" || m.User != user || m.Channel == "" || a.clock().Unix() > m.Expires {
		return scanMeta{}, errMetadata
	}
	return m, nil
}

// openScanModal opens the form for the manifests of q, asked by cmd. It
// reports false when it could not (no bot token or trigger_id, or Slack
// refused), and the command is then answered as it is.
func (a *Adapter) openScanModal(ctx context.Context, cmd slashCommand, q knowledge.Question, public bool) bool {
	if a.api == nil || cmd.TriggerID == "" || cmd.ResponseURL == "" || q.Kind != knowledge.AskScan {
		return false
	}
	meta := a.sealMeta(scanMeta{Team: cmd.Team, Channel: cmd.Channel, User: cmd.User, Question: q.Canonical(),
		Public: public, ResponseURL: cmd.ResponseURL, Expires: a.clock().Add(modalTTL).Unix()})
	ctx, cancel := context.WithTimeout(ctx, modalOpenTimeout)
	defer cancel()
	if _, err := a.api.OpenViewContext(ctx, cmd.TriggerID, scanView(q, meta)); err != nil {
		a.rec.Failed(Platform, metrics.ReasonPost)
		a.log.Warn().Err(safeErr(err)).Str("channel", cmd.Channel).Msg("views.open failed; answering the scan without its form")
		return false
	}
	return true
}

// scanView is the form: what it scans against, the text box and its hint.
func scanView(q knowledge.Question, meta string) slackapi.ModalViewRequest {
	plain := func(s string) *slackapi.TextBlockObject {
		return slackapi.NewTextBlockObject(slackapi.PlainTextType, s, false, false)
	}
	against := "Kubernetes *" + q.To.String() + "*"
	if !q.Version.IsZero() {
		against = "an upgrade from Kubernetes *" + q.Version.String() + "* to *" + q.To.String() + "*"
	}
	box := slackapi.NewPlainTextInputBlockElement(plain("apiVersion: apps/v1\nkind: Deployment\n…"), scanActionID)
	box.Multiline = true
	box.MaxLength = MaxInputText
	intro := slackapi.NewTextBlockObject(slackapi.MarkdownType, "Paste the manifests (YAML or JSON, several documents are fine) to check against "+
		against+". I read only each object's apiVersion, kind, namespace and name.", false, false)
	return slackapi.ModalViewRequest{
		Type:            slackapi.VTModal,
		CallbackID:      scanCallbackID,
		Title:           plain("Scan manifests"),
		Submit:          plain("Scan"),
		Close:           plain("Cancel"),
		PrivateMetadata: meta,
		Blocks: slackapi.Blocks{BlockSet: []slackapi.Block{
			slackapi.NewSectionBlock(intro, nil, nil),
			slackapi.NewInputBlock(scanBlockID, plain("Manifests"), plain(scanHint(q)), box),
		}},
	}
}

// viewSubmission is the part of a view_submission payload kepbot reads.
type viewSubmission struct {
	CallbackID      string `json:"callback_id"`
	PrivateMetadata string `json:"private_metadata"`
	State           struct {
		Values map[string]map[string]struct {
			Value string `json:"value"`
		} `json:"values"`
	} `json:"state"`
}

// onScanSubmit answers a submitted scan form in the background (its ack,
// which closes the form, is sent by the caller at once). A form whose
// metadata is not kepbot's, not the submitter's or expired is refused,
// and only its refusal is logged.
func (a *Adapter) onScanSubmit(p interaction) {
	if p.View.CallbackID != scanCallbackID {
		return
	}
	meta, err := a.openMeta(p.View.PrivateMetadata, p.User.ID)
	if err != nil {
		a.rec.Failed(Platform, metrics.ReasonBadRequest)
		a.log.Warn().Str("user", p.User.ID).Str("reason", err.Error()).Msg("scan form refused")
		return
	}
	text := p.View.State.Values[scanBlockID][scanActionID].Value
	start := time.Now()
	from := origin(meta.Team, meta.Channel, meta.User, p.User.Username)
	a.bg.Go(func() {
		ctx := context.Background()
		q, perr := a.reader.Read(ctx, meta.Question)
		if perr == nil && q.Kind != knowledge.AskScan {
			perr = knowledge.Errorf(knowledge.EBADINPUT, "That form was not for a scan. Ask /k8s scan 1.36 again.")
		}
		q.Manifest = []byte(text)
		ans := a.answer(ctx, q, perr, "modal", from, start)
		a.postParts(meta.ResponseURL, RenderParts(ans, RenderOptions{Slash: true, Public: meta.Public}), meta.Channel)
	})
}
