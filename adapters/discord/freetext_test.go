package discord

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
)

// buttonPayload is an INTERACTION_CREATE of a button press, as Discord
// sends it.
func buttonPayload(id, customID string) map[string]any {
	return map[string]any{"id": id, "application_id": testAppID, "type": discordgo.InteractionMessageComponent,
		"token": testInteractionToken, "guild_id": testGuild, "channel_id": "c1", "version": 1,
		"member":  map[string]any{"user": map[string]any{"id": "100", "username": "alice"}},
		"message": map[string]any{"id": "m1", "channel_id": "c1", "content": "x"},
		"data":    map[string]any{"custom_id": customID, "component_type": discordgo.ButtonComponent}}
}

// sentWithButtons is a channel message or callback data with its buttons.
type sentWithButtons struct {
	Content    string                    `json:"content"`
	Embeds     []*discordgo.MessageEmbed `json:"embeds"`
	Components []struct {
		Components []struct {
			Label    string `json:"label"`
			CustomID string `json:"custom_id"`
		} `json:"components"`
	} `json:"components"`
}

// TestGatewayFreeText asks questions as people type them with the prefix
// and a mention, over the fake gateway, to the real engine with the reader
// that knows its features by name; a "did you mean" carries buttons, and
// pressing one (an interaction over the gateway) replaces the message with
// the answer.
func TestGatewayFreeText(t *testing.T) {
	f := newFakeDiscord(t)
	kb := openKnowledge(t)
	logger, _ := testLogger(t)
	eng := engine.New(kb)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, eng, testCatalog(t, kb), logger, WithReader(question.NewReader(eng)))
	f.next("PUT", "/api/v9/applications/"+testAppID+"/commands", 5*time.Second)

	f.dispatch("MESSAGE_CREATE", message("10", "c1", testGuild, "100", "!k8s hey, what went GA in 1.29 pls?", false))
	var m sentWithButtons
	json.Unmarshal(f.next("POST", "/api/v9/channels/", 5*time.Second).Body, &m)
	if m.Content != "Read as `1.29 ga`" || len(m.Embeds) == 0 || m.Embeds[0].Title != "Kubernetes 1.29: GA" {
		t.Errorf("prefix answer = %+v", m)
	}
	f.dispatch("MESSAGE_CREATE", message("11", "c2", testGuild, "101", "<@"+botUserID+"> is widget autoscaling stable?", false))
	m = sentWithButtons{}
	json.Unmarshal(f.next("POST", "/api/v9/channels/", 5*time.Second).Body, &m)
	if m.Content != "Read as `is kep 9101 ga`" || len(m.Embeds) == 0 || !strings.HasPrefix(m.Embeds[0].Description, "Yes — KEP-9101 (Widget autoscaling) is GA") {
		t.Errorf("mention answer = %+v", m)
	}
	f.dispatch("MESSAGE_CREATE", message("12", "c3", testGuild, "102", "!k8s what's for lunch @everyone", false))
	m = sentWithButtons{}
	json.Unmarshal(f.next("POST", "/api/v9/channels/", 5*time.Second).Body, &m)
	if len(m.Embeds) != 0 || !strings.Contains(m.Content, "doesn't look like a question") || strings.Contains(m.Content, "@everyone") ||
		len(m.Components) != 1 || m.Components[0].Components[0].CustomID != askPrefix+"help" {
		t.Errorf("off-topic answer = %+v", m)
	}

	f.dispatch("INTERACTION_CREATE", buttonPayload("i1", askPrefix+"kep 9101"))
	cb := f.next("POST", "/api/v9/interactions/i1/", 5*time.Second)
	var resp struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data sentWithButtons                   `json:"data"`
	}
	json.Unmarshal(cb.Body, &resp)
	if resp.Type != discordgo.InteractionResponseUpdateMessage || len(resp.Data.Embeds) == 0 ||
		resp.Data.Embeds[0].Title != "KEP-9101: Widget autoscaling" || resp.Data.Components == nil || len(resp.Data.Components) != 0 {
		t.Errorf("button callback = %s", cb.Body)
	}
	f.checkAllMessagesMuted(t)
}

// TestInteractionButtonOverHTTP presses a suggestion button through the
// HTTP interactions endpoint: the answer replaces the message inline.
func TestInteractionButtonOverHTTP(t *testing.T) {
	eng := testEngine(t)
	_, key, mux := httpAdapter(t, eng, nil, "", WithReader(question.NewReader(eng)))
	body, _ := json.Marshal(buttonPayload("b1", askPrefix+"1.29 ga"))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, signed(key, now, body))
	var resp struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data sentWithButtons                   `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if resp.Type != discordgo.InteractionResponseUpdateMessage || len(resp.Data.Embeds) == 0 || resp.Data.Embeds[0].Title != "Kubernetes 1.29: GA" {
		t.Errorf("button response = %s", rec.Body)
	}
	body, _ = json.Marshal(buttonPayload("b2", "somebody-else:x"))
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, signed(key, now, body))
	if !strings.Contains(rec.Body.String(), "don't know that button") {
		t.Errorf("a foreign button = %s", rec.Body)
	}
}

// TestAskButtonsStayWithinLimits: suggestion buttons keep Discord's
// component limits, and only plain questions get one.
func TestAskButtonsStayWithinLimits(t *testing.T) {
	long := strings.Repeat("search widget ", 10)
	a := &knowledge.Answer{Kind: knowledge.KindError, Text: "x", Suggest: []string{"kep 1", "<@123> 1.29", "kep 2", long, "kep 3", "kep 4", "kep 5", "kep 6"}}
	m := Render(a)[0]
	if err := CheckMessage(m); err != nil {
		t.Fatal(err)
	}
	row := m.Components[0].(discordgo.ActionsRow)
	if len(row.Components) != MaxRowButtons {
		t.Errorf("%d buttons, want %d", len(row.Components), MaxRowButtons)
	}
	for _, b := range row.Components {
		if id := b.(discordgo.Button).CustomID; strings.ContainsAny(id, "<@>") || len(id) > MaxCustomID {
			t.Errorf("button custom_id %q", id)
		}
	}
}
