package discord

import "github.com/kepbot/kepbot/knowledge"

// maxFact caps the value of one fact of an api or scan answer, before it
// is escaped: with its name it stays a line the packer keeps whole.
const maxFact = maxLine - MaxFieldName - 20

// factDoc lays out an api or scan answer: the summary ("14 objects: 2
// removed by 1.36, …" or where each API version stands), then a line for
// each fact — an API with its replacement, the release and source that
// say so and, for a scan, the objects that use it; or a group of objects
// not built into Kubernetes — its name in bold over its value, then the
// notes (documents that could not be read, sources that disagree). Facts
// can be many: they continue across embeds and messages like any lines.
func factDoc(a *knowledge.Answer) *doc {
	d := baseDoc(a, colorList)
	for _, f := range a.Facts {
		d.lines = append(d.lines, factLine(f))
	}
	d.lines = append(d.lines, noteLines(a.Notes)...)
	return d
}

// factLine writes one fact: "**Removed in 1.22: extensions/v1beta1
// Ingress**" and, on the next line, what it says.
func factLine(f knowledge.Fact) string {
	v := esc(f.Value, maxFact)
	if f.Name == "" {
		return "• " + v
	}
	return "**" + esc(f.Name, MaxFieldName) + "**\n" + v
}
