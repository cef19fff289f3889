package delivery

import (
	"context"
	"errors"
	"fmt"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// ErrNoChannel is a channel no subscription has.
var ErrNoChannel = errors.New("no subscription for the channel")

// AmbiguousChannelError is a channel ID that subscriptions on several
// platforms or workspaces have; IDs are their platform/workspace/channel.
type AmbiguousChannelError struct{ IDs []string }

func (e *AmbiguousChannelError) Error() string {
	return fmt.Sprintf("%d subscriptions have the channel", len(e.IDs))
}

// ChannelPreview is the digest one subscribed channel would get now.
type ChannelPreview struct {
	Ref    digest.ChannelRef
	Sub    *digest.Subscription
	Digest digest.Digest
	New    bool // false when nothing is new to it: its next digest would be empty
}

// State is the subscription's filter and, when it is paused, why.
func (p ChannelPreview) State() string {
	if !p.Sub.Active() {
		return p.Sub.Filter.String() + "; paused: " + digest.PauseReasonText(p.Sub.PausedReason)
	}
	return p.Sub.Filter.String()
}

// PreviewChannel finds the one subscribed channel id names (see
// digest.ChannelsNamed) and returns the digest it would get now, without
// queueing it (see Preview). It fails with ErrNoChannel or
// *AmbiguousChannelError when id names no channel or several.
func (t *Trigger) PreviewChannel(ctx context.Context, id, platform string) (ChannelPreview, error) {
	subs, err := t.cfg.Subscriptions.ListSubscriptions(ctx)
	if err != nil {
		return ChannelPreview{}, err
	}
	found := digest.ChannelsNamed(subs, id, platform)
	switch len(found) {
	case 0:
		return ChannelPreview{}, ErrNoChannel
	case 1:
	default:
		ids := make([]string, len(found))
		for i, r := range found {
			ids[i] = r.ID()
		}
		return ChannelPreview{}, &AmbiguousChannelError{IDs: ids}
	}
	p := ChannelPreview{Ref: found[0]}
	p.Digest, p.Sub, p.New, err = t.Preview(ctx, p.Ref)
	return p, err
}
