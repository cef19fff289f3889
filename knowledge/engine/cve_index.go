package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// vulnIndex is the catalog's part for vulnerability records: every record
// by ID, and each by the names people ask with (its ID and aliases, upper
// case).
type vulnIndex struct {
	all    []knowledge.Vuln
	byName map[string]int
}

// indexVulns files vs, sorted by ID, under their names.
func (c *catalog) indexVulns(vs []knowledge.Vuln) {
	knowledge.SortVulns(vs)
	c.vulns = vulnIndex{all: vs, byName: make(map[string]int, 3*len(vs))}
	for i := range vs {
		for _, n := range vs[i].Names() {
			c.vulns.byName[strings.ToUpper(n)] = i
		}
	}
}

// vuln returns the record that goes by name, or nil.
func (c *catalog) vuln(name string) *knowledge.Vuln {
	if i, ok := c.vulns.byName[strings.ToUpper(strings.TrimSpace(name))]; ok {
		return &c.vulns.all[i]
	}
	return nil
}

// vulnSources are the IDs of the sources of vs, each once.
func vulnSources(vs []*knowledge.Vuln) []string {
	var ids []string
	for _, v := range vs {
		if len(ids) == 0 || ids[len(ids)-1] != v.Source {
			ids = append(ids, v.Source)
		}
	}
	return ids
}

// patchName writes patch p of release v: "1.30.2".
func patchName(v knowledge.Version, p int) string { return v.String() + "." + strconv.Itoa(p) }

// knownPatches are the patch numbers of v the patch list names, oldest
// first (0 is v.0), and the newest patch another source names when it is
// newer (the k8s.io/api v0.36.6 tag: 1.36.6, as latest and patches say);
// when no source names one, v.0 alone, and known is false.
func (c *catalog) knownPatches(v knowledge.Version) (nums []int, known bool) {
	for _, p := range c.patches[v] {
		nums = append(nums, p.Number)
	}
	sort.Ints(nums)
	if best, _, ok := c.latestPatch(v); ok && (len(nums) == 0 || best.number > nums[len(nums)-1]) {
		if len(nums) == 0 && best.number > 0 {
			nums = append(nums, 0) // v.0 came before it
		}
		nums = append(nums, best.number)
	}
	if len(nums) == 0 {
		return []int{0}, false
	}
	return nums, true
}

// rangeWords writes one range in words: "from the start to before
// 1.28.12; 1.29.0 to before 1.29.7"; "1.3.0 onwards (no fix)". Versions
// of a staging module are written as they are (v0.27.5).
func rangeWords(r knowledge.VulnRange) string {
	evs := append([]knowledge.VulnEvent(nil), r.Events...)
	sort.SliceStable(evs, func(i, j int) bool { return knowledge.CompareVersions(eventVersion(evs[i]), eventVersion(evs[j])) < 0 })
	var parts []string
	open := ""
	for _, e := range evs {
		switch {
		case e.Introduced != "":
			open = e.Introduced
			if open == "0" {
				open = "from the start"
			}
		case e.Fixed != "" && open != "":
			parts = append(parts, open+" to before "+e.Fixed)
			open = ""
		case e.LastAffected != "" && open != "":
			parts = append(parts, open+" to "+e.LastAffected)
			open = ""
		case e.Limit != "" && open != "":
			parts = append(parts, open+" to before "+e.Limit+" (a limit)")
			open = ""
		}
	}
	if open != "" {
		if open == "from the start" {
			parts = append(parts, "every version (no fix)")
		} else {
			parts = append(parts, open+" onwards (no fix)")
		}
	}
	if r.Type == "GIT" {
		return "commits: " + strings.Join(parts, "; ")
	}
	return strings.Join(parts, "; ")
}

func eventVersion(e knowledge.VulnEvent) string {
	for _, s := range []string{e.Introduced, e.Fixed, e.LastAffected, e.Limit} {
		if s != "" {
			return s
		}
	}
	return ""
}

// productFixes are the releases of another product that fix vu: its
// custom ranges' (the product's own releases) where it gives them, else
// its modules' fixed versions but pseudo-versions (a commit, no release).
func productFixes(vu *knowledge.Vuln) []string {
	var out []string
	for _, a := range vu.Affected {
		if knowledge.RoleOf(a.Module) != knowledge.RoleOther {
			continue
		}
		rs := a.Custom
		if len(rs) == 0 {
			rs = a.Ranges
		}
		for _, r := range rs {
			for _, f := range r.Fixes() {
				if !strings.HasPrefix(f, "0.0.0-") && !containsStr(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// pseudoFix reports whether another product's module names its fix only
// as a commit (a pseudo-version such as 0.0.0-20260319175635-5183b7d86137),
// and returns the commit's day.
func pseudoFix(vu *knowledge.Vuln) (string, bool) {
	for _, a := range vu.Affected {
		for _, r := range a.Ranges {
			for _, f := range r.Fixes() {
				if rest, ok := strings.CutPrefix(f, "0.0.0-"); ok && len(rest) >= 8 {
					return rest[:4] + "-" + rest[4:6] + "-" + rest[6:8], true
				}
			}
		}
	}
	return "", false
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// vulnName writes a record as people know it: "CVE-2024-10220
// (GO-2024-3286)", or its ID alone.
func vulnName(vu *knowledge.Vuln) string {
	if c := vu.CVE(); c != "" {
		return fmt.Sprintf("%s (%s)", c, vu.ID)
	}
	return vu.ID
}

// day is the date part of an RFC 3339 time.
func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return t
}
