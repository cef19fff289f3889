package discord

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

//go:generate go test -run TestCommandsFile -update

// CommandName is the application command kepbot registers: /k8s.
const CommandName = "k8s"

// CommandsFile is where the command definitions are written as JSON, for
// review and for registering them by hand; TestCommandsFile keeps it in
// step with Commands.
const CommandsFile = "configs/discord-commands.json"

// Commands returns the application commands kepbot registers by bulk
// overwrite: /k8s with one subcommand per form of the question grammar.
// Every subcommand becomes typed text (commandText) that goes through the
// same parser as `!k8s …`.
//
// /k8s carries no default_member_permissions: Discord sets those for a
// whole command, not a subcommand, and everyone may ask questions. Who may
// subscribe or unsubscribe is checked when the command arrives
// (interactionCanManage).
func Commands() []*discordgo.ApplicationCommand {
	str := func(name, desc string, required, autocomplete bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name,
			Description: desc, Required: required, Autocomplete: autocomplete, MaxLength: MaxOptionLength}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	stage := str("stage", "What reached a stage, or what was deprecated or removed", false, false)
	for _, c := range []struct{ name, value string }{
		{"GA (stable)", "ga"}, {"beta", "beta"}, {"alpha", "alpha"},
		{"deprecations", "deprecations"}, {"removals", "removals"}, {"all notices", "notices"},
	} {
		stage.Choices = append(stage.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c.name, Value: c.value})
	}
	choice := func(o *discordgo.ApplicationCommandOption, pairs ...string) *discordgo.ApplicationCommandOption {
		for i := 0; i+1 < len(pairs); i += 2 {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: pairs[i], Value: pairs[i+1]})
		}
		return o
	}
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	install := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	return []*discordgo.ApplicationCommand{{
		Type:             discordgo.ChatApplicationCommand,
		Name:             CommandName,
		Description:      "Ask about Kubernetes releases and KEPs",
		Contexts:         &contexts,
		IntegrationTypes: &install,
		Options: []*discordgo.ApplicationCommandOption{
			sub("kep", "One KEP: name, SIG, stages reached, feature gates, links",
				str("number", "KEP number, e.g. 4639; type words of its name to pick one", true, true)),
			sub("release", "One release, or what reached a stage in it",
				str("version", "Release, e.g. 1.29", true, true), stage),
			sub("gate", "Which KEP a feature gate belongs to, and its stages",
				str("name", "Feature gate, e.g. NFTablesProxyMode", true, true)),
			sub("search", "KEPs whose name, feature gates or SIG hold the words",
				str("words", "Words to look for, e.g. image volume", true, false)),
			sub("diff", "What graduated, was deprecated or removed between two releases",
				str("from", "The release you run, e.g. 1.29", true, true),
				str("to", "The release you go to, e.g. 1.32", true, true)),
			sub("scan", "Which APIs your manifests use that are removed or deprecated in a release",
				str("target", "The release you go to, e.g. 1.36", true, true),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionAttachment, Name: "file",
					Description: "Your manifests: one .yaml or .json file of up to 1 MiB", Required: true},
				str("from", "The release you run now, e.g. 1.32", false, true)),
			sub("cves", "Known vulnerabilities (CVEs) of a Kubernetes patch release, or of a release's patches",
				str("version", "Patch release, e.g. 1.30.2, or a release, e.g. 1.30", true, true)),
			sub("cve", "One vulnerability: what it affects, every version that fixes it; with a release, yes or no",
				str("id", "CVE, GHSA or GO ID, e.g. CVE-2024-10220", true, false),
				str("version", "Is this patch release affected? e.g. 1.30.2", false, true)),
			sub("ask", "Ask in the words you would type after !k8s",
				str("text", "A question, e.g. 1.29 ga or kep 4639", true, false)),
			sub("subscribe", "Post deprecation and removal digests, or CVE digests, here (Manage Channels or Manage Server)",
				choice(str("topic", "What the digests hold; deprecations by default", false, false),
					"deprecations and removals", "deprecations", "new CVEs of Kubernetes", "cves"),
				str("sig", "Only this SIG's notices, e.g. network; every SIG when left out", false, false),
				str("from", "The release you run, e.g. 1.29: only what changes after it", false, true),
				choice(str("schedule", "When digests come; new release data by default", false, false),
					"when new release data arrives", digest.ScheduleRelease, "weekly", digest.ScheduleWeekly, "daily", digest.ScheduleDaily),
				choice(str("format", "How much of each notice to show; compact by default", false, false),
					"compact", digest.FormatCompact, "full, with the documents' words", digest.FormatFull)),
			sub("unsubscribe", "Stop this channel's digests (Manage Channels or Manage Server)",
				choice(str("topic", "Which digests to stop; deprecations by default", false, false),
					"deprecations and removals", "deprecations", "new CVEs of Kubernetes", "cves")),
			sub("subscriptions", "This channel's digests: filters, who subscribed, state, last digest"),
			sub("help", "What kepbot answers, and how to ask"),
		},
	}}
}

// CommandsJSON is Commands as indented JSON, the content of CommandsFile.
func CommandsJSON() ([]byte, error) {
	b, err := json.MarshalIndent(Commands(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode commands: %w", err)
	}
	return append(b, '\n'), nil
}

// commandText turns an invocation of /k8s into the text a user would type
// after !k8s: /k8s kep number:4639 is "kep 4639". It fails with an
// EBADINPUT *knowledge.Error for a command or subcommand it does not know.
func commandText(d discordgo.ApplicationCommandInteractionData) (string, error) {
	if d.Name != CommandName || len(d.Options) != 1 || d.Options[0] == nil || d.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return "", knowledge.Errorf(knowledge.EBADINPUT, "I only answer /%s with a subcommand, e.g. /%s kep number:4639. Discord may still show an old command; try again in a minute.", CommandName, CommandName)
	}
	sub := d.Options[0]
	v := func(name string) string { return optionString(sub.Options, name) }
	var parts []string
	switch sub.Name {
	case "kep":
		parts = []string{"kep", v("number")}
	case "release":
		parts = []string{"release", v("version"), v("stage")}
	case "gate":
		parts = []string{"gate", v("name")}
	case "search":
		parts = []string{"search", v("words")}
	case "diff":
		parts = []string{"diff", v("from"), v("to")}
	case "scan": // the manifests come in the file option: scanAttachment
		parts = []string{"scan"}
		if from := v("from"); from != "" {
			parts = append(parts, from)
		}
		parts = append(parts, v("target"))
	case "cves":
		parts = []string{"cves", v("version")}
	case "cve":
		parts = []string{"cve", v("id")}
		if ver := v("version"); ver != "" {
			parts = []string{"is", ver, "affected", "by", v("id")}
		}
	case "ask":
		parts = []string{v("text")}
	case "subscribe":
		parts = []string{"subscribe", topicOption(v("topic"))}
		for _, k := range []string{"sig", "from", "schedule", "format"} {
			val := v(k)
			if val == "" {
				continue
			}
			if strings.ContainsFunc(val, unicode.IsSpace) {
				return "", knowledge.Errorf(knowledge.EBADINPUT, "The %s option takes one word, e.g. %s.", k, filterExamples[k])
			}
			parts = append(parts, k+":"+val)
		}
	case "unsubscribe":
		parts = []string{"unsubscribe", topicOption(v("topic"))}
	case "subscriptions":
		parts = []string{"subscriptions"}
	case "help":
		parts = []string{"help"}
	default:
		return "", knowledge.Errorf(knowledge.EBADINPUT, "I don't know /%s %s. Try /%s help.", CommandName, short(plain(sub.Name), 32), CommandName)
	}
	return strings.TrimSpace(strings.Join(parts, " ")), nil
}

// topicOption is the topic a subscribe or unsubscribe names: cves, else
// deprecations.
func topicOption(v string) string {
	if v == digest.TopicCVEs {
		return digest.TopicCVEs
	}
	return digest.TopicDeprecations
}

// filterExamples show a good value of each subscribe option.
var filterExamples = map[string]string{"sig": "network", "from": "1.29", "schedule": "weekly", "format": "full"}

// optionString returns the string value of the named option as one line
// of at most MaxOptionLength runes, or "" when it is absent or not text.
func optionString(opts []*discordgo.ApplicationCommandInteractionDataOption, name string) string {
	for _, o := range opts {
		if o == nil || o.Name != name {
			continue
		}
		var s string
		switch v := o.Value.(type) {
		case string:
			s = v
		case float64:
			s = fmt.Sprint(v)
		}
		return short(plain(s), MaxOptionLength)
	}
	return ""
}

// focused returns the subcommand and the option being typed in an
// autocomplete interaction, and what has been typed so far.
func focused(d discordgo.ApplicationCommandInteractionData) (sub, option, typed string) {
	if d.Name != CommandName || len(d.Options) != 1 || d.Options[0] == nil {
		return "", "", ""
	}
	for _, o := range d.Options[0].Options {
		if o != nil && o.Focused {
			s, _ := o.Value.(string)
			return d.Options[0].Name, o.Name, short(plain(s), MaxOptionLength)
		}
	}
	return d.Options[0].Name, "", ""
}
