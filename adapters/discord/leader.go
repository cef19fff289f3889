package discord

import (
	"context"
	"fmt"

	"github.com/kepbot/kepbot/internal/metrics"
)

// WithLeaderGateway leaves the gateway (and registering /k8s) to
// RunGateway: Run then serves only the HTTP interactions endpoint. Among
// replicas sharing one bot token, only the elected leader holds the
// gateway, so each prefix command and mention is seen once; every replica
// serves the interactions endpoint behind the load balancer.
func WithLeaderGateway() Option {
	return func(a *Adapter) { a.leaderGateway = true }
}

// RunGateway registers /k8s (when an application ID is set), connects to
// the gateway, and holds it until ctx ends: what the leader runs for its
// term. It fails when registering fails or the gateway cannot be opened.
func (a *Adapter) RunGateway(ctx context.Context) error {
	if !a.cfg.Gateway() {
		<-ctx.Done()
		return nil
	}
	if a.cfg.Register() {
		if err := a.Register(ctx); err != nil {
			return err
		}
	}
	if err := a.session.Open(); err != nil {
		a.rec.Failed(Platform, metrics.ReasonConnection)
		return fmt.Errorf("discord: open gateway: %s", secrets.scrub(err.Error()))
	}
	a.log.Info().Str("prefix", a.cfg.Prefix).Msg("discord gateway connected (this replica leads)")
	<-ctx.Done()
	if err := a.session.Close(); err != nil {
		a.log.Warn().Str("error", secrets.scrub(err.Error())).Msg("discord gateway close")
	}
	return nil
}
