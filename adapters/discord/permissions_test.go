package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
)

// originRecorder is an Answerer that keeps the origin of every question,
// by user, and answers each with a short list.
type originRecorder struct {
	mu      sync.Mutex
	origins map[string]knowledge.Origin
	got     chan string // user IDs, as questions arrive
}

func newOriginRecorder() *originRecorder {
	return &originRecorder{origins: map[string]knowledge.Origin{}, got: make(chan string, 64)}
}

func (r *originRecorder) Answer(_ context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	r.mu.Lock()
	r.origins[q.From.User] = q.From
	r.mu.Unlock()
	r.got <- q.From.User
	return &knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Subscriptions", Text: "Noted."}, nil
}

// wait returns the origin of user's question, failing after a while.
func (r *originRecorder) wait(t *testing.T, users int) map[string]knowledge.Origin {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for seen := 0; seen < users; seen++ {
		select {
		case <-r.got:
		case <-deadline:
			t.Fatalf("only %d of %d questions reached the answerer", seen, users)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]knowledge.Origin{}
	for k, v := range r.origins {
		out[k] = v
	}
	return out
}

// Discord's permission bits, as numbers on the wire.
var (
	permManageChannels = strconv.FormatInt(discordgo.PermissionManageChannels, 10)
	permManageGuild    = strconv.FormatInt(discordgo.PermissionManageGuild, 10)
	permAdmin          = strconv.FormatInt(discordgo.PermissionAdministrator, 10)
	permChat           = strconv.FormatInt(discordgo.PermissionSendMessages|discordgo.PermissionViewChannel|discordgo.PermissionManageMessages, 10)
)

// commandPayload is an INTERACTION_CREATE for /k8s sub in a guild by a
// member with the given permissions, or in a DM when perms is "dm".
func commandPayload(id, user, perms string, data discordgo.ApplicationCommandInteractionData) map[string]any {
	p := map[string]any{"id": id, "application_id": testAppID, "type": discordgo.InteractionApplicationCommand,
		"token": testInteractionToken, "channel_id": "500000000000000001", "version": 1,
		"data": map[string]any{"id": "5", "name": data.Name, "type": 1, "options": data.Options}}
	u := map[string]any{"id": user, "username": "user" + user}
	if perms == "dm" {
		p["user"] = u
		p["channel_id"] = "500000000000000009"
		return p
	}
	p["guild_id"] = testGuild
	p["member"] = map[string]any{"user": u, "roles": []string{}, "permissions": perms}
	return p
}

// TestInteractionPermissionMatrix sends /k8s subscribe and unsubscribe as
// Discord would, from members with and without Manage Channels, Manage
// Server or Administrator, and from a DM: only the managers may, and only
// questions that change a subscription are judged (and audited).
func TestInteractionPermissionMatrix(t *testing.T) {
	rec := newOriginRecorder()
	logger, logs := testLogger(t)
	f := newFakeDiscord(t)
	a, err := NewAdapter(Config{BotToken: NewSecret(testToken), APIURL: f.srv.URL}, rec, nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	sub := invocation("subscribe", "sig", "network", "from", "1.29")
	tests := []struct {
		user, perms string
		data        discordgo.ApplicationCommandInteractionData
		want        bool
		audited     bool
	}{
		{"101", "0", sub, false, true},
		{"102", permChat, sub, false, true},
		{"103", permManageChannels, sub, true, true},
		{"104", permManageGuild, sub, true, true},
		{"105", permAdmin, sub, true, true},
		{"106", "dm", sub, false, true},
		{"107", permManageGuild, invocation("unsubscribe"), true, true},
		{"108", "0", invocation("unsubscribe"), false, true},
		{"109", permManageChannels, invocation("subscriptions"), false, false},
		{"110", permAdmin, invocation("kep", "number", "9101"), false, false},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(commandPayload("i"+tt.user, tt.user, tt.perms, tt.data))
		var i discordgo.Interaction
		if err := json.Unmarshal(b, &i); err != nil {
			t.Fatal(err)
		}
		a.interact(&i, a.interactionLog(&i, "test"))
	}
	origins := rec.wait(t, len(tests))
	for _, tt := range tests {
		o := origins[tt.user]
		if o.CanManage != tt.want {
			t.Errorf("user %s (%s, /k8s %s): CanManage = %v, want %v", tt.user, tt.perms, tt.data.Options[0].Name, o.CanManage, tt.want)
		}
		if o.Platform != Platform || o.User != tt.user || o.Channel == "" {
			t.Errorf("user %s: origin %+v", tt.user, o)
		}
		if tt.perms != "dm" && o.Workspace != testGuild {
			t.Errorf("user %s: workspace %q, want the guild", tt.user, o.Workspace)
		}
		if audited := auditLine(logs.String(), tt.user) != ""; audited != tt.audited {
			t.Errorf("user %s: audited %v, want %v", tt.user, audited, tt.audited)
		}
	}
	checkAuditHasNoText(t, logs.String())
}

// auditLine returns the audit log line about user, or "".
func auditLine(logs, user string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "subscription change permission") && strings.Contains(l, `"user":"`+user+`"`) {
			return l
		}
	}
	return ""
}

// checkAuditHasNoText fails unless every audit line names user, channel
// and decision, and no line holds a question's filters.
func checkAuditHasNoText(t *testing.T, logs string) {
	t.Helper()
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "sig:") || strings.Contains(l, "deprecations") {
			t.Errorf("a log line holds the question's text: %s", l)
		}
		if !strings.Contains(l, "subscription change permission") {
			continue
		}
		var e struct {
			User      string `json:"user"`
			Channel   string `json:"channel"`
			CanManage *bool  `json:"can_manage"`
			DecidedBy string `json:"decided_by"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.User == "" || e.Channel == "" || e.CanManage == nil || e.DecidedBy == "" {
			t.Errorf("audit line lacks user, channel or decision: %s", l)
		}
	}
}

// testGuildCreate is a guild as GUILD_CREATE gives it: @everyone may chat,
// role "mods" has Manage Channels (denied in channel c-locked), "admins"
// Administrator, "servers" Manage Server; a thread under each channel.
func testGuildCreate() map[string]any {
	return map[string]any{"id": testGuild, "name": "test guild", "owner_id": "600000000000000001",
		"roles": []map[string]any{
			{"id": testGuild, "name": "@everyone", "permissions": permChat},
			{"id": "300000000000000001", "name": "mods", "permissions": permManageChannels},
			{"id": "300000000000000002", "name": "admins", "permissions": permAdmin},
			{"id": "300000000000000003", "name": "servers", "permissions": permManageGuild},
		},
		"channels": []map[string]any{
			{"id": "c-open", "type": 0, "name": "general", "permission_overwrites": []any{}},
			{"id": "c-locked", "type": 0, "name": "locked", "permission_overwrites": []map[string]any{
				{"id": "300000000000000001", "type": 0, "allow": "0", "deny": permManageChannels}}},
		},
		"threads": []map[string]any{
			{"id": "t-open", "type": 11, "parent_id": "c-open", "name": "a thread"},
			{"id": "t-locked", "type": 11, "parent_id": "c-locked", "name": "a locked thread"},
		},
	}
}

// memberMessage is a MESSAGE_CREATE by a guild member with roles.
func memberMessage(id, channel, user, content string, roles ...string) map[string]any {
	m := message(id, channel, testGuild, user, content, false)
	if roles == nil {
		roles = []string{}
	}
	m["member"] = map[string]any{"roles": roles, "joined_at": "2024-01-01T00:00:00Z"}
	return m
}

// TestPrefixPermissionsFromState answers `!k8s subscribe …` in a guild the
// gateway described: permissions come from the state (roles, overwrites, a
// thread's parent) and the message's member, without REST calls; a DM
// never may; other questions are not judged.
func TestPrefixPermissionsFromState(t *testing.T) {
	f := newFakeDiscord(t)
	rec := newOriginRecorder()
	logger, logs := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, rec, nil, logger)
	f.dispatch("GUILD_CREATE", testGuildCreate())
	const mods, admins, servers = "300000000000000001", "300000000000000002", "300000000000000003"
	const text = "!k8s subscribe deprecations sig:network"
	tests := []struct {
		name     string
		msg      map[string]any
		want     bool
		audited  bool
		decision string
	}{
		{"mod", memberMessage("1", "c-open", "201", text, mods), true, true, decidedState},
		{"member", memberMessage("2", "c-open", "202", text), false, true, decidedState},
		{"owner", memberMessage("3", "c-open", "600000000000000001", text), true, true, decidedState},
		{"mod where denied", memberMessage("4", "c-locked", "204", text, mods), false, true, decidedState},
		{"server manager where mods are denied", memberMessage("5", "c-locked", "205", text, servers), true, true, decidedState},
		{"admin", memberMessage("6", "c-locked", "206", "!k8s unsubscribe", admins), true, true, decidedState},
		{"mod in a thread", memberMessage("7", "t-open", "207", text, mods), true, true, decidedState},
		{"mod in a thread of a channel denying them", memberMessage("10", "t-locked", "210", text, mods), false, true, decidedState},
		{"DM", message("8", "dm-1", "", "208", "subscribe deprecations", false), false, true, decidedDM},
		{"mod asking something else", memberMessage("9", "c-open", "209", "!k8s subscriptions", mods), false, false, ""},
	}
	for _, tt := range tests {
		f.dispatch("MESSAGE_CREATE", tt.msg)
	}
	origins := rec.wait(t, len(tests))
	for _, tt := range tests {
		user := tt.msg["author"].(map[string]any)["id"].(string)
		o := origins[user]
		if o.CanManage != tt.want {
			t.Errorf("%s: CanManage = %v, want %v", tt.name, o.CanManage, tt.want)
		}
		line := auditLine(logs.String(), user)
		if (line != "") != tt.audited || (tt.audited && !strings.Contains(line, `"decided_by":"`+tt.decision+`"`)) {
			t.Errorf("%s: audit line %q, want audited %v by %s", tt.name, line, tt.audited, tt.decision)
		}
	}
	for _, r := range f.all() {
		if r.Method == http.MethodGet && (strings.Contains(r.Path, "/channels/") || strings.Contains(r.Path, "/guilds/")) {
			t.Errorf("asked REST %s although the state knew: %s", r.Method, r.Path)
		}
	}
	checkAuditHasNoText(t, logs.String())
}

// TestPrefixPermissionsOverREST answers `!k8s subscribe …` in a guild the
// gateway has not described: the channel (a thread, then its parent,
// whose overwrite lets mods manage it), the guild and the member come
// over REST. A channel Discord refuses to
// describe refuses the change.
func TestPrefixPermissionsOverREST(t *testing.T) {
	f := newFakeDiscord(t)
	rec := newOriginRecorder()
	logger, logs := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, rec, nil, logger)
	const g2, mods = "700000000000000002", "310000000000000001"
	f.setOverride(func(r *http.Request) (int, string, bool) {
		if r.Method != http.MethodGet {
			return 0, "", false
		}
		switch strings.TrimPrefix(r.URL.Path, "/api/v9/") {
		case "channels/t-far":
			return 200, `{"id":"t-far","type":11,"guild_id":"` + g2 + `","parent_id":"c-far"}`, true
		case "channels/c-far": // mods may manage this channel only
			return 200, `{"id":"c-far","type":0,"guild_id":"` + g2 + `","permission_overwrites":[{"id":"` + mods + `","type":0,"allow":"` + permManageChannels + `","deny":"0"}]}`, true
		case "channels/c-hidden":
			return 403, `{"message":"Missing Access","code":50001}`, true
		case "guilds/" + g2:
			return 200, `{"id":"` + g2 + `","owner_id":"1","roles":[{"id":"` + g2 + `","permissions":"0"},{"id":"` + mods + `","permissions":"0"}]}`, true
		case "guilds/" + g2 + "/members/301":
			return 200, `{"user":{"id":"301"},"roles":["` + mods + `"]}`, true
		case "guilds/" + g2 + "/members/302":
			return 200, `{"user":{"id":"302"},"roles":[]}`, true
		}
		return 0, "", false
	})
	in := func(id, channel, user string) map[string]any {
		m := memberMessage(id, channel, user, "!k8s subscribe deprecations")
		m["guild_id"] = g2
		return m
	}
	f.dispatch("MESSAGE_CREATE", in("1", "t-far", "301"))
	f.dispatch("MESSAGE_CREATE", in("2", "c-far", "302"))
	f.dispatch("MESSAGE_CREATE", in("3", "c-hidden", "303"))
	origins := rec.wait(t, 3)
	for user, want := range map[string]bool{"301": true, "302": false, "303": false} {
		if origins[user].CanManage != want {
			t.Errorf("user %s: CanManage = %v, want %v", user, origins[user].CanManage, want)
		}
	}
	for user, how := range map[string]string{"301": decidedREST, "302": decidedREST, "303": decidedError} {
		if l := auditLine(logs.String(), user); !strings.Contains(l, `"decided_by":"`+how+`"`) {
			t.Errorf("user %s: audit line %q, want decided by %s", user, l, how)
		}
	}
	if count(f, http.MethodGet, "/api/v9/guilds/"+g2+"/members/301") != 1 {
		t.Errorf("the member was not asked over REST")
	}
	checkAuditHasNoText(t, logs.String())
}
