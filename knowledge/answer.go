package knowledge

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says what an Answer is about; adapters pick a layout by it.
type Kind string

// Answer kinds.
const (
	KindKEP          Kind = "kep"
	KindRelease      Kind = "release"
	KindList         Kind = "list"     // a release's KEPs at one stage, or its notices
	KindReleases     Kind = "releases" // every known release
	KindSearch       Kind = "search"
	KindGate         Kind = "gate"
	KindDiff         Kind = "diff" // diff A B and upgrade A B
	KindSIG          Kind = "sig"  // one SIG's KEPs
	KindHelp         Kind = "help"
	KindSubscription Kind = "subscription"
	KindAPI          Kind = "api"  // the lifecycle of API versions
	KindScan         Kind = "scan" // what manifests use that breaks in a release
	KindCVEs         Kind = "cves" // the vulnerability records that affect a release
	KindCVE          Kind = "cve"  // one vulnerability record: its card
	KindError        Kind = "error"
)

// Answerer answers one question. Adapters depend on this, never on *Engine.
type Answerer interface {
	Answer(ctx context.Context, q Question) (*Answer, error)
}

// SubscriptionAnswerer answers subscribe, unsubscribe and subscriptions
// for an engine (see engine.WithSubscriptions); *Subscriptions is one.
type SubscriptionAnswerer interface {
	Answer(ctx context.Context, q Question) (*Answer, error)
}

// Answer is a platform-neutral reply. Every adapter draws it within its
// platform's limits; `bot ask --json` prints it as it is.
type Answer struct {
	Kind  Kind   `json:"kind"`
	Title string `json:"title"`
	Text  string `json:"text"` // a short plain-text summary
	// Verdict is the answer of a yes/no question (is kep N ga, is 1.31
	// supported, is X on by default in 1.33, is 1.30.2 affected by
	// CVE-2024-10220): "yes", "no" or "unknown" (VerdictYes, VerdictNo,
	// VerdictUnknown); "" for any other question.
	Verdict string    `json:"verdict,omitempty"`
	KEP     *KEPFacts `json:"kep,omitempty"`
	// Gate is what each release's code declares about a feature gate (a
	// gate answer).
	Gate *GateFacts `json:"gate,omitempty"`
	// Changes are the feature gates whose declaration differs from the
	// release before (a gate_changes answer).
	Changes []GateChange `json:"changes,omitempty"`
	// Gates is what an upgrade does to the feature gates: those removed on
	// the way and the defaults that flip.
	Gates    *UpgradeGates  `json:"gates,omitempty"`
	Release  *ReleaseFacts  `json:"release,omitempty"`
	Facts    []Fact         `json:"facts,omitempty"`
	Releases []ReleaseFacts `json:"releases,omitempty"` // the releases answer: every known release
	Items    []Item         `json:"items,omitempty"`
	Notices  []Notice       `json:"notices,omitempty"`
	API      []APIFacts     `json:"apis,omitempty"` // the API types an api answer is about
	Links    []Link         `json:"links,omitempty"`
	Notes    []string       `json:"notes,omitempty"` // caveats: sources that disagree, items left out
	Sources  []SourceRef    `json:"sources,omitempty"`
	Error    *ErrorFacts    `json:"error,omitempty"`
	Suggest  []string       `json:"suggestions,omitempty"` // questions to ask next, best first: an error's "did you mean", an answer's follow-ups ("see also")
	Query    string         `json:"query,omitempty"`       // the question as understood
	// UnderstoodAs is the canonical question free text was read as ("what
	// went GA in 1.30?" is 1.30 ga), set only when the text was not
	// written in the grammar, so that people (and tests) see how it was read.
	UnderstoodAs string `json:"understood_as,omitempty"`
	// BreaksFirst is set on an upgrade answer: every platform draws what
	// breaks a cluster first (NoticeGroups: the APIs and other things gone,
	// then what needs action, then deprecations), then the graduations.
	BreaksFirst bool `json:"breaks_first,omitempty"`
	// CVEs are the vulnerability records of a cves answer, or what an
	// upgrade fixes and leaves open (see CVEs).
	CVEs *CVEs `json:"cves,omitempty"`
	// CVE is a cve answer's card.
	CVE *CVEFacts `json:"cve,omitempty"`
}

// Fact is one name/value line of an answer.
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Link is a titled URL.
type Link struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// SourceRef names a source in an answer and the date it speaks for. An
// empty AsOf means the source does not say: adapters show "date unknown",
// never today's date.
type SourceRef struct {
	Name string `json:"name"`
	AsOf string `json:"as_of,omitempty"`
}

// ErrorFacts is the error part of an Answer of kind error.
type ErrorFacts struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// KEPFacts is the KEP part of a kep (or gate) answer.
type KEPFacts struct {
	Number     int               `json:"number"`
	Title      string            `json:"title"`
	SIG        string            `json:"sig,omitempty"`
	Status     string            `json:"status,omitempty"`
	Stage      Stage             `json:"stage,omitempty"`
	Milestones map[string]string `json:"milestones"` // stages reached: stage name to "1.29"
	Targets    map[string]string `json:"targets"`    // stages planned, not reached
	// Missed are the Targets whose release is out: planned for it, not
	// reached ("GA was planned for 1.28, not reached").
	Missed map[string]string `json:"missed,omitempty"`
	// Unconfirmed are the Targets of a release that came out after kep.yaml
	// was written, which nothing that shipped confirms: still plans.
	Unconfirmed map[string]string `json:"unconfirmed,omitempty"`
	// Shipped are the stages what shipped dates (the code of a release
	// declaring one of the KEP's own gates at the stage, release notes):
	// they outrank kep.yaml.
	Shipped []ShippedStage `json:"shipped,omitempty"`
	// KEPYAML are kep.yaml's milestones as written, plans or not: where
	// they differ from what shipped, answers say both.
	KEPYAML map[string]string `json:"kep_yaml,omitempty"`
	// Disputed are the stages what shipped and kep.yaml date otherwise,
	// each with both and their sources: "by the code of 1.30
	// (UserNamespacesSupport) and PR #124997; kep.yaml says beta in 1.35",
	// "by kep.yaml; the code of 1.33 still declares
	// DisableAllocatorDualWrite beta; every own gate is GA from 1.34".
	Disputed     map[string]string `json:"disputed,omitempty"`
	FeatureGates []string          `json:"feature_gates"`
	Links        []Link            `json:"links"`
	Timeline     []Step            `json:"timeline,omitempty"`
	// ReleaseNotes are the release-note entries that link to the KEP,
	// oldest release first; the first few are also among Links.
	ReleaseNotes []ChangeRef `json:"release_notes,omitempty"`
}

// ChangeRef names one release-note entry: the release whose notes list it,
// its pull request and kinds.
type ChangeRef struct {
	Release string   `json:"release"`
	PR      int      `json:"pr"`
	Kinds   []string `json:"kinds,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// ReleaseFacts is the release part of a release answer.
type ReleaseFacts struct {
	Version      string `json:"version"`
	Date         string `json:"date,omitempty"`
	Theme        string `json:"theme,omitempty"`
	Enhancements Counts `json:"enhancements"`
	// Planned is set for a release that is not out as far as the sources
	// say: its counts are plans, not stages reached.
	Planned bool `json:"planned,omitempty"`
}

// ErrorAnswer turns err into an Answer of kind error, showing only what is
// safe: the message of an *Error, a generic apology for anything else.
func ErrorAnswer(err error) *Answer {
	code := ErrorCode(err)
	a := &Answer{Kind: KindError, Title: "Sorry", Text: ErrorMessage(err), Error: &ErrorFacts{Code: code, Message: ErrorMessage(err)}}
	if e, ok := err.(*Error); ok {
		a.Suggest = e.Suggestions
	}
	return a
}

// Understood returns a as the answer to q: when q was read from free text
// (Question.Free), a copy of a with UnderstoodAs set to q's canonical
// form, led by the attribute q asks first (Question.Focus) and naming the
// other KEPs its words matched (Question.Also); else a itself. a may be
// shared (CachedAnswerer), so it is never changed; a nil a stays nil.
func Understood(a *Answer, q Question) *Answer {
	if a == nil || !q.Free {
		return a
	}
	cp := *a
	cp.UnderstoodAs = q.Canonical()
	if a.Kind == KindError {
		return &cp
	}
	if lead := focusLead(a, q.Focus); lead != "" {
		cp.Text = strings.TrimSpace(lead + "\n" + a.Text)
	}
	if len(q.Also) > 0 {
		cp.Notes = append(slices.Clip(a.Notes), alsoLine(q.Also))
		cp.Suggest = slices.Clip(a.Suggest)
		for _, k := range q.Also {
			cp.Suggest = append(cp.Suggest, "kep "+strconv.Itoa(k.Number))
		}
	}
	return &cp
}

// ItemsWithoutSharedSIG returns a's items for display: in a SIG's answer
// whose items all name the same SIG, copies without it, since the title
// says it once; otherwise the items themselves. a is not changed.
func (a *Answer) ItemsWithoutSharedSIG() []Item {
	if a.Kind != KindSIG || len(a.Items) == 0 {
		return a.Items
	}
	for _, it := range a.Items {
		if !strings.EqualFold(it.SIG, a.Items[0].SIG) {
			return a.Items
		}
	}
	out := append([]Item(nil), a.Items...)
	for i := range out {
		out[i].SIG = ""
	}
	return out
}

// Short returns user words safe and short enough to echo in a title: only
// letters, digits, spaces and - . _, at most 40 runes.
func Short(s string) string {
	var parts []string
	for _, w := range strings.Fields(s) {
		parts = append(parts, echo(w))
	}
	out := strings.Join(parts, " ")
	if utf8.RuneCountInString(out) > 40 {
		out = string([]rune(out)[:39]) + "…"
	}
	return out
}

// Plural writes "1 deprecation" or "3 deprecations".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Quote returns a document's words fit to quote: whitespace collapsed to
// single spaces, cut at max runes with "…".
func Quote(s string, max int) string {
	// One pass that stops once it holds more than max runes: documents'
	// words run to kilobytes, and only the start of them is shown. Runs of
	// non-space bytes are copied whole.
	var b strings.Builder
	b.Grow(min(len(s), 4*max))
	n, cutAt := 0, 0 // runes counted; bytes of the first max-1 runes
	seg := -1        // start of the run of non-space bytes not yet copied
	pending := false // a space is owed before the next word
	for i, r := range s {
		if isSpace(r) {
			if seg >= 0 {
				b.WriteString(s[seg:i])
				seg = -1
			}
			pending = n > 0
			continue
		}
		if pending {
			pending = false
			if n++; n == max {
				cutAt = b.Len()
			} else if n > max {
				return strings.TrimSpace(b.String()[:cutAt]) + "…"
			}
			b.WriteByte(' ')
		}
		if seg < 0 {
			seg = i
		}
		if n++; n == max {
			cutAt = b.Len() + i - seg
		} else if n > max {
			b.WriteString(s[seg:i])
			return strings.TrimSpace(b.String()[:cutAt]) + "…"
		}
	}
	if seg >= 0 {
		b.WriteString(s[seg:])
	}
	return b.String()
}

// isSpace is unicode.IsSpace without its table search for the many
// non-space runes of CJK text.
func isSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || (r >= '\t' && r <= '\r')
	}
	switch {
	case r == 0x85 || r == 0xA0 || r == 0x1680 || r == 0x3000:
		return true
	case r >= 0x2000 && r <= 0x205F:
		return unicode.IsSpace(r)
	}
	return false
}

// Focus is the one attribute a question asks of a KEP, a feature gate or a
// release: "which SIG owns KEP 1287?" asks KEP-1287's SIG, "1.33 的代号是什么"
// the theme of 1.33. The answer is the card, led by that attribute.
type Focus string

// The attributes a question may ask first.
const (
	FocusNone   Focus = ""
	FocusSIG    Focus = "sig"    // which SIG owns it
	FocusOwner  Focus = "owner"  // who to ask: its SIG, and where the SIG meets
	FocusGates  Focus = "gates"  // its feature gates
	FocusStatus Focus = "status" // where it stands: stages reached and planned
	FocusTheme  Focus = "theme"  // a release's theme, its code name
	FocusDate   Focus = "date"   // a release's day
)

// communityURL is where a SIG's page in kubernetes/community is: its
// charter, meetings, Slack channel and mailing list.
const communityURL = "https://github.com/kubernetes/community/tree/master/"

// focusLead is the line an answer to a question with focus f leads with,
// made of the answer's own facts; "" when a holds nothing to say it with
// (an error, another kind of answer).
func focusLead(a *Answer, f Focus) string {
	if k := a.KEP; k != nil && (a.Kind == KindKEP || a.Kind == KindGate) {
		return kepLead(k, f)
	}
	if r := a.Release; r != nil && a.Kind == KindRelease {
		return releaseLead(r, f)
	}
	return ""
}

// kepLead says one attribute of a KEP.
func kepLead(k *KEPFacts, f Focus) string {
	name := fmt.Sprintf("KEP-%d", k.Number)
	switch f {
	case FocusSIG:
		if k.SIG == "" {
			return name + ": its kep.yaml names no owning SIG."
		}
		return fmt.Sprintf("%s is owned by %s.", name, k.SIG)
	case FocusOwner:
		if k.SIG == "" {
			return name + ": its kep.yaml names no owning SIG to ask."
		}
		return fmt.Sprintf("Ask %s: %s is theirs. Their page lists their meetings, Slack channel and mailing list: %s%s",
			k.SIG, name, communityURL, k.SIG)
	case FocusGates:
		switch len(k.FeatureGates) {
		case 0:
			return name + " names no feature gate in its kep.yaml."
		case 1:
			return fmt.Sprintf("%s has one feature gate: %s.", name, k.FeatureGates[0])
		}
		return fmt.Sprintf("%s has %d feature gates: %s.", name, len(k.FeatureGates), strings.Join(k.FeatureGates, ", "))
	case FocusStatus:
		return kepStatusLead(name, k)
	}
	return ""
}

// kepStatusLead says where a KEP stands: its status, the stages it reached
// and those only planned, never a planned one as reached.
func kepStatusLead(name string, k *KEPFacts) string {
	var parts []string
	if k.Status != "" {
		parts = append(parts, "status "+k.Status)
	}
	if reached := ReachedWithSources(k.Milestones, k.Disputed, StageNone); reached != "" {
		parts = append(parts, "reached "+reached)
	} else {
		parts = append(parts, "no stage reached yet")
	}
	if planned := ReachedList(Without(k.Targets, k.Missed)); planned != "" {
		parts = append(parts, "planned (not reached) "+planned)
	}
	if missed := ReachedList(k.Missed); missed != "" {
		parts = append(parts, "planned for a release that is out, not reached: "+missed)
	}
	return name + ": " + strings.Join(parts, "; ") + "."
}

// releaseLead says one attribute of a release.
func releaseLead(r *ReleaseFacts, f Focus) string {
	switch f {
	case FocusTheme:
		if r.Theme == "" {
			return fmt.Sprintf("None of my sources gives a theme (code name) for %s.", r.Version)
		}
		return fmt.Sprintf("The theme (code name) of %s is %s.", r.Version, r.Theme)
	case FocusDate:
		switch {
		case r.Planned:
			return fmt.Sprintf("None of my sources gives the day %s will be released.", r.Version)
		case r.Date == "":
			return fmt.Sprintf("None of my sources gives the day %s was released.", r.Version)
		}
		return fmt.Sprintf("%s was released on %s.", r.Version, r.Date)
	}
	return ""
}

// alsoLine names the runners-up of a feature's name in one line.
func alsoLine(also []KEPRef) string {
	names := make([]string, len(also))
	for i, k := range also {
		names[i] = fmt.Sprintf("KEP-%d", k.Number)
		if k.Title != "" {
			names[i] += " (" + Short(k.Title) + ")"
		}
	}
	return "Also matched: " + strings.Join(names, "; ") + "."
}

// ReachedList writes a stage map as "alpha in 1.29, beta in 1.31", in stage order.
func ReachedList(m map[string]string) string {
	var parts []string
	for _, s := range GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" in "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// ReachedWithSources writes a stage map as ReachedList does, with the
// words of each stage disputed (KEPFacts.Disputed) after it: "alpha in
// 1.25, beta in 1.30 (by the code of 1.30 (UserNamespacesSupport); kep.yaml
// says beta in 1.35), GA in 1.36". The words of stage said are left out
// (an answer that says them already).
func ReachedWithSources(m, disputed map[string]string, said Stage) string {
	var parts []string
	for _, s := range GraduationStages {
		if v, ok := m[s.String()]; ok {
			p := s.Label() + " in " + v
			if w := disputed[s.String()]; w != "" && s != said {
				p += " (" + w + ")"
			}
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// Without returns the entries of m whose keys are not in drop.
func Without(m, drop map[string]string) map[string]string {
	if len(drop) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if _, ok := drop[k]; !ok {
			out[k] = v
		}
	}
	return out
}
