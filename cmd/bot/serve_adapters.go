package main

import (
	"context"
	"fmt"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/internal/serve"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// adapters are the chat adapters serve runs, and the digest posters of
// those that have a bot token.
type adapters struct {
	run     []serve.Adapter // Slack, Discord: those configured
	posters map[string]delivery.Poster
	// gateways are held by the leader alone when replicas share etcd:
	// Discord's gateway, so that each prefix command is seen once.
	gateways []func(ctx context.Context) error
}

// buildAdapters builds every configured adapter over answerer, reading
// questions with reader. Each pauses a channel's subscription (in pauser,
// the shared state) when its platform says the channel is gone. It returns
// exitOK, or the exit code after saying what was wrong.
func buildAdapters(ctx context.Context, io stdio, cfg *config.Config, dcfg discord.Config, db *store.DB, pauser store.Shared,
	answerer knowledge.Answerer, reader *question.Reader, logger zerolog.Logger, m *metrics.Metrics) (*adapters, int) {
	ad := &adapters{posters: map[string]delivery.Poster{}}
	if cfg.SlackSocketMode() || cfg.SlackHTTP() {
		opts := []slack.Option{slack.WithRecorder(m), slack.WithPauser(pauser), slack.WithReader(reader)}
		if es, ok := pauser.(*etcdstore.Store); ok && cfg.UsesEtcd() {
			// Replicas share the signatures of the requests they served, so
			// that one replayed to another replica is refused there too.
			opts = append(opts, slack.WithReplayGuard(es.ReplayGuard(etcdstore.ReplayConfig{})))
		}
		s, err := slack.NewAdapter(slackConfig(cfg.Slack), answerer, logger, opts...)
		if err != nil {
			fmt.Fprintf(io.err, "bot serve: slack: %v\n", err)
			return nil, exitBadInput
		}
		if !cfg.Slack.BotToken.IsZero() {
			p, err := s.Poster()
			if err != nil {
				fmt.Fprintf(io.err, "bot serve: slack: %v\n", err)
				return nil, exitBadInput
			}
			ad.posters[slack.Platform] = p
		}
		ad.run = append(ad.run, s)
	}
	if dcfg.Enabled() {
		cat, err := discord.LoadCatalog(ctx, db.Knowledge())
		if err != nil {
			logger.Error().Err(err).Msg("load the Discord autocomplete catalog")
			return nil, exitFailure
		}
		opts := []discord.Option{discord.WithRecorder(m), discord.WithPauser(pauser), discord.WithReader(reader)}
		if cfg.UsesEtcd() && dcfg.Gateway() {
			opts = append(opts, discord.WithLeaderGateway())
		}
		d, err := discord.NewAdapter(dcfg, answerer, cat, logger, opts...)
		if err != nil {
			fmt.Fprintf(io.err, "bot serve: discord: %v\n", err)
			return nil, exitBadInput
		}
		if dcfg.Gateway() {
			p, err := d.Poster()
			if err != nil {
				fmt.Fprintf(io.err, "bot serve: discord: %v\n", err)
				return nil, exitBadInput
			}
			ad.posters[discord.Platform] = p
			if cfg.UsesEtcd() {
				ad.gateways = append(ad.gateways, d.RunGateway)
			}
		}
		ad.run = append(ad.run, d)
	}
	return ad, exitOK
}
