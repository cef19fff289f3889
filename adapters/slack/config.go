package slack

import (
	"net/http"
	"time"
)

// DefaultCommand is the slash command when Config.Command is empty (the
// config's slack.command defaults to it too).
const DefaultCommand = "/k8s"

// DefaultInlineBudget is how long a slash command waits for its answer
// before acking without it; the answer then goes to response_url. Slack
// gives 3 s; the rest is margin for the network.
const DefaultInlineBudget = 2 * time.Second

// Config configures an Adapter.
type Config struct {
	BotToken       Secret   // xoxb-…; needed to post mention and DM answers
	AppToken       Secret   // xapp-…; with BotToken, runs Socket Mode
	SigningSecrets []Secret // current first; with any, mounts the HTTP endpoints
	APIURL         string   // Web API base, "" for Slack's
	Command        string   // the slash command, DefaultCommand when empty
	Debug          bool     // slack-go debug output, logged at debug level
	// InlineBudget is how long a slash command waits for its answer
	// before acking without it (DefaultInlineBudget when zero).
	InlineBudget time.Duration
	// HTTPClient posts to Slack (nil: a client with a 15 s timeout).
	HTTPClient *http.Client
	// SubscriptionManagers are the user IDs that may subscribe and
	// unsubscribe channels besides workspace admins and owners (never
	// guests).
	SubscriptionManagers []string
	// AllowReplays answers a signed request sent again within the window
	// instead of refusing it: for load tests only (slack.allow_replays).
	AllowReplays bool
	// PublicAnswers posts every slash-command answer to the channel, as
	// --public does; false shows it to the asker alone with a "Share in
	// channel" button (answers.public).
	PublicAnswers bool
}
