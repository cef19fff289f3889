package digest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// SubscriptionConfig is what Subscriptions needs.
type SubscriptionConfig struct {
	Store     SubscriptionStore
	Ledger    NoticeLedger
	Knowledge NoticeSource
	// CanManage says whether the person asking may change the channel's
	// subscription (Slack: admin, owner or allowlisted; Discord: Manage
	// Channels or Manage Server). Nil refuses every change. Anyone may list.
	CanManage func(ctx context.Context, from knowledge.Origin) (bool, error)
	// Subscribed, when set, is told of every new or changed subscription:
	// serve queues the first digest of a schedule:release subscription
	// that has one waiting (from:).
	Subscribed func(ctx context.Context, s Subscription)
	// NextRun, when set, says when a schedule's digests (weekly, daily)
	// next go out, for the confirmation; zero means it does not know.
	NextRun func(schedule string) time.Time
	Now     func() time.Time // default time.Now
}

// Subscriptions answers subscribe deprecations, unsubscribe deprecations
// and subscriptions for the channel a question came from.
type Subscriptions struct{ cfg SubscriptionConfig }

// NewSubscriptions returns Subscriptions answering from cfg.
func NewSubscriptions(cfg SubscriptionConfig) *Subscriptions {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Subscriptions{cfg: cfg}
}

// Answer answers a question of kind AskSubscribe, AskUnsubscribe or
// AskSubscriptions. It fails with EBADINPUT for a question from outside a
// channel, a bad filter, a person who may not change subscriptions or
// another kind of question; ENOTFOUND when there is nothing to unsubscribe;
// and a wrapped error when a store fails. A refused or bad request changes
// nothing.
func (s *Subscriptions) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	ch := OriginChannel(q.From)
	if ch.Platform != "slack" && ch.Platform != "discord" {
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "Subscriptions are for Slack and Discord channels; ask in the channel that should get the digests.")
	}
	if err := ch.Validate(); err != nil {
		return nil, err
	}
	var a *knowledge.Answer
	var err error
	switch q.Kind {
	case knowledge.AskSubscribe:
		a, err = s.subscribe(ctx, ch, q)
	case knowledge.AskUnsubscribe:
		a, err = s.unsubscribe(ctx, ch, q)
	case knowledge.AskSubscriptions:
		a, err = s.list(ctx, ch)
	default:
		return nil, knowledge.Errorf(knowledge.EBADINPUT, "That is not a question about subscriptions.")
	}
	if err == nil && a.Query == "" {
		a.Query = q.Canonical()
	}
	return a, err
}

// authorize refuses a change by someone the platform does not let manage
// the channel.
func (s *Subscriptions) authorize(ctx context.Context, from knowledge.Origin) error {
	ok := false
	if s.cfg.CanManage != nil {
		var err error
		if ok, err = s.cfg.CanManage(ctx, from); err != nil {
			return fmt.Errorf("check who may manage subscriptions: %w", err)
		}
	}
	if ok {
		return nil
	}
	who := "people allowed to manage this channel"
	switch from.Platform {
	case "slack":
		who = "workspace admins and owners, and people on kepbot's allowlist,"
	case "discord":
		who = "members with Manage Channels or Manage Server"
	}
	return knowledge.Errorf(knowledge.EBADINPUT, "Only %s can change this channel's subscriptions. Anyone can see them with subscriptions.", who)
}

func (s *Subscriptions) subscribe(ctx context.Context, ch ChannelRef, q knowledge.Question) (*knowledge.Answer, error) {
	if err := s.authorize(ctx, q.From); err != nil {
		return nil, err
	}
	topic := topicOf(q)
	f, err := ParseFilter(q.Filters)
	if err != nil {
		return nil, err
	}
	if topic == TopicCVEs && f.SIG != "" {
		return nil, knowledge.BadInput("subscribe", "CVE digests take no sig: filter: vulnerability records name no SIG. Subscribe to cves without it, and to deprecations with it.")
	}
	set, err := LoadNoticeSet(ctx, s.cfg.Knowledge, s.cfg.Ledger)
	if err != nil {
		return nil, err
	}
	old, err := s.cfg.Store.FindSubscriptionByChannel(ctx, ch)
	updating := err == nil
	if err != nil && knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		return nil, fmt.Errorf("find subscription: %w", err)
	}
	// Without from:, a channel hears of what is new from now on; with it,
	// of everything after that release, the first digest included. A
	// topic added to a subscription keeps the other's filters (those not
	// given again) and how far the channel has been told of it.
	fresh := uint64(0)
	if f.From.IsZero() {
		fresh = set.max
	}
	seen := Seen{Through: fresh, CVEs: fresh}
	f.Topics = []string{topic}
	if updating {
		f.Topics = WithTopics(append(topicsOf(old.Filter), topic)...)
		if !old.Filter.Has(topic) {
			f = keepFilters(f, old.Filter, q.Filters)
		}
		if topic == TopicCVEs && old.Filter.Has(TopicDeprecations) {
			seen.Through = old.Seen.Through
		}
		if topic == TopicDeprecations && old.Filter.Has(TopicCVEs) {
			seen.CVEs = old.Seen.CVEs
		}
	}
	sub, err := s.cfg.Store.SaveSubscription(ctx, Subscription{
		ID: ch.ID(), Platform: ch.Platform, Workspace: ch.Workspace, Channel: ch.Channel,
		Filter: f, CreatedBy: q.From.User, CreatedByName: q.From.UserName, CreatedAt: s.cfg.Now().UTC(),
		State: SubscriptionActive, Seen: seen,
	})
	if err != nil {
		return nil, fmt.Errorf("save subscription: %w", err)
	}
	if s.cfg.Subscribed != nil {
		s.cfg.Subscribed(ctx, *sub)
	}
	a := &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Subscribed to " + topicWords(topic) + " digests"}
	if updating {
		a.Title = "Subscription updated"
	}
	a.Text = "This channel will get " + scheduleWords(f) + "."
	a.Facts = subscriptionFacts(sub)
	if d, _, ok := BuildDigest(set, f, seen, ""); ok {
		first := digestContent(d)
		if f.Schedule == ScheduleRelease && s.cfg.Subscribed != nil {
			a.Text += " The first digest, with " + first + ", is on its way."
		} else {
			a.Text += " The first digest will hold " + first + s.when(f.Schedule) + "."
		}
	} else {
		a.Text += " Nothing new is waiting now: the first digest comes when there is."
	}
	a.Notes = []string{"Stop them with " + unsubscribeWords(f) + "; see them with subscriptions."}
	return a, nil
}

// topicOf is the topic a subscribe or unsubscribe question names:
// deprecations unless it names cves.
func topicOf(q knowledge.Question) string {
	if q.Words == TopicCVEs {
		return TopicCVEs
	}
	return TopicDeprecations
}

// topicsOf are f's topics, deprecations when it names none.
func topicsOf(f Filter) []string {
	if len(f.Topics) == 0 {
		return []string{TopicDeprecations}
	}
	return f.Topics
}

// keepFilters gives f, for a topic added to a subscription, old's filters
// that the question did not give.
func keepFilters(f, old Filter, given map[string]string) Filter {
	has := func(k string) bool {
		for g := range given {
			if strings.EqualFold(strings.TrimSpace(g), k) {
				return true
			}
		}
		return false
	}
	if !has("sig") {
		f.SIG = old.SIG
	}
	if !has("from") {
		f.From = old.From
	}
	if !has("schedule") {
		f.Schedule = old.Schedule
	}
	if !has("format") {
		f.Format = old.Format
	}
	return f
}

// digestContent says what a digest holds: "3 notices from 1.31 and 2
// vulnerability records".
func digestContent(d Digest) string {
	var parts []string
	if d.Count() > 0 {
		parts = append(parts, fmt.Sprintf("%s from %s", knowledge.Plural(d.Count(), "notice", "notices"), releaseSpan(d.Groups)))
	}
	if len(d.Vulns) > 0 {
		parts = append(parts, knowledge.Plural(len(d.Vulns), "vulnerability record", "vulnerability records"))
	}
	return strings.Join(parts, " and ")
}

func (s *Subscriptions) unsubscribe(ctx context.Context, ch ChannelRef, q knowledge.Question) (*knowledge.Answer, error) {
	if err := s.authorize(ctx, q.From); err != nil {
		return nil, err
	}
	topic := topicOf(q)
	old, err := s.cfg.Store.FindSubscriptionByChannel(ctx, ch)
	switch {
	case knowledge.ErrorCode(err) == knowledge.ENOTFOUND || err == nil && !old.Filter.Has(topic):
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no %s digest subscription, so there is nothing to stop.", topicWords(topic))
	case err != nil:
		return nil, fmt.Errorf("find subscription: %w", err)
	}
	var rest []string
	for _, t := range topicsOf(old.Filter) {
		if t != topic {
			rest = append(rest, t)
		}
	}
	if len(rest) > 0 {
		// The other topic stays, with its filters and what it was told.
		keep := *old
		keep.Filter.Topics = rest
		if _, err := s.cfg.Store.SaveSubscription(ctx, keep); err != nil {
			return nil, fmt.Errorf("save subscription: %w", err)
		}
		return &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Unsubscribed from " + topicWords(topic) + " digests",
			Text: "This channel will get no more " + topicWords(topic) + " digests; it still gets " + topicWords(rest[0]) + " digests."}, nil
	}
	if err := s.cfg.Store.DeleteSubscription(ctx, ch); err != nil {
		if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
			return nil, knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no %s digest subscription, so there is nothing to stop.", topicWords(topic))
		}
		return nil, fmt.Errorf("delete subscription: %w", err)
	}
	return &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Unsubscribed",
		Text: "This channel will get no more " + topicWords(topic) + " digests; any not yet posted are dropped."}, nil
}

func (s *Subscriptions) list(ctx context.Context, ch ChannelRef) (*knowledge.Answer, error) {
	sub, err := s.cfg.Store.FindSubscriptionByChannel(ctx, ch)
	if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
		return &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "No subscriptions",
			Text: "This channel has no subscriptions. Subscribe it with subscribe deprecations; help subscribe tells the filters."}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find subscription: %w", err)
	}
	a := &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "This channel's subscriptions",
		Text: capitalize(topicList(sub.Filter)) + " digests: " + scheduleWords(sub.Filter) + "."}
	if !sub.Active() {
		a.Text = capitalize(topicList(sub.Filter)) + " digests are paused: " + PauseReasonText(sub.PausedReason) + ". Subscribe again to resume them."
	}
	a.Facts = subscriptionFacts(sub)
	return a, nil
}

// subscriptionFacts lists what subscriptions shows: filters, who and when,
// state, and the last digest.
func subscriptionFacts(s *Subscription) []knowledge.Fact {
	f := s.Filter
	sig, from := "every SIG", "every release"
	if f.SIG != "" {
		sig = "SIG " + f.SIG
	}
	if !f.From.IsZero() {
		from = "after " + f.From.String()
	}
	who := knowledge.Short(s.CreatedByName)
	if who == "" {
		who = knowledge.Short(s.CreatedBy)
	}
	state := string(s.State)
	if !s.Active() {
		state = fmt.Sprintf("paused since %s: %s", day(s.PausedAt), PauseReasonText(s.PausedReason))
	}
	last := "none yet"
	if !s.LastDeliveredAt.IsZero() {
		last = "posted " + s.LastDeliveredAt.UTC().Format("2006-01-02 15:04 UTC")
	} else if !s.LastDigestAt.IsZero() {
		last = "queued " + s.LastDigestAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	return []knowledge.Fact{
		{Name: "Topics", Value: topicList(f)},
		{Name: "Filters", Value: f.String()},
		{Name: "SIG", Value: sig},
		{Name: "Releases", Value: from},
		{Name: "Schedule", Value: f.Schedule},
		{Name: "Format", Value: f.Format},
		{Name: "Subscribed by", Value: strings.TrimSpace(who + " on " + day(s.CreatedAt))},
		{Name: "State", Value: state},
		{Name: "Last digest", Value: last},
	}
}

// when says when the schedule's next digests go out (" and goes out
// Monday 2026-11-23 09:00 UTC"), or "" when that is not known.
func (s *Subscriptions) when(schedule string) string {
	if s.cfg.NextRun == nil || schedule == ScheduleRelease {
		return ""
	}
	t := s.cfg.NextRun(schedule)
	if t.IsZero() {
		return ""
	}
	return " and goes out " + t.UTC().Format("Monday 2006-01-02 15:04 UTC")
}

func day(t time.Time) string {
	if t.IsZero() {
		return "an unknown day"
	}
	return t.UTC().Format("2006-01-02")
}

// scheduleWords says what a subscription with filter f gets, and when.
func scheduleWords(f Filter) string {
	what := "new deprecations and removals"
	switch {
	case f.Has(TopicCVEs) && f.Has(TopicDeprecations):
		what = "new deprecations and removals, and new vulnerability records (CVEs) of Kubernetes that affect a supported release"
	case f.Has(TopicCVEs):
		what = "new vulnerability records (CVEs) of Kubernetes that affect a supported release"
	}
	switch f.Schedule {
	case ScheduleWeekly:
		return "a weekly digest of " + what
	case ScheduleDaily:
		return "a daily digest of " + what
	}
	if f.Has(TopicCVEs) {
		return "a digest of " + what + " whenever new release data or records arrive"
	}
	return "a digest of " + what + " whenever new release data arrives"
}

// topicWords names a topic in a sentence: deprecation, CVE.
func topicWords(topic string) string {
	if topic == TopicCVEs {
		return "CVE"
	}
	return "deprecation"
}

// topicList names f's topics: "deprecation", "deprecation and CVE".
func topicList(f Filter) string {
	var parts []string
	for _, t := range topicsOf(f) {
		parts = append(parts, topicWords(t))
	}
	return strings.Join(parts, " and ")
}

// unsubscribeWords are the questions that stop f's digests.
func unsubscribeWords(f Filter) string {
	var parts []string
	for _, t := range topicsOf(f) {
		parts = append(parts, "unsubscribe "+t)
	}
	return strings.Join(parts, " and ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// pauseReasons say in words why platforms refuse a channel for good.
var pauseReasons = map[string]string{
	"channel_not_found": "Slack cannot find the channel (deleted, or private without kepbot)",
	"not_in_channel":    "kepbot is not in the channel",
	"is_archived":       "the channel is archived",
	"account_inactive":  "kepbot's Slack account is inactive",
	"token_revoked":     "kepbot's access to the workspace was revoked",
	"10003":             "Discord does not know the channel (Unknown Channel)",
	"10004":             "Discord does not know the server (Unknown Guild)",
	"50001":             "kepbot has no access to the channel (Missing Access)",
	"50013":             "kepbot lacks the permission to post there (Missing Permissions)",
}

// PauseReasonText says why a subscription is paused, from the reason the
// platform gave ("channel_not_found", "50013").
func PauseReasonText(reason string) string {
	if t, ok := pauseReasons[reason]; ok {
		return t + " (" + reason + ")"
	}
	if r := knowledge.Short(reason); r != "" {
		return r
	}
	return "posting failed for good"
}

// releaseSpan writes "1.31" or "1.29 to 1.32".
func releaseSpan(gs []DigestGroup) string {
	first, last := gs[0].Release, gs[len(gs)-1].Release
	if first == last {
		return first.String()
	}
	return first.String() + " to " + last.String()
}

// RenderDigest turns d into the Answer adapters post: kind list, the
// notices in release order, a count per release as facts. The compact
// format leaves out the documents' words; full quotes them.
func RenderDigest(d *Digest, format string) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: d.Title, Query: "subscriptions"}
	var all [3]int // deprecations, removals, API versions removed
	for _, g := range d.Groups {
		var n [3]int
		for _, it := range g.Items {
			if format == FormatFull {
				it.Text = knowledge.Quote(it.Text, 400)
			} else {
				it.Text = ""
			}
			a.Notices = append(a.Notices, it)
			switch {
			case it.Kind != knowledge.NoticeRemoval:
				n[0]++
			case it.API != nil:
				n[1]++
				n[2]++
			default:
				n[1]++
			}
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: g.Release.String(), Value: countWords(n)})
		for i := range all {
			all[i] += n[i]
		}
	}
	var news []string
	if len(d.Groups) > 0 {
		news = append(news, countWords(all)+" in Kubernetes "+releaseSpan(d.Groups))
	}
	stop := "unsubscribe deprecations"
	if len(d.Vulns) > 0 {
		news = append(news, knowledge.Plural(len(d.Vulns), "vulnerability record", "vulnerability records")+" of Kubernetes affecting a supported release (Go vulnerability database)")
		a.Facts = append(a.Facts, vulnFacts(d.Vulns)...)
		a.CVEs = vulnItems(d.Vulns)
		stop = "unsubscribe cves"
		if len(d.Groups) > 0 {
			stop = "unsubscribe deprecations or unsubscribe cves"
		}
	}
	if len(news) > 0 {
		a.Text = "New since this channel's last digest: " + strings.Join(news, "; ") + "."
	}
	a.Notes = []string{"Stop these digests with " + stop + "; see the filters with subscriptions."}
	return a
}

// countWords writes "2 deprecations and 3 removals (1 API version)".
func countWords(n [3]int) string {
	var parts []string
	if n[0] > 0 {
		parts = append(parts, knowledge.Plural(n[0], "deprecation", "deprecations"))
	}
	if n[1] > 0 {
		parts = append(parts, knowledge.Plural(n[1], "removal", "removals"))
	}
	s := strings.Join(parts, " and ")
	if n[2] > 0 {
		s += " (" + knowledge.Plural(n[2], "API version", "API versions") + " no longer served)"
	}
	return s
}

// SplitAnswer cuts a into messages that each fit, as fits (the adapter's
// renderer against its platform's limits) says: the notices in order, as
// many to a message as fit, never none. The first message keeps the
// summary and facts, the last the notes; titles get "(2/3)". A nil fits, or
// an answer that fits whole, gives a alone. A single notice too big for a
// message goes alone, for the adapter to cut.
func SplitAnswer(a *knowledge.Answer, fits func(*knowledge.Answer) bool) []*knowledge.Answer {
	if fits == nil || fits(a) || len(a.Notices) < 2 {
		return []*knowledge.Answer{a}
	}
	part := func(first bool, ns []knowledge.Notice) *knowledge.Answer {
		p := &knowledge.Answer{Kind: a.Kind, Title: a.Title + " (99/99)", Query: a.Query, Notices: ns}
		if first {
			p.Text, p.Facts = a.Text, a.Facts
		}
		return p
	}
	var parts []*knowledge.Answer
	start := 0
	for i := 1; i < len(a.Notices); i++ {
		if !fits(part(start == 0, a.Notices[start:i+1:i+1])) {
			parts = append(parts, part(start == 0, a.Notices[start:i:i]))
			start = i
		}
	}
	parts = append(parts, part(start == 0, a.Notices[start:len(a.Notices):len(a.Notices)]))
	parts[len(parts)-1].Notes = a.Notes
	for i, p := range parts {
		p.Title = fmt.Sprintf("%s (%d/%d)", a.Title, i+1, len(parts))
	}
	return parts
}
