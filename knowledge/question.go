package knowledge

import (
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuestionKind says what a Question asks.
type QuestionKind string

// Question kinds, one per form of the grammar in architecture.md.
const (
	AskKEP           QuestionKind = "kep"           // kep 4639 · KEP-4639 · 4639; is kep 753 ga [in 1.30]
	AskRelease       QuestionKind = "release"       // 1.29 · v1.29
	AskReleaseStage  QuestionKind = "release_stage" // 1.29 ga · ga 1.29 · 1.29 beta
	AskNotices       QuestionKind = "notices"       // 1.29 deprecations · 1.29 removals
	AskReleases      QuestionKind = "releases"      // releases
	AskHelp          QuestionKind = "help"          // help · help subscribe
	AskGate          QuestionKind = "gate"          // gate NFTablesProxyMode
	AskSearch        QuestionKind = "search"        // search image volume
	AskDiff          QuestionKind = "diff"          // diff 1.29 1.32
	AskUpgrade       QuestionKind = "upgrade"       // upgrade 1.29 1.32: diff, read as "I run 1.29 and go to 1.32"
	AskSIG           QuestionKind = "sig"           // sig network [1.29]
	AskSubscribe     QuestionKind = "subscribe"     // subscribe deprecations [filters]
	AskUnsubscribe   QuestionKind = "unsubscribe"   // unsubscribe deprecations
	AskSubscriptions QuestionKind = "subscriptions" // subscriptions
	AskLifecycle     QuestionKind = "lifecycle"     // 1.31 eol · eol 1.31 · 1.31 end of life
	AskPatches       QuestionKind = "patches"       // 1.30 patches · patches 1.30 · latest 1.30 patch
	AskSupported     QuestionKind = "supported"     // supported; is 1.31 supported
	AskLatest        QuestionKind = "latest"        // latest
	AskAPI           QuestionKind = "api"           // api Ingress · api batch/v1beta1 [CronJob] [in 1.24]
	AskScan          QuestionKind = "scan"          // scan [1.32] 1.36, then a manifest
	AskPR            QuestionKind = "pr"            // pr 130135: the release-note entries of a kubernetes/kubernetes pull request
	AskGateDefault   QuestionKind = "gate_default"  // is ImageVolume on by default in 1.33: yes or no, with the stage and lock
	AskGateChanges   QuestionKind = "gate_changes"  // 1.34 gates: every gate whose declaration differs from the release before
	AskCVEs          QuestionKind = "cves"          // cves 1.30.2 · cves 1.30: the vulnerability records affecting a release
	AskCVE           QuestionKind = "cve"           // cve CVE-2024-10220; is 1.30.2 affected by CVE-2024-10220
)

// Question is one parsed request. Three kinds also ask yes or no: AskKEP
// with a Stage ("is kep 753 ga", with a Version "is kep 753 beta in 1.30":
// was it at that stage in that release), AskSupported with a Version
// ("is 1.31 supported"), AskGateDefault ("is ImageVolume on by default
// in 1.33") and AskCVE with a Version ("is 1.30.2 affected by
// CVE-2024-10220"); their answers start with the yes or the no, and carry
// it in Answer.Verdict.
// Adapters read it from the text a user
// typed with package knowledge/question (or build it from a platform's
// structured options) and fill From; the engine answers it.
type Question struct {
	Kind    QuestionKind `json:"kind"`
	Text    string       `json:"text"`              // the text as typed, normalised
	KEP     int          `json:"kep,omitempty"`     // AskKEP
	Version Version      `json:"version,omitempty"` // AskRelease, AskReleaseStage, AskNotices, AskSIG, AskLifecycle, AskPatches; "from" of AskDiff and AskScan; the release of a yes/no question and of AskAPI
	To      Version      `json:"to,omitempty"`      // "to" of AskDiff and AskScan
	// Patch is the patch number a question wrote its release with
	// ("1.35.8"), nil when it wrote none: the answer says whether that
	// patch release exists.
	Patch   *int              `json:"patch,omitempty"`
	Stage   Stage             `json:"stage,omitempty"`   // AskReleaseStage; of AskKEP, the stage a yes/no question asks about
	Notice  NoticeKind        `json:"notice,omitempty"`  // AskNotices
	Words   string            `json:"words,omitempty"`   // gate name (AskGate, AskGateDefault), search words, SIG name, help topic, API (AskAPI), a vulnerability's ID (AskCVE)
	Filters map[string]string `json:"filters,omitempty"` // subscribe filters: sig, from, schedule, format
	// Manifest is the text a scan reads (AskScan): YAML or JSON manifests,
	// or `kubectl version` output. It is never echoed.
	Manifest []byte `json:"-"`
	// Free is set when the question was read from text typed in chat
	// ("what went GA in 1.30?") rather than written in the grammar: its
	// answer then says how it was read (Understood).
	Free bool `json:"free,omitempty"`
	// Focus is the one attribute free text asked of a KEP, a gate or a
	// release ("which SIG owns KEP 1287?" is kep 1287 with Focus FocusSIG):
	// the answer leads with it, then the card (Understood). It is not part
	// of Canonical: the card is the same answer.
	Focus Focus `json:"focus,omitempty"`
	// Also are the other KEPs a feature's name matched, best first, when
	// the reader answered the first because its name covered the words
	// clearly better: one line under the answer names them (Understood).
	Also []KEPRef `json:"also,omitempty"`
	From Origin   `json:"-"`
	// ToPatch is the patch number an upgrade wrote its target with
	// ("upgrade 1.30.2 1.30.8"), nil when it wrote none.
	ToPatch *int `json:"to_patch,omitempty"`
}

// KEPRef names a KEP: its number and title.
type KEPRef struct {
	Number int    `json:"number"`
	Title  string `json:"title,omitempty"`
}

// Origin is who asked and where: adapters fill it, the engine uses it only
// for subscriptions.
type Origin struct {
	Platform  string // "slack", "discord", "console"
	Workspace string // Slack team ID or Discord guild ID
	Channel   string
	User      string
	UserName  string
	// CanManage is true when the platform lets this person change the
	// channel's subscriptions (Slack: admin, owner or allowlisted, not a
	// guest; Discord: Manage Channels, Manage Server or Administrator).
	// Adapters need to set it only when question.ChangesSubscription(text).
	CanManage bool
}

// Canonical returns the question written the way kepbot writes it: "kep
// 4639", "1.29 ga", "diff 1.29 1.32". question.Parse reads it back to the same
// question.
func (q Question) Canonical() string {
	switch q.Kind {
	case AskKEP:
		if q.Stage != StageNone {
			s := "is kep " + strconv.Itoa(q.KEP) + " " + strings.ToLower(q.Stage.Label())
			if !q.Version.IsZero() {
				s += " in " + q.Version.String()
			}
			return s
		}
		return "kep " + strconv.Itoa(q.KEP)
	case AskRelease:
		return q.release()
	case AskReleaseStage:
		return q.release() + " " + strings.ToLower(q.Stage.Label())
	case AskNotices:
		switch q.Notice {
		case NoticeDeprecation:
			return q.release() + " deprecations"
		case NoticeRemoval:
			return q.release() + " removals"
		case NoticeUpgrade:
			return q.release() + " action required"
		}
		return q.release() + " notices"
	case AskReleases, AskSubscriptions:
		return string(q.Kind)
	case AskHelp:
		return strings.TrimSpace("help " + q.Words)
	case AskGate:
		return "gate " + q.Words
	case AskGateDefault:
		return "is " + q.Words + " on by default in " + q.Version.String()
	case AskGateChanges:
		return q.Version.String() + " gates"
	case AskSearch:
		return "search " + q.Words
	case AskDiff:
		verb := "diff"
		if q.Words == "upgrade" {
			verb = "upgrade"
		}
		return strings.TrimSpace(verb + " " + q.release() + " " + q.toRelease() + " " + q.Filters["sig"])
	case AskUpgrade:
		return strings.TrimSpace("upgrade " + q.release() + " " + q.toRelease() + " " + q.Filters["sig"])
	case AskSIG:
		return strings.TrimSpace("sig " + q.Words + " " + q.Version.String())
	case AskSubscribe:
		s := "subscribe " + q.topic()
		for _, k := range filterKeys {
			if v, ok := q.Filters[k]; ok {
				s += " " + k + ":" + v
			}
		}
		return s
	case AskUnsubscribe:
		return "unsubscribe " + q.topic()
	case AskLifecycle:
		return q.release() + " eol"
	case AskPatches:
		return q.release() + " patches"
	case AskSupported:
		if !q.Version.IsZero() {
			return "is " + q.Version.String() + " supported"
		}
		return string(q.Kind)
	case AskLatest:
		return string(q.Kind)
	case AskAPI:
		s := "api " + q.Words
		if !q.Version.IsZero() {
			s += " in " + q.Version.String()
		}
		return s
	case AskPR:
		return "pr " + q.Words
	case AskCVEs:
		return "cves " + q.release()
	case AskCVE:
		if !q.Version.IsZero() {
			return "is " + q.release() + " affected by " + q.Words
		}
		return "cve " + q.Words
	case AskScan:
		if !q.Version.IsZero() {
			return "scan " + q.Version.String() + " " + q.To.String()
		}
		return "scan " + q.To.String()
	}
	return ""
}

// release writes the question's release, with its patch when it gave one:
// "1.35", "1.35.8".
func (q Question) release() string {
	if q.Patch != nil {
		return q.Version.String() + "." + strconv.Itoa(*q.Patch)
	}
	return q.Version.String()
}

// topic writes what a subscribe or unsubscribe is about: cves, else
// deprecations.
func (q Question) topic() string {
	if q.Words == "cves" {
		return "cves"
	}
	return "deprecations"
}

// toRelease writes an upgrade's target with its patch when it gave one.
func (q Question) toRelease() string {
	if q.ToPatch != nil {
		return q.To.String() + "." + strconv.Itoa(*q.ToPatch)
	}
	return q.To.String()
}

// PlainQuestion reports whether s is written as kepbot writes questions:
// words of letters and digits, with . - _ : between, single spaces. Only
// such a question may go on a button that asks it: it can hold no
// mention, link or markup.
func PlainQuestion(s string) bool {
	if s == "" || len(s) > 200 || s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .-_:", r)) {
			return false
		}
	}
	return true
}

// filterKeys are the subscribe filters, in the order Canonical writes them.
var filterKeys = []string{"sig", "from", "schedule", "format"}

// FilterKeys returns the subscribe filters (sig, from, schedule, format) in
// the order a canonical question writes them.
func FilterKeys() []string { return slices.Clone(filterKeys) }

// IsSIGName reports whether s is written like a SIG name: letters, digits
// and dashes, not starting with a dash, at most 40 runes ("network",
// "api-machinery", "sig-node"). It says nothing of whether the SIG exists.
func IsSIGName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 40 || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
			return false
		}
	}
	return true
}

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
		Summary:  "yes or no first, then the KEP's stages as evidence; is VERSION supported and is VERSION affected by CVE-ID do the same for a release",
		Examples: []string{"is kep 753 ga", "is kep 4639 beta in 1.33", "is 1.31 supported", "is 1.30.2 affected by CVE-2024-10220"},
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
	{Topic: "gate", Usage: "gate NAME", Summary: "a feature gate release by release as the code declares it (stage, default, lock), its KEP, and notices naming it",
		Examples: []string{"gate NFTablesProxyMode", "gate ImageVolume", "is UserNamespacesSupport on by default in 1.33", "1.34 gates"},
		Detail: []string{"Case does not matter; a near miss gets a suggestion.",
			"is NAME on by default in VERSION (also gate NAME in VERSION, NAME default in VERSION, is NAME enabled in VERSION, VERSION 中 NAME 默认开启吗): yes or no, with the stage and lock, or whether the release does not declare it yet or any more.",
			"VERSION gates (also gates VERSION, which feature gates changed in VERSION, VERSION 特性门控变化): every gate whose declaration differs from the release before: added, removed, deprecated, promoted, demoted, default changed, locked, unlocked."}},
	{Topic: "search", Usage: "search WORDS", Summary: "KEPs ranked by their name, feature gates, SIG and the documents' words",
		Examples: []string{"search image volume", "search nftables", "search 访问模式"},
		Detail: []string{"A phrase in a KEP's name ranks first, then words in the name, feature gates, SIG and what documents said; ties by KEP number.",
			"English words also find the words they begin (volume finds volumes); Chinese works without spaces."}},
	{Topic: "diff", Usage: "diff FROM TO", Summary: "what graduated, was deprecated or removed, and which APIs stop being served, after FROM up to TO",
		Examples: []string{"diff 1.29 1.32", "diff 1.30 1.31"},
		Detail:   []string{"Stages follow kep.yaml for the KEPs it knows. Give the older release first."}},
	{Topic: "upgrade", Usage: "upgrade FROM TO [sig-NAME]", Summary: "the same as diff, for someone running FROM who goes to TO: what breaks first (APIs and other things gone, then what needs action, then deprecations), then what graduated",
		Examples: []string{"upgrade 1.29 1.32", "upgrade 1.25 1.36 sig-node"},
		Detail:   []string{"Give the release you run first. With sig-NAME, only that SIG's notices and graduations, and every API that stops being served.", "In Slack and Discord a long answer comes with the whole list as a file."}},
	{Topic: "api", Usage: "api KIND|GROUP/VERSION [KIND] [in VERSION]", Summary: "when each version of an API was introduced, deprecated and removed, what replaces it, and the sources",
		Examples: []string{"api Ingress", "api batch/v1beta1", "api flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", "api batch/v1beta1 in 1.24"},
		Detail: []string{"With in VERSION: yes or no first, is it served in that release.",
			"The release notes of the release that did it win over the migration guide, and both over the API modules' lifecycle markers; where they disagree, the answer says so."}},
	{Topic: "scan", Usage: "scan [FROM] TO, then manifests", Summary: "which objects of your manifests use API versions removed or deprecated by TO, and what to use instead",
		Examples: []string{"scan 1.36", "scan 1.32 1.36"},
		Detail: []string{"Put the YAML or JSON after the question in the same message (a code block is fine), or attach a .yaml file (up to 1 MiB, 5,000 documents).",
			"Only apiVersion, kind, name and namespace are read and repeated: never a value, so Secrets stay secret.",
			"A pasted kubectl version gives FROM. In a terminal: bot scan --to 1.36 FILES."}},
	{Topic: "cves", Usage: "cves VERSION", Summary: "the known vulnerabilities (CVEs) of Kubernetes that affect a patch release, or any patch of a release, and the patch that fixes each",
		Examples: []string{"cves 1.30.2", "cves 1.30", "1.30.2 有哪些漏洞"},
		Detail: []string{"From the Go vulnerability database's records of Kubernetes (k8s.io/kubernetes and its staging modules, v0.N.P for 1.N.P), read as OSV ranges.",
			"Other projects of Kubernetes (ingress-nginx, kops, CSI drivers) are other products: cve ID says which."}},
	{Topic: "cve", Usage: "cve CVE-ID|GHSA-ID|GO-ID", Summary: "one vulnerability: what it affects in each minor line, every version that fixes it, references",
		Examples: []string{"cve CVE-2024-10220", "cve GHSA-27wf-5967-98gx", "is 1.30.2 affected by CVE-2024-10220"}},
	{Topic: "pr", Usage: "pr NUMBER", Summary: "the release-note entries of a pull request of kubernetes/kubernetes: release, kinds, SIGs, the KEP it links to",
		Examples: []string{"pr 130135", "pr 129207"},
		Detail:   []string{"A pasted link to the pull request (github.com/kubernetes/kubernetes/pull/129207) asks the same; a link to a KEP (kep.k8s.io/4639, its issue or folder) asks for the KEP."}},
	{Topic: "sig", Usage: "sig NAME [VERSION]", Summary: "the KEPs of one SIG, or those that reached a stage in one release",
		Examples: []string{"sig network", "sig node 1.30", "SIG API Machinery"}},
	{Topic: "subscribe", Usage: "subscribe deprecations|cves [sig:NAME] [from:VERSION] [schedule:release|weekly|daily] [format:compact|full]",
		Summary:  "post deprecation digests, or digests of new CVEs of Kubernetes that affect a supported release, to this channel",
		Examples: []string{"subscribe deprecations", "subscribe deprecations sig:network schedule:weekly", "subscribe cves schedule:daily"},
		Detail: []string{
			"A channel may have both: each subscribe adds its topic, and unsubscribe deprecations or unsubscribe cves stops one.",
			"CVE digests take every filter but sig: (the records name no SIG); each new record is posted once.",
			"sig:NAME keeps only one SIG's notices, e.g. sig:network.",
			"from:VERSION starts at a release, e.g. from:1.29.",
			"schedule: release (when a release lands, the default), weekly or daily.",
			"format: compact (the default) or full.",
		}},
	{Topic: "unsubscribe", Usage: "unsubscribe deprecations|cves", Summary: "stop this channel's deprecation digests, or its CVE digests",
		Examples: []string{"unsubscribe deprecations", "unsubscribe cves"}},
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
	"vulnerabilities": "cves", "vulnerability": "cve", "security": "cves",
}

// HelpTopic returns the help topic that name is, or an alias of ("removed"
// is deprecations), and false when it is neither. Case does not matter.
func HelpTopic(name string) (string, bool) {
	c := findCommand(name)
	if c == nil {
		return "", false
	}
	return c.Topic, true
}

// HelpTopics returns every help topic, in the order help shows them: what
// "help TOPIC" accepts besides aliases, and what "did you mean" offers.
func HelpTopics() []string {
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

// Usage returns the usage line of a help topic: "Usage: kep NUMBER, e.g.
// kep 4639." For a topic it does not know, it points to help.
func Usage(topic string) string {
	c := findCommand(topic)
	if c == nil {
		return "Try help to see what I can answer."
	}
	return fmt.Sprintf("Usage: %s, e.g. %s.", c.Usage, c.Examples[0])
}

// BadInput returns an EBADINPUT *Error whose message says what was wrong
// and ends with the usage line of topic.
func BadInput(topic, format string, args ...any) *Error {
	return &Error{Code: EBADINPUT, Message: fmt.Sprintf(format, args...) + " " + Usage(topic)}
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
		return nil, &Error{Code: EBADINPUT, Message: "I have no help on that topic. Topics: " + strings.Join(HelpTopics(), ", ") + ".",
			Suggestions: prose.PrefixAll("help ", ClosestWords(strings.ToLower(topic), HelpTopics()))}
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
