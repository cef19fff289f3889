package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	slackapi "github.com/slack-go/slack"

	"github.com/kepbot/kepbot/internal/metrics"
)

// errResponseURL refuses a response_url that does not point at Slack.
var errResponseURL = errors.New("response_url is not a Slack hooks URL")

// responseHosts are where Slack's response_urls point.
var responseHosts = map[string]bool{"hooks.slack.com": true, "hooks.slack-gov.com": true}

// responseURLAllowed reports whether kepbot may POST to u: https on Slack's
// hooks host, or the host of the configured API base (a proxy or a test
// server), or what WithResponseURLs allows. Anything else is refused, so a
// payload cannot turn kepbot into a proxy to other hosts.
func (a *Adapter) responseURLAllowed(u *url.URL) bool {
	if u.User != nil {
		return false
	}
	if u.Scheme == "https" && responseHosts[strings.ToLower(u.Hostname())] {
		return true
	}
	if a.cfg.APIURL != "" {
		if api, err := url.Parse(a.cfg.APIURL); err == nil && api.Host == u.Host && (u.Scheme == "https" || u.Scheme == api.Scheme) {
			return true
		}
	}
	return a.allowURL != nil && a.allowURL(u)
}

// postResponse POSTs m to a response_url: a late slash answer, an answer
// too big for a Socket Mode ack, or a page. Failures are logged (without
// the URL, which is a bearer capability) and counted.
func (a *Adapter) postResponse(responseURL string, m *Message, channel string) {
	err := a.doPostResponse(responseURL, m)
	if err != nil {
		a.rec.Failed(Platform, metrics.ReasonPost)
		a.log.Warn().Err(safeErr(err)).Str("channel", channel).Msg("posting to response_url failed")
	}
}

func (a *Adapter) doPostResponse(responseURL string, m *Message) error {
	u, err := url.Parse(responseURL)
	if err != nil || responseURL == "" || !a.responseURLAllowed(u) {
		return errResponseURL
	}
	ctx, cancel := context.WithTimeout(context.Background(), postTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(m.AppendJSON(nil)))
	if err != nil {
		return errResponseURL
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := a.http.Do(req)
	if err != nil {
		return fmt.Errorf("post to response_url: %w", safeErr(err))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("response_url answered %d %q", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}

// postMessage posts m to channel (in thread when set) with chat.postMessage.
// Links and media are not unfurled, and link_names is never set, so text
// in the answer cannot notify anyone.
func (a *Adapter) postMessage(channel, thread string, m *Message) {
	if err := a.doPostMessage(channel, thread, m); err != nil {
		a.rec.Failed(Platform, metrics.ReasonPost)
		a.log.Warn().Err(safeErr(err)).Str("channel", channel).Msg("chat.postMessage failed")
	}
}

func (a *Adapter) doPostMessage(channel, thread string, m *Message) error {
	if a.api == nil {
		return errors.New("no SLACK_BOT_TOKEN to post with")
	}
	opts, err := messageOptions(m)
	if err != nil {
		return err
	}
	if thread != "" {
		opts = append(opts, slackapi.MsgOptionTS(thread))
	}
	ctx, cancel := context.WithTimeout(context.Background(), postTimeout)
	defer cancel()
	if _, _, err := a.api.PostMessageContext(ctx, channel, opts...); err != nil {
		return fmt.Errorf("chat.postMessage: %w", err)
	}
	return nil
}

// messageOptions are how kepbot posts m with chat.postMessage: its blocks,
// its fallback text as escaped already, no link or media unfurls, and
// never link_names or parse=full, so no text in it can notify anyone.
func messageOptions(m *Message) ([]slackapi.MsgOption, error) {
	blocks, err := toSlackBlocks(m)
	if err != nil {
		return nil, err
	}
	return []slackapi.MsgOption{
		slackapi.MsgOptionText(m.Text, false), // already escaped
		slackapi.MsgOptionBlocks(blocks...),
		slackapi.MsgOptionDisableLinkUnfurl(),
		slackapi.MsgOptionDisableMediaUnfurl(),
	}, nil
}

// toSlackBlocks hands our blocks to slack-go as raw JSON blocks.
func toSlackBlocks(m *Message) ([]slackapi.Block, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(m.BlocksJSON(), &raw); err != nil {
		return nil, fmt.Errorf("encode blocks: %w", err)
	}
	out := make([]slackapi.Block, 0, len(raw))
	for _, r := range raw {
		b, err := slackapi.BlockFromJSON(string(r))
		if err != nil {
			return nil, fmt.Errorf("encode blocks: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}
