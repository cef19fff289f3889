// Package digest is the home of channel subscriptions and the deprecation
// digests they get: the nouns and the contracts the stores implement, and
// the answers to subscribe deprecations, unsubscribe deprecations and
// subscriptions.
//
//   - subscription.go: Subscription, Filter (ParseFilter, FilterChoices),
//     ChannelRef, Seen, Delivery and its states, and the contracts
//     SubscriptionStore, NoticeLedger and Outbox (with ClaimFilter,
//     Recovered, Enqueued) that package store (bbolt) and store/etcdstore
//     implement, and store/storetest checks;
//   - digest.go: Digest, NoticeSet, LoadNoticeSet and BuildDigest;
//   - digest_identity.go: what a notice is known by (NoticeKey,
//     NoticeAliases, and the keys of kepbots before aliases);
//   - engine_subscribe.go: Subscriptions, the subscription answers the
//     knowledge.Engine gives through knowledge.WithSubscriptions, and
//     RenderDigest and SplitAnswer, which turn a digest into messages.
//
// The stages that queue and post digests (trigger, schedule, worker, rate
// gate, the Poster contract adapters implement) are in the subpackage
// knowledge/digest/delivery.
//
// # What it may import
//
// The standard library and package knowledge (its nouns: Version, Notice,
// Question, Answer, Error, ...), nothing else. Package knowledge must never
// import this one: the Engine reaches Subscriptions only as a
// knowledge.Answerer. What the root needs itself stays there: FilterKeys
// (the order Question.Canonical writes the filters in) and IsSIGName (the
// grammar reads sig questions with it).
//
// It imports knowledge.
package digest
