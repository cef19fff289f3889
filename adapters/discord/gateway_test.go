package discord

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

const (
	testAppID = "800000000000000001"
	testGuild = "700000000000000001"
)

// runAdapter starts an adapter against f with cfg (token, app ID and URLs
// filled in, prefix commands on: most tests type !k8s) and opts, answering
// with ans, and waits for its Identify. It stops the adapter at the end of
// the test.
func runAdapter(t *testing.T, f *fakeDiscord, cfg Config, ans knowledge.Answerer, cat Catalog, logger zerolog.Logger, opts ...Option) (*Adapter, identifyData) {
	t.Helper()
	cfg.PrefixCommands = true
	return runAdapterAsIs(t, f, cfg, ans, cat, logger, opts...)
}

// runAdapterAsIs is runAdapter leaving prefix commands as cfg says.
func runAdapterAsIs(t *testing.T, f *fakeDiscord, cfg Config, ans knowledge.Answerer, cat Catalog, logger zerolog.Logger, opts ...Option) (*Adapter, identifyData) {
	t.Helper()
	cfg.BotToken = NewSecret(testToken)
	cfg.APIURL = f.srv.URL
	if cfg.AppID == "" {
		cfg.AppID = testAppID
	}
	a, err := NewAdapter(cfg, ans, cat, logger, opts...)
	if err != nil {
		t.Fatal(err)
	}
	errc := startAdapter(t, a)
	select {
	case id := <-f.identify:
		return a, id
	case err := <-errc:
		t.Fatalf("Run ended before identifying: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no Identify within 10s")
	}
	return nil, identifyData{}
}

func message(id, channel, guild, authorID, content string, bot bool) map[string]any {
	m := map[string]any{"id": id, "channel_id": channel, "content": content,
		"author": map[string]any{"id": authorID, "username": "user" + authorID, "bot": bot}}
	if guild != "" {
		m["guild_id"] = guild
	}
	return m
}

// sentMessage decodes a channel message as the fake received it.
type sentMessage struct {
	Content         string                    `json:"content"`
	Embeds          []*discordgo.MessageEmbed `json:"embeds"`
	AllowedMentions *struct {
		Parse *[]string `json:"parse"`
	} `json:"allowed_mentions"`
}

func decodeSent(t *testing.T, body []byte) sentMessage {
	t.Helper()
	var m sentMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return m
}

// TestGatewayEndToEnd runs the adapter against the fake Discord with the
// real engine over a bbolt store: it registers /k8s by bulk overwrite,
// identifies with kepbot's intents, answers `!k8s 1.29 ga` with an embed
// whose allowed_mentions.parse is [], answers a mention and a DM, and
// ignores bots, itself and messages not addressed to it.
func TestGatewayEndToEnd(t *testing.T) {
	f := newFakeDiscord(t)
	kb := openKnowledge(t)
	logger, _ := testLogger(t)
	_, id := runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, engine.New(kb), testCatalog(t, kb), logger)

	put := f.next("PUT", "/api/v9/applications/"+testAppID+"/commands", 5*time.Second)
	want, _ := CommandsJSON()
	var gotCmds, wantCmds any
	json.Unmarshal(put.Body, &gotCmds)
	json.Unmarshal(want, &wantCmds)
	if diff := cmp.Diff(wantCmds, gotCmds); diff != "" {
		t.Errorf("bulk overwrite body differs from Commands (-want +got):\n%s", diff)
	}
	if put.Auth != "Bot "+testToken {
		t.Errorf("bulk overwrite authorization = %q", put.Auth)
	}
	if id.Intents != int(Config{PrefixCommands: true}.Intents()) || id.Intents&int(discordgo.IntentMessageContent) == 0 {
		t.Errorf("Identify intents = %d, want %d (guilds, guild messages, message content, DMs)", id.Intents, Config{PrefixCommands: true}.Intents())
	}
	if id.Token != "Bot "+testToken {
		t.Errorf("Identify token is not the bot token")
	}

	// Not for kepbot: a bot, itself, a webhook, plain chat, a prefix glued to a word.
	f.dispatch("MESSAGE_CREATE", message("1", "c-bot", testGuild, "42", "!k8s 1.29 ga", true))
	f.dispatch("MESSAGE_CREATE", message("2", "c-self", testGuild, botUserID, "!k8s 1.29 ga", false))
	hook := message("3", "c-hook", testGuild, "43", "!k8s 1.29 ga", false)
	hook["webhook_id"] = "5"
	f.dispatch("MESSAGE_CREATE", hook)
	f.dispatch("MESSAGE_CREATE", message("4", "c-plain", testGuild, "44", "what went GA in 1.29?", false))
	f.dispatch("MESSAGE_CREATE", message("5", "c-glued", testGuild, "45", "!k8sfoo 1.29", false))

	f.dispatch("MESSAGE_CREATE", message("10", "c1", testGuild, "100", "!k8s 1.29 ga", false))
	post := f.next("POST", "/api/v9/channels/", 5*time.Second)
	if post.Path != "/api/v9/channels/c1/messages" {
		t.Fatalf("first post went to %s, want channel c1 (an ignored message was answered)", post.Path)
	}
	sent := decodeSent(t, post.Body)
	if sent.AllowedMentions == nil || sent.AllowedMentions.Parse == nil || len(*sent.AllowedMentions.Parse) != 0 {
		t.Errorf("allowed_mentions.parse is not []: %s", post.Body)
	}
	if len(sent.Embeds) == 0 || sent.Embeds[0].Title != "Kubernetes 1.29: GA" || !strings.Contains(sent.Embeds[0].Description, "**KEP-9101** Widget autoscaling") {
		t.Errorf("answer embed = %s", post.Body)
	}

	f.dispatch("MESSAGE_CREATE", message("11", "c2", testGuild, "101", "<@"+botUserID+"> kep 9101", false))
	if p := f.next("POST", "/api/v9/channels/", 5*time.Second); p.Path != "/api/v9/channels/c2/messages" || !strings.Contains(string(p.Body), "KEP-9101: Widget autoscaling") {
		t.Errorf("mention answer: %s %s", p.Path, p.Body)
	}
	f.dispatch("MESSAGE_CREATE", message("12", "dm1", "", "102", "1.29", false))
	if p := f.next("POST", "/api/v9/channels/", 5*time.Second); p.Path != "/api/v9/channels/dm1/messages" || !strings.Contains(string(p.Body), "Kubernetes 1.29") {
		t.Errorf("DM answer: %s %s", p.Path, p.Body)
	}
	time.Sleep(200 * time.Millisecond) // let any wrongly answered message arrive
	for _, r := range f.all() {
		for _, ch := range []string{"c-bot", "c-self", "c-hook", "c-plain", "c-glued"} {
			if strings.Contains(r.Path, "/"+ch+"/") {
				t.Errorf("answered a message not for kepbot: %s %s", r.Method, r.Path)
			}
		}
	}
	if n := f.checkAllMessagesMuted(t); n != 3 {
		t.Errorf("%d messages sent, want 3", n)
	}
}

// TestGatewayInteractions answers /k8s kep over the gateway with a
// callback and autocomplete with at most 25 choices.
func TestGatewayInteractions(t *testing.T) {
	f := newFakeDiscord(t)
	kb := openKnowledge(t)
	logger, _ := testLogger(t)
	keps := make([]KEPName, 0, 300)
	for n := 1; n <= 300; n++ {
		keps = append(keps, KEPName{Number: 9000 + n, Title: "Widget feature"})
	}
	cat := NewStaticCatalog(keps, nil, nil)
	runAdapter(t, f, Config{Guilds: []string{testGuild}}, engine.New(kb), cat, logger)
	f.next("PUT", "/api/v9/applications/"+testAppID+"/guilds/"+testGuild+"/commands", 5*time.Second)

	f.dispatch("INTERACTION_CREATE", interactionPayload("i1", discordgo.InteractionApplicationCommand, invocation("kep", "number", "9101")))
	cb := f.next("POST", "/api/v9/interactions/i1/", 5*time.Second)
	var resp struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data sentMessage                       `json:"data"`
	}
	if err := json.Unmarshal(cb.Body, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || len(resp.Data.Embeds) == 0 || resp.Data.Embeds[0].Title != "KEP-9101: Widget autoscaling" {
		t.Errorf("kep callback = %s", cb.Body)
	}

	ac := invocation("kep", "number", "9")
	ac.Options[0].Options[0].Focused = true
	f.dispatch("INTERACTION_CREATE", interactionPayload("i2", discordgo.InteractionApplicationCommandAutocomplete, ac))
	cb = f.next("POST", "/api/v9/interactions/i2/", 5*time.Second)
	var auto struct {
		Type int `json:"type"`
		Data struct {
			Choices []discordgo.ApplicationCommandOptionChoice `json:"choices"`
		} `json:"data"`
	}
	if err := json.Unmarshal(cb.Body, &auto); err != nil {
		t.Fatal(err)
	}
	if auto.Type != 8 || len(auto.Data.Choices) == 0 || len(auto.Data.Choices) > MaxChoices {
		t.Errorf("autocomplete callback: type %d with %d choices, want 8 with 1 to %d", auto.Type, len(auto.Data.Choices), MaxChoices)
	}
	f.checkAllMessagesMuted(t)
}

// startAdapter runs a until the end of the test; the channel reports
// Run's early end.
func startAdapter(t *testing.T, a *Adapter) <-chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	stopped := make(chan error, 1)
	go func() {
		err := a.Run(ctx)
		errc <- err
		stopped <- err
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-stopped:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("Run did not return after cancel")
		}
	})
	return errc
}

// interactionPayload is an INTERACTION_CREATE as Discord sends it.
func interactionPayload(id string, typ discordgo.InteractionType, data discordgo.ApplicationCommandInteractionData) map[string]any {
	return map[string]any{"id": id, "application_id": testAppID, "type": typ, "token": testInteractionToken,
		"guild_id": testGuild, "channel_id": "c1", "version": 1,
		"member": map[string]any{"user": map[string]any{"id": "100", "username": "alice"}},
		"data":   map[string]any{"id": "5", "name": data.Name, "type": 1, "options": data.Options}}
}

// TestGatewayUserLimit lets one person ask their burst, then tells them
// once that they are limited and answers nothing more.
func TestGatewayUserLimit(t *testing.T) {
	f := newFakeDiscord(t)
	logger, _ := testLogger(t)
	ans := &answerFunc{fn: func(context.Context, knowledge.Question) (*knowledge.Answer, error) {
		return &knowledge.Answer{Kind: knowledge.KindRelease, Title: "Kubernetes 1.29", Text: "A release."}, nil
	}}
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL(), UserPerMinute: 1, UserBurst: 2}, ans, nil, logger)
	f.next("PUT", "/api/v9/applications/", 5*time.Second)
	for i := 0; i < 8; i++ {
		f.dispatch("MESSAGE_CREATE", message(string(rune('a'+i)), "c1", testGuild, "100", "!k8s 1.29", false))
	}
	f.dispatch("MESSAGE_CREATE", message("z", "c2", testGuild, "200", "!k8s 1.29", false)) // someone else
	deadline := time.After(10 * time.Second)                                               // generous: CI machines stall
	var answers, limited, other int
	for answers+limited+other < 4 {
		select {
		case r := <-f.got:
			if r.Method != "POST" {
				continue
			}
			switch m := decodeSent(t, r.Body); {
			case strings.Contains(r.Path, "/c2/"):
				other++
			case strings.Contains(m.Content, "faster than I answer"):
				limited++
			default:
				answers++
			}
		case <-deadline:
			t.Fatalf("only %d answers, %d limit notes, %d for the other user", answers, limited, other)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := f.checkAllMessagesMuted(t); answers != 2 || limited != 1 || other != 1 || n != 4 {
		t.Errorf("%d answers, %d limit notes, %d for the other user, %d posts in all; want 2, 1, 1, 4", answers, limited, other, n)
	}
	if got := ans.calls.Load(); got != 3 {
		t.Errorf("answerer called %d times, want 3", got)
	}
}
