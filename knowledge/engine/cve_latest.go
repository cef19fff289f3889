package engine

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// patchCVEsNote is what `1.30 patches` says of vulnerabilities: how many
// known ones its latest patch still has; "" when no record is known.
func (c *catalog) patchCVEsNote(v knowledge.Version, latest int) string {
	n := c.openCVEs(v, latest)
	if n < 0 {
		return ""
	}
	return fmt.Sprintf("Known vulnerabilities: %s, the latest patch, still has %d%s; cves %s lists them.", patchName(v, latest), n, c.vulnAsOf(), patchName(v, latest))
}

// latestCVEsNote is what `latest` says of vulnerabilities: how many known
// ones the latest patch of each release it lists (facts named by release)
// still has; "" when no record is known.
func (c *catalog) latestCVEsNote(facts []knowledge.Fact) string {
	if len(c.vulns.all) == 0 {
		return ""
	}
	var parts []string
	for _, f := range facts {
		v, err := knowledge.ParseVersion(f.Name)
		if err != nil {
			continue
		}
		best, _, ok := c.latestPatch(v)
		if !ok {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %d", patchName(v, best.number), c.openCVEs(v, best.number)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Known vulnerabilities still open in each latest patch" + c.vulnAsOf() + ": " + strings.Join(parts, ", ") + "; cves VERSION lists them."
}

// vulnAsOf says of which day the database speaks: " (Go vulnerability
// database, as of 2026-08-21)".
func (c *catalog) vulnAsOf() string {
	s := c.vulnSource()
	if s == nil || s.AsOf == "" {
		return " (Go vulnerability database)"
	}
	return " (Go vulnerability database, as of " + s.AsOf + ")"
}
