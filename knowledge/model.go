package knowledge

import (
	"path"
	"slices"
	"strconv"
	"strings"
)

// SourceKind says what sort of document a Source is.
type SourceKind string

// The kinds of source kepbot reads.
const (
	SourceReleaseNote      SourceKind = "release-note"      // a release note or post, any language
	SourceKEPYAML          SourceKind = "kep.yaml"          // kubernetes/enhancements metadata
	SourceDeprecationGuide SourceKind = "deprecation-guide" // the deprecated API migration guide
	SourceSnapshot         SourceKind = "snapshot"          // the facts built into the binary
)

// Source is one document kepbot learned from, and when it was true.
type Source struct {
	ID   string     `json:"id"`             // stable key, e.g. the file name
	Name string     `json:"name"`           // what answers show, e.g. "Kubernetes 1.29 release note (zh)"
	Kind SourceKind `json:"kind"`           // what sort of document
	Lang string     `json:"lang,omitempty"` // "zh", "en"
	// AsOf is the date the document speaks for, 2006-01-02, from what it
	// says (its release date, its commit's date); never a file time or the
	// clock. Empty when the document does not say.
	AsOf   string `json:"as_of,omitempty"`
	Commit string `json:"commit,omitempty"` // the repository commit it was read at, when known
	Path   string `json:"path,omitempty"`   // where it was read from
	URL    string `json:"url,omitempty"`
}

// SourceName is the name answers give a source: its Name, else its ID.
func SourceName(s Source) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// Counts are a release's enhancement counts as its announcement gives them.
type Counts struct {
	Total  int `json:"total"`
	Stable int `json:"stable"`
	Beta   int `json:"beta"`
	Alpha  int `json:"alpha"`
}

// IsZero reports whether no count is known.
func (c Counts) IsZero() bool { return c == Counts{} }

// StageText writes the counts by stage: "11 GA, 19 beta, 19 alpha".
func (c Counts) StageText() string {
	return strconv.Itoa(c.Stable) + " GA, " + strconv.Itoa(c.Beta) + " beta, " + strconv.Itoa(c.Alpha) + " alpha"
}

// FieldText writes the counts as a field's value: the total, then the
// counts by stage ("49: 11 GA, 19 beta, 19 alpha"); the counts by stage
// alone when no total is known.
func (c Counts) FieldText() string {
	if c.Total > 0 {
		return strconv.Itoa(c.Total) + ": " + c.StageText()
	}
	return c.StageText()
}

// LineText writes the counts for a line of a list of releases: the
// enhancements, then the counts by stage ("49 enhancements: 11 GA, 19
// beta, 19 alpha", "1 enhancement: 1 GA, 0 beta, 0 alpha"); the counts by
// stage alone when no total is known.
func (c Counts) LineText() string {
	switch {
	case c.Total == 1:
		return "1 enhancement: " + c.StageText()
	case c.Total > 1:
		return strconv.Itoa(c.Total) + " enhancements: " + c.StageText()
	}
	return c.StageText()
}

// Mention is one statement a document makes about a KEP, or about a feature
// that carries no KEP number (KEP is 0 then): its stage in one release.
type Mention struct {
	KEP          int      `json:"kep,omitempty"`
	Title        string   `json:"title"`           // the name the document gives the feature
	Stage        Stage    `json:"stage,omitempty"` // the stage the document says it reached
	Release      Version  `json:"release"`         // the release the document is about
	SIG          string   `json:"sig,omitempty"`   // sig-network, from a tag like [网络]
	FeatureGates []string `json:"feature_gates,omitempty"`
	Section      string   `json:"section,omitempty"` // the heading it stood under
	Text         string   `json:"text,omitempty"`    // the document's own words, quoted at run time
	Link         string   `json:"link,omitempty"`    // the link the document gives
	Source       string   `json:"source"`            // Source.ID
	Line         int      `json:"line,omitempty"`    // 1-based line in the source
	// Via says how a mention without a KEP number in its text was tied to a
	// KEP: "link" (the link target), "title" (its name matches the KEP's),
	// "gate" (a feature gate the KEP owns).
	Via string `json:"via,omitempty"`
}

// NoticeKind says what a Notice warns of.
type NoticeKind string

// The kinds of notice.
const (
	NoticeDeprecation NoticeKind = "deprecation"
	NoticeRemoval     NoticeKind = "removal"
	NoticeUpgrade     NoticeKind = "upgrade" // an upgrade note: something to do or know before upgrading
)

// Label is how answers head a notice of kind k: "Deprecated", "Removed",
// "Upgrade note"; "Notice" for a kind it does not know.
func (k NoticeKind) Label() string {
	switch k {
	case NoticeDeprecation:
		return "Deprecated"
	case NoticeRemoval:
		return "Removed"
	case NoticeUpgrade:
		return "Upgrade note"
	}
	return "Notice"
}

// Notice is a deprecation, a removal or an upgrade note in one release.
type Notice struct {
	Kind    NoticeKind `json:"kind"`
	Release Version    `json:"release"`
	KEP     int        `json:"kep,omitempty"`
	// KEPVia says how KEP was found when the document names none: "gate"
	// when Compile took the KEP that owns one of its feature gates (known
	// once kep.yaml is). Empty when the document itself names the KEP.
	// Digests keep a notice's identity apart from a KEP found this way
	// (see digest.NoticeAliases).
	KEPVia       string     `json:"kep_via,omitempty"`
	Title        string     `json:"title"`
	Text         string     `json:"text,omitempty"`
	FeatureGates []string   `json:"feature_gates,omitempty"`
	API          *APIChange `json:"api,omitempty"` // set for API removals
	Source       string     `json:"source"`
	Line         int        `json:"line,omitempty"`
	// PR, URL and SIGs are set for a notice made from a release-note entry
	// (a Change): its pull request and the SIGs the notes give it.
	PR   int      `json:"pr,omitempty"`
	URL  string   `json:"url,omitempty"`
	SIGs []string `json:"sigs,omitempty"`
	// Action is true for an entry the notes mark "action required": an
	// Urgent Upgrade Note, whatever kind of notice it is.
	Action bool `json:"action_required,omitempty"`
	// Label is the kind of notice upstream's own label gives a release-note
	// entry (kind/deprecation) where kepbot's reading of its words makes
	// another kind of it (a removal, an upgrade note) or none, in which
	// case Kind is Label too. Upstream's label is the floor of every list:
	// the notice is listed under Label as well as under Kind.
	Label NoticeKind `json:"label,omitempty"`
}

// Lists reports whether n belongs in the list of notices of kind k ("" for
// every kind): its own kind, the kind upstream labelled it, and for upgrade
// notes every notice that needs action.
func (n *Notice) Lists(k NoticeKind) bool {
	return k == "" || n.Kind == k || n.Label == k || k == NoticeUpgrade && n.NeedsAction()
}

// LabelOnly reports whether n is listed only because upstream labelled
// it: kepbot's reading of its words makes no notice of it.
func (n *Notice) LabelOnly() bool { return n.Label != "" && n.Label == n.Kind }

// Heading is how answers head n: its kind's Label ("Deprecated",
// "Removed"), or "Release note" for a notice only upstream's label makes
// (its tag, LabelTag, says which list it is in and why).
func (n *Notice) Heading() string {
	if n.LabelOnly() {
		return "Release note"
	}
	return n.Kind.Label()
}

// LabelTag is the tag answers give a notice listed by upstream's label:
// "labelled deprecation by the release notes"; "" for others.
func (n *Notice) LabelTag() string {
	if n.Label == "" {
		return ""
	}
	return "labelled " + string(n.Label) + " by the release notes"
}

// NeedsAction reports whether n belongs among a release's urgent upgrade
// notes: an upgrade note, or any notice marked action required.
func (n *Notice) NeedsAction() bool { return n.Kind == NoticeUpgrade || n.Action }

// ActionTagged reports whether n, shown, is tagged "action required": a
// notice of another kind marked so (an upgrade note needs no tag).
func (n *Notice) ActionTagged() bool { return n.Action && n.Kind != NoticeUpgrade }

// IsAPIRemoval reports whether n is the removal of an API version: a
// notice that names an API but does not remove it is not.
func (n *Notice) IsAPIRemoval() bool { return n.API != nil && n.Kind == NoticeRemoval }

// SplitAPIRemovals splits notices into the removals of an API version
// (IsAPIRemoval) and the rest, each in the order given.
func SplitAPIRemovals(ns []Notice) (apis, others []Notice) {
	for _, n := range ns {
		if n.IsAPIRemoval() {
			apis = append(apis, n)
		} else {
			others = append(others, n)
		}
	}
	return apis, others
}

// APIChange is an API version that stops being served.
type APIChange struct {
	GroupVersion string   `json:"group_version"` // e.g. flowcontrol.apiserver.k8s.io/v1beta2
	Kinds        []string `json:"kinds,omitempty"`
	ReplacedBy   string   `json:"replaced_by,omitempty"` // the group/version to migrate to
	// Since is the release the document says ReplacedBy is available
	// from ("available since v1.29").
	Since Version `json:"since,omitzero"`
	// ReplacedFor are the kinds ReplacedBy replaces when it is not all of
	// Kinds: the guide moves policy/v1beta1's PodDisruptionBudget to
	// policy/v1 and names no replacement for its PodSecurityPolicy.
	ReplacedFor []string `json:"replaced_for,omitempty"`
}

// Join adds what b, another document's account of the same API version,
// knows to a: its kinds, and its replacement where a has none, each
// replacement kept to the kinds its document gives it for.
func (a *APIChange) Join(b *APIChange) {
	before := a.Kinds
	var added []string
	for _, k := range b.Kinds {
		if !slices.Contains(before, k) {
			added = append(added, k)
		}
	}
	a.Kinds = append(slices.Clip(before), added...)
	switch {
	case b.ReplacedBy == "" || len(added) == 0 && a.ReplacedBy != "":
		if len(added) > 0 && a.ReplacedBy != "" && len(a.ReplacedFor) == 0 {
			a.ReplacedFor = slices.Clone(before) // b's kinds have no replacement it knows
		}
	case a.ReplacedBy == "":
		a.ReplacedBy, a.Since = b.ReplacedBy, b.Since
		a.ReplacedFor = nil
		if len(before) > 0 && len(b.Kinds) > 0 {
			a.ReplacedFor = slices.Clone(b.Kinds) // a's own kinds have none
		}
	case a.ReplacedBy == b.ReplacedBy:
		if len(a.ReplacedFor) > 0 {
			a.ReplacedFor = append(slices.Clip(a.ReplacedFor), added...)
		}
	case len(a.ReplacedFor) == 0:
		a.ReplacedFor = slices.Clone(before) // b's kinds go elsewhere
	}
}

// Replacement says what to use instead: "policy/v1", or "policy/v1 for
// PodDisruptionBudget" when it replaces only some of Kinds; "" when none
// is known.
func (a *APIChange) Replacement() string {
	if a.ReplacedBy == "" {
		return ""
	}
	if len(a.ReplacedFor) > 0 && len(a.ReplacedFor) < len(a.Kinds) {
		return a.ReplacedBy + " for " + strings.Join(a.ReplacedFor, ", ")
	}
	return a.ReplacedBy
}

// Release is what the documents say about one Kubernetes minor release.
type Release struct {
	Version      Version  `json:"version"`
	Date         string   `json:"date,omitempty"`  // 2006-01-02, the release day
	Theme        string   `json:"theme,omitempty"` // empty when the documents do not say
	Enhancements Counts   `json:"enhancements"`
	Sources      []string `json:"sources,omitempty"` // Source.IDs
	// Lifecycle is the release's support dates, when a lifecycle source
	// gives them.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`
}

// KEP is one Kubernetes Enhancement Proposal: what kep.yaml says of it (when
// known) and what release documents said of it, release by release.
type KEP struct {
	Number       int                `json:"number"`
	Title        string             `json:"title"`
	SIG          string             `json:"sig,omitempty"`
	Status       string             `json:"status,omitempty"`     // kep.yaml status: implementable, implemented, ...
	Stage        Stage              `json:"stage,omitempty"`      // current stage per kep.yaml
	Milestones   map[string]Version `json:"milestones,omitempty"` // kep.yaml milestone per stage name: targets until reached
	FeatureGates []string           `json:"feature_gates,omitempty"`
	Path         string             `json:"path,omitempty"`    // folder in kubernetes/enhancements
	Source       string             `json:"source,omitempty"`  // Source.ID of the kep.yaml, "" when only notes know it
	History      []Mention          `json:"history,omitempty"` // release-document mentions, oldest release first
	// Changes are the release-note entries that link to this KEP, oldest
	// release first.
	Changes []Change `json:"changes,omitempty"`
	// Disagreements are the claims documents make about this KEP that the
	// trusted record does not support (what shipped is trusted for stages, then kep.yaml; kep.yaml for names).
	Disagreements []Disagreement `json:"disagreements,omitempty"`
	// SharedGates are the other KEPs that name one of k's feature gates,
	// with their kep.yaml status, by gate then KEP number: a KEP withdrawn
	// for a successor and its successor point at each other.
	SharedGates []SharedGate `json:"shared_gates,omitempty"`
	// Released is the newest release the sources say is out when the
	// knowledge was compiled (see ReleasedThrough): a kep.yaml milestone
	// after it is planned, not reached. Zero when no source says.
	Released Version `json:"released,omitzero"`
	// YAMLThrough is the newest release out by kep.yaml's own date (its
	// commit's day): a milestone of a release that came out after it is a
	// plan until what shipped confirms it. Zero when not known.
	YAMLThrough Version `json:"yaml_through,omitzero"`
	// Shipped are the stages what shipped dates (the code of a release
	// declaring one of the KEP's own feature gates at the stage, release
	// notes that date it), by stage: they outrank kep.yaml's milestones.
	Shipped []ShippedStage `json:"shipped,omitempty"`
}

// SharedGate is another KEP that names one of a KEP's feature gates.
type SharedGate struct {
	Gate   string `json:"gate"`
	KEP    int    `json:"kep"`
	Status string `json:"status,omitempty"`
}

// DisagreementKind says how a document disagrees.
type DisagreementKind string

// The disagreements `bot check` lists.
const (
	// DisagreeRelease: a note puts a stage in another release than kep.yaml.
	DisagreeRelease DisagreementKind = "stage_release"
	// DisagreeName: a note's KEP number points at a KEP whose name does not
	// match what the note describes.
	DisagreeName DisagreementKind = "name"
	// DisagreeStageTwice: documents list the KEP at one stage in two
	// releases: GA for any KEP; beta or alpha for a KEP no kep.yaml knows
	// (with kep.yaml, DisagreeRelease already says which note is wrong).
	DisagreeStageTwice DisagreementKind = "stage_twice"
	// DisagreeGATwice is what schema 1 databases call a KEP listed as GA in
	// two releases; it is read and shown, never made any more.
	DisagreeGATwice DisagreementKind = "ga_twice"
)

// Disagreement is one claim a document makes that the trusted record does
// not support.
type Disagreement struct {
	Kind    DisagreementKind `json:"kind"`
	KEP     int              `json:"kep"`
	Source  string           `json:"source"`            // Source.ID of the document making the claim
	Release Version          `json:"release,omitempty"` // the release the claim is about
	Stage   Stage            `json:"stage,omitempty"`
	Claim   string           `json:"claim"`            // what the document says, in a short line
	Trusted string           `json:"trusted"`          // what the trusted record says instead
	Likely  int              `json:"likely,omitempty"` // DisagreeName: the KEP the document probably meant

}

// FileWarning is something a parser read around inside a file: an entry
// skipped or cut short, a value dropped, two statements that disagree.
// File is the name the caller gave the file; Entry the entry's key ("1.30",
// a PR number), "" for the whole file.
type FileWarning struct {
	File    string `json:"file"`
	Entry   string `json:"entry,omitempty"`
	Problem string `json:"problem"`
}

func (w FileWarning) String() string {
	if w.Entry == "" {
		return w.File + ": " + w.Problem
	}
	return w.File + ": entry " + w.Entry + ": " + w.Problem
}

// Skip is a document or record an ingest passed over, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Source string `json:"source,omitempty"` // Source.ID of the document or archive it was found in, when known
}

// Corpus is what source parsers return: raw values from documents, not yet
// joined. Parsers never write to a store; the store saves what Compile makes.
type Corpus struct {
	Sources  []Source
	Releases []Release // one per document that announces a release
	KEPs     []KEP     // from kep.yaml, without History
	Mentions []Mention
	Notices  []Notice
	// Changes are release-note entries (one pull request each), Lifecycles
	// the support dates of minor releases, Patches every patch release.
	Changes    []Change
	Lifecycles []Lifecycle
	Patches    []Patch
	// APITypes are what the API modules (k8s.io/api and friends) say of
	// each kind, APIClaims what documents say of API versions.
	APITypes  []APIType
	APIClaims []APIClaim
	// GateTables are what releases' code declares of their feature gates,
	// one table a source.
	GateTables []GateTable
	// Vulns are vulnerability records (OSV), each with its Source.
	Vulns   []Vuln
	Skipped []Skip
}

// Add appends everything in o to c.
func (c *Corpus) Add(o *Corpus) {
	c.Sources = append(c.Sources, o.Sources...)
	c.Releases = append(c.Releases, o.Releases...)
	c.KEPs = append(c.KEPs, o.KEPs...)
	c.Mentions = append(c.Mentions, o.Mentions...)
	c.Notices = append(c.Notices, o.Notices...)
	c.Changes = append(c.Changes, o.Changes...)
	c.Lifecycles = append(c.Lifecycles, o.Lifecycles...)
	c.Patches = append(c.Patches, o.Patches...)
	c.APITypes = append(c.APITypes, o.APITypes...)
	c.APIClaims = append(c.APIClaims, o.APIClaims...)
	c.GateTables = append(c.GateTables, o.GateTables...)
	c.Vulns = append(c.Vulns, o.Vulns...)
	c.Skipped = append(c.Skipped, o.Skipped...)
}

// Gates lists k's feature gates and those its history names, each once
// whatever its case, never nil.
func (k *KEP) Gates() []string {
	out := []string{}
	add := func(gs []string) {
		for _, g := range gs {
			dup := g == ""
			for _, o := range out {
				dup = dup || strings.EqualFold(o, g)
			}
			if !dup {
				out = append(out, g)
			}
		}
	}
	add(k.FeatureGates)
	for _, m := range k.History {
		add(m.FeatureGates)
	}
	return out
}

// Live reports whether k is a KEP still going somewhere: not withdrawn,
// rejected, replaced, superseded or removed. A KEP only documents know
// counts as live.
func (k *KEP) Live() bool {
	switch strings.ToLower(strings.TrimSpace(k.Status)) {
	case "withdrawn", "rejected", "replaced", "superseded", "removed":
		return false
	}
	return true
}

// statusRank orders KEPs by how far kep.yaml says their work went:
// implemented first, then implementable, then the rest that are live,
// then those withdrawn, rejected or replaced.
func statusRank(k *KEP) int {
	switch {
	case !k.Live():
		return 3
	case strings.EqualFold(k.Status, "implemented"):
		return 0
	case strings.EqualFold(k.Status, "implementable"):
		return 1
	}
	return 2
}

// PreferKEP reports whether a should answer before b for a name or a
// feature gate they share: a live KEP before one withdrawn or replaced
// (which never answers for its successor), the further its work went,
// then the further it graduated, then the one that reached that stage
// first (PodLevelResources' KEP-2837, beta since 1.34, before KEP-5526,
// beta in 1.37, which builds on it), then the newer.
func PreferKEP(a, b *KEP) bool {
	if ra, rb := statusRank(a), statusRank(b); ra != rb {
		return ra < rb
	}
	sa, sb := a.CurrentStage(), b.CurrentStage()
	if sa != sb {
		return sa > sb
	}
	if sa.IsGraduation() {
		va, vb := a.Reached()[sa], b.Reached()[sb]
		if !va.IsZero() && !vb.IsZero() && va != vb {
			return va.Less(vb)
		}
	}
	return a.Number > b.Number
}

// Without returns a copy of c without what the sources with the given IDs
// gave it: those sources, and every KEP, mention, notice, release-note
// entry, lifecycle, patch, feature gate table, vulnerability record and
// skip they are the source of; a release
// announcement goes when every one of its sources does. What other sources
// gave is kept as it is, so a refresh can swap one source's part.
//
// The API types are merged across the releases of the API modules, one
// per group/version/kind, so they are no single source's part: they are
// kept whole while any release of an API module stays, and go with the
// last (a refresher that brings a release merges it into them). The API
// claims go with the documents that made them.
//
// A skip with no Source (written by an older kepbot) goes with a kep.yaml
// source when its path is a kep.yaml one.
func (c *Corpus) Without(ids ...string) *Corpus {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	kepYAML := false
	out := &Corpus{}
	for _, s := range c.Sources {
		if gone[s.ID] {
			kepYAML = kepYAML || s.Kind == SourceKEPYAML
			continue
		}
		out.Sources = append(out.Sources, s)
	}
	for _, r := range c.Releases {
		kept := r.Sources[:0:0]
		for _, id := range r.Sources {
			if !gone[id] {
				kept = append(kept, id)
			}
		}
		if len(kept) > 0 || len(r.Sources) == 0 {
			r.Sources = kept
			out.Releases = append(out.Releases, r)
		}
	}
	out.KEPs = keep(c.KEPs, func(k KEP) string { return k.Source }, gone)
	out.Mentions = keep(c.Mentions, func(m Mention) string { return m.Source }, gone)
	out.Notices = keep(c.Notices, func(n Notice) string { return n.Source }, gone)
	out.Changes = keep(c.Changes, func(ch Change) string { return ch.Source }, gone)
	out.Lifecycles = keep(c.Lifecycles, func(l Lifecycle) string { return l.Source }, gone)
	out.Patches = keep(c.Patches, func(p Patch) string { return p.Source }, gone)
	out.APIClaims = keep(c.APIClaims, func(cl APIClaim) string { return cl.Source }, gone)
	out.GateTables = keep(c.GateTables, func(t GateTable) string { return t.Source }, gone)
	out.Vulns = keep(c.Vulns, func(v Vuln) string { return v.Source }, gone)
	for _, s := range out.Sources {
		if s.Kind == SourceAPILifecycle {
			out.APITypes = append([]APIType(nil), c.APITypes...)
			break
		}
	}
	for _, sk := range c.Skipped {
		switch {
		case sk.Source != "" && gone[sk.Source]:
		case sk.Source == "" && kepYAML && isKEPYAMLPath(sk.Path):
		default:
			out.Skipped = append(out.Skipped, sk)
		}
	}
	return out
}

// keep returns the values of vs whose source is not gone.
func keep[T any](vs []T, source func(T) string, gone map[string]bool) []T {
	var out []T
	for _, v := range vs {
		if !gone[source(v)] {
			out = append(out, v)
		}
	}
	return out
}

// isKEPYAMLPath reports whether p names a kep.yaml or a path under keps/.
func isKEPYAMLPath(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Base(p) == "kep.yaml" || strings.HasPrefix(p, "keps/")
}

// SourceIDs returns the IDs of c's sources, in order.
func (c *Corpus) SourceIDs() []string {
	out := make([]string, 0, len(c.Sources))
	for _, s := range c.Sources {
		out = append(out, s.ID)
	}
	return out
}
