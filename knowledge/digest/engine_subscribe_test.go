package digest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
)

// subKnowledge is made-up knowledge with notices in three releases.
func subKnowledge() *knowledge.Knowledge {
	v := knowledge.MustVersion
	rel := func(ver string, ns ...knowledge.Notice) knowledge.ReleaseRecord {
		for i := range ns {
			ns[i].Release, ns[i].Source = v(ver), "notes-"+ver
		}
		return knowledge.ReleaseRecord{Release: knowledge.Release{Version: v(ver)}, Notices: ns}
	}
	return &knowledge.Knowledge{
		Releases: []knowledge.ReleaseRecord{
			rel("1.40", knowledge.Notice{Kind: knowledge.NoticeRemoval, KEP: 9002, Title: "KEP-9002"}),
			rel("1.41", knowledge.Notice{Kind: knowledge.NoticeDeprecation, KEP: 9001, Title: "KEP-9001"}),
			rel("1.42", knowledge.Notice{Kind: knowledge.NoticeRemoval, Title: "Gadget v1beta1",
				API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}}),
		},
		KEPs: []knowledge.KEP{{Number: 9001, Title: "Sprockets", SIG: "sig-network"}, {Number: 9002, Title: "Cogs", SIG: "sig-storage"}},
	}
}

// roles says who may manage subscriptions in the tests, by user ID, as
// the adapters will decide it from the platform.
var roles = map[string]bool{"admin": true, "owner": true, "allowlisted": true, "manager": true}

type subFixture struct {
	db   *store.DB
	subs *digest.Subscriptions
	told []digest.Subscription
}

func newSubFixture(t *testing.T) *subFixture {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), subKnowledge()); err != nil {
		t.Fatal(err)
	}
	f := &subFixture{db: db}
	f.subs = digest.NewSubscriptions(digest.SubscriptionConfig{
		Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge(),
		CanManage:  func(_ context.Context, o knowledge.Origin) (bool, error) { return roles[o.User], nil },
		Subscribed: func(_ context.Context, s digest.Subscription) { f.told = append(f.told, s) },
		Now:        func() time.Time { return time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) },
	})
	return f
}

func (f *subFixture) ask(t *testing.T, text string, from knowledge.Origin) (*knowledge.Answer, error) {
	t.Helper()
	q, err := question.Parse(text)
	if err != nil {
		return nil, err
	}
	q.From = from
	return f.subs.Answer(context.Background(), q)
}

func slackUser(user string) knowledge.Origin {
	return knowledge.Origin{Platform: "slack", Workspace: "T1", Channel: "C1", User: user, UserName: user + " name"}
}

func TestSubscribeNeedsPermission(t *testing.T) {
	tests := []struct {
		from    knowledge.Origin
		allowed bool
		says    string
	}{
		{slackUser("guest"), false, "workspace admins and owners"},
		{slackUser("member"), false, "workspace admins and owners"},
		{slackUser("admin"), true, ""},
		{slackUser("owner"), true, ""},
		{slackUser("allowlisted"), true, ""},
		{knowledge.Origin{Platform: "discord", Workspace: "G", Channel: "7", User: "member"}, false, "Manage Channels or Manage Server"},
		{knowledge.Origin{Platform: "discord", Workspace: "G", Channel: "7", User: "manager"}, true, ""},
		{knowledge.Origin{Platform: "console", Channel: "cli", User: "admin"}, false, "Slack and Discord channels"},
		{knowledge.Origin{Platform: "discord", User: "manager"}, false, "Slack and Discord channels"}, // a DM: no channel
	}
	for _, tt := range tests {
		for _, q := range []string{"subscribe deprecations", "unsubscribe deprecations"} {
			f := newSubFixture(t)
			if q == "unsubscribe deprecations" && tt.from.Channel != "" && tt.from.Platform != "console" {
				seed := tt.from
				seed.User = "admin"
				if _, err := f.ask(t, "subscribe deprecations sig:network", seed); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := f.db.Subscriptions().ListSubscriptions(context.Background())
			a, err := f.ask(t, q, tt.from)
			after, _ := f.db.Subscriptions().ListSubscriptions(context.Background())
			if tt.allowed {
				if err != nil || a.Kind != knowledge.KindSubscription {
					t.Errorf("%s by %s/%s: %v", q, tt.from.Platform, tt.from.User, err)
				}
				continue
			}
			if knowledge.ErrorCode(err) != knowledge.EBADINPUT || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("%s by %s/%s: %v; want a refusal naming %q", q, tt.from.Platform, tt.from.User, err, tt.says)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("%s by %s/%s changed state (-before +after):\n%s", q, tt.from.Platform, tt.from.User, diff)
			}
		}
	}
}

func TestSubscribeWithoutPermissionCheckRefusesEveryone(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	subs := digest.NewSubscriptions(digest.SubscriptionConfig{Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge()})
	_, err = subs.Answer(context.Background(), knowledge.Question{Kind: knowledge.AskSubscribe, From: slackUser("owner")})
	if knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("no CanManage: %v, want a refusal", err)
	}
	a, err := subs.Answer(context.Background(), knowledge.Question{Kind: knowledge.AskSubscriptions, From: slackUser("guest")})
	if err != nil || a.Title != "No subscriptions" {
		t.Errorf("anyone may list: %+v, %v", a, err)
	}
}

func TestSubscribeRefusesBadFiltersAndStoresNothing(t *testing.T) {
	f := newSubFixture(t)
	for _, filters := range []map[string]string{{"from": "abc"}, {"schedule": "hourly"}, {"format": "huge"}, {"colour": "red"}} {
		q := knowledge.Question{Kind: knowledge.AskSubscribe, Filters: filters, From: slackUser("admin")}
		_, err := f.subs.Answer(context.Background(), q)
		if knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("%v: %v, want EBADINPUT", filters, err)
		}
	}
	if all, _ := f.db.Subscriptions().ListSubscriptions(context.Background()); len(all) != 0 {
		t.Errorf("bad filters stored %+v", all)
	}
	if len(f.told) != 0 {
		t.Errorf("bad filters told serve of %d subscriptions", len(f.told))
	}
}

func TestSubscribeListUnsubscribe(t *testing.T) {
	ctx := context.Background()
	f := newSubFixture(t)
	admin := slackUser("admin")

	a, err := f.ask(t, "subscribe deprecations", admin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Text, "Nothing new is waiting") {
		t.Errorf("subscribed without from: %q; want nothing waiting (only news from now on)", a.Text)
	}
	sub, _ := f.db.Subscriptions().FindSubscriptionByChannel(ctx, digest.OriginChannel(admin))
	if sub.Seen.Through != 3 || sub.CreatedByName != "admin name" || sub.Filter.Schedule != "release" {
		t.Errorf("stored %+v; want Seen through the 3 known notices", sub)
	}

	a, err = f.ask(t, "subscribe deprecations from:1.40 sig:network schedule:weekly format:full", admin)
	if err != nil {
		t.Fatal(err)
	}
	if a.Title != "Subscription updated" || !strings.Contains(a.Text, "The first digest will hold 1 notice from 1.41") {
		t.Errorf("updated: %q / %q", a.Title, a.Text)
	}
	if len(f.told) != 2 || f.told[1].Filter.Schedule != "weekly" {
		t.Errorf("serve told of %+v", f.told)
	}

	a, err = f.ask(t, "subscriptions", slackUser("guest"))
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{}
	for _, x := range a.Facts {
		facts[x.Name] = x.Value
	}
	want := map[string]string{
		"Filters": "sig:network from:1.40 schedule:weekly format:full", "SIG": "SIG network", "Releases": "after 1.40",
		"Schedule": "weekly", "Format": "full", "Subscribed by": "admin name on 2026-11-23", "State": "active", "Last digest": "none yet",
		"Topics": "deprecation",
	}
	if diff := cmp.Diff(want, facts); diff != "" {
		t.Errorf("subscriptions facts (-want +got):\n%s", diff)
	}

	if err := f.db.Subscriptions().PauseSubscription(ctx, digest.OriginChannel(admin), "channel_not_found", time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	a, _ = f.ask(t, "subscriptions", slackUser("guest"))
	if !strings.Contains(a.Text, "paused") || !strings.Contains(a.Text, "channel_not_found") {
		t.Errorf("paused subscription shows %q", a.Text)
	}

	if _, err := f.ask(t, "unsubscribe deprecations", admin); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ask(t, "unsubscribe deprecations", admin); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("second unsubscribe: %v, want ENOTFOUND", err)
	}
	if a, _ := f.ask(t, "subscriptions", admin); a.Title != "No subscriptions" {
		t.Errorf("after unsubscribe: %q", a.Title)
	}
}

func TestSubscriptionAnswersNeverEchoMarkup(t *testing.T) {
	f := newSubFixture(t)
	from := slackUser("admin")
	from.UserName = "<!channel> @everyone"
	if _, err := f.ask(t, "subscribe deprecations", from); err != nil {
		t.Fatal(err)
	}
	a, _ := f.ask(t, "subscriptions", from)
	for _, x := range a.Facts {
		if strings.ContainsAny(x.Value, "<>@!") {
			t.Errorf("fact %s = %q carries markup", x.Name, x.Value)
		}
	}
}

func TestChangesSubscription(t *testing.T) {
	for text, want := range map[string]bool{
		"subscribe deprecations sig:network": true, "unsubscribe deprecations": true, "  Subscribe   deprecations ": true,
		"subscriptions": false, "kep 4639": false, "subscribe": false, "subscribe deprecations schedule:hourly": false,
	} {
		if got := question.ChangesSubscription(text); got != want {
			t.Errorf("ChangesSubscription(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestSubscribeSaysWhenTheFirstDigestGoesOut: a weekly or daily
// subscription's confirmation names the next run; release ones go at once.
func TestSubscribeSaysWhenTheFirstDigestGoesOut(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), subKnowledge()); err != nil {
		t.Fatal(err)
	}
	next := map[string]time.Time{
		digest.ScheduleWeekly: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
		digest.ScheduleDaily:  time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC),
	}
	subs := digest.NewSubscriptions(digest.SubscriptionConfig{
		Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge(),
		CanManage:  func(context.Context, knowledge.Origin) (bool, error) { return true, nil },
		Subscribed: func(context.Context, digest.Subscription) {},
		NextRun:    func(s string) time.Time { return next[s] },
	})
	for text, want := range map[string]string{
		"subscribe deprecations from:1.39 schedule:weekly": "The first digest will hold 3 notices from 1.40 to 1.42 and goes out Monday 2026-11-30 09:00 UTC.",
		"subscribe deprecations from:1.39 schedule:daily":  "The first digest will hold 3 notices from 1.40 to 1.42 and goes out Tuesday 2026-11-24 09:00 UTC.",
		"subscribe deprecations from:1.39":                 "The first digest, with 3 notices from 1.40 to 1.42, is on its way.",
	} {
		q, err := question.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		q.From = slackUser("admin")
		a, err := subs.Answer(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if !strings.HasSuffix(a.Text, want) {
			t.Errorf("%s:\n got %q\nwant it to end %q", text, a.Text, want)
		}
	}
}
