package engine

import (
	"strconv"

	"github.com/kepbot/kepbot/knowledge"
)

// scanGates adds to a scan answer what the components do with the feature
// gates the manifest's configurations set at release to: a fact a
// setting that stops its component or warns ("kubelet 1.33 will not
// start: feature gate AppArmor was removed in 1.33"), counted in the
// text; a note when the gates could not be checked.
func scanGates(c *catalog, read *knowledge.ManifestRead, to knowledge.Version, a *knowledge.Answer) {
	if len(read.Gates) == 0 {
		return
	}
	fs, ok := knowledge.CheckGates(read.Gates, c.gates, to)
	if !ok {
		if !c.gates.Known() {
			a.Notes = append(a.Notes, "The feature gates the configurations set were not checked: this knowledge holds no release's feature gates.")
		} else {
			a.Notes = append(a.Notes, "The feature gates the configurations set were not checked: I have not read the code of "+to.String()+".")
		}
		return
	}
	if len(fs) == 0 {
		return
	}
	a.Text += " Feature gates: " + knowledge.GateFindingsSummary(fs) + "."
	for _, f := range fs {
		where := "document " + strconv.Itoa(f.Document) + " line " + strconv.Itoa(f.Line)
		if f.File != "" {
			where = knowledge.SafeValue(f.File) + " " + where
		}
		obj := knowledge.SafeValue(f.Kind)
		if f.Name != "" {
			obj += " " + knowledge.SafeValue(f.Name)
		}
		name := "Feature gate " + knowledge.SafeValue(f.Gate) + " (" + f.Component + ")"
		a.Facts = append(a.Facts, knowledge.Fact{Name: name, Value: knowledge.GateFindingText(f, to) + " · " + obj + ", " + where})
	}
	if r, ok := c.gates.Read(to); ok {
		a.Sources = append(a.Sources, c.sourceRefs(r.Sources)...)
	}
}
