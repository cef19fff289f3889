package scan

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// Vulns is a Knowledge that also holds vulnerability records: a scan of
// a live cluster reports the known vulnerabilities of the patch release
// its server runs, beside the API findings.
type Vulns interface {
	ListVulns(ctx context.Context) ([]knowledge.Vuln, error)
}

// ServerCVEs is what a scan says of the server's own release: its patch,
// its build, and the known vulnerabilities of Kubernetes that affect the
// patch (knowledge.CVEsOf), with the database's source.
type ServerCVEs struct {
	Patch  string              `json:"patch"`
	Build  string              `json:"build,omitempty"`
	CVEs   []knowledge.CVEItem `json:"cves"`
	Source *knowledge.Source   `json:"-"`
}

// serverCVEs reads the vulnerabilities of the server's patch release when
// the cluster named one and kb holds records; nil otherwise.
func serverCVEs(ctx context.Context, kb Knowledge, read *knowledge.ManifestRead, sources map[string]knowledge.Source) (*ServerCVEs, error) {
	vk, ok := kb.(Vulns)
	if !ok || read.ServerPatch == "" {
		return nil, nil
	}
	vs, err := vk.ListVulns(ctx)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	out := &ServerCVEs{Patch: read.ServerPatch, Build: read.ServerBuild, CVEs: knowledge.CVEsOf(vs, read.ServerPatch)}
	if out.CVEs == nil {
		out.CVEs = []knowledge.CVEItem{}
	}
	if s, ok := sources[vs[0].Source]; ok {
		out.Source = &s
	}
	return out, nil
}

// writeCVEsText writes the server's vulnerabilities as a section of the
// text report.
func writeCVEsText(bw *bufio.Writer, c *ServerCVEs) {
	if c == nil {
		return
	}
	as := ""
	if c.Source != nil && c.Source.AsOf != "" {
		as = ", as of " + c.Source.AsOf
	}
	fmt.Fprintf(bw, "\nThe cluster's own release: Kubernetes %s (its server says %s): %s of Kubernetes (Go vulnerability database%s)\n",
		c.Patch, c.Build, knowledge.Plural(len(c.CVEs), "known vulnerability", "known vulnerabilities"), as)
	v, _ := knowledge.ParseVersion(c.Patch[:max(strings.LastIndexByte(c.Patch, '.'), 0)]) // the release of patch 1.30.2
	for _, it := range c.CVEs {
		name := it.Name()
		if name != it.ID {
			name += " (" + it.ID + ")"
		}
		fmt.Fprintf(bw, "  - %s: %s · %s\n", name, it.FixWords(v), it.Summary)
	}
	if c.Build != "" && c.Build != "v"+c.Patch {
		fmt.Fprintf(bw, "  A distribution's build may carry fixes its upstream patch does not: check %s with its vendor.\n", c.Build)
	}
}

// open counts the records of c not withdrawn by the database: what
// --fail-on cve exits for.
func (c *ServerCVEs) open() int {
	if c == nil {
		return 0
	}
	n := 0
	for _, it := range c.CVEs {
		if it.Withdrawn == "" {
			n++
		}
	}
	return n
}
