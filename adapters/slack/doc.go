// Package slack is kepbot's Slack adapter. It takes questions from the
// /k8s slash command, app mentions and direct messages, over Socket Mode or
// over HTTP (or both), asks the knowledge core, and draws the Answer in
// Block Kit within Slack's limits and its 3-second deadline.
//
// It translates and draws; it never decides an answer.
//
// It imports adapters/internal/download, internal/metrics,
// internal/platform, internal/secret, knowledge, knowledge/digest,
// knowledge/digest/delivery, knowledge/engine, knowledge/question. It may
// import the knowledge packages and internal/ plumbing; never another
// adapter, the store or knowledge/sources (internal/importrules enforces
// it).
package slack
