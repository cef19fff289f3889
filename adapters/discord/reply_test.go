package discord

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge/engine"
)

// replyWire is what a channel message says about the message it answers.
type replyWire struct {
	Reference *struct {
		MessageID       string `json:"message_id"`
		FailIfNotExists *bool  `json:"fail_if_not_exists"`
	} `json:"message_reference"`
	AllowedMentions struct {
		Parse       []string `json:"parse"`
		RepliedUser *bool    `json:"replied_user"`
	} `json:"allowed_mentions"`
}

func decodeReply(t *testing.T, body []byte) replyWire {
	t.Helper()
	var r replyWire
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("message %s: %v", body, err)
	}
	return r
}

// TestIntentsWithoutPrefixCommands: by default kepbot identifies without
// the privileged Message Content intent, says so in one log line, ignores
// `!k8s` in server channels and still answers a mention.
func TestIntentsWithoutPrefixCommands(t *testing.T) {
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	_, id := runAdapterAsIs(t, f, Config{GatewayURL: f.gatewayURL()}, engine.New(openKnowledge(t)), nil, logger)
	if id.Intents != int(baseIntents) || id.Intents&int(discordgo.IntentMessageContent) != 0 {
		t.Errorf("Identify intents = %d, want %d: guilds, guild messages, DMs and no Message Content", id.Intents, baseIntents)
	}
	if n := strings.Count(logs.String(), "prefix commands are off"); n != 1 {
		t.Errorf("the start says %d times that prefix commands are off, want once:\n%s", n, logs.String())
	}
	f.dispatch("MESSAGE_CREATE", message("41", "c-prefix", testGuild, "100", "!k8s 1.29 ga", false))
	f.dispatch("MESSAGE_CREATE", message("42", "c-mention", testGuild, "100", "<@"+botUserID+"> kep 9101", false))
	if p := f.next("POST", "/api/v9/channels/", 5*time.Second); p.Path != "/api/v9/channels/c-mention/messages" {
		t.Errorf("first answer went to %s; the prefix was answered with prefix commands off", p.Path)
	}
}

// TestIntentsWithPrefixCommands: with prefix_commands kepbot asks for the
// Message Content intent too, and says nothing about it being off.
func TestIntentsWithPrefixCommands(t *testing.T) {
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	a, id := runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, engine.New(openKnowledge(t)), nil, logger)
	// Let the session take READY before the test ends: a gateway closed
	// in the middle of its handshake is reopened by discordgo (a RESUME).
	for deadline := time.Now().Add(5 * time.Second); a.botUser() == "" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if id.Intents != int(baseIntents|discordgo.IntentMessageContent) {
		t.Errorf("Identify intents with prefix commands = %d, want %d", id.Intents, baseIntents|discordgo.IntentMessageContent)
	}
	if strings.Contains(logs.String(), "prefix commands are off") {
		t.Errorf("prefix commands on, yet the log says they are off:\n%s", logs.String())
	}
}

// TestTypedAnswersAreReplies: a question typed in a server channel is
// answered with a reply to it (message_reference to the question, not
// failing when the question is gone, the asker not pinged); one in a DM
// with a plain message. Where Discord refuses replies (no Read Message
// History: code 160002) the answer goes again as a plain message, and the
// channel gets plain messages from then on.
func TestTypedAnswersAreReplies(t *testing.T) {
	f := newFakeDiscord(t)
	f.setOverride(func(r *http.Request) (int, string, bool) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/v9/channels/c-nohist/messages" {
			return 0, "", false
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		if body["message_reference"] == nil {
			return 0, "", false
		}
		return http.StatusBadRequest, `{"message":"Cannot reply without permission to read message history","code":160002}`, true
	})
	logger, _ := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, engine.New(openKnowledge(t)), nil, logger)

	f.dispatch("MESSAGE_CREATE", message("51", "c1", testGuild, "100", "!k8s kep 9101", false))
	r := decodeReply(t, f.next("POST", "/api/v9/channels/c1/messages", 5*time.Second).Body)
	if r.Reference == nil || r.Reference.MessageID != "51" || r.Reference.FailIfNotExists == nil || *r.Reference.FailIfNotExists {
		t.Errorf("answer in a channel: message_reference %+v, want a reply to message 51 that does not fail when it is gone", r.Reference)
	}
	if r.AllowedMentions.RepliedUser == nil || *r.AllowedMentions.RepliedUser || r.AllowedMentions.Parse == nil || len(r.AllowedMentions.Parse) != 0 {
		t.Errorf("allowed_mentions %+v: want parse [] and replied_user false", r.AllowedMentions)
	}

	f.dispatch("MESSAGE_CREATE", message("52", "dm1", "", "100", "kep 9101", false))
	if r := decodeReply(t, f.next("POST", "/api/v9/channels/dm1/messages", 5*time.Second).Body); r.Reference != nil {
		t.Errorf("answer in a DM is a reply: %+v", r.Reference)
	}

	f.dispatch("MESSAGE_CREATE", message("53", "c-nohist", testGuild, "100", "!k8s kep 9101", false))
	first := decodeReply(t, f.next("POST", "/api/v9/channels/c-nohist/messages", 5*time.Second).Body)
	again := f.next("POST", "/api/v9/channels/c-nohist/messages", 5*time.Second)
	if first.Reference == nil || decodeReply(t, again.Body).Reference != nil || !strings.Contains(string(again.Body), "KEP-9101") {
		t.Errorf("refused reply: first %+v, then %.200s; want the answer again without message_reference", first.Reference, again.Body)
	}
	f.dispatch("MESSAGE_CREATE", message("54", "c-nohist", testGuild, "100", "!k8s 1.29", false))
	if r := decodeReply(t, f.next("POST", "/api/v9/channels/c-nohist/messages", 5*time.Second).Body); r.Reference != nil {
		t.Error("the next answer in a channel that refused replies tries a reply again")
	}
}
