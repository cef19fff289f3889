package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// Files attached to a scan: where kepbot downloads them from and how much
// it takes. Slack hands a file's bytes to an app only from its own file
// host, with the bot token (https://docs.slack.dev/messaging/working-with-files,
// url_private), and only with the files:read scope.
const (
	// MaxFileBytes is the largest file kepbot scans: the manifest reader's
	// cap for chat (manifest.ChatLimits).
	MaxFileBytes = 1 << 20
	// DefaultFileTimeout bounds one download, from the request to the last
	// byte.
	DefaultFileTimeout = 10 * time.Second
	// maxFileRedirects is how many redirects within Slack's file host a
	// download follows.
	maxFileRedirects = 3
)

// fileHosts are the hosts kepbot downloads attachments from, over https.
var fileHosts = map[string]bool{"files.slack.com": true}

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

// errRedirectElsewhere stops a download that Slack's file host redirects
// to another host: the bot token must not follow it.
var errRedirectElsewhere = errors.New("redirect to a host other than Slack's file host")

// fileError is a download that failed: what the person is told, and a
// short reason for the log and the metrics. Neither holds the file's URL,
// name or content.
type fileError struct {
	reason string
	msg    string
}

func (e *fileError) Error() string { return e.reason }

// failFile returns the error shown when a download fails for reason.
func failFile(reason, format string, args ...any) error {
	return &fileError{reason: reason, msg: fmt.Sprintf(format, args...)}
}

// userError turns a download failure into the error the person sees.
func userError(err error) error {
	var fe *fileError
	if errors.As(err, &fe) {
		return knowledge.Errorf(knowledge.EBADINPUT, "%s", fe.msg)
	}
	return knowledge.Errorf(knowledge.EBADINPUT, "I could not download that file from Slack. Try again in a moment, or paste the manifests in the message.")
}

// fileAllowed reports whether kepbot may send the bot token to u to
// download a file: https on Slack's file host, or the configured API
// base's host (a proxy, or a test server), which already gets the token.
func (a *Adapter) fileAllowed(u *url.URL) bool {
	if u == nil || u.User != nil {
		return false
	}
	if u.Scheme == "https" && fileHosts[strings.ToLower(u.Hostname())] && (u.Port() == "" || u.Port() == "443") {
		return true
	}
	if a.cfg.APIURL != "" {
		if api, err := url.Parse(a.cfg.APIURL); err == nil && api.Host != "" && strings.EqualFold(api.Host, u.Host) && u.Scheme == api.Scheme {
			return true
		}
	}
	return false
}

// newFileClient is the client downloads go through: the adapter's
// transport, redirects followed only within the hosts fileAllowed
// accepts (a few at most), and no timeout of its own (each download's
// context has one).
func (a *Adapter) newFileClient() *http.Client {
	return &http.Client{
		Transport: a.http.Transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxFileRedirects || !a.fileAllowed(req.URL) {
				return errRedirectElsewhere
			}
			return nil
		},
	}
}

// readAttached downloads the one file of a scan message and returns its
// text. It fails, with a sentence for the person, when there is more
// than one file, the file is not stored in Slack, not on Slack's file
// host, larger than MaxFileBytes, not text, refused or slow.
func (a *Adapter) readAttached(ctx context.Context, files []slackFile) ([]byte, error) {
	if len(files) > 1 {
		return nil, failFile("several_files", "I scan one file a message, and that message has %d. Send them one at a time, or put the manifests into one file.", len(files))
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
		return nil, failFile("external", "That file is a link to a file stored outside Slack, which I don't open. Attach the YAML or JSON file itself.")
	case f.Mode == "tombstone":
		return nil, failFile("deleted", "That file was deleted before I could read it. Attach it again.")
	case strings.HasPrefix(f.Mimetype, "image/"), strings.HasPrefix(f.Mimetype, "video/"), strings.HasPrefix(f.Mimetype, "audio/"):
		return nil, failFile("binary", "That file is not text. Attach a YAML or JSON file saved as UTF-8.")
	case f.Size > MaxFileBytes:
		return nil, failFile("too_large", "That file is %s; I scan files of up to %s. Split it, or attach only the manifests you upgrade.", sizeWords(f.Size), sizeWords(MaxFileBytes))
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
		return slackFile{}, failFile("no_url", "Slack did not tell me where that file is. Attach it again.")
	}
	ctx, cancel := context.WithTimeout(ctx, a.fileTimeout)
	defer cancel()
	info, _, _, err := a.api.GetFileInfoContext(ctx, id, 0, 0)
	if err != nil {
		if strings.Contains(err.Error(), "missing_scope") {
			return slackFile{}, failFile("missing_scope", "I am not allowed to read files here: the Slack app needs the files:read scope. Ask whoever installed kepbot to add it, or paste the manifests in the message.")
		}
		return slackFile{}, failFile("files_info", "Slack would not tell me about that file. Attach it again, or paste the manifests in the message.")
	}
	return slackFile{ID: info.ID, Mimetype: info.Mimetype, Size: int64(info.Size), Mode: info.Mode, IsExternal: info.IsExternal,
		URLPrivate: info.URLPrivate, URLPrivateDownload: info.URLPrivateDownload}, nil
}

// download GETs rawURL with the bot token: only from Slack's file host
// (fileAllowed), following no redirect to another host, within the file
// timeout, at most MaxFileBytes, and only text. The URL, which can carry
// a signature, never reaches an error or a log.
func (a *Adapter) download(ctx context.Context, rawURL string) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !a.fileAllowed(u) {
		return nil, failFile("host", "I only download attachments from Slack's own file host (files.slack.com), and that file is not there. Attach the file to your message itself.")
	}
	ctx, cancel := context.WithTimeout(ctx, a.fileTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, failFile("request", "I could not download that file from Slack. Try again in a moment.")
	}
	req.Header.Set("Authorization", "Bearer "+a.cfg.BotToken.Value())
	resp, err := a.fileClient.Do(req)
	if err != nil {
		return nil, downloadFailed(ctx, err, a.fileTimeout)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, failFile("refused", "Slack did not let me download that file (HTTP %d). The Slack app needs the files:read scope; ask whoever installed kepbot, or paste the manifests in the message.", resp.StatusCode)
	case resp.StatusCode == http.StatusNotFound:
		return nil, failFile("not_found", "Slack says that file is gone. Attach it again.")
	case resp.StatusCode != http.StatusOK:
		return nil, failFile("status", "Slack's file host answered HTTP %d instead of the file. Try again in a moment.", resp.StatusCode)
	case resp.ContentLength > MaxFileBytes:
		return nil, failFile("too_large", "That file is %s; I scan files of up to %s. Split it, or attach only the manifests you upgrade.", sizeWords(resp.ContentLength), sizeWords(MaxFileBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxFileBytes+1))
	if err != nil {
		return nil, downloadFailed(ctx, err, a.fileTimeout)
	}
	if len(body) > MaxFileBytes {
		return nil, failFile("too_large", "That file is larger than %s, the most I scan. Split it, or attach only the manifests you upgrade.", sizeWords(MaxFileBytes))
	}
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(strings.ToLower(ct), "text/html") && looksHTML(body) {
		// Without files:read Slack answers with its sign-in page.
		return nil, failFile("login_page", "Slack sent me its sign-in page instead of the file: the Slack app needs the files:read scope. Ask whoever installed kepbot to add it, or paste the manifests in the message.")
	}
	text, ok := textOf(body)
	if !ok {
		return nil, failFile("binary", "That file is not text (it holds bytes that are not UTF-8 text). Attach a YAML or JSON file saved as UTF-8.")
	}
	return text, nil
}

// downloadFailed describes a failed request or body read without its URL.
func downloadFailed(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, errRedirectElsewhere):
		return failFile("redirect", "Slack's file host sent me on to another host, which I don't follow with kepbot's token. Attach the file again, or paste the manifests in the message.")
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return failFile("timeout", "Downloading that file took longer than %s, so I stopped. Try again, or paste the manifests in the message.", timeout)
	}
	return failFile("network", "I could not download that file from Slack. Try again in a moment, or paste the manifests in the message.")
}

// textOf returns b without a UTF-8 byte order mark when it is text: valid
// UTF-8 without NUL bytes. UTF-16 files, images and archives are not.
func textOf(b []byte) ([]byte, bool) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		return nil, false
	}
	return b, true
}

// looksHTML reports whether b starts like an HTML page.
func looksHTML(b []byte) bool {
	head := strings.ToLower(string(bytes.TrimSpace(b[:min(len(b), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// sizeWords writes n bytes as "1 MiB", "2.0 MiB" or "700 KiB".
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// logFileFailure records a refused or failed download: its reason only.
func (a *Adapter) logFileFailure(channel string, err error) {
	reason := "download"
	var fe *fileError
	if errors.As(err, &fe) {
		reason = fe.reason
	}
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	a.log.Info().Str("channel", channel).Str("reason", reason).Msg("scan file not read")
}
