package discord

import (
	"context"
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
// term. It retries both with backoff while Discord cannot be reached, and
// fails only when Discord refuses for good. When the term ends the adapter
// is up again for what every replica serves, the HTTP interactions.
func (a *Adapter) RunGateway(ctx context.Context) error {
	if !a.cfg.Gateway() {
		<-ctx.Done()
		return nil
	}
	if err := a.connect(ctx, a.cfg.Register(), true, "discord gateway connected (this replica leads)"); err != nil {
		return err
	}
	<-ctx.Done()
	a.closeGateway()
	a.conn.Up()
	return nil
}
