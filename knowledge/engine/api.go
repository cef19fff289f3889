package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// answerAPI answers `api WORDS [in AT]`: every version of a kind, every
// kind of a group/version, or one group/version/kind, each with its
// lifecycle, what replaces it and the sources; with AT, first whether it
// is served in that release. It fails with ENOTFOUND when the knowledge
// holds no API lifecycle or nothing matches WORDS (with the closest kinds
// as suggestions, or why a group is not built in), and EBADINPUT for a
// release the sources do not know.
func (e *Engine) answerAPI(ctx context.Context, words string, at knowledge.Version) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	t := c.apis
	if !t.Known() {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "This knowledge holds no API lifecycle yet. Run bot ingest with ../shared/data/api-lifecycle, or bot sync, and ask again.")
	}
	types, what, err := matchAPIs(t, words)
	if err != nil {
		return nil, err
	}
	if !at.IsZero() && t.Latest().Less(at) {
		return nil, &knowledge.Error{Code: knowledge.EBADINPUT, Message: fmt.Sprintf("Kubernetes %s is not out as far as my sources say (the newest API release I read is %s). Ask about a release up to %s.", at, t.Latest(), t.Latest()),
			Suggestions: []string{"api " + words + " in " + t.Latest().String()}}
	}
	ref := at
	if ref.IsZero() {
		ref = t.Latest()
	}
	a := &knowledge.Answer{Kind: knowledge.KindAPI, Title: "API " + what}
	var ids []string
	for _, l := range types {
		f := apiFacts(t, l, ref, at, c.sources)
		a.API = append(a.API, f)
		a.Facts = append(a.Facts, knowledge.Fact{Name: l.API.String(), Value: apiLine(t, l, ref, c.sources)})
		for _, ev := range l.Evidence {
			if ev.Used {
				ids = append(ids, ev.Source)
			}
		}
	}
	a.Text = apiSummary(t, types, what, at)
	notes, noted := apiNotes(t, types, c.sources)
	a.Notes = notes
	a.Sources = c.sourceRefs(append(ids, noted...))
	return a, nil
}

// matchAPIs finds the types words name: "KIND", "GROUP/VERSION" or
// "GROUP/VERSION KIND" (a core version alone, "v1", is a group/version).
func matchAPIs(t *knowledge.APITable, words string) ([]*knowledge.APILifecycle, string, error) {
	fields := strings.Fields(words)
	if len(fields) == 0 || len(fields) > 2 {
		return nil, "", knowledge.BadInput("api", "Name a kind (api Ingress), a group/version (api batch/v1beta1) or both (api batch/v1beta1 CronJob).")
	}
	gv, kind := "", ""
	switch {
	case len(fields) == 2:
		gv, kind = fields[0], fields[1]
	case strings.Contains(fields[0], "/") || knowledge.IsAPIVersionName(fields[0]):
		gv = fields[0]
	default:
		kind = fields[0]
	}
	if gv != "" {
		group, _, ok := knowledge.ParseAPIVersion(gv)
		if !ok {
			return nil, "", knowledge.BadInput("api", "%q is not written like an apiVersion: give group/version, as batch/v1beta1, or v1 for the core group.", knowledge.Echo(gv))
		}
		if !t.BuiltinGroup(group) {
			return nil, "", knowledge.Errorf(knowledge.ENOTFOUND, "%s is not built into Kubernetes: it is a CustomResourceDefinition's or an aggregated API's group, so its project, not Kubernetes, decides when its versions go.", knowledge.Echo(group))
		}
		types := t.GroupVersion(gv)
		if kind != "" {
			types = slices.DeleteFunc(types, func(l *knowledge.APILifecycle) bool { return !strings.EqualFold(l.API.Kind, kind) })
		}
		if len(types) == 0 {
			return nil, "", apiMiss(t, gv, kind)
		}
		what := types[0].API.GroupVersion()
		if kind != "" {
			what = types[0].API.String()
		}
		return types, what, nil
	}
	types := t.Kind(kind)
	if len(types) == 0 {
		return nil, "", apiMiss(t, "", kind)
	}
	slices.SortStableFunc(types, func(a, b *knowledge.APILifecycle) int {
		if knowledge.APIRefLess(a.API, b.API) {
			return -1
		}
		if knowledge.APIRefLess(b.API, a.API) {
			return 1
		}
		return 0
	})
	return types, types[0].API.Kind, nil
}

// apiMiss says a kind or group/version is unknown, suggesting the closest
// kinds.
func apiMiss(t *knowledge.APITable, gv, kind string) error {
	e := &knowledge.Error{Code: knowledge.ENOTFOUND}
	switch {
	case kind == "":
		e.Message = fmt.Sprintf("No Kubernetes release I know serves %s.", knowledge.SafeValue(gv))
	case gv == "":
		e.Message = fmt.Sprintf("No Kubernetes release I know serves a kind %s.", knowledge.Echo(kind))
	default:
		e.Message = fmt.Sprintf("No Kubernetes release I know serves the kind %s in %s.", knowledge.Echo(kind), knowledge.SafeValue(gv))
	}
	if kind != "" {
		for _, k := range knowledge.ClosestWords(kind, t.Kinds()) {
			e.Suggestions = append(e.Suggestions, "api "+k)
		}
	}
	return e
}

// apiFacts is l's lifecycle for an answer's JSON.
func apiFacts(t *knowledge.APITable, l *knowledge.APILifecycle, ref, at knowledge.Version, sources map[string]knowledge.Source) knowledge.APIFacts {
	f := knowledge.APIFacts{APIVersion: l.API.GroupVersion(), Kind: l.API.Kind, Level: l.Level(),
		Introduced: l.Introduced.String(), Deprecated: l.Deprecated.String(), Removed: l.Removed.String(),
		DeprecationPlanned: !l.Deprecated.IsZero() && !t.Reached(l.Deprecated),
		RemovalPlanned:     !l.Removed.IsZero() && !t.Reached(l.Removed),
		Evidence:           l.Evidence}
	if !l.ServedIn(ref) || !l.Deprecated.IsZero() {
		if rep, r, ok := t.ReplacementIn(l, ref); ok {
			f.Replacement = rep.String()
			if r != nil {
				f.ReplacementFrom = r.Introduced.String()
			}
		}
	}
	if !at.IsZero() {
		if served, known := servedIn(t, l, at); known {
			f.Served = &served
		}
	}
	var ids []string
	for _, ev := range l.Evidence {
		ids = append(ids, ev.Source)
	}
	f.Sources = refsOf(sources, ids)
	return f
}

// servedIn says whether l is served in v, and whether the sources can
// tell: before the oldest release read, a type whose introduction no
// source gives may or may not have been there.
func servedIn(t *knowledge.APITable, l *knowledge.APILifecycle, v knowledge.Version) (served, known bool) {
	if l.ServedIn(v) && l.Introduced.IsZero() && len(t.Releases()) > 0 && v.Less(t.Releases()[0]) {
		return false, false
	}
	return l.ServedIn(v), true
}

// apiLine writes l's lifecycle in one line: "beta · introduced 1.14 ·
// deprecated 1.19 · removed in 1.22 (the migration guide) · use
// networking.k8s.io/v1 Ingress (served since 1.19)".
func apiLine(t *knowledge.APITable, l *knowledge.APILifecycle, ref knowledge.Version, sources map[string]knowledge.Source) string {
	parts := []string{levelWords(l)}
	if !l.Introduced.IsZero() {
		parts = append(parts, "introduced "+l.Introduced.String())
	}
	if d := l.Deprecated; !d.IsZero() {
		if t.Reached(d) {
			parts = append(parts, "deprecated "+d.String())
		} else {
			parts = append(parts, "deprecation planned for "+d.String())
		}
	}
	if l.PayloadTo() != "" {
		parts = append(parts, "a request payload the API server sends to "+l.PayloadTo()+", never served as a resource")
	}
	switch r := l.Removed; {
	case r.IsZero() && l.PayloadTo() != "":
	case r.IsZero() && l.Kept:
		parts = append(parts, "will not be removed ("+knowledge.BasisWords(knowledge.UsedEvidence(l, knowledge.APIKept), sources)+") · served in "+t.Latest().String())
	case r.IsZero():
		parts = append(parts, "served in "+t.Latest().String())
	case t.Reached(r):
		parts = append(parts, "removed in "+r.String()+" ("+knowledge.BasisWords(knowledge.UsedEvidence(l, knowledge.APIRemoved), sources)+")")
	default:
		parts = append(parts, "removal planned for "+r.String()+" ("+knowledge.BasisWords(knowledge.UsedEvidence(l, knowledge.APIRemoved), sources)+")")
	}
	if !l.ServedIn(ref) || !l.Deprecated.IsZero() {
		if rep, r, ok := t.ReplacementIn(l, ref); ok {
			s := "use " + rep.String()
			if r != nil && !r.Introduced.IsZero() && r.PayloadTo() != "" {
				s += " (since " + r.Introduced.String() + ")"
			} else if r != nil && !r.Introduced.IsZero() {
				s += " (served since " + r.Introduced.String() + ")"
				s += bridge(t, l, rep, r)
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// bridge names l's own replacement when a cluster older than l's removal
// must move to it first (APITable.Bridge): "; before 1.29,
// flowcontrol.apiserver.k8s.io/v1beta3 (served since 1.26)". "" otherwise.
func bridge(t *knowledge.APITable, l *knowledge.APILifecycle, rep knowledge.APIRef, r *knowledge.APILifecycle) string {
	d, ok := t.Bridge(l, rep, r)
	if !ok {
		return ""
	}
	return knowledge.BridgeWords(l, d)
}

// levelWords is how a lifeline starts: "alpha (served only where the API
// server enables it with --runtime-config and its feature gate is on)",
// "beta", "GA".
func levelWords(l *knowledge.APILifecycle) string {
	if l.Level() == knowledge.APIAlpha && l.PayloadTo() == "" {
		return "alpha (served only where the API server enables it with --runtime-config=" + l.API.GroupVersion() + "=true and its feature gate is on)"
	}
	return l.Level().Label()
}

// apiSummary writes the answer's first line: with a release asked about,
// whether it is served there; else where each version stands.
func apiSummary(t *knowledge.APITable, types []*knowledge.APILifecycle, what string, at knowledge.Version) string {
	if at.IsZero() {
		var served, gone, planned, payloads []string
		for _, l := range types {
			switch {
			case l.PayloadTo() != "":
				payloads = append(payloads, l.API.String())
			case l.Removed.IsZero():
				served = append(served, l.API.String())
			case t.Reached(l.Removed):
				gone = append(gone, l.API.String()+" ("+l.Removed.String()+")")
			default:
				planned = append(planned, l.API.String()+" ("+l.Removed.String()+")")
			}
		}
		var parts []string
		if len(served) > 0 {
			parts = append(parts, "served in "+t.Latest().String()+": "+strings.Join(served, ", "))
		}
		if len(planned) > 0 {
			parts = append(parts, "removal planned: "+strings.Join(planned, ", "))
		}
		if len(gone) > 0 {
			parts = append(parts, "removed: "+strings.Join(gone, ", "))
		}
		if len(payloads) > 0 {
			parts = append(parts, "request payloads sent to webhooks, never served: "+strings.Join(payloads, ", "))
		}
		return what + ": " + strings.Join(parts, "; ") + "."
	}
	var yes, no, unsure, payloads []string
	for _, l := range types {
		switch served, known := servedIn(t, l, at); {
		case l.PayloadTo() != "":
			payloads = append(payloads, l.API.String())
		case !known:
			unsure = append(unsure, l.API.String())
		case served && l.DeprecatedIn(at):
			yes = append(yes, l.API.String()+" (deprecated since "+l.Deprecated.String()+")")
		case served:
			yes = append(yes, l.API.String())
		case !l.Removed.IsZero() && !at.Less(l.Removed):
			no = append(no, l.API.String()+" (removed in "+l.Removed.String()+")")
		default:
			no = append(no, l.API.String()+" (served from "+l.Introduced.String()+")")
		}
	}
	var lead string
	switch {
	case len(payloads) > 0 && len(yes)+len(no)+len(unsure) == 0:
		return fmt.Sprintf("No — %s is a request payload the API server sends to %s; it is never served as a resource, in %s or any release.", strings.Join(payloads, ", "), types[0].PayloadTo(), at)
	case len(unsure) > 0 && len(yes) == 0:
		return fmt.Sprintf("I can't tell for %s: my API data starts at %s and no source says when %s was introduced.", at, t.Releases()[0], strings.Join(unsure, ", "))
	case len(no) == 0:
		lead = "Yes"
	case len(yes) == 0:
		lead = "No"
	default:
		lead = "Partly"
	}
	s := fmt.Sprintf("%s — in Kubernetes %s", lead, at)
	if len(yes) > 0 {
		s += ", served: " + strings.Join(yes, ", ")
	}
	if len(no) > 0 {
		if len(yes) > 0 {
			s += ";"
		}
		s += " not served: " + strings.Join(no, ", ")
	}
	return s + "."
}

// apiNotes says where sources disagree on when a type was removed or
// deprecated, each source with its release, and which one kepbot goes by;
// types of one group/version that disagree alike are said once. It also
// returns the sources the notes name. A release whose module no longer
// carries a type, at or after the removal chosen, agrees with it: types
// stay in the modules a while after the server stops serving them.
func apiNotes(t *knowledge.APITable, types []*knowledge.APILifecycle, sources map[string]knowledge.Source) ([]string, []string) {
	type key struct {
		gv, line string
	}
	var order []key
	var ids []string
	kinds := map[key][]string{}
	for _, l := range types {
		for _, action := range []knowledge.APIAction{knowledge.APIRemoved, knowledge.APIDeprecated} {
			used := knowledge.UsedEvidence(l, action)
			if used.Source == "" {
				continue
			}
			var others []string
			for _, ev := range l.Evidence {
				if ev.Action != action || ev.Used || ev.Replacement != nil || ev.Release == used.Release || ev.Basis == knowledge.BasisPresent ||
					(ev.Basis == knowledge.BasisAbsent && !ev.Release.Less(used.Release)) {
					continue
				}
				others = append(others, saysWords(ev, sources))
				ids = append(ids, ev.Source)
			}
			if len(others) == 0 {
				continue
			}
			ids = append(ids, used.Source)
			line := fmt.Sprintf("%s in %s per %s; %s. kepbot goes by %s.", actionNoun(action), used.Release, knowledge.BasisWords(used, sources), strings.Join(dedupe(others), "; "), strongestWords(used.Basis))
			k := key{l.API.GroupVersion(), line}
			if _, seen := kinds[k]; !seen {
				order = append(order, k)
			}
			kinds[k] = append(kinds[k], l.API.Kind)
		}
	}
	var notes []string
	for _, k := range order {
		notes = append(notes, fmt.Sprintf("%s (%s): %s", k.gv, strings.Join(kinds[k], ", "), k.line))
	}
	return notes, ids
}

// saysWords writes what one source says of a release: "k8s.io/api
// v0.37.2's lifecycle markers say 1.32", "k8s.io/api drops it in v0.34.13
// (1.34)".
func saysWords(e knowledge.APIEvidence, sources map[string]knowledge.Source) string {
	switch e.Basis {
	case knowledge.BasisMarkers:
		return knowledge.ModuleName(e.Source) + "'s lifecycle markers say " + e.Release.String()
	case knowledge.BasisAbsent:
		mod, tag, _ := strings.Cut(e.Source, "@")
		return mod + " drops it in " + tag + " (" + e.Release.String() + ")"
	case knowledge.BasisNotes:
		return knowledge.BasisWords(e, sources) + " say " + e.Release.String()
	}
	return knowledge.BasisWords(e, sources) + " says " + e.Release.String()
}

func actionNoun(a knowledge.APIAction) string {
	if a == knowledge.APIDeprecated {
		return "Deprecated"
	}
	return "Removed"
}

// strongestWords names the rule that picked a value.
func strongestWords(b knowledge.APIBasis) string {
	switch b {
	case knowledge.BasisNotes:
		return "the release notes of the release that did it"
	case knowledge.BasisGuide:
		return "the migration guide"
	case knowledge.BasisPost:
		return "the documents over the API modules' markers"
	case knowledge.BasisAbsent:
		return "the first release whose API module no longer has it"
	}
	return "the API modules' markers"
}

func dedupe(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
