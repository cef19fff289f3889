package delivery_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// adapterPosters returns the Posters of the real Slack and Discord
// adapters, configured to speak to the fakes at base with made-up tokens.
// Slack's Poster posts with its one bot token, so every Slack channel is in
// one workspace.
func adapterPosters(t *testing.T, h *harness) map[string]delivery.Poster {
	t.Helper()
	eng := engine.New(h.db.Knowledge())
	sa, err := slack.NewAdapter(slack.Config{
		BotToken:       config.NewSecret("xoxb-fanout-test"),
		SigningSecrets: []config.Secret{config.NewSecret("fanout-signing-secret")},
		APIURL:         h.srv.URL + "/slack/api/",
	}, eng, zerolog.Nop())
	if err != nil {
		t.Fatalf("slack adapter: %v", err)
	}
	sp, err := sa.Poster()
	if err != nil {
		t.Fatalf("slack poster: %v", err)
	}
	da, err := discord.NewAdapter(discord.Config{
		BotToken: discord.NewSecret("fanout-test-token"),
		APIURL:   h.srv.URL + "/discord",
	}, eng, nil, zerolog.Nop())
	if err != nil {
		t.Fatalf("discord adapter: %v", err)
	}
	dp, err := da.Poster()
	if err != nil {
		t.Fatalf("discord poster: %v", err)
	}
	return map[string]delivery.Poster{"slack": sp, "discord": dp}
}

// TestFanOutThroughTheAdaptersPosters runs the fan-out of
// TestFanOutToFiveThousandChannels through the adapters' own Posters
// (slack-go and discordgo on the wire, their error mapping) at real time:
// 100 Slack channels in the one workspace the Slack Poster's token covers
// and 200 Discord channels; the fakes answer 429 with a Retry-After of 1 s
// on 20% of posts, 5xx on 2%, and refuse 6 channels (2 on Slack, 4 on
// Discord, every code but account_inactive) as gone. It fails when a live
// channel shows its digest other than once, a gone channel is called other
// than once or not paused with the platform's code, or a post lands inside
// a Retry-After window, a channel's 1 s gap or over a rate limit.
func TestFanOutThroughTheAdaptersPosters(t *testing.T) {
	if testing.Short() {
		t.Skip("a 300-channel fan-out at real time; run without -short")
	}
	unit := time.Second
	h := newHarness(t, fanoutSpec{slack: 100, discord: 200, workspaces: 1, goneEvery: 50, unit: unit}, 2)
	h.fake.rateLimited, h.fake.serverError, h.fake.maxRA = 0.20, 0.02, 1
	// Slack: 10 posts a second per workspace; Discord: 50 a second.
	h.fake.wsRate, h.fake.wsBurst = 10, 10
	h.fake.global = newBucket(50, 50)
	var goneSlack, goneDiscord int
	for _, ch := range h.channels {
		if _, ok := h.gone[ch.Channel]; ok && ch.Platform == "slack" {
			goneSlack++
		} else if ok {
			goneDiscord++
		}
	}
	if goneSlack < 2 || goneDiscord < 2 {
		t.Fatalf("%d gone Slack channels and %d gone Discord ones; want at least 2 each", goneSlack, goneDiscord)
	}

	counts := &delivery.Counts{}
	cfg := delivery.Config{
		Posters: adapterPosters(t, h),
		// The bot keeps 10% below, as in the 5,000-channel test.
		Limits: map[string]delivery.Limits{
			"slack":   {ChannelGap: unit, Workspace: rateOf(9, unit), WorkspaceBurst: 10},
			"discord": {ChannelGap: unit, Platform: rateOf(45, unit), PlatformBurst: 45},
		},
		Workers: 8, BackoffBase: unit, BackoffMax: 4 * unit, DefaultRetryAfter: unit,
		Poll: unit, PostTimeout: 5 * time.Second, Metrics: counts, Log: zerolog.Nop(),
	}
	took := fanOut(t, h, cfg, counts)
	checkFanOut(t, h)

	s := counts.Snapshot()
	if want := 100 - goneSlack; s["delivered/slack"] != want {
		t.Errorf("delivered %d on Slack, want %d: %v", s["delivered/slack"], want, s)
	}
	if want := 200 - goneDiscord; s["delivered/discord"] != want {
		t.Errorf("delivered %d on Discord, want %d: %v", s["delivered/discord"], want, s)
	}
	for _, k := range []string{"retried/slack/rate_limited", "retried/discord/rate_limited", "retried/discord/error"} {
		if s[k] == 0 {
			t.Errorf("%s is 0: the fakes' 429s and 5xx were not met as such: %v", k, s)
		}
	}
	// A Slack post that failed without an answer may have gone out: each
	// retry of one is a possible duplicate (the fake showed none of them).
	// Discord's nonce makes none.
	for _, r := range []string{"error", "timeout"} {
		if got, want := s["duplicate_possible/slack/"+r], s["retried/slack/"+r]; got != want {
			t.Errorf("%d possible Slack duplicates counted for %d failures (%s)", got, want, r)
		}
	}
	for k, n := range s {
		if strings.HasPrefix(k, "duplicate_possible/discord") || k == "duplicate_possible/slack/restart" {
			t.Errorf("%s = %d; want none: the nonce makes no Discord duplicate, and nothing restarted", k, n)
		}
	}
	t.Logf("300 channels through the adapters' posters in %s; attempts %v; counts %v", took.Round(time.Millisecond), h.fake.attempts, s)
	h.db.Close()
	checkFile(t, h.path)
}
