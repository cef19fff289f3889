package knowledge

import (
	"sort"
	"strings"
)

// SourceVulnDB is a vulnerability database's records, in OSV format: the
// Go vulnerability database's records of Kubernetes-owned modules.
const SourceVulnDB SourceKind = "vulndb"

// Vuln is one record of a vulnerability database (the OSV schema, as the
// Go vulnerability database writes it): the vulnerability, the modules it
// affects and in which of their versions, and where to read more.
type Vuln struct {
	ID      string   `json:"id"`                // the database's own ID: GO-2024-3286
	Aliases []string `json:"aliases,omitempty"` // the IDs people ask by: CVE-2024-10220, GHSA-27wf-5967-98gx
	Summary string   `json:"summary,omitempty"` // the record's one-line title
	// Details are the record's own words. The built-in snapshot leaves
	// them out; answers quote them from the records ingested.
	Details string `json:"details,omitempty"`
	// Published, Modified and Withdrawn are the record's RFC 3339 times; ""
	// when it gives none, or a placeholder (0001-01-01).
	Published string `json:"published,omitempty"`
	Modified  string `json:"modified,omitempty"`
	Withdrawn string `json:"withdrawn,omitempty"`
	// Affected are the modules it affects, each with its ranges.
	Affected   []VulnAffected  `json:"affected,omitempty"`
	References []VulnReference `json:"references,omitempty"`
	URL        string          `json:"url,omitempty"`           // the database's page of it
	Review     string          `json:"review_status,omitempty"` // REVIEWED or UNREVIEWED
	Source     string          `json:"source"`                  // Source.ID
}

// VulnAffected is one module a record affects.
type VulnAffected struct {
	Module    string `json:"module"`              // k8s.io/kubernetes
	Ecosystem string `json:"ecosystem,omitempty"` // Go
	// Ranges are over the module's own versions (SEMVER), as the record
	// orders them.
	Ranges []VulnRange `json:"ranges,omitempty"`
	// Custom are the ranges the record gives in the product's own
	// releases where its module's versions cannot say
	// (ecosystem_specific.custom_ranges: ingress-nginx's controller).
	Custom []VulnRange `json:"custom_ranges,omitempty"`
	// Packages are the import paths the record names in the module.
	Packages []string `json:"packages,omitempty"`
}

// VulnRange is one OSV range: its type (SEMVER, ECOSYSTEM, GIT) and its
// events, in the record's order.
type VulnRange struct {
	Type   string      `json:"type"`
	Events []VulnEvent `json:"events"`
}

// VulnEvent is one event of a range; exactly one field is set. An
// Introduced of "0" is the beginning of time.
type VulnEvent struct {
	Introduced   string `json:"introduced,omitempty"`
	Fixed        string `json:"fixed,omitempty"`
	LastAffected string `json:"last_affected,omitempty"`
	Limit        string `json:"limit,omitempty"`
}

// VulnReference is one link a record gives, with its OSV type
// (ADVISORY, WEB, FIX, REPORT, ...).
type VulnReference struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// CVE returns v's first CVE ID, "" when it has none.
func (v *Vuln) CVE() string {
	for _, a := range v.Aliases {
		if strings.HasPrefix(strings.ToUpper(a), "CVE-") {
			return a
		}
	}
	return ""
}

// Name is what answers call v first: its CVE ID, else its ID.
func (v *Vuln) Name() string {
	if c := v.CVE(); c != "" {
		return c
	}
	return v.ID
}

// Names returns v's ID and its aliases.
func (v *Vuln) Names() []string { return append([]string{v.ID}, v.Aliases...) }

// Known reports whether v goes by id, its own ID or an alias, in any case.
func (v *Vuln) Known(id string) bool {
	for _, n := range v.Names() {
		if strings.EqualFold(n, strings.TrimSpace(id)) {
			return true
		}
	}
	return false
}

// Advisory returns v's advisory link (its ADVISORY reference), else its
// database page, else "".
func (v *Vuln) Advisory() string {
	for _, r := range v.References {
		if r.Type == "ADVISORY" {
			return r.URL
		}
	}
	return v.URL
}

// Modules returns the modules v affects, in its order.
func (v *Vuln) Modules() []string {
	out := make([]string, 0, len(v.Affected))
	for _, a := range v.Affected {
		out = append(out, a.Module)
	}
	return out
}

// SortVulns sorts records by ID (GO-2021-0064 before GO-2024-3286).
func SortVulns(vs []Vuln) {
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
}

// IsVulnID reports whether s is written like an ID a vulnerability record
// goes by: CVE-2024-10220, GHSA-27wf-5967-98gx, GO-2024-3286 (any case).
func IsVulnID(s string) bool {
	u := strings.ToUpper(strings.TrimSpace(s))
	switch {
	case strings.HasPrefix(u, "CVE-"):
		parts := strings.Split(u, "-")
		return len(parts) == 3 && len(parts[1]) == 4 && digits(parts[1]) && len(parts[2]) >= 4 && digits(parts[2])
	case strings.HasPrefix(u, "GO-"):
		parts := strings.Split(u, "-")
		return len(parts) == 3 && len(parts[1]) == 4 && digits(parts[1]) && len(parts[2]) >= 4 && digits(parts[2])
	case strings.HasPrefix(u, "GHSA-"):
		parts := strings.Split(u, "-")
		if len(parts) != 4 {
			return false
		}
		for _, p := range parts[1:] {
			if len(p) != 4 || strings.ContainsFunc(p, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') }) {
				return false
			}
		}
		return true
	}
	return false
}

// NormVulnID writes a vulnerability's ID as its database does: CVE and GO
// IDs in upper case, a GHSA ID's prefix in upper case and the rest in
// lower case (GHSA-27wf-5967-98gx).
func NormVulnID(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 5 && strings.EqualFold(s[:5], "GHSA-") {
		return "GHSA-" + strings.ToLower(s[5:])
	}
	return strings.ToUpper(s)
}

func digits(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
}

// compileVulns keeps each record once by ID, the last given winning (a
// record refreshed is added after the one it replaces), sorted by ID.
func compileVulns(vs []Vuln) []Vuln {
	byID := make(map[string]int, len(vs))
	var out []Vuln
	for _, v := range vs {
		if v.ID == "" {
			continue
		}
		if i, ok := byID[v.ID]; ok {
			out[i] = v
			continue
		}
		byID[v.ID] = len(out)
		out = append(out, v)
	}
	SortVulns(out)
	return out
}
