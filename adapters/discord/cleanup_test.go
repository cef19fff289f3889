package discord

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store"
)

// IDs of the cleanup tests: channels in testGuild and in another guild.
const (
	otherGuild    = "700000000000000002"
	chanDeleted   = "510000000000000001" // subscribed, then deleted
	threadDeleted = "510000000000000002" // a subscribed thread under chanDeleted, then deleted
	chanKept      = "510000000000000003" // subscribed; paused only when kepbot leaves the guild
	chanOther     = "510000000000000004" // subscribed, in otherGuild
	chanNever     = "510000000000000009" // never subscribed, deleted
)

// subscribePayload is /k8s subscribe in channel of guild by a member with
// Manage Channels, as Discord sends it over the gateway.
func subscribePayload(id, guild, channel, user string, sub string) map[string]any {
	data := invocation(sub)
	return map[string]any{"id": id, "application_id": testAppID, "type": discordgo.InteractionApplicationCommand,
		"token": testInteractionToken, "guild_id": guild, "channel_id": channel, "version": 1,
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user}, "roles": []string{}, "permissions": permManageChannels},
		"data":   map[string]any{"id": "5", "name": data.Name, "type": 1, "options": data.Options}}
}

// subscriptionEngine is the real engine answering subscriptions from db.
func subscriptionEngine(db *store.DB) *engine.Engine {
	subs := db.Subscriptions()
	svc := digest.NewSubscriptions(digest.SubscriptionConfig{Store: subs, Ledger: subs, Knowledge: db.Knowledge(),
		CanManage: func(_ context.Context, o knowledge.Origin) (bool, error) { return o.CanManage, nil }})
	return engine.New(db.Knowledge(), engine.WithSubscriptions(svc))
}

// ref names a Discord channel as a subscription's key, written out here
// rather than with channelRef so that the test checks the adapter's.
func ref(guild, channel string) digest.ChannelRef {
	return digest.ChannelRef{Platform: "discord", Workspace: guild, Channel: channel}
}

// eventually waits up to 5 s for cond, failing the test with what.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 5s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// logged reports whether a log line holds msg and every field (`"k":"v"`).
func logged(logs *logBuffer, msg string, fields ...string) bool {
	for _, l := range strings.Split(logs.String(), "\n") {
		ok := strings.Contains(l, msg)
		for _, f := range fields {
			ok = ok && strings.Contains(l, f)
		}
		if ok {
			return true
		}
	}
	return false
}

// subState returns the channel's subscription state and pause reason, or
// "none" when it has none.
func subState(t *testing.T, subs *store.SubscriptionStore, ch digest.ChannelRef) (digest.SubscriptionState, string) {
	t.Helper()
	s, err := subs.FindSubscriptionByChannel(context.Background(), ch)
	if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
		return "none", ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return s.State, s.PausedReason
}

// checkStates fails the test unless each channel's subscription is in the
// state (and has the reason) want gives.
func checkStates(t *testing.T, step string, subs *store.SubscriptionStore, want map[digest.ChannelRef][2]string) {
	t.Helper()
	for ch, w := range want {
		state, reason := subState(t, subs, ch)
		if string(state) != w[0] || reason != w[1] {
			t.Errorf("after %s: %s is %s %q, want %s %q", step, ch.ID(), state, reason, w[0], w[1])
		}
	}
}

// TestCleanupPausesGoneChannels subscribes channels and a thread with
// /k8s subscribe over the fake gateway (the real engine on a bbolt file),
// then sends the events Discord sends when they go: a deleted channel or
// thread pauses its subscription with 10003, a server outage pauses
// nothing, kepbot's removal from a server pauses that server's active
// subscriptions with 50001 and no other's, and deleting a channel without
// one is harmless. The logs hold IDs, never names.
func TestCleanupPausesGoneChannels(t *testing.T) {
	db := openDB(t)
	subs := db.Subscriptions()
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	_, id := runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, subscriptionEngine(db), nil, logger, WithPauser(subs))
	if id.Intents&int(discordgo.IntentGuilds) == 0 {
		t.Errorf("Identify intents %d lack Guilds, which brings CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE", id.Intents)
	}
	f.next("PUT", "/api/v9/applications/"+testAppID+"/commands", 5*time.Second)

	for n, c := range []struct{ guild, channel string }{
		{testGuild, chanDeleted}, {testGuild, threadDeleted}, {testGuild, chanKept}, {otherGuild, chanOther},
	} {
		iid := "61000000000000000" + string(rune('1'+n))
		f.dispatch("INTERACTION_CREATE", subscribePayload(iid, c.guild, c.channel, "10"+string(rune('1'+n)), "subscribe"))
		cb := f.next("POST", "/api/v9/interactions/"+iid+"/", 5*time.Second)
		if state, _ := subState(t, subs, ref(c.guild, c.channel)); state != digest.SubscriptionActive {
			t.Fatalf("/k8s subscribe in %s/%s left it %s; answer: %s", c.guild, c.channel, state, cb.Body)
		}
	}
	want := map[digest.ChannelRef][2]string{
		ref(testGuild, chanDeleted):   {"active", ""},
		ref(testGuild, threadDeleted): {"active", ""},
		ref(testGuild, chanKept):      {"active", ""},
		ref(otherGuild, chanOther):    {"active", ""},
		ref(testGuild, chanNever):     {"none", ""},
	}

	f.dispatch("CHANNEL_DELETE", map[string]any{"id": chanNever, "guild_id": testGuild, "type": 0, "name": "never-subscribed-room"})
	eventually(t, "log of the unsubscribed channel's delete", func() bool {
		return logged(logs, "no subscription to pause", `"channel":"`+chanNever+`"`)
	})
	checkStates(t, "deleting a channel without a subscription", subs, want)

	before := time.Now()
	f.dispatch("CHANNEL_DELETE", map[string]any{"id": chanDeleted, "guild_id": testGuild, "type": 0, "name": "release-watch-room"})
	f.dispatch("THREAD_DELETE", map[string]any{"id": threadDeleted, "guild_id": testGuild, "parent_id": chanDeleted, "type": 11})
	for _, ch := range []string{chanDeleted, threadDeleted} {
		eventually(t, "pause of "+ch, func() bool {
			state, _ := subState(t, subs, ref(testGuild, ch))
			return state == digest.SubscriptionPaused
		})
		want[ref(testGuild, ch)] = [2]string{"paused", ReasonChannelGone}
	}
	checkStates(t, "CHANNEL_DELETE and THREAD_DELETE", subs, want)
	s, err := subs.FindSubscriptionByChannel(context.Background(), ref(testGuild, chanDeleted))
	if err != nil {
		t.Fatal(err)
	}
	if s.PausedAt.Before(before.Add(-time.Second)) || s.PausedAt.After(time.Now()) {
		t.Errorf("paused at %s, want the time of the event", s.PausedAt)
	}

	f.dispatch("GUILD_DELETE", map[string]any{"id": testGuild, "unavailable": true})
	eventually(t, "log of the outage", func() bool {
		return logged(logs, "server unavailable", `"guild":"`+testGuild+`"`)
	})
	checkStates(t, "GUILD_DELETE unavailable (an outage)", subs, want)

	f.dispatch("GUILD_DELETE", map[string]any{"id": testGuild})
	eventually(t, "log of the removal", func() bool {
		return logged(logs, "its subscriptions paused", `"guild":"`+testGuild+`"`)
	})
	want[ref(testGuild, chanKept)] = [2]string{"paused", ReasonRemoved}
	checkStates(t, "GUILD_DELETE (removed)", subs, want)
	if !logged(logs, "its subscriptions paused", `"guild":"`+testGuild+`"`, `"paused":1`, `"reason":"50001"`) {
		t.Errorf("removal summary does not say one subscription was paused for 50001:\n%s", logs)
	}

	// What the channel is told when asked: the code in words.
	f.dispatch("INTERACTION_CREATE", subscribePayload("619000000000000001", testGuild, chanKept, "109", "subscriptions"))
	cb := f.next("POST", "/api/v9/interactions/619000000000000001/", 5*time.Second)
	if !strings.Contains(string(cb.Body), "Missing Access") {
		t.Errorf("/k8s subscriptions in the removed server's channel does not say why it is paused: %s", cb.Body)
	}

	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, "-room") {
			t.Errorf("a log line holds a channel's name: %s", l)
		}
		if !strings.Contains(l, `"message":"discord: subscription paused"`) {
			continue
		}
		var e struct{ Guild, Channel, Reason, Event string }
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Guild == "" || e.Channel == "" || e.Reason == "" {
			t.Errorf("pause line lacks guild, channel or reason: %s", l)
		}
	}
	if n := strings.Count(logs.String(), `"message":"discord: subscription paused"`); n != 3 {
		t.Errorf("%d pauses logged, want 3 (channel, thread, the removed server's channel)", n)
	}
}

// pauseOnly is the real store seen only as a Pauser: it cannot list.
type pauseOnly struct{ p Pauser }

func (p pauseOnly) PauseSubscription(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time) error {
	return p.p.PauseSubscription(ctx, ch, reason, at)
}

// TestCleanupWithoutLister pauses a deleted channel with a Pauser that
// cannot list, and on kepbot's removal from a server says it cannot pause
// the server's channels instead of failing.
func TestCleanupWithoutLister(t *testing.T) {
	db := openDB(t)
	subs := db.Subscriptions()
	ctx := context.Background()
	for _, ch := range []string{chanDeleted, chanKept} {
		s := digest.Subscription{Platform: Platform, Workspace: testGuild, Channel: ch, CreatedBy: "101",
			Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}}
		if _, err := subs.SaveSubscription(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, testEngine(t), nil, logger, WithPauser(pauseOnly{subs}))

	f.dispatch("GUILD_DELETE", map[string]any{"id": testGuild})
	f.dispatch("CHANNEL_DELETE", map[string]any{"id": chanDeleted, "guild_id": testGuild, "type": 0})
	eventually(t, "pause of the deleted channel", func() bool {
		state, _ := subState(t, subs, ref(testGuild, chanDeleted))
		return state == digest.SubscriptionPaused
	})
	eventually(t, "log that the removal cannot be handled", func() bool {
		return logged(logs, "cannot list", `"guild":"`+testGuild+`"`, `"level":"warn"`)
	})
	checkStates(t, "GUILD_DELETE without a lister", subs, map[digest.ChannelRef][2]string{
		ref(testGuild, chanDeleted): {"paused", ReasonChannelGone},
		ref(testGuild, chanKept):    {"active", ""},
	})
}
