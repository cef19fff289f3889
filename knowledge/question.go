package knowledge

import (
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
)

// Question is one parsed request. Two kinds also ask yes or no: AskKEP
// with a Stage ("is kep 753 ga", with a Version "is kep 753 beta in 1.30":
// was it at that stage in that release) and AskSupported with a Version
// ("is 1.31 supported"); their answers start with the yes or the no.
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
	Words   string            `json:"words,omitempty"`   // gate name, search words, SIG name, help topic, API (AskAPI)
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
	case AskSearch:
		return "search " + q.Words
	case AskDiff:
		verb := "diff"
		if q.Words == "upgrade" {
			verb = "upgrade"
		}
		return verb + " " + q.Version.String() + " " + q.To.String()
	case AskUpgrade:
		return "upgrade " + q.Version.String() + " " + q.To.String()
	case AskSIG:
		return strings.TrimSpace("sig " + q.Words + " " + q.Version.String())
	case AskSubscribe:
		s := "subscribe deprecations"
		for _, k := range filterKeys {
			if v, ok := q.Filters[k]; ok {
				s += " " + k + ":" + v
			}
		}
		return s
	case AskUnsubscribe:
		return "unsubscribe deprecations"
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
