package delivery_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// BenchmarkFanOut delivers 5,000 digests (4,000 Slack channels in 20
// workspaces, 1,000 Discord channels) against the fakes: 429 with
// Retry-After (1 to 30 units of 20ms) on 20% of posts, 5xx on 2%, 1% of
// channels gone, Slack at 30 posts a second per workspace, Discord at 150
// a second, 20ms between two posts to a channel; the bot keeps to 95% of
// those rates. It reports the time taken
// as a ratio of the least time those limits allow:
//
//	x_least:  to the requests each limited scope had to carry at its rate,
//	          plus the longest Retry-After announced (the reliability
//	          notes' "(rate budget + max Retry-After)"); goal <= 1.2
//	x_budget: to the requests at their rate alone
//
// Every request counts against its scope, 429s and 5xx included, as the
// fakes count them. overruns counts requests the fakes saw over a rate
// limit: 0 unless the machine stalls the bot between its limiter and the
// send. Run: go test -run '^$' -bench FanOut -benchtime 1x ./knowledge/digest/delivery/
func BenchmarkFanOut(b *testing.B) {
	const slackRate, discordRate = 30, 150
	for range b.N {
		b.StopTimer()
		unit := 20 * time.Millisecond
		h := newHarness(b, fanoutSpec{slack: 4000, discord: 1000, workspaces: 20, goneEvery: 100, unit: unit}, uint64(b.N))
		h.fake.rateLimited, h.fake.serverError = 0.20, 0.02
		h.fake.wsRate, h.fake.wsBurst = slackRate, 5
		h.fake.global = newBucket(discordRate, 5)
		counts := &delivery.Counts{}
		cfg := workerConfig(h.srv.URL, unit, counts)
		// The bot keeps 5% below the fakes' limits, as it does below Discord's
		// (DefaultLimits): requests reach the server with jitter, and a
		// 2-core machine shared with others stalls now and then.
		cfg.Limits["slack"] = delivery.Limits{ChannelGap: unit, Workspace: 0.95 * slackRate, WorkspaceBurst: 5}
		cfg.Limits["discord"] = delivery.Limits{ChannelGap: unit, Platform: 0.95 * discordRate, PlatformBurst: 5}
		b.StartTimer()

		start := time.Now()
		took := fanOut(b, h, cfg, counts)

		b.StopTimer()
		var budget time.Duration
		for scope, n := range h.fake.attempts {
			r := 0.0
			switch {
			case strings.HasPrefix(scope, "w/"):
				r = slackRate
			case scope == "g/discord":
				r = discordRate
			default:
				continue
			}
			budget = max(budget, time.Duration(float64(n)/r*float64(time.Second)))
		}
		if v := len(h.fake.violations); v > 0 {
			b.Errorf("%d posts inside a Retry-After window or a channel's gap, first: %s", v, h.fake.violations[0])
		}
		b.ReportMetric(float64(len(h.fake.overruns)), "overruns")
		b.ReportMetric(took.Seconds()/(budget+h.fake.maxWindow).Seconds(), "x_least")
		b.ReportMetric(took.Seconds()/budget.Seconds(), "x_budget")
		b.ReportMetric(took.Seconds(), "s/fanout")
		b.Logf("5,000 digests in %s (Slack done at %s, Discord at %s); least %s (budget %s + longest Retry-After %s); requests %d slack, %d discord",
			took.Round(time.Millisecond), h.fake.lastShown["slack"].Sub(start).Round(time.Millisecond), h.fake.lastShown["discord"].Sub(start).Round(time.Millisecond),
			(budget + h.fake.maxWindow).Round(time.Millisecond), budget.Round(time.Millisecond),
			h.fake.maxWindow, h.fake.attempts["slack"], h.fake.attempts["discord"])
		b.StartTimer()
	}
}
