package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// findingPoster is a Slack-like poster: it posts, and can look for a
// nonce among what "the channel" already shows.
type findingPoster struct {
	shown   map[string]string // channel/nonce → message ID
	posts   int
	lookups int
	failing error
}

func (p *findingPoster) Post(_ context.Context, channel string, _ *knowledge.Answer, nonce string) (string, error) {
	p.posts++
	p.shown[channel+"/"+nonce] = "new"
	return "new", nil
}

func (p *findingPoster) FindPosted(_ context.Context, channel, nonce string, _ time.Time) (string, bool, error) {
	p.lookups++
	if p.failing != nil {
		return "", false, p.failing
	}
	id, ok := p.shown[channel+"/"+nonce]
	return id, ok, nil
}

func (p *findingPoster) Fits(*knowledge.Answer) bool { return true }

func inDoubtDelivery(channel string, partsSent int) digest.Delivery {
	ref := digest.ChannelRef{Platform: "slack", Workspace: "T1", Channel: channel}
	return digest.Delivery{Key: digest.DeliveryKey(ref, "d1"), DigestID: "d1", Platform: "slack", Workspace: "T1", Channel: channel,
		State: digest.DeliveryPending, PartsSent: partsSent, InDoubt: 1, Reason: "in doubt after a restart: the post may have gone out",
		UpdatedAt: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
}

// TestInDoubtLooksBeforePostingAgain: the part a dead leader was posting
// is recorded when the channel shows it, posted when it does not, looked
// for once; a delivery carried over from a leader that died before posting
// it again is looked for without being counted twice; a platform that can
// neither look nor drop repeats counts a possible duplicate.
func TestInDoubtLooksBeforePostingAgain(t *testing.T) {
	posted, lost, carried := inDoubtDelivery("CPOSTED", 1), inDoubtDelivery("CLOST", 0), inDoubtDelivery("CCARRIED", 0)
	slack := &findingPoster{shown: map[string]string{"CPOSTED/" + posted.Nonce(1): "old-ts", "CCARRIED/" + carried.Nonce(0): "older-ts"}}
	plain := &recordingPoster{}
	counts := &delivery.Counts{}
	discord := posted
	discord.Platform = "discord"
	other := posted
	other.Platform = "plain"
	r := ResolveInDoubt(digest.Recovered{InDoubt: []digest.Delivery{posted, lost, discord, other}}, []digest.Delivery{carried},
		map[string]delivery.Poster{"slack": slack, "discord": plain, "plain": plainPoster{}}, counts, zerolog.Nop())
	p := r.Wrap("slack", slack)
	if _, ok := p.(delivery.Fitter); !ok {
		t.Error("the wrapped Slack poster lost Fits")
	}
	ctx := context.Background()
	if id, err := p.Post(ctx, "CPOSTED", &knowledge.Answer{}, posted.Nonce(1)); err != nil || id != "old-ts" || slack.posts != 0 {
		t.Errorf("the part already shown: id %q, %v, %d posts; want the old message recorded, no post", id, err, slack.posts)
	}
	if id, err := p.Post(ctx, "CLOST", &knowledge.Answer{}, lost.Nonce(0)); err != nil || id != "new" || slack.posts != 1 {
		t.Errorf("the part never shown: id %q, %v, %d posts", id, err, slack.posts)
	}
	if id, _ := p.Post(ctx, "CCARRIED", &knowledge.Answer{}, carried.Nonce(0)); id != "older-ts" {
		t.Errorf("the carried part: id %q, want the message already shown", id)
	}
	lookups := slack.lookups
	_, _ = p.Post(ctx, "CPOSTED", &knowledge.Answer{}, posted.Nonce(2)) // the next part: no lookup
	if slack.lookups != lookups {
		t.Error("a part that was not in doubt was looked for")
	}
	if r.Wrap("discord", plain) != delivery.Poster(plain) {
		t.Error("a poster that cannot look was wrapped")
	}
	if got := counts.Snapshot(); got["in_doubt/slack"] != 2 || got["in_doubt/discord"] != 1 || got["duplicate_possible/plain/restart"] != 1 || got["duplicate_possible/slack/restart"] != 0 {
		t.Errorf("counts %v", got)
	}
}

// TestInDoubtLookupFails: when the channel cannot be read, the part is
// posted again and counted as a possible duplicate.
func TestInDoubtLookupFails(t *testing.T) {
	d := inDoubtDelivery("C1", 0)
	slack := &findingPoster{shown: map[string]string{}, failing: errors.New("missing_scope")}
	counts := &delivery.Counts{}
	p := ResolveInDoubt(digest.Recovered{InDoubt: []digest.Delivery{d}}, nil, map[string]delivery.Poster{"slack": slack}, counts, zerolog.Nop()).Wrap("slack", slack)
	if _, err := p.Post(context.Background(), "C1", &knowledge.Answer{}, d.Nonce(0)); err != nil || slack.posts != 1 {
		t.Errorf("post after a failed lookup: %v, %d posts", err, slack.posts)
	}
	if counts.Get("duplicate_possible/slack/restart") != 1 {
		t.Errorf("counts %v", counts.Snapshot())
	}
}

type plainPoster struct{}

func (plainPoster) Post(context.Context, string, *knowledge.Answer, string) (string, error) {
	return "x", nil
}
