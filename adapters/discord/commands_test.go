package discord

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestCommandsFile keeps configs/discord-commands.json in step with
// Commands; -update rewrites it (go generate does so too).
func TestCommandsFile(t *testing.T) {
	got, err := CommandsJSON()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", CommandsFile)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (go test -run TestCommandsFile -update writes it): %v", CommandsFile, err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale; run go generate ./adapters/discord (-file +Commands):\n%s", CommandsFile, diff)
	}
}

var commandName = regexp.MustCompile(`^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$`)

// TestCommandsWithinDiscordLimits checks names (1-32, lower case),
// descriptions (1-100), options and choices (25 each), choice names and
// values, max_length, and the combined size of the command.
func TestCommandsWithinDiscordLimits(t *testing.T) {
	cmds := Commands()
	if len(cmds) == 0 || len(cmds) > 100 {
		t.Fatalf("%d commands", len(cmds))
	}
	for _, c := range cmds {
		total := length(c.Name) + length(c.Description)
		checkName(t, c.Name)
		checkDescription(t, c.Name, c.Description)
		if len(c.Options) > MaxOptions {
			t.Errorf("/%s has %d options, over %d", c.Name, len(c.Options), MaxOptions)
		}
		var walk func(path string, opts []*discordgo.ApplicationCommandOption)
		walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
			if len(opts) > MaxOptions {
				t.Errorf("%s has %d options, over %d", path, len(opts), MaxOptions)
			}
			required := true
			for _, o := range opts {
				p := path + " " + o.Name
				checkName(t, o.Name)
				checkDescription(t, p, o.Description)
				total += length(o.Name) + length(o.Description)
				if o.Required && !required {
					t.Errorf("%s: a required option after an optional one", p)
				}
				required = o.Required
				if len(o.Choices) > MaxChoices {
					t.Errorf("%s has %d choices, over %d", p, len(o.Choices), MaxChoices)
				}
				if o.Autocomplete && len(o.Choices) > 0 {
					t.Errorf("%s has both choices and autocomplete", p)
				}
				for _, ch := range o.Choices {
					v, _ := ch.Value.(string)
					if ch.Name == "" || length(ch.Name) > MaxChoiceName || v == "" || length(v) > MaxChoiceValue {
						t.Errorf("%s: choice %q=%q out of limits", p, ch.Name, v)
					}
					total += length(ch.Name) + length(v)
				}
				if o.Type == discordgo.ApplicationCommandOptionString && (o.MaxLength < 1 || o.MaxLength > MaxOptionLength) {
					t.Errorf("%s: max_length %d, want 1 to %d", p, o.MaxLength, MaxOptionLength)
				}
				walk(p, o.Options)
			}
		}
		walk("/"+c.Name, c.Options)
		if total > MaxCommandTotal {
			t.Errorf("/%s holds %d characters of names, descriptions and choices, over %d", c.Name, total, MaxCommandTotal)
		}
	}
}

func checkName(t *testing.T, name string) {
	t.Helper()
	if !commandName.MatchString(name) || strings.ToLower(name) != name || length(name) > MaxCommandName {
		t.Errorf("name %q: want 1 to %d lower-case letters, digits, - or _", name, MaxCommandName)
	}
}

func checkDescription(t *testing.T, where, d string) {
	t.Helper()
	if d == "" || length(d) > MaxCommandDescription {
		t.Errorf("%s: description of %d characters, want 1 to %d", where, length(d), MaxCommandDescription)
	}
}

// invocation builds the data of /k8s SUB with string options name=value.
func invocation(sub string, kv ...string) discordgo.ApplicationCommandInteractionData {
	s := &discordgo.ApplicationCommandInteractionDataOption{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Options = append(s.Options, &discordgo.ApplicationCommandInteractionDataOption{Name: kv[i], Type: discordgo.ApplicationCommandOptionString, Value: kv[i+1]})
	}
	return discordgo.ApplicationCommandInteractionData{Name: CommandName, Options: []*discordgo.ApplicationCommandInteractionDataOption{s}}
}

// TestCommandText checks that every subcommand becomes the text a user
// would type, and that it parses to the question meant.
func TestCommandText(t *testing.T) {
	tests := []struct {
		data      discordgo.ApplicationCommandInteractionData
		text      string
		canonical string
	}{
		{invocation("kep", "number", "4639"), "kep 4639", "kep 4639"},
		{invocation("kep", "number", "KEP-4639"), "kep KEP-4639", "kep 4639"},
		{invocation("release", "version", "1.29"), "release 1.29", "1.29"},
		{invocation("release", "version", "v1.29", "stage", "ga"), "release v1.29 ga", "1.29 ga"},
		{invocation("release", "version", "1.30", "stage", "deprecations"), "release 1.30 deprecations", "1.30 deprecations"},
		{invocation("release", "version", "1.30", "stage", "notices"), "release 1.30 notices", "1.30 notices"},
		{invocation("gate", "name", "NFTablesProxyMode"), "gate NFTablesProxyMode", "gate NFTablesProxyMode"},
		{invocation("search", "words", "image  volume"), "search image volume", "search image volume"},
		{invocation("diff", "from", "1.29", "to", "1.32"), "diff 1.29 1.32", "diff 1.29 1.32"},
		{invocation("cves", "version", "1.30.2"), "cves 1.30.2", "cves 1.30.2"},
		{invocation("cve", "id", "CVE-2024-10220"), "cve CVE-2024-10220", "cve CVE-2024-10220"},
		{invocation("cve", "id", "cve-2024-10220", "version", "v1.30.2"), "is v1.30.2 affected by cve-2024-10220", "is 1.30.2 affected by CVE-2024-10220"},
		{invocation("ask", "text", "1.29 ga"), "1.29 ga", "1.29 ga"},
		{invocation("ask", "text", "line\nbreak"), "line break", ""},
		{invocation("help"), "help", "help"},
		{invocation("subscribe"), "subscribe deprecations", "subscribe deprecations"},
		{invocation("subscribe", "sig", "Network", "from", "v1.29", "schedule", "weekly", "format", "full"),
			"subscribe deprecations sig:Network from:v1.29 schedule:weekly format:full",
			"subscribe deprecations sig:network from:1.29 schedule:weekly format:full"},
		{invocation("subscribe", "format", "compact", "sig", "sig-node"), "subscribe deprecations sig:sig-node format:compact",
			"subscribe deprecations sig:node format:compact"},
		{invocation("unsubscribe"), "unsubscribe deprecations", "unsubscribe deprecations"},
		{invocation("subscribe", "topic", "cves", "schedule", "daily"), "subscribe cves schedule:daily", "subscribe cves schedule:daily"},
		{invocation("unsubscribe", "topic", "cves"), "unsubscribe cves", "unsubscribe cves"},
		{invocation("subscriptions"), "subscriptions", "subscriptions"},
	}
	for _, tt := range tests {
		got, err := commandText(tt.data)
		if err != nil || got != tt.text {
			t.Errorf("commandText(/%s) = %q, %v; want %q", tt.data.Options[0].Name, got, err, tt.text)
			continue
		}
		if tt.canonical == "" {
			continue
		}
		q, err := question.Parse(got)
		if err != nil || q.Canonical() != tt.canonical {
			t.Errorf("Parse(%q) = %q, %v; want %q", got, q.Canonical(), err, tt.canonical)
		}
	}
	for _, bad := range []discordgo.ApplicationCommandInteractionData{
		{Name: "other"}, {Name: CommandName}, invocation("nope"),
		{Name: CommandName, Options: []*discordgo.ApplicationCommandInteractionDataOption{nil}},
		invocation("subscribe", "sig", "api machinery"), invocation("subscribe", "from", "1.29 schedule:daily"),
	} {
		if _, err := commandText(bad); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Errorf("commandText(%+v) error = %v, want bad input", bad, err)
		}
	}
}

// TestSubscribeChoicesParse sends every choice /k8s subscribe offers
// through the grammar: each is a value the parser takes, and a bad value
// typed in a free option gets the parser's clear message.
func TestSubscribeChoicesParse(t *testing.T) {
	var sub *discordgo.ApplicationCommandOption
	for _, o := range Commands()[0].Options {
		if o.Name == "subscribe" {
			sub = o
		}
	}
	if sub == nil {
		t.Fatal("no subscribe subcommand")
	}
	n := 0
	for _, o := range sub.Options {
		for _, c := range o.Choices {
			n++
			text, err := commandText(invocation("subscribe", o.Name, c.Value.(string)))
			if err != nil {
				t.Fatalf("%s=%v: %v", o.Name, c.Value, err)
			}
			q, err := question.Parse(text)
			want := c.Value.(string)
			got := q.Filters[o.Name]
			if o.Name == "topic" { // the topic is the word after subscribe
				got, want = q.Canonical(), "subscribe "+want
			}
			if err != nil || q.Kind != knowledge.AskSubscribe || got != want {
				t.Errorf("%q parsed as %+v, %v", text, q, err)
			}
			if !question.ChangesSubscription(text) {
				t.Errorf("ChangesSubscription(%q) = false", text)
			}
		}
	}
	if n != 7 {
		t.Errorf("%d choices for topic, schedule and format, want 7", n)
	}
	for opt, bad := range map[string]string{"from": "abc", "sig": "net!work"} {
		text, err := commandText(invocation("subscribe", opt, bad))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := question.Parse(text); knowledge.ErrorCode(err) != knowledge.EBADINPUT || !strings.Contains(knowledge.ErrorMessage(err), opt+":") {
			t.Errorf("%q: error %v, want a bad-input message naming %s:", text, err, opt)
		}
	}
}

func TestOptionStringCapsLength(t *testing.T) {
	long := strings.Repeat("x", 5000)
	got := optionString([]*discordgo.ApplicationCommandInteractionDataOption{{Name: "text", Value: long}}, "text")
	if n := len([]rune(got)); n > MaxOptionLength+1 {
		t.Errorf("option of 5000 runes became %d", n)
	}
	if got := optionString([]*discordgo.ApplicationCommandInteractionDataOption{{Name: "text", Value: true}}, "text"); got != "" {
		t.Errorf("a boolean option became %q", got)
	}
}

// TestRegisteredCommandsAnswer asks the real engine each subcommand's text.
func TestRegisteredCommandsAnswer(t *testing.T) {
	e := testEngine(t)
	for _, d := range []discordgo.ApplicationCommandInteractionData{
		invocation("kep", "number", "9101"), invocation("release", "version", "1.29", "stage", "ga"),
		invocation("gate", "name", "GizmoSidecars"), invocation("search", "words", "gizmo"),
		invocation("diff", "from", "1.28", "to", "1.30"), invocation("ask", "text", "1.29"), invocation("help"),
	} {
		text, err := commandText(d)
		if err != nil {
			t.Fatal(err)
		}
		if a := question.NewAsker(nil, e).Ask(context.Background(), text, knowledge.Origin{}); a.Kind == knowledge.KindError {
			t.Errorf("/%s %q: error answer %q", d.Options[0].Name, text, a.Text)
		}
	}
}
