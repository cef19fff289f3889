// Command bot is kepbot's one binary: the terminal chat (no arguments),
// bot ask, bot scan, bot ingest, bot sync, bot check, bot snapshot, bot
// digest and bot serve (Slack and Discord), and bot help, bot version and
// bot completion. It only wires: each command parses its flags, builds
// values from the config file and the environment, calls the package that
// does the work, and turns the result into output and an exit code.
//
// One table (command.go) holds every command: its name, summary, usage,
// examples, exit codes and the function that defines its flags, each
// built in the command's own file. Dispatch, help (help.go) and the
// shell completion scripts (completion.go) all read it.
//
// It may import anything in the module; nothing imports it
// (internal/importrules enforces it).
//
// Beside it, cmd/bot/internal holds the wiring too big for a command's
// file: app builds and runs a whole bot serve (and the sources' setup bot
// sync shares), admin is serve's refresh endpoint and bot sync's client
// of it.
//
// It imports adapters/console, cmd/bot/internal/admin,
// cmd/bot/internal/app, internal/config, internal/logging, knowledge,
// knowledge/digest,
// knowledge/digest/delivery, knowledge/engine, knowledge/manifest,
// knowledge/manifest/cluster, knowledge/manifest/scan,
// knowledge/snapshot, knowledge/sources, knowledge/sources/fetch,
// knowledge/sources/ingest, knowledge/sources/kepyaml,
// knowledge/sources/refresh, store, store/etcdstore.
package main
