// Package delivery posts the digests the outbox holds: a worker per
// platform claims due deliveries, keeps to each platform's rate limits
// (one message a second per channel, per-workspace and per-platform caps,
// a global cap, and every Retry-After it is told), posts through the
// adapters' Posters, and records each outcome in the outbox. It also holds
// the triggers that queue digests: new knowledge, and the weekly and daily
// schedules.
//
// A post cannot join a bbolt transaction, so delivery is at least once;
// exactly once where the platform drops a repeated nonce (Discord's
// enforce_nonce). Elsewhere (Slack) a crash in the middle of a post can
// show a digest twice: the worker lets only Config.UnsafeInFlight such
// posts be under way at once (one by default, the deliveries it claims
// posted in turn), so a crash duplicates at most that many, and counts
// every possible duplicate: a post a restart found in doubt, and a post
// retried after a failure that may have posted it.
//
// # Layout
//
//   - poster.go: Poster, the contract the Slack and Discord adapters
//     implement, and what its errors may say (RateLimited, Terminal,
//     Unposted); errors.go makes such errors (RateLimit, Refused,
//     NotPosted);
//   - trigger.go and schedule.go: the triggers that queue digests (new
//     knowledge; the weekly and daily schedule);
//   - worker.go, send.go and gate.go: the worker that claims, posts and
//     records deliveries, and the rate gate it keeps;
//   - metrics.go: what the worker counts.
//
// # What it may import
//
// The standard library, knowledge and knowledge/digest (the nouns and the
// Outbox contract it drives), zerolog and golang.org/x/time/rate. It is a
// package of its own, not part of knowledge/digest, so that the nouns stay
// on the standard library and knowledge alone (knowledge/question imports
// them) and its names stay short (delivery.New, delivery.Config). Neither
// knowledge nor knowledge/digest imports it; the adapters, the stores'
// cluster guard and cmd/bot do.
//
// It imports knowledge, knowledge/digest.
package delivery
