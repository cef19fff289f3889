package digest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Schedules say when a subscription's digests go out.
const (
	ScheduleRelease = "release" // when new knowledge lands (an ingest or sync adds notices); the default
	ScheduleWeekly  = "weekly"  // once a week, Monday 09:00 UTC unless configured
	ScheduleDaily   = "daily"   // once a day, 09:00 UTC unless configured
)

// Formats say how much of each notice a digest shows.
const (
	FormatCompact = "compact" // title, release, KEP, gates and API; the default
	FormatFull    = "full"    // and the documents' own words
)

// SubscriptionState says whether a subscription gets digests.
type SubscriptionState string

// The states of a subscription.
const (
	SubscriptionActive SubscriptionState = "active"
	// SubscriptionPaused: delivery failed for good (the channel is gone or
	// the bot was removed); PausedReason says why. Subscribing again resumes.
	SubscriptionPaused SubscriptionState = "paused"
)

// Filter is what a subscription asks for: the notices of one SIG (or all),
// in the releases after From (or all), on a schedule, in a format; and of
// what: deprecations, vulnerability records, or both (Topics).
type Filter struct {
	SIG      string            `json:"sig,omitempty"` // "network", without "sig-"; "" is every SIG
	From     knowledge.Version `json:"from,omitzero"` // only releases after this one; zero is every release
	Schedule string            `json:"schedule"`      // ScheduleRelease, ScheduleWeekly or ScheduleDaily
	Format   string            `json:"format"`        // FormatCompact or FormatFull
	// Topics are what the digests hold (TopicDeprecations, TopicCVEs), in
	// that order; none is deprecations alone, as every subscription made
	// before topics was.
	Topics []string `json:"topics,omitempty"`
}

// The topics of a subscription's digests.
const (
	TopicDeprecations = "deprecations" // deprecations and removals (API removals among them)
	TopicCVEs         = "cves"         // new vulnerability records of Kubernetes that affect a supported release
)

// Has reports whether f's digests hold topic.
func (f Filter) Has(topic string) bool {
	if len(f.Topics) == 0 {
		return topic == TopicDeprecations
	}
	return contains(f.Topics, topic)
}

// WithTopics returns topics in their order (deprecations, cves), each
// once; none gives none.
func WithTopics(topics ...string) []string {
	var out []string
	for _, t := range []string{TopicDeprecations, TopicCVEs} {
		if contains(topics, t) {
			out = append(out, t)
		}
	}
	return out
}

// ParseFilter reads subscribe filters as the parser or an adapter's
// options give them (keys sig, from, schedule, format) and fills the
// defaults: schedule release, format compact. It fails with EBADINPUT
// naming the filter and the values it allows (from:abc, schedule:hourly).
func ParseFilter(m map[string]string) (Filter, error) {
	f := Filter{Schedule: ScheduleRelease, Format: FormatCompact}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same input always fails on the same filter
	for _, k := range keys {
		lk := strings.ToLower(strings.TrimSpace(k))
		if !contains(filterKeys, lk) {
			return Filter{}, knowledge.BadInput("subscribe", "I don't know the filter %q; the filters are sig, from, schedule and format.", knowledge.Echo(k))
		}
		v := strings.TrimSpace(m[k])
		if v == "" {
			return Filter{}, knowledge.BadInput("subscribe", "The filter %s: needs a value.", lk)
		}
		val, err := filterValue(lk, v)
		if err != nil {
			return Filter{}, err
		}
		switch lk {
		case "sig":
			f.SIG = val
		case "from":
			if f.From, err = knowledge.ParseVersion(val); err != nil {
				return Filter{}, knowledge.BadInput("subscribe", "from:%s is not a release; use one like from:1.29.", knowledge.Echo(v))
			}
		case "schedule":
			f.Schedule = val
		case "format":
			f.Format = val
		}
	}
	return f, nil
}

// String writes f as the filters of a subscribe command, defaults included:
// "sig:network from:1.29 schedule:weekly format:full".
func (f Filter) String() string {
	var parts []string
	if f.SIG != "" {
		parts = append(parts, "sig:"+f.SIG)
	}
	if !f.From.IsZero() {
		parts = append(parts, "from:"+f.From.String())
	}
	parts = append(parts, "schedule:"+f.Schedule, "format:"+f.Format)
	return strings.Join(parts, " ")
}

// ChannelRef names one chat channel: the platform ("slack", "discord"),
// the workspace (Slack team ID, Discord guild ID) and the channel ID.
type ChannelRef struct {
	Platform  string `json:"platform"`
	Workspace string `json:"workspace,omitempty"`
	Channel   string `json:"channel"`
}

// ID is the channel's key: "slack/T01/C0123". A channel has at most one
// subscription, so this is also its subscription's ID.
func (c ChannelRef) ID() string { return c.Platform + "/" + c.Workspace + "/" + c.Channel }

// Validate fails with EBADINPUT when c cannot name a channel: no platform
// or channel, or a part holding "/" or a control character.
func (c ChannelRef) Validate() error {
	if c.Platform == "" || c.Channel == "" {
		return knowledge.Errorf(knowledge.EBADINPUT, "Subscriptions are for Slack and Discord channels; ask in the channel that should get the digests.")
	}
	for _, p := range []string{c.Platform, c.Workspace, c.Channel} {
		if len(p) > 64 || strings.ContainsFunc(p, func(r rune) bool { return r == '/' || r < ' ' || r == 0x7f }) {
			return knowledge.Errorf(knowledge.EBADINPUT, "That channel name cannot hold a subscription.")
		}
	}
	return nil
}

// OriginChannel is the channel a question came from.
func OriginChannel(o knowledge.Origin) ChannelRef {
	return ChannelRef{Platform: o.Platform, Workspace: o.Workspace, Channel: o.Channel}
}

// Seen is how far a subscription has been told: every notice whose
// NoticeLedger sequence is at most Through was delivered to it, or was
// already known when it subscribed without from:; CVEs is the same for
// vulnerability records, which the ledger numbers too (a channel that
// adds them to its deprecations starts their count apart).
type Seen struct {
	Through uint64 `json:"through"`
	CVEs    uint64 `json:"cves,omitempty"`
}

// Behind reports whether s has been told less than o of either topic.
func (s Seen) Behind(o Seen) bool { return s.Through < o.Through || s.CVEs < o.CVEs }

// CatchUp moves s to o where o is further.
func (s *Seen) CatchUp(o Seen) {
	s.Through, s.CVEs = max(s.Through, o.Through), max(s.CVEs, o.CVEs)
}

// Subscription is one channel's order for deprecation digests.
type Subscription struct {
	ID            string            `json:"id"` // ChannelRef.ID
	Platform      string            `json:"platform"`
	Workspace     string            `json:"workspace,omitempty"`
	Channel       string            `json:"channel"`
	Filter        Filter            `json:"filter"`
	CreatedBy     string            `json:"created_by"` // the platform's user ID
	CreatedByName string            `json:"created_by_name,omitempty"`
	CreatedAt     time.Time         `json:"created_at"`
	State         SubscriptionState `json:"state"`
	PausedReason  string            `json:"paused_reason,omitempty"` // e.g. "channel_not_found"
	PausedAt      time.Time         `json:"paused_at,omitzero"`
	LastDigestAt  time.Time         `json:"last_digest_at,omitzero"` // when the last digest was queued
	LastDigestID  string            `json:"last_digest_id,omitempty"`
	// LastDeliveredAt is when the last digest's last message was posted.
	LastDeliveredAt time.Time `json:"last_delivered_at,omitzero"`
	Seen            Seen      `json:"seen"`
	// Rev counts the changes to this subscription. A digest is built from
	// one Rev and queued only if the subscription is still at it, so two
	// triggers racing cannot both advance Seen.
	Rev uint64 `json:"rev"`
}

// Ref returns the channel s is for.
func (s *Subscription) Ref() ChannelRef {
	return ChannelRef{Platform: s.Platform, Workspace: s.Workspace, Channel: s.Channel}
}

// ChannelsNamed returns the channels of subs that id names (a channel ID,
// or platform/workspace/channel), only on platform when it is set.
func ChannelsNamed(subs []Subscription, id, platform string) []ChannelRef {
	var found []ChannelRef
	for i := range subs {
		ref := subs[i].Ref()
		if (ref.Channel == id || ref.ID() == id) && (platform == "" || ref.Platform == platform) {
			found = append(found, ref)
		}
	}
	return found
}

// Active reports whether s gets digests.
func (s *Subscription) Active() bool { return s.State == SubscriptionActive }

// PrepareSave readies s to be saved, or fails with EBADINPUT: its channel
// must be valid, its schedule and format known, and it active (an empty
// State is active; a pause goes through PauseSubscription). Its ID becomes
// its channel's. Every SubscriptionStore calls it before writing.
func (s *Subscription) PrepareSave() error {
	ref := s.Ref()
	if err := ref.Validate(); err != nil {
		return err
	}
	if s.State == "" {
		s.State = SubscriptionActive
	}
	f := s.Filter
	switch {
	case f.Schedule != ScheduleRelease && f.Schedule != ScheduleWeekly && f.Schedule != ScheduleDaily:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription's schedule must be release, weekly or daily, not %q.", f.Schedule)
	case f.Format != FormatCompact && f.Format != FormatFull:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription's format must be compact or full, not %q.", f.Format)
	case s.State != SubscriptionActive:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription is saved active; pause it with PauseSubscription.")
	}
	s.ID = ref.ID()
	return nil
}

// Replace makes s, ready to save, the subscription in place of old (nil
// when the channel had none): old's delivery history stays, Rev moves on
// past old's, and s is not paused.
func (s *Subscription) Replace(old *Subscription) {
	if old != nil {
		s.Rev = old.Rev
		s.LastDigestAt, s.LastDigestID, s.LastDeliveredAt = old.LastDigestAt, old.LastDigestID, old.LastDeliveredAt
	}
	s.Rev++
	s.PausedReason, s.PausedAt = "", time.Time{}
}

// Pause stops digests to s for reason, from at; Rev moves on.
func (s *Subscription) Pause(reason string, at time.Time) {
	s.State, s.PausedReason, s.PausedAt = SubscriptionPaused, reason, at.UTC()
	s.Rev++
}

// SubscriptionStore keeps subscriptions, at most one per channel. The store
// package implements it over bbolt. Misses are *Error with code ENOTFOUND.
type SubscriptionStore interface {
	// SaveSubscription creates the channel's subscription, or replaces it
	// (filter, who, when, Seen) and makes it active again. It returns what
	// was stored, with ID and Rev set.
	SaveSubscription(ctx context.Context, s Subscription) (*Subscription, error)
	// DeleteSubscription removes the channel's subscription; digests not yet
	// posted to it are not posted.
	DeleteSubscription(ctx context.Context, ch ChannelRef) error
	// FindSubscriptionByChannel returns the channel's subscription.
	FindSubscriptionByChannel(ctx context.Context, ch ChannelRef) (*Subscription, error)
	// ListSubscriptions returns every subscription, by ID.
	ListSubscriptions(ctx context.Context) ([]Subscription, error)
	// PauseSubscription stops digests to the channel and records why.
	PauseSubscription(ctx context.Context, ch ChannelRef, reason string, at time.Time) error
}

// NoticeLedger numbers notices in the order kepbot first saw them, so that
// a subscription's Seen is one number however many notices it was told.
type NoticeLedger interface {
	// ObserveNotices numbers each digest item by its identity, in the order
	// given, and returns one NoticeSeq per identity:
	//
	//   - an item some of whose aliases the ledger knows takes the smallest
	//     sequence among them, and its other aliases are recorded with it;
	//   - an item none of whose aliases it knows takes the next sequence,
	//     recorded for every alias;
	//   - Legacy keys (the NoticeKey of kepbot before aliases) count as
	//     aliases the ledger may hold from then, and are never recorded;
	//     LegacyAtUpgrade keys count the same, but only until the ledger
	//     has numbered its first identities.
	//
	// Observing the same identities again changes nothing.
	ObserveNotices(ctx context.Context, ids []NoticeIdentity) ([]NoticeSeq, error)
}

// NoticeIdentity is what a NoticeLedger knows one digest item by.
type NoticeIdentity struct {
	// Aliases are the names its notices' documents give them (see
	// NoticeAliases), sorted, each once.
	Aliases []string `json:"aliases"`
	// Legacy are the keys older kepbots numbered its notices by, so that a
	// ledger they wrote still knows what it delivered. No alias is ever
	// one of them.
	Legacy []string `json:"legacy,omitempty"`
	// LegacyAtUpgrade are old keys that other items share (a release-note
	// entry's was its KEP): they can say what was delivered before the
	// upgrade, but would hide a new entry about the same KEP after it.
	LegacyAtUpgrade []string `json:"legacy_at_upgrade,omitempty"`
}

// NoticeSeq is where an item stands in a NoticeLedger: First is its
// sequence (the smallest of its aliases'); Last the largest any of its
// aliases holds. A subscription told the item has seen through Last.
type NoticeSeq struct {
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
}

// Join is the span of s and o; a zero First is no span.
func (s NoticeSeq) Join(o NoticeSeq) NoticeSeq {
	switch {
	case s.First == 0:
		return o
	case o.First == 0:
		return s
	}
	return NoticeSeq{First: min(s.First, o.First), Last: max(s.Last, o.Last)}
}

// DeliveryState is where a delivery stands. It moves pending → sending →
// sent, or to dead with a reason; sending goes back to pending for a retry,
// for the next part of a digest split into several messages, and after a
// restart (in doubt).
type DeliveryState string

// The states of a delivery.
const (
	DeliveryPending DeliveryState = "pending" // waiting for NextAttempt
	DeliverySending DeliveryState = "sending" // a post may be on its way
	DeliverySent    DeliveryState = "sent"    // every part posted
	DeliveryDead    DeliveryState = "dead"    // given up; Reason says why
)

// Delivery is one digest owed to one channel, as the outbox keeps it.
type Delivery struct {
	Key          string `json:"key"`          // DeliveryKey
	DigestID     string `json:"digest_id"`    // Digest.ID
	Subscription string `json:"subscription"` // Subscription.ID
	Platform     string `json:"platform"`
	Workspace    string `json:"workspace,omitempty"`
	Channel      string `json:"channel"`
	Format       string `json:"format"`
	// Seen is what the subscription has seen once this digest is queued;
	// BasedOn is the subscription's Rev the digest was built from.
	// EnqueueDigest records Seen only while the Rev is still BasedOn.
	Seen        Seen          `json:"seen"`
	BasedOn     uint64        `json:"based_on"`
	State       DeliveryState `json:"state"`
	Attempts    int           `json:"attempts"` // posts tried, rate-limited ones included
	Failures    int           `json:"failures"` // failures in a row other than rate limits
	NextAttempt time.Time     `json:"next_attempt"`
	Parts       int           `json:"parts,omitempty"`      // messages the digest takes; 0 before the first post
	PartsSent   int           `json:"parts_sent,omitempty"` // messages posted so far
	MessageIDs  []string      `json:"message_ids,omitempty"`
	Reason      string        `json:"reason,omitempty"`   // the last failure, or why it is dead
	InDoubt     int           `json:"in_doubt,omitempty"` // times a restart found it in the middle of a post
	// ClaimedAfter is the delivery claimed just before this one in a batch
	// posted in turn (ClaimFilter.InTurn), while this one is sending; empty
	// for the first of a batch, for deliveries posted at once and once it
	// leaves sending. While that one is still sending, this one's post has
	// not begun.
	ClaimedAfter string    `json:"claimed_after,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	SentAt       time.Time `json:"sent_at,omitzero"`
}

// DeliveryKey is the outbox key of digest digestID for channel ch:
// "slack/T01/C0123/<digest ID>". The same digest is owed to a channel once.
func DeliveryKey(ch ChannelRef, digestID string) string { return ch.ID() + "/" + digestID }

// The reasons a delivery found sending after a restart is taken back with.
const (
	ReasonInDoubt  = "in doubt after a restart: the post may have gone out"
	ReasonNotBegun = "not begun before a restart: claimed behind a post still under way"
)

// TakeBack returns d, found sending after a restart, to pending at now: in
// doubt when its post had begun (it may have gone out), else not begun.
// Every outbox's Recover does this.
func (d *Delivery) TakeBack(begun bool, now time.Time) {
	d.State, d.NextAttempt, d.UpdatedAt, d.ClaimedAfter = DeliveryPending, now, now, ""
	if begun {
		d.InDoubt++
		d.Reason = ReasonInDoubt
	} else {
		d.Reason = ReasonNotBegun
	}
}

// StillInDoubt reports whether d was taken back in doubt and is pending,
// not tried since: its next post must first look for the last one.
func (d *Delivery) StillInDoubt() bool {
	return d.State == DeliveryPending && d.InDoubt > 0 && d.Reason == ReasonInDoubt
}

// ParseDeliveryKey returns the channel of a DeliveryKey, and false when
// key is not one.
func ParseDeliveryKey(key string) (ChannelRef, bool) {
	parts := strings.SplitN(key, "/", 4)
	if len(parts) != 4 {
		return ChannelRef{}, false
	}
	return ChannelRef{Platform: parts[0], Workspace: parts[1], Channel: parts[2]}, true
}

// Queue makes d a new pending delivery, created at now unless it says
// when, and records in sub, its subscription, that it was told d's news:
// Seen, the last digest, and a new Rev. Every outbox does this for each
// delivery it enqueues.
func (d *Delivery) Queue(sub *Subscription, now time.Time) {
	d.State, d.Attempts, d.Failures, d.PartsSent, d.InDoubt = DeliveryPending, 0, 0, 0, 0
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now
	}
	if d.NextAttempt.IsZero() {
		d.NextAttempt = d.CreatedAt
	}
	d.UpdatedAt = d.CreatedAt
	sub.Seen.CatchUp(d.Seen)
	sub.LastDigestAt, sub.LastDigestID = d.CreatedAt, d.DigestID
	sub.Rev++
}

// CheckEnqueue fails with EBADINPUT unless d has an ID and each of ds names
// a valid channel and belongs to d (its digest, key and subscription).
// Every outbox checks this before enqueueing.
func CheckEnqueue(d Digest, ds []Delivery) error {
	if d.ID == "" {
		return knowledge.Errorf(knowledge.EBADINPUT, "A digest needs an ID.")
	}
	for i := range ds {
		ref := ds[i].Ref()
		if err := ref.Validate(); err != nil {
			return err
		}
		if ds[i].DigestID != d.ID || ds[i].Key != DeliveryKey(ref, d.ID) || ds[i].Subscription != ref.ID() {
			return knowledge.Errorf(knowledge.EBADINPUT, "Delivery %q does not belong to digest %s.", ds[i].Key, d.ID)
		}
	}
	return nil
}

// Ref returns the channel d is for.
func (d *Delivery) Ref() ChannelRef {
	return ChannelRef{Platform: d.Platform, Workspace: d.Workspace, Channel: d.Channel}
}

// Nonce is the idempotency key of part of d: 24 hex characters, the same
// after any restart (Discord keeps nonces of at most 25 characters and,
// with enforce_nonce, returns the first message instead of posting twice).
func (d *Delivery) Nonce(part int) string {
	sum := sha256.Sum256([]byte(d.Key + "#" + strconv.Itoa(part)))
	return hex.EncodeToString(sum[:12])
}

// ClaimFilter says which due deliveries ClaimDue takes; both checks are
// optional. A worker keeps rate limits with them.
type ClaimFilter struct {
	// Ready is asked first, for every due candidate before it is read: a
	// cheap check without side effects, such as "is this channel held back".
	Ready func(ch ChannelRef) bool
	// Accept is asked last, only for a candidate that is claimed if it says
	// yes, so it may reserve what the post needs.
	Accept func(d *Delivery) bool
	// InTurn says the claimed deliveries are posted one after another, in
	// the order returned, and none begins before the one before it has
	// left sending (its outcome recorded). ClaimDue then records each one's
	// ClaimedAfter, so that after a crash Recover can tell the one that may
	// have been mid-post from those that had not begun.
	InTurn bool
}

// Recovered is what Recover found left sending by a crash or a stop.
type Recovered struct {
	// InDoubt were, or may have been, in the middle of a post: it may
	// have gone out. Posting one again may show it twice on a platform
	// that does not drop a repeated nonce.
	InDoubt []Delivery
	// NotBegun were claimed in turn behind a delivery still sending, so
	// their post had not begun: posting them cannot show them twice.
	NotBegun []Delivery
}

// Enqueued says what EnqueueDigest did.
type Enqueued struct {
	DigestNew bool // the digest was stored now, not before
	Created   int  // deliveries queued now
	Existing  int  // deliveries already queued: the call repeated an earlier one
	Stale     int  // deliveries left out: the subscription is gone, paused or moved on
}

// Outbox keeps digests and the deliveries owed, so that what was promised
// survives a restart. The store package implements it over bbolt. Methods
// that move a delivery fail with EBADINPUT when it is not in the state the
// move starts from, and ENOTFOUND when it does not exist.
type Outbox interface {
	// EnqueueDigest stores d and ds in one transaction, each only if
	// absent, and records each delivery's Seen in its subscription.
	EnqueueDigest(ctx context.Context, d Digest, ds []Delivery) (Enqueued, error)
	// ClaimDue moves up to limit of platform's pending deliveries whose
	// NextAttempt is not after now to sending, soonest due first, skipping
	// those f refuses; a delivery whose subscription is gone or paused
	// becomes dead instead.
	ClaimDue(ctx context.Context, platform string, now time.Time, limit int, f ClaimFilter) ([]Delivery, error)
	// MarkPartSent records that part (0-based) of parts was posted as
	// messageID: the delivery is sent after the last part, else pending
	// again at next.
	MarkPartSent(ctx context.Context, key string, part, parts int, messageID string, now, next time.Time) (*Delivery, error)
	// MarkRetry moves a sending delivery back to pending at next; a rate
	// limit does not count as a failure.
	MarkRetry(ctx context.Context, key string, next time.Time, reason string, rateLimited bool, now time.Time) (*Delivery, error)
	// MarkDead gives up on a delivery; with pause, the subscription is paused
	// with reason and the channel's other pending deliveries die with it,
	// all in the same transaction.
	MarkDead(ctx context.Context, key, reason string, pause bool, now time.Time) (*Delivery, error)
	// Recover moves every delivery left sending (by a crash) back to
	// pending, due now, and returns them: those that may have been in the
	// middle of a post (InDoubt, counted in each one's InDoubt), and those
	// claimed in turn behind one still sending (NotBegun).
	Recover(ctx context.Context, now time.Time) (Recovered, error)
	// FindDigest returns a stored digest.
	FindDigest(ctx context.Context, id string) (*Digest, error)
}

// filterChoices are the values a filter allows, where they are fixed.
var filterChoices = map[string][]string{
	"schedule": {ScheduleRelease, ScheduleWeekly, ScheduleDaily},
	"format":   {FormatCompact, FormatFull},
}

// FilterChoices returns the values filter key allows when they are a fixed
// list (schedule, format), and nil for the others.
func FilterChoices(key string) []string { return slices.Clone(filterChoices[key]) }

// filterValue checks and normalises the value of filter k: a SIG name
// without "sig-", a release as 1.29, a schedule or format in lower case. It
// fails with EBADINPUT saying what the filter allows.
func filterValue(k, v string) (string, error) {
	lv := strings.ToLower(v)
	switch k {
	case "sig":
		lv = strings.TrimPrefix(lv, "sig-")
		if !knowledge.IsSIGName(lv) {
			return "", knowledge.BadInput("subscribe", "sig:%s is not a SIG name; use one like sig:network.", knowledge.Echo(v))
		}
		return lv, nil
	case "from":
		ver, err := knowledge.ParseVersion(lv)
		if err != nil {
			return "", knowledge.BadInput("subscribe", "from:%s is not a release; use one like from:1.29.", knowledge.Echo(v))
		}
		return ver.String(), nil
	}
	choices := filterChoices[k]
	if !contains(choices, lv) {
		return "", knowledge.BadInput("subscribe", "%s:%s is not allowed; use %s:%s.", k, knowledge.Echo(v), k, strings.Join(choices, ", "+k+":"))
	}
	return lv, nil
}

// filterKeys are the subscribe filters, in the order the root's
// Question.Canonical writes them.
var filterKeys = knowledge.FilterKeys()

func contains(ss []string, s string) bool { return slices.Contains(ss, s) }
