// Package app is the composition root of `bot serve`: it builds and runs
// the whole application from the config, wiring every layer that nothing
// else may join (adapters, the store, etcd, the sources' refresh, the
// digests). cmd/bot's commands call it; it lives under cmd/bot because it
// is wiring, not plumbing (internal/ holds that).
//
// It runs `bot serve`: every configured chat adapter at once,
// and one HTTP server with /healthz, /readyz, /metrics and the adapters'
// own endpoints (Slack's /slack/*, Discord's /discord/interactions). Each
// platform connects (and reconnects) on its own: one that cannot is
// retried while the others serve, and /readyz names it (ready.go). When
// its context ends (SIGINT, SIGTERM) it stops taking work, finishes what
// is in flight and returns, so that the caller can close the database.
// NoPlatform says which settings would start a platform. Beside it: serve's
// garbage collector settings (TuneGC) and the profiles on a loopback
// address of their own (StartPprof). SlackConfig and DiscordConfig fill
// each adapter's Config alike from the config file and the environment,
// RefreshSetup the sources' (for serve and bot sync), OpenShared connects
// to etcd. Process runs a whole `bot serve` from them: the log, the GC
// and the profiles, the engine and its cache, the reader, the adapters and
// their posters, the replica (on etcd) or the refresh loop (alone), the
// digests and the server.
//
// It imports adapters/discord, adapters/slack, cmd/bot/internal/admin,
// internal/config, internal/logging, internal/metrics, internal/platform,
// internal/secret,
// knowledge, knowledge/digest/delivery, knowledge/engine,
// knowledge/manifest, knowledge/question, knowledge/sources,
// knowledge/sources/fetch, knowledge/sources/refresh, store,
// store/etcdstore, store/etcdstore/cluster. It may import anything
// in the module but cmd/bot itself (internal/importrules enforces it).
package app
