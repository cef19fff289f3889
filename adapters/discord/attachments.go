package discord

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/internal/download"
	"github.com/kepbot/kepbot/internal/metrics"
)

// Attachments of a scan: where kepbot downloads them from and how much it
// takes. Discord serves attachments from its CDN, at signed URLs (ex, is
// and hm query parameters) that need no token
// (https://discord.com/developers/docs/reference#signed-attachment-cdn-urls).
// The guard itself (hosts, redirects, size, text, timeout) is the
// adapters' download package; what is Discord's is here.
const (
	// MaxAttachmentBytes is the largest attachment kepbot scans: the
	// manifest reader's cap for chat, as for every platform.
	MaxAttachmentBytes = download.MaxBytes
	// DefaultAttachmentTimeout bounds one download, from the request to
	// the last byte.
	DefaultAttachmentTimeout = download.DefaultTimeout
)

// attachmentGuard is Discord's download guard, but for the API base and
// the timeout, which are the adapter's (guard). Its hosts are the CDN (an
// attachment's url) and the media proxy (its proxy_url).
var attachmentGuard = download.Guard{
	Hosts:        []string{"cdn.discordapp.com", "media.discordapp.net"},
	MaxBytes:     MaxAttachmentBytes,
	MaxRedirects: download.MaxRedirects,
	Words: download.Words{
		Host:     "I only download attachments from Discord's own CDN (cdn.discordapp.com), and that file is not there. Attach the file to your message itself.",
		Request:  "I could not download that file from Discord. Try again in a moment.",
		Redirect: "Discord's CDN sent me on to another host, which I don't follow. Attach the file again, or paste the manifests after the question.",
		Timeout:  "Downloading that file took longer than %s, so I stopped. Try again, or paste the manifests after the question.",
		Network:  "I could not download that file from Discord. Try again in a moment, or paste the manifests after the question.",
		Status: func(code int) error {
			if code == http.StatusNotFound || code == http.StatusForbidden {
				return download.Fail("expired", "Discord no longer serves that file (HTTP %d): its link may have expired. Attach it again.", code)
			}
			return download.Fail("status", "Discord's CDN answered HTTP %d instead of the file. Try again in a moment.", code)
		},
	},
}

// guard is the adapter's download guard: Discord's, with the configured
// API base's host (a proxy or a test server) allowed too, and the
// attachment timeout.
func (a *Adapter) guard() *download.Guard {
	return attachmentGuard.For(a.cfg.APIURL, a.attachmentTimeout)
}

// userError turns a refused or failed download into what the person sees.
func userError(err error) error { return attachmentGuard.UserError(err) }

// attachmentAllowed reports whether kepbot may download from u: https on
// Discord's CDN, or the configured API base's host (a proxy or a test
// server).
func (a *Adapter) attachmentAllowed(u *url.URL) bool { return a.guard().Allowed(u) }

// newAttachmentClient is the client downloads go through: no token (the
// session's transport is not used), redirects followed only within the
// hosts attachmentAllowed accepts, and no timeout of its own (each
// download's context has one).
func (a *Adapter) newAttachmentClient() *http.Client { return a.guard().Client(http.DefaultTransport) }

// checkAttachment refuses, before any download, an attachment kepbot will
// not read: not on Discord's CDN, larger than MaxAttachmentBytes as
// Discord says, or an image, video or audio.
func (a *Adapter) checkAttachment(att *discordgo.MessageAttachment) error {
	g := a.guard()
	if _, err := g.Check(att.URL); err != nil {
		return err
	}
	if err := g.TooLarge(int64(att.Size)); err != nil {
		return err
	}
	return download.Media(strings.ToLower(att.ContentType))
}

// readAttachments downloads the one attachment of a scan message and
// returns its text; more than one is refused.
func (a *Adapter) readAttachments(ctx context.Context, atts []*discordgo.MessageAttachment) ([]byte, error) {
	if len(atts) > 1 {
		return nil, download.OneFile(len(atts))
	}
	if atts[0] == nil {
		return nil, download.Fail("no_url", "Discord did not tell me where that file is. Attach it again.")
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
	return a.guard().Get(ctx, a.attachments, att.URL, nil)
}

// logAttachmentFailure records a refused or failed download: its reason
// only.
func (a *Adapter) logAttachmentFailure(log zerolog.Logger, err error) {
	a.rec.Failed(Platform, metrics.ReasonBadRequest)
	log.Info().Str("reason", download.Reason(err)).Msg("discord: scan attachment not read")
}
