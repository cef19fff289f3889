// Package discord is kepbot's Discord adapter: `!k8s …` prefix commands
// and mentions on the gateway, the /k8s application command with
// autocomplete (over the gateway or the HTTP interactions endpoint), and
// answers drawn as embeds within Discord's limits.
//
// It translates and renders; it never decides an answer. Every message it
// sends carries allowed_mentions with an empty parse list, and every text
// it echoes is escaped. Tokens never reach a log, discordgo's included.
//
// It imports adapters/internal/download, internal/metrics,
// internal/platform, internal/secret, knowledge, knowledge/digest,
// knowledge/digest/delivery, knowledge/engine, knowledge/question. It may
// import the knowledge packages and internal/ plumbing; never another
// adapter, the store or knowledge/sources (internal/importrules enforces
// it).
package discord
