// Package discord is kepbot's Discord adapter: mentions, DMs and (when
// prefix commands are on, with the Message Content intent) `!k8s …` on the
// gateway, answered with replies to the question; the /k8s application
// command with autocomplete (over the gateway or the HTTP interactions
// endpoint), answered privately with a "Share in channel" button unless
// answers are public; and answers drawn as embeds within Discord's limits.
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
