package discord

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

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
)

// Attachments of a scan: where kepbot downloads them from and how much it
// takes. Discord serves attachments from its CDN, at signed URLs (ex, is
// and hm query parameters) that need no token
// (https://discord.com/developers/docs/reference#signed-attachment-cdn-urls).
const (
	// MaxAttachmentBytes is the largest attachment kepbot scans: the
	// manifest reader's cap for chat (manifest.ChatLimits).
	MaxAttachmentBytes = 1 << 20
	// DefaultAttachmentTimeout bounds one download, from the request to
	// the last byte.
	DefaultAttachmentTimeout = 10 * time.Second
	// maxAttachmentRedirects is how many redirects within Discord's CDN
	// a download follows.
	maxAttachmentRedirects = 3
)

// attachmentHosts are the hosts kepbot downloads attachments from, over
// https: the CDN (an attachment's url) and the media proxy (its
// proxy_url).
var attachmentHosts = map[string]bool{"cdn.discordapp.com": true, "media.discordapp.net": true}

// errRedirectElsewhere stops a download redirected off Discord's CDN.
var errRedirectElsewhere = errors.New("redirect to a host other than Discord's CDN")

// attachmentError is a download refused or failed: what the person is
// told, and a short reason for the log. Neither holds the attachment's
// URL, name or content.
type attachmentError struct {
	reason string
	msg    string
}

func (e *attachmentError) Error() string { return e.reason }

func failAttachment(reason, format string, args ...any) error {
	return &attachmentError{reason: reason, msg: fmt.Sprintf(format, args...)}
}

// userError turns a refused or failed download into what the person sees.
func userError(err error) error {
	var ae *attachmentError
	if errors.As(err, &ae) {
		return knowledge.Errorf(knowledge.EBADINPUT, "%s", ae.msg)
	}
	return knowledge.Errorf(knowledge.EBADINPUT, "I could not download that file from Discord. Try again in a moment, or paste the manifests after the question.")
}

// attachmentAllowed reports whether kepbot may download from u: https on
// Discord's CDN, or the configured API base's host (a proxy or a test
// server).
func (a *Adapter) attachmentAllowed(u *url.URL) bool {
	if u == nil || u.User != nil {
		return false
	}
	if u.Scheme == "https" && attachmentHosts[strings.ToLower(u.Hostname())] && (u.Port() == "" || u.Port() == "443") {
		return true
	}
	if a.cfg.APIURL != "" {
		if api, err := url.Parse(a.cfg.APIURL); err == nil && api.Host != "" && strings.EqualFold(api.Host, u.Host) && u.Scheme == api.Scheme {
			return true
		}
	}
	return false
}

// newAttachmentClient is the client downloads go through: no token (the
// session's transport is not used), redirects followed only within the
// hosts attachmentAllowed accepts, and no timeout of its own (each
// download's context has one).
func (a *Adapter) newAttachmentClient() *http.Client {
	return &http.Client{
		Transport: http.DefaultTransport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxAttachmentRedirects || !a.attachmentAllowed(req.URL) {
				return errRedirectElsewhere
			}
			return nil
		},
	}
}

// checkAttachment refuses, before any download, an attachment kepbot will
// not read: larger than MaxAttachmentBytes as Discord says, an image,
// video or audio, or not on Discord's CDN.
func (a *Adapter) checkAttachment(att *discordgo.MessageAttachment) error {
	ct := strings.ToLower(att.ContentType)
	u, err := url.Parse(att.URL)
	switch {
	case att.URL == "" || err != nil || !a.attachmentAllowed(u):
		return failAttachment("host", "I only download attachments from Discord's own CDN (cdn.discordapp.com), and that file is not there. Attach the file to your message itself.")
	case att.Size > MaxAttachmentBytes:
		return failAttachment("too_large", "That file is %s; I scan files of up to %s. Split it, or attach only the manifests you upgrade.", sizeWords(int64(att.Size)), sizeWords(MaxAttachmentBytes))
	case strings.HasPrefix(ct, "image/"), strings.HasPrefix(ct, "video/"), strings.HasPrefix(ct, "audio/"):
		return failAttachment("binary", "That file is not text. Attach a YAML or JSON file saved as UTF-8.")
	}
	return nil
}

// readAttachments downloads the one attachment of a scan message and
// returns its text; more than one is refused.
func (a *Adapter) readAttachments(ctx context.Context, atts []*discordgo.MessageAttachment) ([]byte, error) {
	if len(atts) > 1 {
		return nil, failAttachment("several_files", "I scan one file a message, and that message has %d. Send them one at a time, or put the manifests into one file.", len(atts))
	}
	if atts[0] == nil {
		return nil, failAttachment("no_url", "Discord did not tell me where that file is. Attach it again.")
	}
	return a.download(ctx, atts[0])
}

// download GETs an attachment: only from Discord's CDN (checkAttachment),
// following no redirect elsewhere, within the attachment timeout, at most
// MaxAttachmentBytes, and only text. The URL, which is signed, never
// reaches an error or a log.
func (a *Adapter) download(ctx context.Context, att *discordgo.MessageAttachment) ([]byte, error) {
	if err := a.checkAttachment(att); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, a.attachmentTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, att.URL, nil)
	if err != nil {
		return nil, failAttachment("request", "I could not download that file from Discord. Try again in a moment.")
	}
	resp, err := a.attachments.Do(req)
	if err != nil {
		return nil, downloadFailed(ctx, err, a.attachmentTimeout)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusForbidden:
		return nil, failAttachment("expired", "Discord no longer serves that file (HTTP %d): its link may have expired. Attach it again.", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, failAttachment("status", "Discord's CDN answered HTTP %d instead of the file. Try again in a moment.", resp.StatusCode)
	case resp.ContentLength > MaxAttachmentBytes:
		return nil, failAttachment("too_large", "That file is %s; I scan files of up to %s. Split it, or attach only the manifests you upgrade.", sizeWords(resp.ContentLength), sizeWords(MaxAttachmentBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxAttachmentBytes+1))
	if err != nil {
		return nil, downloadFailed(ctx, err, a.attachmentTimeout)
	}
	if len(body) > MaxAttachmentBytes {
		return nil, failAttachment("too_large", "That file is larger than %s, the most I scan. Split it, or attach only the manifests you upgrade.", sizeWords(MaxAttachmentBytes))
	}
	text, ok := textOf(body)
	if !ok {
		return nil, failAttachment("binary", "That file is not text (it holds bytes that are not UTF-8 text). Attach a YAML or JSON file saved as UTF-8.")
	}
	return text, nil
}

// downloadFailed describes a failed request or body read without its URL.
func downloadFailed(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(err, errRedirectElsewhere):
		return failAttachment("redirect", "Discord's CDN sent me on to another host, which I don't follow. Attach the file again, or paste the manifests after the question.")
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return failAttachment("timeout", "Downloading that file took longer than %s, so I stopped. Try again, or paste the manifests after the question.", timeout)
	}
	return failAttachment("network", "I could not download that file from Discord. Try again in a moment, or paste the manifests after the question.")
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

// logAttachmentFailure records a refused or failed download: its reason
// only.
func (a *Adapter) logAttachmentFailure(log zerolog.Logger, err error) {
	reason := "download"
	var ae *attachmentError
	if errors.As(err, &ae) {
		reason = ae.reason
	}
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	log.Info().Str("reason", reason).Msg("discord: scan attachment not read")
}
