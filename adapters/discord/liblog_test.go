package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
)

// discordToken is the shape of a bot token (reliability notes §5.2).
var discordToken = regexp.MustCompile(`[MN][A-Za-z\d]{23,}\.[\w-]{6}\.[\w-]{27,}`)

// TestTokensNeverLogged runs the gateway and interactions with every log
// at its most verbose, discordgo's LogDebug included (it prints the
// Identify packet, token and all, with %#v), makes calls fail so that
// errors with URLs are logged, and then looks for the bot token and the
// interaction token in everything written.
func TestTokensNeverLogged(t *testing.T) {
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	logger = logger.Level(zerolog.TraceLevel)
	f.setOverride(func(r *http.Request) (int, string, bool) {
		if strings.Contains(r.URL.Path, "/channels/c-denied/") {
			return 403, `{"message":"Missing Permissions","code":50013}`, true
		}
		if strings.Contains(r.URL.Path, "/interactions/i-limited/") {
			return 429, `{"message":"You are being rate limited.","retry_after":30}`, true
		}
		return 0, "", false
	})
	ans := &answerFunc{fn: func(context.Context, knowledge.Question) (*knowledge.Answer, error) {
		return nil, fmt.Errorf("store exploded near token=%s url https://discord.com/api/v9/webhooks/1/%s", testToken, testInteractionToken)
	}}
	cfg := Config{GatewayURL: f.gatewayURL(), PrefixCommands: true}
	cfg.BotToken = NewSecret(testToken)
	cfg.APIURL = f.srv.URL
	cfg.AppID = testAppID
	a, err := NewAdapter(cfg, ans, nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	a.session.LogLevel = discordgo.LogDebug // as verbose as discordgo goes
	startAdapter(t, a)
	select {
	case <-f.identify:
	case <-time.After(10 * time.Second):
		t.Fatal("no Identify")
	}
	f.dispatch("MESSAGE_CREATE", message("1", "c-denied", testGuild, "100", "!k8s 1.29", false))
	f.next("POST", "/api/v9/channels/c-denied/", 5*time.Second)
	f.dispatch("INTERACTION_CREATE", interactionPayload("i-limited", discordgo.InteractionApplicationCommand, invocation("kep", "number", "1")))
	f.next("POST", "/api/v9/interactions/i-limited/", 5*time.Second)
	f.dispatch("INTERACTION_CREATE", interactionPayload("i-ok", discordgo.InteractionApplicationCommand, invocation("kep", "number", "1")))
	f.next("POST", "/api/v9/interactions/i-ok/", 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	discordgo.Logger(discordgo.LogError, 0, "direct: %s %#v", "Bot "+testToken, struct{ Token string }{testInteractionToken})

	out := logs.String()
	if !strings.Contains(out, `"component":"discordgo"`) || !strings.Contains(out, "Identify") {
		t.Fatalf("discordgo's own logging did not reach the logger; the test proves nothing:\n%.2000s", out)
	}
	if !strings.Contains(out, "answer failed") || !strings.Contains(out, "post failed") {
		t.Fatalf("the failures were not logged:\n%.3000s", out)
	}
	for _, secret := range []string{testToken, strings.Split(testToken, ".")[2], testInteractionToken, "secret-part"} {
		if strings.Contains(out, secret) {
			i := strings.Index(out, secret)
			t.Errorf("a secret reached the log: …%s…", out[max(0, i-200):min(len(out), i+100)])
		}
	}
	if m := discordToken.FindString(out); m != "" {
		t.Errorf("something shaped like a bot token reached the log: %s", m)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if json.Unmarshal([]byte(line), &v) != nil {
			t.Errorf("log line is not JSON: %s", line)
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	s := NewSecret(testToken)
	b, _ := json.Marshal(struct{ T Secret }{s})
	logs := &logBuffer{}
	zl := zerolog.New(logs)
	zl.Info().Stringer("t", s).Interface("cfg", Config{BotToken: s}).Msg("x")
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q %x", s, s, s, s, s, s),
		fmt.Sprintf("%+v", Config{BotToken: s}), string(b), logs.String()} {
		if strings.Contains(out, testToken) || strings.Contains(out, "MTIz") {
			t.Errorf("secret printed: %s", out)
		}
	}
	if s.Value() != testToken {
		t.Error("Value lost the token")
	}
}
