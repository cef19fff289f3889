package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// baseIntents are the gateway intents kepbot always asks for, none of
// them privileged: guilds (to know where it is, and CHANNEL_DELETE,
// THREAD_DELETE and GUILD_DELETE, which pause the subscriptions of
// channels that are gone), guild messages (mentions of the bot, whose
// text Discord sends without Message Content) and direct messages.
const baseIntents = discordgo.IntentGuilds | discordgo.IntentGuildMessages | discordgo.IntentDirectMessages

// Intents are the gateway intents for c: baseIntents, and Message Content
// (privileged: switched on in the Developer Portal) only when prefix
// commands are on, since only `!k8s …` in a server channel needs it.
func (c Config) Intents() discordgo.Intent {
	if c.PrefixCommands {
		return baseIntents | discordgo.IntentMessageContent
	}
	return baseIntents
}

// restTimeout bounds one REST request.
const restTimeout = 15 * time.Second

// newSession returns a discordgo session configured for kepbot: cfg's
// intents, discordgo's own retries off (the caller retries, bounded),
// debug output off, a state cache of guilds, roles, channels and threads
// only (what a member's permissions in a channel are computed from, see
// permissions.go; the intents bring no member lists), and an HTTP client
// whose transport points REST and the gateway lookup at cfg's URLs and
// counts refused requests with onStatus.
func newSession(cfg Config, onStatus func(status int)) (*discordgo.Session, error) {
	token := cfg.BotToken.Value()
	if token != "" && !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	s, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	rt, err := newRewrite(cfg.APIURL, cfg.GatewayURL, http.DefaultTransport, onStatus)
	if err != nil {
		return nil, err
	}
	s.Client = &http.Client{Transport: rt, Timeout: restTimeout}
	s.Identify.Intents = cfg.Intents()
	s.ShouldRetryOnRateLimit = false
	s.MaxRestRetries = 0
	s.ShouldReconnectOnError = true
	s.StateEnabled = true
	s.State.MaxMessageCount = 0
	s.State.TrackEmojis, s.State.TrackStickers, s.State.TrackVoice = false, false, false
	s.State.TrackPresences, s.State.TrackThreadMembers = false, false
	s.Debug = false
	s.LogLevel = discordgo.LogWarning
	d := *websocket.DefaultDialer
	d.HandshakeTimeout = restTimeout
	s.Dialer = &d
	return s, nil
}

// rewrite is the HTTP transport of the session. Requests to discord.com go
// to api instead when it is set; GET /gateway is answered with gateway when
// that is set, so that discordgo dials it. Every response's status is
// reported to onStatus. No package variable of discordgo is changed.
type rewrite struct {
	api      *url.URL // nil: Discord's own
	gateway  string   // "": ask Discord
	base     http.RoundTripper
	onStatus func(status int)
}

// discordHost is the host discordgo's endpoints name.
var discordHost = func() string {
	u, _ := url.Parse(discordgo.EndpointDiscord)
	return u.Host
}()

func newRewrite(apiURL, gatewayURL string, base http.RoundTripper, onStatus func(int)) (*rewrite, error) {
	rt := &rewrite{base: base, onStatus: onStatus}
	if apiURL != "" {
		u, err := url.Parse(strings.TrimRight(apiURL, "/"))
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("discord api url %q is not a URL like https://host", apiURL)
		}
		u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/api/v"+discordgo.APIVersion), "/api")
		rt.api = u
	}
	if gatewayURL != "" {
		g := strings.TrimRight(gatewayURL, "/")
		rt.gateway = g
	}
	return rt, nil
}

// RoundTrip sends req, to the configured base when it is for Discord.
func (t *rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != discordHost {
		return t.base.RoundTrip(req)
	}
	if t.gateway != "" && req.Method == http.MethodGet && isGatewayPath(req.URL.Path) {
		return gatewayResponse(req, t.gateway)
	}
	if t.api != nil {
		req = req.Clone(req.Context())
		req.URL.Scheme = t.api.Scheme
		req.URL.Host = t.api.Host
		req.URL.Path = t.api.Path + req.URL.Path
		if req.URL.RawPath != "" {
			req.URL.RawPath = t.api.Path + req.URL.RawPath
		}
		req.Host = ""
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && t.onStatus != nil {
		t.onStatus(resp.StatusCode)
	}
	return resp, err
}

func isGatewayPath(p string) bool {
	p = strings.TrimSuffix(p, "/")
	return p == "/api/v"+discordgo.APIVersion+"/gateway" || p == "/api/v"+discordgo.APIVersion+"/gateway/bot"
}

// gatewayResponse answers GET /gateway with the configured gateway URL, as
// Discord would.
func gatewayResponse(req *http.Request, gateway string) (*http.Response, error) {
	body, err := json.Marshal(map[string]any{"url": gateway, "shards": 1})
	if err != nil {
		return nil, err
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": []string{"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}
