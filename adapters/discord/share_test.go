package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// callbackWire is an interaction response as Discord receives it.
type callbackWire struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data struct {
		Content    string                    `json:"content"`
		Flags      int                       `json:"flags"`
		Embeds     []*discordgo.MessageEmbed `json:"embeds"`
		Components *[]struct {
			Components []struct {
				Label    string `json:"label"`
				CustomID string `json:"custom_id"`
			} `json:"components"`
		} `json:"components"`
	} `json:"data"`
}

func decodeCallback(t *testing.T, body []byte) callbackWire {
	t.Helper()
	var c callbackWire
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatalf("callback %s: %v", body, err)
	}
	return c
}

// shareID returns the custom_id of the share button in c, or "".
func (c callbackWire) shareID() string {
	if c.Data.Components == nil {
		return ""
	}
	for _, row := range *c.Data.Components {
		for _, b := range row.Components {
			if strings.HasPrefix(b.CustomID, sharePrefix) && b.Label == shareLabel {
				return b.CustomID
			}
		}
	}
	return ""
}

// ephemeralButton is buttonPayload pressed on an ephemeral message.
func ephemeralButton(id, customID string) []byte {
	p := buttonPayload(id, customID)
	p["message"].(map[string]any)["flags"] = discordgo.MessageFlagsEphemeral
	b, _ := json.Marshal(p)
	return b
}

// TestShareOverHTTP: /k8s kep answers privately (flags 64) with a "Share
// in channel" button. Pressing it (a signed component interaction) asks
// again: the private message becomes a note without the button (type 7),
// and the answer follows for everyone through the interaction webhook,
// without the ephemeral flag, mentioning no one. A forged press is refused.
func TestShareOverHTTP(t *testing.T) {
	f := newFakeDiscord(t)
	_, key, mux := httpAdapter(t, engine.New(openKnowledge(t)), nil, f.srv.URL)
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, signed(key, now, interactionBody(t, "s1", discordgo.InteractionApplicationCommand, invocation("kep", "number", "9101"))))
	c := decodeCallback(t, w.Body.Bytes())
	if c.Type != discordgo.InteractionResponseChannelMessageWithSource || c.Data.Flags&int(discordgo.MessageFlagsEphemeral) == 0 ||
		len(c.Data.Embeds) == 0 || c.Data.Embeds[0].Title != "KEP-9101: Widget autoscaling" || c.shareID() != sharePrefix+"kep 9101" {
		t.Fatalf("/k8s kep 9101 = %s; want a private answer with the share button", w.Body)
	}

	_, otherKey, _ := ed25519.GenerateKey(nil)
	w = httptest.NewRecorder()
	mux.ServeHTTP(w, signed(otherKey, now, ephemeralButton("s2", c.shareID())))
	if w.Code != http.StatusUnauthorized {
		t.Errorf("a press signed with another key = %d, want 401", w.Code)
	}

	w = httptest.NewRecorder()
	mux.ServeHTTP(w, signed(key, now, ephemeralButton("s3", c.shareID())))
	note := decodeCallback(t, w.Body.Bytes())
	if note.Type != discordgo.InteractionResponseUpdateMessage || note.Data.Content != sharedNote ||
		note.Data.Components == nil || len(*note.Data.Components) != 0 || len(note.Data.Embeds) != 0 {
		t.Errorf("share press = %s; want the private message replaced by %q without buttons", w.Body, sharedNote)
	}
	post := f.next("POST", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken, 5*time.Second)
	var shared struct {
		Flags      int                       `json:"flags"`
		Embeds     []*discordgo.MessageEmbed `json:"embeds"`
		Components []any                     `json:"components"`
	}
	if err := json.Unmarshal(post.Body, &shared); err != nil {
		t.Fatal(err)
	}
	if shared.Flags&int(discordgo.MessageFlagsEphemeral) != 0 || len(shared.Embeds) == 0 ||
		shared.Embeds[0].Title != "KEP-9101: Widget autoscaling" || len(shared.Components) != 0 {
		t.Errorf("shared follow-up = %s; want the answer for everyone, without a button", post.Body)
	}
	if n := f.checkAllMessagesMuted(t); n != 1 {
		t.Errorf("%d messages through the webhook, want the one shared answer", n)
	}
}

// TestPrivateDeferral: a /k8s answer slower than the inline budget is
// deferred privately (type 5 with flags 64), so the edit that brings it
// stays private and keeps its share button.
func TestPrivateDeferral(t *testing.T) {
	f := newFakeDiscord(t)
	release := make(chan struct{})
	eng := engine.New(openKnowledge(t))
	slow := &answerFunc{fn: func(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
		<-release
		return eng.Answer(ctx, q)
	}}
	a, key, mux := httpAdapter(t, slow, nil, f.srv.URL)
	a.inlineBudget = 20 * time.Millisecond
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, signed(key, now, interactionBody(t, "p1", discordgo.InteractionApplicationCommand, invocation("kep", "number", "9101"))))
	if c := decodeCallback(t, w.Body.Bytes()); c.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || c.Data.Flags&int(discordgo.MessageFlagsEphemeral) == 0 {
		t.Fatalf("slow /k8s = %s; want a private deferral", w.Body)
	}
	close(release)
	edit := f.next("PATCH", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken+"/messages/@original", 5*time.Second)
	if !strings.Contains(string(edit.Body), "KEP-9101") || !strings.Contains(string(edit.Body), sharePrefix+"kep 9101") {
		t.Errorf("edit of the private deferral = %.300s; want the answer and its share button", edit.Body)
	}
	a.wg.Wait()
}

// TestPublicAnswersDiscord: with answers.public, /k8s answers for everyone
// and offers no share button; errors stay private.
func TestPublicAnswersDiscord(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	logger, _ := testLogger(t)
	a, err := NewAdapter(Config{PublicKey: hex.EncodeToString(pub), PublicAnswers: true}, engine.New(openKnowledge(t)), nil, logger,
		WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	h := a.InteractionsHandler()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(key, now, interactionBody(t, "u1", discordgo.InteractionApplicationCommand, invocation("kep", "number", "9101"))))
	if c := decodeCallback(t, w.Body.Bytes()); c.Data.Flags&int(discordgo.MessageFlagsEphemeral) != 0 || c.shareID() != "" || len(c.Data.Embeds) == 0 {
		t.Errorf("public /k8s kep 9101 = %s; want it for everyone, without a share button", w.Body)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, signed(key, now, interactionBody(t, "u2", discordgo.InteractionApplicationCommand, invocation("kep", "number", "abc"))))
	if c := decodeCallback(t, w.Body.Bytes()); c.Data.Flags&int(discordgo.MessageFlagsEphemeral) == 0 {
		t.Errorf("an error with public answers = %s; want it private", w.Body)
	}
}

// TestInvitePermissions: the invite URL in docs/discord.md asks for exactly
// the permissions kepbot uses, replies (Read Message History) included.
func TestInvitePermissions(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "discord.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := int64(discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks |
		discordgo.PermissionReadMessageHistory | discordgo.PermissionSendMessagesInThreads)
	if !strings.Contains(string(raw), "&permissions="+strconv.FormatInt(want, 10)) {
		t.Errorf("docs/discord.md's invite URL does not ask for permissions=%d (view, send, embed links, read history, send in threads)", want)
	}
}

// TestPrivateAnswerOffersItsFollowUps: a private answer with follow-up
// questions (is GizmoSidecars on by default in … suggests gate
// GizmoSidecars) carries a button for each, then the share button; a
// public one carries neither (a press would replace it for everyone).
func TestPrivateAnswerOffersItsFollowUps(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "answers", "gate_default.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a knowledge.Answer
	if err := json.Unmarshal(b, &a); err != nil || len(a.Suggest) == 0 {
		t.Fatalf("gate_default.json: %v, suggestions %v", err, a.Suggest)
	}
	a.Query = "is GizmoSidecars on by default in 1.30"
	var ids []string
	msgs := draw(&a, true)
	for _, row := range msgs[len(msgs)-1].Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			ids = append(ids, c.(discordgo.Button).CustomID)
		}
	}
	if want := []string{askPrefix + a.Suggest[0], sharePrefix + a.Query}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("buttons %q; want %q", ids, want)
	}
	for _, m := range draw(&a, false) {
		if len(m.Components) != 0 {
			t.Errorf("a public answer has buttons: %+v", m.Components)
		}
	}
}
