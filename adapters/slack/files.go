package slack

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/kepbot/kepbot/adapters/internal/download"
	"github.com/kepbot/kepbot/internal/metrics"
)

// Files attached to a scan: where kepbot downloads them from and how much
// it takes. Slack hands a file's bytes to an app only from its own file
// host, with the bot token (https://docs.slack.dev/messaging/working-with-files,
// url_private), and only with the files:read scope. The guard itself
// (hosts, redirects, size, text, timeout) is the adapters' download
// package; what is Slack's (files.info, the token, its sign-in page) is
// here.
const (
	// MaxFileBytes is the largest file kepbot scans: the manifest reader's
	// cap for chat, as for every platform.
	MaxFileBytes = download.MaxBytes
	// DefaultFileTimeout bounds one download, from the request to the last
	// byte.
	DefaultFileTimeout = download.DefaultTimeout
)

// fileGuard is Slack's download guard, but for the API base and the
// timeout, which are the adapter's (guard). The bot token must not follow
// a redirect off Slack's file host.
var fileGuard = download.Guard{
	Hosts:        []string{"files.slack.com"},
	MaxBytes:     MaxFileBytes,
	MaxRedirects: download.MaxRedirects,
	Words: download.Words{
		Host:     "I only download attachments from Slack's own file host (files.slack.com), and that file is not there. Attach the file to your message itself.",
		Request:  "I could not download that file from Slack. Try again in a moment.",
		Redirect: "Slack's file host sent me on to another host, which I don't follow with kepbot's token. Attach the file again, or paste the manifests in the message.",
		Timeout:  "Downloading that file took longer than %s, so I stopped. Try again, or paste the manifests in the message.",
		Network:  "I could not download that file from Slack. Try again in a moment, or paste the manifests in the message.",
		Status: func(code int) error {
			switch code {
			case http.StatusUnauthorized, http.StatusForbidden:
				return download.Fail("refused", "Slack did not let me download that file (HTTP %d). The Slack app needs the files:read scope; ask whoever installed kepbot, or paste the manifests in the message.", code)
			case http.StatusNotFound:
				return download.Fail("not_found", "Slack says that file is gone. Attach it again.")
			}
			return download.Fail("status", "Slack's file host answered HTTP %d instead of the file. Try again in a moment.", code)
		},
	},
	Inspect: signInPage,
}

// guard is the adapter's download guard: Slack's, with the configured API
// base's host (a proxy, or a test server), which already gets the token,
// allowed too, and the file timeout.
func (a *Adapter) guard() *download.Guard {
	return fileGuard.For(a.cfg.APIURL, a.fileTimeout)
}

// slackFile is the part of a file object in a message event kepbot reads.
type slackFile struct {
	ID                 string `json:"id"`
	Mimetype           string `json:"mimetype"`
	Size               int64  `json:"size"`
	Mode               string `json:"mode"` // hosted, snippet, external, tombstone…
	IsExternal         bool   `json:"is_external"`
	URLPrivate         string `json:"url_private"`
	URLPrivateDownload string `json:"url_private_download"`
	FileAccess         string `json:"file_access"` // "check_file_info" in Slack Connect: ask files.info
}

// userError turns a download failure into the error the person sees.
func userError(err error) error { return fileGuard.UserError(err) }

// fileAllowed reports whether kepbot may send the bot token to u to
// download a file: https on Slack's file host, or the configured API
// base's host (a proxy, or a test server), which already gets the token.
func (a *Adapter) fileAllowed(u *url.URL) bool { return a.guard().Allowed(u) }

// newFileClient is the client downloads go through: the adapter's
// transport, redirects followed only within the hosts fileAllowed
// accepts (a few at most), and no timeout of its own (each download's
// context has one).
func (a *Adapter) newFileClient() *http.Client { return a.guard().Client(a.http.Transport) }

// readAttached downloads the one file of a scan message and returns its
// text. It fails, with a sentence for the person, when there is more
// than one file, the file is not stored in Slack, not on Slack's file
// host, larger than MaxFileBytes, not text, refused or slow.
func (a *Adapter) readAttached(ctx context.Context, files []slackFile) ([]byte, error) {
	if len(files) > 1 {
		return nil, download.OneFile(len(files))
	}
	f := files[0]
	if (f.URLPrivate == "" && f.URLPrivateDownload == "") || f.FileAccess == "check_file_info" {
		info, err := a.fileInfo(ctx, f.ID)
		if err != nil {
			return nil, err
		}
		f = info
	}
	switch {
	case f.IsExternal || f.Mode == "external":
		return nil, download.Fail("external", "That file is a link to a file stored outside Slack, which I don't open. Attach the YAML or JSON file itself.")
	case f.Mode == "tombstone":
		return nil, download.Fail("deleted", "That file was deleted before I could read it. Attach it again.")
	}
	if err := download.Media(f.Mimetype); err != nil {
		return nil, err
	}
	if err := a.guard().TooLarge(f.Size); err != nil {
		return nil, err
	}
	raw := f.URLPrivate
	if raw == "" {
		raw = f.URLPrivateDownload
	}
	return a.download(ctx, raw)
}

// fileInfo asks files.info for a file an event described only by its ID.
func (a *Adapter) fileInfo(ctx context.Context, id string) (slackFile, error) {
	if id == "" || a.api == nil {
		return slackFile{}, download.Fail("no_url", "Slack did not tell me where that file is. Attach it again.")
	}
	ctx, cancel := context.WithTimeout(ctx, a.fileTimeout)
	defer cancel()
	info, _, _, err := a.api.GetFileInfoContext(ctx, id, 0, 0)
	if err != nil {
		if strings.Contains(err.Error(), "missing_scope") {
			return slackFile{}, download.Fail("missing_scope", "I am not allowed to read files here: the Slack app needs the files:read scope. Ask whoever installed kepbot to add it, or paste the manifests in the message.")
		}
		return slackFile{}, download.Fail("files_info", "Slack would not tell me about that file. Attach it again, or paste the manifests in the message.")
	}
	return slackFile{ID: info.ID, Mimetype: info.Mimetype, Size: int64(info.Size), Mode: info.Mode, IsExternal: info.IsExternal,
		URLPrivate: info.URLPrivate, URLPrivateDownload: info.URLPrivateDownload}, nil
}

// download GETs rawURL with the bot token: only from Slack's file host
// (fileAllowed), following no redirect to another host, within the file
// timeout, at most MaxFileBytes, and only text. The URL, which can carry
// a signature, never reaches an error or a log.
func (a *Adapter) download(ctx context.Context, rawURL string) ([]byte, error) {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+a.cfg.BotToken.Value())
	return a.guard().Get(ctx, a.fileClient, rawURL, h)
}

// signInPage refuses Slack's sign-in page, which Slack answers with
// instead of the file when the app lacks files:read.
func signInPage(h http.Header, body []byte) error {
	if ct := h.Get("Content-Type"); strings.HasPrefix(strings.ToLower(ct), "text/html") && looksHTML(body) {
		return download.Fail("login_page", "Slack sent me its sign-in page instead of the file: the Slack app needs the files:read scope. Ask whoever installed kepbot to add it, or paste the manifests in the message.")
	}
	return nil
}

// looksHTML reports whether b starts like an HTML page.
func looksHTML(b []byte) bool {
	head := strings.ToLower(string(bytes.TrimSpace(b[:min(len(b), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// logFileFailure records a refused or failed download: its reason only.
func (a *Adapter) logFileFailure(channel string, err error) {
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	a.log.Info().Str("channel", channel).Str("reason", download.Reason(err)).Msg("scan file not read")
}
