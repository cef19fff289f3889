package knowledge

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// command is one form of the grammar as help and usage lines show it.
type command struct {
	Topic    string   // the help topic: help kep, help subscribe
	Usage    string   // the syntax
	Summary  string   // what it answers
	Examples []string // questions that work
	Detail   []string // more lines for `help TOPIC`
}

// commands lists every form of the grammar, in the order help shows them.
var commands = []command{
	{Topic: "kep", Usage: "kep NUMBER", Summary: "one KEP: name, SIG, stages reached, feature gates, links",
		Examples: []string{"kep 4639", "KEP-3866", "4639"}},
	{Topic: "is", Usage: "is kep NUMBER STAGE [in VERSION]",
		Summary:  "yes or no first, then the KEP's stages as evidence; is VERSION supported does the same for a release",
		Examples: []string{"is kep 753 ga", "is kep 4639 beta in 1.33", "is 1.31 supported"},
		Detail:   []string{"With in VERSION: was the KEP at that stage in that release."}},
	{Topic: "release", Usage: "VERSION", Summary: "one release: date, theme, enhancement counts, highlights",
		Examples: []string{"1.29", "v1.30"}},
	{Topic: "stage", Usage: "VERSION STAGE", Summary: "every KEP that reached a stage in a release",
		Examples: []string{"1.29 ga", "beta 1.30", "1.31 alpha", "1.29 稳定"},
		Detail:   []string{"Stages: alpha, beta, ga (also stable, GA, 稳定, 正式)."}},
	{Topic: "deprecations", Usage: "VERSION deprecations|removals", Summary: "what a release deprecated or removed, with the pull requests of its release notes",
		Examples: []string{"1.29 deprecations", "removals 1.31", "1.30 弃用", "1.29 notices"},
		Detail:   []string{"deprecated and 弃用 mean deprecations; removed and 移除 mean removals; notices means both and upgrade notes."}},
	{Topic: "action", Usage: "VERSION action required", Summary: "a release's urgent upgrade notes: what to do before upgrading to it",
		Examples: []string{"1.35 action required", "urgent 1.33", "1.34 upgrade notes"}},
	{Topic: "eol", Usage: "VERSION eol", Summary: "a release's support dates: released, maintenance, end of life, latest patch",
		Examples: []string{"1.31 eol", "eol 1.30", "1.29 end of life"}},
	{Topic: "patches", Usage: "VERSION patches", Summary: "a release's patch releases with their dates, newest first",
		Examples: []string{"1.30 patches", "latest 1.30 patch"}},
	{Topic: "supported", Usage: "supported", Summary: "the releases in support today, and until when",
		Examples: []string{"supported"}},
	{Topic: "latest", Usage: "latest", Summary: "the newest release and the newest patch of each supported one",
		Examples: []string{"latest"}},
	{Topic: "releases", Usage: "releases", Summary: "every release I know, with date, theme and counts",
		Examples: []string{"releases"},
		Detail:   []string{"Releases an announcement or release note covers are listed with date, theme and counts; those known only from kep.yaml milestones or the deprecation guide are listed apart, on one line: Not announced."}},
	{Topic: "gate", Usage: "gate NAME", Summary: "which KEP a feature gate belongs to, its stages, and notices naming it",
		Examples: []string{"gate NFTablesProxyMode", "gate ImageVolume"},
		Detail:   []string{"Case does not matter; a near miss gets a suggestion."}},
	{Topic: "search", Usage: "search WORDS", Summary: "KEPs ranked by their name, feature gates, SIG and the documents' words",
		Examples: []string{"search image volume", "search nftables", "search 访问模式"},
		Detail: []string{"A phrase in a KEP's name ranks first, then words in the name, feature gates, SIG and what documents said; ties by KEP number.",
			"English words also find the words they begin (volume finds volumes); Chinese works without spaces."}},
	{Topic: "diff", Usage: "diff FROM TO", Summary: "what graduated, was deprecated or removed, and which APIs stop being served, after FROM up to TO",
		Examples: []string{"diff 1.29 1.32", "diff 1.30 1.31"},
		Detail:   []string{"Stages follow kep.yaml for the KEPs it knows. Give the older release first."}},
	{Topic: "upgrade", Usage: "upgrade FROM TO", Summary: "the same as diff, for someone running FROM who goes to TO: APIs that stop being served first",
		Examples: []string{"upgrade 1.29 1.32", "upgrade 1.30 1.31"},
		Detail:   []string{"Give the release you run first."}},
	{Topic: "api", Usage: "api KIND|GROUP/VERSION [KIND] [in VERSION]", Summary: "when each version of an API was introduced, deprecated and removed, what replaces it, and the sources",
		Examples: []string{"api Ingress", "api batch/v1beta1", "api flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", "api batch/v1beta1 in 1.24"},
		Detail: []string{"With in VERSION: yes or no first, is it served in that release.",
			"The release notes of the release that did it win over the migration guide, and both over the API modules' lifecycle markers; where they disagree, the answer says so."}},
	{Topic: "scan", Usage: "scan [FROM] TO, then manifests", Summary: "which objects of your manifests use API versions removed or deprecated by TO, and what to use instead",
		Examples: []string{"scan 1.36", "scan 1.32 1.36"},
		Detail: []string{"Put the YAML or JSON after the question in the same message (a code block is fine), or attach a .yaml file (up to 1 MiB, 5,000 documents).",
			"Only apiVersion, kind, name and namespace are read and repeated: never a value, so Secrets stay secret.",
			"A pasted kubectl version gives FROM. In a terminal: bot scan --to 1.36 FILES."}},
	{Topic: "pr", Usage: "pr NUMBER", Summary: "the release-note entries of a pull request of kubernetes/kubernetes: release, kinds, SIGs, the KEP it links to",
		Examples: []string{"pr 130135", "pr 129207"},
		Detail:   []string{"A pasted link to the pull request (github.com/kubernetes/kubernetes/pull/129207) asks the same; a link to a KEP (kep.k8s.io/4639, its issue or folder) asks for the KEP."}},
	{Topic: "sig", Usage: "sig NAME [VERSION]", Summary: "the KEPs of one SIG, or those that reached a stage in one release",
		Examples: []string{"sig network", "sig node 1.30", "SIG API Machinery"}},
	{Topic: "subscribe", Usage: "subscribe deprecations [sig:NAME] [from:VERSION] [schedule:release|weekly|daily] [format:compact|full]",
		Summary:  "post deprecation digests to this channel",
		Examples: []string{"subscribe deprecations", "subscribe deprecations sig:network schedule:weekly"},
		Detail: []string{
			"sig:NAME keeps only one SIG's notices, e.g. sig:network.",
			"from:VERSION starts at a release, e.g. from:1.29.",
			"schedule: release (when a release lands, the default), weekly or daily.",
			"format: compact (the default) or full.",
		}},
	{Topic: "unsubscribe", Usage: "unsubscribe deprecations", Summary: "stop this channel's deprecation digests",
		Examples: []string{"unsubscribe deprecations"}},
	{Topic: "subscriptions", Usage: "subscriptions", Summary: "this channel's subscriptions",
		Examples: []string{"subscriptions"}},
	{Topic: "help", Usage: "help [TOPIC]", Summary: "this help, or more about one command",
		Examples: []string{"help", "help subscribe"}},
}

// topicAliases maps other words people use for a help topic to the topic.
var topicAliases = map[string]string{
	"version": "release", "versions": "releases", "upgrades": "upgrade",
	"removals": "deprecations", "removal": "deprecations", "removed": "deprecations",
	"deprecation": "deprecations", "deprecated": "deprecations", "notices": "deprecations",
	"ga": "stage", "stable": "stage", "beta": "stage", "alpha": "stage", "stages": "stage",
	"gates": "gate", "feature-gate": "gate", "subscription": "subscriptions",
	"urgent": "action", "action-required": "action", "end-of-life": "eol", "lifecycle": "eol", "support": "supported",
	"patch": "patches", "apis": "api", "apiversion": "api", "manifests": "scan", "manifest": "scan",
	"pull": "pr", "pulls": "pr", "prs": "pr",
}

// HelpTopics returns every help topic, in the order help shows them: what
// "help TOPIC" accepts besides aliases, and what "did you mean" offers.
func HelpTopics() []string { return helpTopics() }

// HelpTopic returns the help topic that name is, or an alias of ("removed"
// is deprecations), and false when it is neither. Case does not matter.
func HelpTopic(name string) (string, bool) {
	c := findCommand(name)
	if c == nil {
		return "", false
	}
	return c.Topic, true
}

// Usage returns the usage line of a help topic: "Usage: kep NUMBER, e.g.
// kep 4639." For a topic it does not know, it points to help.
func Usage(topic string) string { return usage(topic) }

// helpTopics returns every topic name, for "did you mean".
func helpTopics() []string {
	out := make([]string, 0, len(commands)+len(topicAliases))
	for _, c := range commands {
		out = append(out, c.Topic)
	}
	return out
}

// findCommand returns the command of a help topic or alias, or nil.
func findCommand(topic string) *command {
	t := strings.ToLower(topic)
	if a, ok := topicAliases[t]; ok {
		t = a
	}
	for i := range commands {
		if commands[i].Topic == t {
			return &commands[i]
		}
	}
	return nil
}

// usage returns the usage line of a topic: "Usage: kep NUMBER, e.g. kep 4639."
func usage(topic string) string {
	c := findCommand(topic)
	if c == nil {
		return "Try help to see what I can answer."
	}
	return fmt.Sprintf("Usage: %s, e.g. %s.", c.Usage, c.Examples[0])
}

// BadInput returns an EBADINPUT *Error whose message says what was wrong
// and ends with the usage line of topic.
func BadInput(topic, format string, args ...any) *Error {
	return &Error{Code: EBADINPUT, Message: fmt.Sprintf(format, args...) + " " + usage(topic)}
}

// HelpAnswer builds the answer to `help` (topic "") or `help TOPIC`. It fails
// with EBADINPUT for a topic it does not know.
func HelpAnswer(topic string) (*Answer, error) {
	if topic == "" {
		a := &Answer{Kind: KindHelp, Title: "kepbot help", Query: "help",
			Text: "Ask me about Kubernetes releases and KEPs, in your own words (what went GA in 1.30?, is sidecar containers stable?, 1.30 有哪些 GA 的特性) or as below. Each line below is a question I understand; help TOPIC tells more."}
		for _, c := range commands {
			a.Facts = append(a.Facts, Fact{Name: c.Usage, Value: c.Summary + " (e.g. " + strings.Join(c.Examples, ", ") + ")"})
		}
		return a, nil
	}
	c := findCommand(topic)
	if c == nil {
		return nil, &Error{Code: EBADINPUT, Message: "I have no help on that topic. Topics: " + strings.Join(helpTopics(), ", ") + ".",
			Suggestions: prose.PrefixAll("help ", ClosestWords(strings.ToLower(topic), helpTopics()))}
	}
	a := &Answer{Kind: KindHelp, Title: "kepbot help: " + c.Topic, Query: "help " + c.Topic,
		Text: c.Usage + ": " + c.Summary + "."}
	a.Facts = append(a.Facts, Fact{Name: "Usage", Value: c.Usage})
	for _, d := range c.Detail {
		a.Facts = append(a.Facts, Fact{Name: "Note", Value: d})
	}
	for _, ex := range c.Examples {
		a.Facts = append(a.Facts, Fact{Name: "Example", Value: ex})
	}
	return a, nil
}
