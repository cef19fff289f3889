// Package platform is how a chat platform's connection stands, for
// /readyz: a Tracker each adapter (Slack, Discord) keeps its Status in
// (connecting, up, down and retrying, stopped for good), and Retry, which
// brings a connection up again after failures with exponential backoff and
// jitter, one log line an attempt, until it succeeds, a failure is
// Permanent (a refused token), or its context ends. One platform's
// failures never stop another: serve runs each adapter alone.
//
// It imports no package of the module. Like all of internal/, it may import
// only other internal/ packages (internal/importrules enforces it).
package platform
