package knowledge

import "strconv"

// The kinds of source that give release-note entries and lifecycle dates.
const (
	// SourceReleaseNotesData is a release's official notes as data:
	// kubernetes/sig-release releases/release-1.N/release-notes/release-notes-draft.json.
	SourceReleaseNotesData SourceKind = "release-notes-data"
	// SourceReleasePage is a release cycle's page in kubernetes/sig-release
	// (releases/release-1.N/README.md): name, theme and dates.
	SourceReleasePage SourceKind = "release-page"
	// SourceLifecycle is endoflife.date's record of every minor release's
	// support dates (products/kubernetes.md).
	SourceLifecycle SourceKind = "lifecycle"
	// SourcePatches is the list of every patch release with its date
	// (endoflife-date/release-data releases/kubernetes.json).
	SourcePatches SourceKind = "patch-releases"
)

// Change is one entry of a release's official release notes: one pull
// request of kubernetes/kubernetes, as the release notes as data give it.
type Change struct {
	Release Version  `json:"release"`          // the minor release whose notes list it
	PR      int      `json:"pr"`               // pull request number, the entry's identity
	URL     string   `json:"url,omitempty"`    // the pull request
	Kinds   []string `json:"kinds,omitempty"`  // deprecation, api-change, feature, bug, cleanup, ...
	SIGs    []string `json:"sigs,omitempty"`   // as the notes give them: "node", "api-machinery"
	KEPs    []int    `json:"keps,omitempty"`   // the KEPs its documentation links to
	Names   []string `json:"names,omitempty"`  // code names its text mentions: flags, fields, gates, API versions
	Action  bool     `json:"action,omitempty"` // an Urgent Upgrade Note ("action required")
	// Notice is the notice this entry makes, if any: a deprecation, a
	// removal, or an upgrade note for an action required.
	Notice NoticeKind `json:"notice,omitempty"`
	Text   string     `json:"text,omitempty"`   // the entry's words, quoted at run time
	Source string     `json:"source,omitempty"` // Source.ID
	// Effects are the typed changes the entry's words state, read with
	// rules (knowledge/sources/relnotes): the facts its notice is made of, kept
	// where its words are not (the built-in snapshot).
	Effects []Effect `json:"effects,omitempty"`
}

// HasKind reports whether c carries kind k.
func (c *Change) HasKind(k string) bool {
	for _, x := range c.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Lifecycle is one minor release's support dates. Dates are 2006-01-02;
// empty when the source does not say.
type Lifecycle struct {
	Release      Version `json:"release"`
	Released     string  `json:"released,omitempty"`       // the release day of 1.N.0
	EndOfSupport string  `json:"end_of_support,omitempty"` // end of standard support: maintenance mode begins
	EOL          string  `json:"eol,omitempty"`            // end of life: no more patches
	Latest       string  `json:"latest,omitempty"`         // the newest patch release, "1.30.14"
	LatestDate   string  `json:"latest_date,omitempty"`    // its date
	Source       string  `json:"source"`                   // Source.ID
}

// Patch is one patch release, such as 1.30.2, and its date.
type Patch struct {
	Release Version `json:"release"` // 1.30
	Number  int     `json:"number"`  // 2 in 1.30.2; 0 for the minor release itself
	Date    string  `json:"date"`    // 2006-01-02
	Source  string  `json:"source"`  // Source.ID
}

// String returns "1.30.2".
func (p Patch) String() string {
	return p.Release.String() + "." + strconv.Itoa(p.Number)
}
