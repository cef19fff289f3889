package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// A notice has two kinds of name, for two jobs.
//
// NoticeKey says which notices are one digest item: the same removal told
// by the release note and the deprecation guide, the same KEP's
// deprecation told by two notes. It may use what the knowledge as a whole
// says (a KEP found through a notice's feature gates), so the items of a
// digest can change as sources are added.
//
// NoticeAliases say what the notice is, from its own document alone, so
// they never change when other sources are added, removed or reordered,
// or when kep.yaml links it to a KEP. The ledger (NoticeLedger) numbers
// items by their aliases: an item with any alias the ledger numbered
// before takes that older sequence, so a notice once delivered is never
// new again, whatever item it ends up in. A ledger kepbot kept before
// aliases holds NoticeKey as it was then; those keys are read too
// (legacyNoticeKeys), never written.

// maxKeyValue is the longest value a key keeps as it is; a longer one
// (a long title) is kept as its hash, so keys stay small.
const maxKeyValue = 120

// NoticeKey names the digest item n belongs to, within its kind and
// release: its API group/version (without kinds, which documents list
// differently), else its release-note entry's PR, else its KEP (named by
// its document or found through its feature gates), else its feature
// gates, else its title. Two release-note entries are two items even when
// they concern one KEP.
func NoticeKey(n knowledge.Notice) string {
	var typ, val string
	switch {
	case n.API != nil && n.API.GroupVersion != "":
		typ, val = "api", strings.ToLower(n.API.GroupVersion)
	case n.PR > 0:
		typ, val = "pr", strconv.Itoa(n.PR)
	case n.KEP > 0:
		typ, val = "kep", strconv.Itoa(n.KEP)
	case len(n.FeatureGates) > 0:
		typ, val = "gates", sortedLower(n.FeatureGates)
	default:
		typ, val = "title", normTitle(n.Title)
	}
	return keyOf(n, typ+":", val)
}

// NoticeAliases returns the names n's own document gives it, sorted, each
// "kind|release|type=value" (an "=" where keys before aliases had a ":",
// so that no alias is ever taken for one of those):
//
//   - a release-note entry: pr=N, and api=<group/version> for an API
//     removal; nothing else, so that two entries about one KEP or one
//     feature gate stay two notices;
//   - any other notice: api=<group/version> (without kinds), kep=N when
//     its document names the KEP (not when Compile found it through a
//     gate: KEPVia), and gate=<name> for each feature gate;
//   - a notice with none of these: title=<lower-case words> and, when its
//     place is known, at=<source>#<line>, so that rewording the title or
//     moving the paragraph alone does not make it new.
func NoticeAliases(n knowledge.Notice) []string {
	var out []string
	add := func(typ, val string) { out = append(out, keyOf(n, typ+"=", val)) }
	if n.API != nil && n.API.GroupVersion != "" {
		add("api", strings.ToLower(n.API.GroupVersion))
	}
	if n.PR > 0 {
		add("pr", strconv.Itoa(n.PR))
		return sortUnique(out)
	}
	if n.KEP > 0 && n.KEPVia == "" {
		add("kep", strconv.Itoa(n.KEP))
	}
	for _, g := range n.FeatureGates {
		if g = strings.ToLower(strings.TrimSpace(g)); g != "" {
			add("gate", g)
		}
	}
	if len(out) == 0 {
		add("title", normTitle(n.Title))
		if n.Source != "" && n.Line > 0 {
			add("at", n.Source+"#"+strconv.Itoa(n.Line))
		}
	}
	return sortUnique(out)
}

// legacyNoticeKeys are the keys kepbot numbered n by before aliases: kind,
// release, then the API version with its kinds, else the KEP, else the
// gates, else the title. For a KEP found through a gate, the key without
// it too, as a ledger written before kep.yaml was ingested holds it. A
// release-note entry's old key (its KEP, its gates) is shared by other
// entries and notes, so it counts only at the upgrade (atUpgrade).
func legacyNoticeKeys(n knowledge.Notice) (always, atUpgrade []string) {
	out := []string{legacyNoticeKey(n)}
	if n.KEP > 0 && n.KEPVia != "" {
		m := n
		m.KEP = 0
		out = append(out, legacyNoticeKey(m))
	}
	if n.PR > 0 {
		return nil, out
	}
	return out, nil
}

// legacyNoticeKey is the NoticeKey of kepbot before aliases, byte for byte.
func legacyNoticeKey(n knowledge.Notice) string {
	var id string
	switch {
	case n.API != nil && n.API.GroupVersion != "":
		id = "api:" + strings.ToLower(n.API.GroupVersion) + ":" + sortedLower(n.API.Kinds)
	case n.KEP > 0:
		id = "kep:" + strconv.Itoa(n.KEP)
	case len(n.FeatureGates) > 0:
		id = "gates:" + sortedLower(n.FeatureGates)
	default:
		id = "title:" + normTitle(n.Title)
	}
	return string(n.Kind) + "|" + n.Release.String() + "|" + id
}

// keyOf is "kind|release|" then typ (ending in its separator) and val,
// val hashed when it is long.
func keyOf(n knowledge.Notice, typ, val string) string {
	if len(val) > maxKeyValue {
		sum := sha256.Sum256([]byte(val))
		val = "sha256:" + hex.EncodeToString(sum[:16])
	}
	return string(n.Kind) + "|" + n.Release.String() + "|" + typ + val
}

// normTitle is a title in lower case with its spaces collapsed.
func normTitle(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

func sortedLower(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// sortUnique sorts ss and drops repeats, in place.
func sortUnique(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}
