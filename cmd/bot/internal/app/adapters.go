package app

import (
	"context"
	"fmt"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// adapters are the chat adapters serve runs, and the digest posters of
// those that have a bot token.
type adapters struct {
	run     []Adapter // Slack, Discord: those configured
	posters map[string]delivery.Poster
	// gateways are held by the leader alone when replicas share etcd:
	// Discord's gateway, so that each prefix command is seen once.
	gateways []func(ctx context.Context) error
}

// adapters builds every configured adapter over answerer, reading
// questions with reader. Each pauses a channel's subscription (in pauser,
// the shared state) when its platform says the channel is gone. It returns
// 0, or the exit code after saying what was wrong.
func (p Process) adapters(ctx context.Context, pauser store.Shared, answerer knowledge.Answerer, reader *question.Reader,
	logger zerolog.Logger, m *metrics.Metrics) (*adapters, int) {
	cfg, dcfg := p.Config, p.Discord
	ad := &adapters{posters: map[string]delivery.Poster{}}
	if cfg.SlackSocketMode() || cfg.SlackHTTP() {
		opts := []slack.Option{slack.WithRecorder(m), slack.WithPauser(pauser), slack.WithReader(reader)}
		if es, ok := pauser.(*etcdstore.Store); ok && cfg.UsesEtcd() {
			// Replicas share the signatures of the requests they served, so
			// that one replayed to another replica is refused there too.
			opts = append(opts, slack.WithReplayGuard(es.ReplayGuard(etcdstore.ReplayConfig{})))
		}
		s, err := slack.NewAdapter(p.Slack, answerer, logger, opts...)
		if err != nil {
			fmt.Fprintf(p.Stderr, "bot serve: slack: %v\n", err)
			return nil, p.BadInput
		}
		if !cfg.Slack.BotToken.IsZero() {
			sp, err := s.Poster()
			if err != nil {
				fmt.Fprintf(p.Stderr, "bot serve: slack: %v\n", err)
				return nil, p.BadInput
			}
			ad.posters[slack.Platform] = sp
		}
		ad.run = append(ad.run, s)
	}
	if dcfg.Enabled() {
		cat, err := discord.LoadCatalog(ctx, p.DB.Knowledge())
		if err != nil {
			logger.Error().Err(err).Msg("load the Discord autocomplete catalog")
			return nil, p.Failure
		}
		opts := []discord.Option{discord.WithRecorder(m), discord.WithPauser(pauser), discord.WithReader(reader)}
		if cfg.UsesEtcd() && dcfg.Gateway() {
			opts = append(opts, discord.WithLeaderGateway())
		}
		d, err := discord.NewAdapter(dcfg, answerer, cat, logger, opts...)
		if err != nil {
			fmt.Fprintf(p.Stderr, "bot serve: discord: %v\n", err)
			return nil, p.BadInput
		}
		if dcfg.Gateway() {
			dp, err := d.Poster()
			if err != nil {
				fmt.Fprintf(p.Stderr, "bot serve: discord: %v\n", err)
				return nil, p.BadInput
			}
			ad.posters[discord.Platform] = dp
			if cfg.UsesEtcd() {
				ad.gateways = append(ad.gateways, d.RunGateway)
			}
		}
		ad.run = append(ad.run, d)
	}
	return ad, 0
}
