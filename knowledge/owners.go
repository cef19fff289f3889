package knowledge

import "strings"

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
// then the further it graduated, then the newer.
func PreferKEP(a, b *KEP) bool {
	if ra, rb := statusRank(a), statusRank(b); ra != rb {
		return ra < rb
	}
	if sa, sb := a.CurrentStage(), b.CurrentStage(); sa != sb {
		return sa > sb
	}
	return a.Number > b.Number
}
