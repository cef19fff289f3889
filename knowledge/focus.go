package knowledge

import (
	"fmt"
	"strings"
)

// Focus is the one attribute a question asks of a KEP, a feature gate or a
// release: "which SIG owns KEP 1287?" asks KEP-1287's SIG, "1.33 的代号是什么"
// the theme of 1.33. The answer is the card, led by that attribute.
type Focus string

// The attributes a question may ask first.
const (
	FocusNone   Focus = ""
	FocusSIG    Focus = "sig"    // which SIG owns it
	FocusOwner  Focus = "owner"  // who to ask: its SIG, and where the SIG meets
	FocusGates  Focus = "gates"  // its feature gates
	FocusStatus Focus = "status" // where it stands: stages reached and planned
	FocusTheme  Focus = "theme"  // a release's theme, its code name
	FocusDate   Focus = "date"   // a release's day
)

// communityURL is where a SIG's page in kubernetes/community is: its
// charter, meetings, Slack channel and mailing list.
const communityURL = "https://github.com/kubernetes/community/tree/master/"

// focusLead is the line an answer to a question with focus f leads with,
// made of the answer's own facts; "" when a holds nothing to say it with
// (an error, another kind of answer).
func focusLead(a *Answer, f Focus) string {
	if k := a.KEP; k != nil && (a.Kind == KindKEP || a.Kind == KindGate) {
		return kepLead(k, f)
	}
	if r := a.Release; r != nil && a.Kind == KindRelease {
		return releaseLead(r, f)
	}
	return ""
}

// kepLead says one attribute of a KEP.
func kepLead(k *KEPFacts, f Focus) string {
	name := fmt.Sprintf("KEP-%d", k.Number)
	switch f {
	case FocusSIG:
		if k.SIG == "" {
			return name + ": its kep.yaml names no owning SIG."
		}
		return fmt.Sprintf("%s is owned by %s.", name, k.SIG)
	case FocusOwner:
		if k.SIG == "" {
			return name + ": its kep.yaml names no owning SIG to ask."
		}
		return fmt.Sprintf("Ask %s: %s is theirs. Their page lists their meetings, Slack channel and mailing list: %s%s",
			k.SIG, name, communityURL, k.SIG)
	case FocusGates:
		switch len(k.FeatureGates) {
		case 0:
			return name + " names no feature gate in its kep.yaml."
		case 1:
			return fmt.Sprintf("%s has one feature gate: %s.", name, k.FeatureGates[0])
		}
		return fmt.Sprintf("%s has %d feature gates: %s.", name, len(k.FeatureGates), strings.Join(k.FeatureGates, ", "))
	case FocusStatus:
		return kepStatusLead(name, k)
	}
	return ""
}

// kepStatusLead says where a KEP stands: its status, the stages it reached
// and those only planned, never a planned one as reached.
func kepStatusLead(name string, k *KEPFacts) string {
	var parts []string
	if k.Status != "" {
		parts = append(parts, "status "+k.Status)
	}
	if reached := ReachedList(k.Milestones); reached != "" {
		parts = append(parts, "reached "+reached)
	} else {
		parts = append(parts, "no stage reached yet")
	}
	if planned := ReachedList(k.Targets); planned != "" {
		parts = append(parts, "planned (not reached) "+planned)
	}
	return name + ": " + strings.Join(parts, "; ") + "."
}

// releaseLead says one attribute of a release.
func releaseLead(r *ReleaseFacts, f Focus) string {
	switch f {
	case FocusTheme:
		if r.Theme == "" {
			return fmt.Sprintf("None of my sources gives a theme (code name) for %s.", r.Version)
		}
		return fmt.Sprintf("The theme (code name) of %s is %s.", r.Version, r.Theme)
	case FocusDate:
		switch {
		case r.Planned:
			return fmt.Sprintf("None of my sources gives the day %s will be released.", r.Version)
		case r.Date == "":
			return fmt.Sprintf("None of my sources gives the day %s was released.", r.Version)
		}
		return fmt.Sprintf("%s was released on %s.", r.Version, r.Date)
	}
	return ""
}

// alsoLine names the runners-up of a feature's name in one line.
func alsoLine(also []KEPRef) string {
	names := make([]string, len(also))
	for i, k := range also {
		names[i] = fmt.Sprintf("KEP-%d", k.Number)
		if k.Title != "" {
			names[i] += " (" + Short(k.Title) + ")"
		}
	}
	return "Also matched: " + strings.Join(names, "; ") + "."
}

// ReachedList writes a stage map as "alpha in 1.29, beta in 1.31", in stage order.
func ReachedList(m map[string]string) string {
	var parts []string
	for _, s := range GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" in "+v)
		}
	}
	return strings.Join(parts, ", ")
}
