package knowledge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// CVEItem is one vulnerability record in a list: the records affecting a
// release (cves 1.30.2), those an upgrade fixes or leaves open, those of a
// scanned cluster's version.
type CVEItem struct {
	ID      string   `json:"id"`                // the database's ID: GO-2024-3286
	Aliases []string `json:"aliases,omitempty"` // CVE-2024-10220, GHSA-27wf-5967-98gx
	Summary string   `json:"summary"`
	Modules []string `json:"modules"`
	// Affected names the patches of the release asked about that the
	// record affects: "1.30.2", or for a minor "1.30.0–1.30.2".
	Affected string `json:"affected,omitempty"`
	// FixedIn is the first patch of that minor line the record names as
	// fixing it ("1.30.3"); empty when that line has none.
	FixedIn string `json:"fixed_in,omitempty"`
	// Unreleased is set when the patch list does not name FixedIn yet:
	// the record names a fix not out as far as the patch list says.
	Unreleased bool `json:"unreleased,omitempty"`
	// FixedElsewhere are the releases of other minor lines that fix it,
	// when the line asked about has no fix ("1.28.12"): the way out is an
	// upgrade.
	FixedElsewhere []string `json:"fixed_elsewhere,omitempty"`
	// NoFix is set when the record names no fixed version at all: the
	// advisory's mitigation is what helps.
	NoFix    bool   `json:"no_fix,omitempty"`
	Advisory string `json:"advisory,omitempty"` // the advisory's link
	// Withdrawn is the day the database withdrew the record, when it did.
	Withdrawn string `json:"withdrawn,omitempty"`
}

// CVEFacts is a cve answer's card: one record, every version that fixes
// it, and what it affects in each minor line.
type CVEFacts struct {
	ID      string   `json:"id"`
	Aliases []string `json:"aliases,omitempty"`
	Summary string   `json:"summary"`
	Modules []string `json:"modules"`
	// Product names the other product the record is about (ingress-nginx,
	// kops); empty for Kubernetes itself.
	Product string `json:"product,omitempty"`
	// FixedIn are every version the record names as fixing it: Kubernetes
	// releases for Kubernetes (a staging module's v0.30.3 as 1.30.3), the
	// product's own releases for another product. Empty when none does.
	FixedIn []string `json:"fixed_in"`
	// Ranges say, per module, what the record's ranges hold, in words.
	Ranges []CVERange `json:"ranges,omitempty"`
	// Lines are, for Kubernetes, each minor line whose known patches it
	// affects: which, and the first that fixes it.
	Lines     []CVELine `json:"lines,omitempty"`
	Packages  []string  `json:"packages,omitempty"` // the import paths the record names
	Published string    `json:"published,omitempty"`
	Modified  string    `json:"modified,omitempty"`
	Withdrawn string    `json:"withdrawn,omitempty"`
	Review    string    `json:"review_status,omitempty"`
	URL       string    `json:"url,omitempty"`
	Details   string    `json:"details,omitempty"` // the record's own words, when ingested
}

// CVERange is one module's ranges in words: "from the start to before
// 1.28.12; 1.29.0 to before 1.29.7".
type CVERange struct {
	Module string `json:"module"`
	Ranges string `json:"ranges"`
	// Versions says whose versions they are: "Kubernetes", "k8s.io/client-go
	// (v0.N.P is Kubernetes 1.N.P)", "ingress-nginx releases".
	Versions string `json:"versions,omitempty"`
}

// CVELine is one minor line of Kubernetes a record affects.
type CVELine struct {
	Release  string `json:"release"`            // 1.30
	Affected string `json:"affected"`           // 1.30.0–1.30.2
	FixedIn  string `json:"fixed_in,omitempty"` // 1.30.3; empty when the line has no fix
	// Unreleased is set when the patch list does not name FixedIn yet.
	Unreleased bool `json:"unreleased,omitempty"`
}

// FixWords writes where l stands: "fixed in 1.30.3", "fixed in 1.36.5,
// not in the patch list yet", "no fix in 1.30".
func (l CVELine) FixWords() string {
	switch {
	case l.FixedIn == "":
		return "no fix in " + l.Release
	case l.Unreleased:
		return "fixed in " + l.FixedIn + ", not in the patch list yet"
	}
	return "fixed in " + l.FixedIn
}

// Name is how an item heads its line: its first CVE alias, else its ID.
func (it CVEItem) Name() string {
	for _, a := range it.Aliases {
		if len(a) > 4 && strings.EqualFold(a[:4], "CVE-") {
			return a
		}
	}
	return it.ID
}

// FixWords says where item it of a list about release v stands: withdrawn,
// fixed in a patch of v (CVELine.FixWords), with no fixed version at all,
// or fixed only in other releases.
func (it CVEItem) FixWords(v Version) string {
	switch {
	case it.Withdrawn != "":
		return "withdrawn from the database on " + it.Withdrawn + "; no fixed version"
	case it.FixedIn != "":
		return CVELine{Release: v.String(), FixedIn: it.FixedIn, Unreleased: it.Unreleased}.FixWords()
	case it.NoFix || len(it.FixedElsewhere) == 0:
		return "no fixed version; see " + it.Advisory
	}
	return fmt.Sprintf("no fix in %s; fixed in %s", v, prose.JoinAnd(it.FixedElsewhere))
}

// CVEs is the cves part of an answer. About one release (cves 1.30.2, a
// scan) it is the records affecting it, and its JSON is an array; about
// an upgrade it is the records the upgrade fixes and those it leaves
// open, and its JSON is an object {"fixed": [...], "still_open": [...]}.
type CVEs struct {
	List      []CVEItem
	Fixed     []CVEItem
	StillOpen []CVEItem
	// Upgrade says which of the two it is.
	Upgrade bool
}

type cveUpgrade struct {
	Fixed     []CVEItem `json:"fixed"`
	StillOpen []CVEItem `json:"still_open"`
}

// MarshalJSON writes c as an array of records, or for an upgrade as
// {"fixed": [...], "still_open": [...]}; empty lists are [].
func (c CVEs) MarshalJSON() ([]byte, error) {
	if c.Upgrade {
		return json.Marshal(cveUpgrade{Fixed: orEmpty(c.Fixed), StillOpen: orEmpty(c.StillOpen)})
	}
	return json.Marshal(orEmpty(c.List))
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *CVEs) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if len(t) > 0 && t[0] == '{' {
		var u cveUpgrade
		if err := json.Unmarshal(t, &u); err != nil {
			return err
		}
		*c = CVEs{Fixed: u.Fixed, StillOpen: u.StillOpen, Upgrade: true}
		return nil
	}
	var l []CVEItem
	if err := json.Unmarshal(t, &l); err != nil {
		return err
	}
	*c = CVEs{List: l}
	return nil
}

func orEmpty(l []CVEItem) []CVEItem {
	if l == nil {
		return []CVEItem{}
	}
	return l
}
