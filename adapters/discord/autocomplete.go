package discord

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
)

// Catalog is what autocomplete offers, held in memory: Discord gives an
// autocomplete answer 3 seconds and no way to defer it. Methods are called
// for every keystroke, concurrently; they must not block on I/O.
type Catalog interface {
	// KEPs returns every known KEP's number and title.
	KEPs() []KEPName
	// Versions returns every known release, "1.29", newest first.
	Versions() []string
	// Gates returns every known feature gate name.
	Gates() []string
}

// KEPName is a KEP's number and title, for autocomplete.
type KEPName struct {
	Number int
	Title  string
}

// StaticCatalog is a Catalog over fixed lists. It is safe for concurrent use.
type StaticCatalog struct {
	keps     []KEPName
	versions []string
	gates    []string
}

// NewStaticCatalog returns a catalog of keps (sorted by number, newest
// first), versions (newest first) and gates (sorted, without duplicates).
func NewStaticCatalog(keps []KEPName, versions []knowledge.Version, gates []string) *StaticCatalog {
	c := &StaticCatalog{keps: slices.Clone(keps)}
	slices.SortFunc(c.keps, func(a, b KEPName) int { return cmp.Compare(b.Number, a.Number) })
	vs := slices.Clone(versions)
	slices.SortFunc(vs, func(a, b knowledge.Version) int { return b.Compare(a) })
	for _, v := range slices.Compact(vs) {
		c.versions = append(c.versions, v.String())
	}
	c.gates = slices.Compact(slices.Sorted(slices.Values(gates)))
	return c
}

// LoadCatalog reads a StaticCatalog from kb: every KEP with its title and
// feature gates, and every release. It fails when kb does.
func LoadCatalog(ctx context.Context, kb knowledge.KnowledgeStore) (*StaticCatalog, error) {
	all, err := kb.ListKEPs(ctx)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	var keps []KEPName
	var gates []string
	for _, k := range all {
		keps = append(keps, KEPName{Number: k.Number, Title: k.Title})
		gates = append(gates, k.FeatureGates...)
		for _, m := range k.History {
			gates = append(gates, m.FeatureGates...)
		}
	}
	rels, err := kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	vs := make([]knowledge.Version, 0, len(rels))
	for _, r := range rels {
		vs = append(vs, r.Version)
	}
	return NewStaticCatalog(keps, vs, gates), nil
}

// KEPs returns the KEPs, newest first.
func (c *StaticCatalog) KEPs() []KEPName { return c.keps }

// Versions returns the releases, newest first.
func (c *StaticCatalog) Versions() []string { return c.versions }

// Gates returns the gate names, sorted.
func (c *StaticCatalog) Gates() []string { return c.gates }

// choices answers an autocomplete interaction: at most MaxChoices choices
// for the focused option, best matches first. A nil catalog offers none.
func choices(cat Catalog, d discordgo.ApplicationCommandInteractionData) []*discordgo.ApplicationCommandOptionChoice {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	if cat == nil {
		return out
	}
	sub, opt, typed := focused(d)
	switch {
	case sub == "kep" && opt == "number":
		return kepChoices(cat.KEPs(), typed)
	case (sub == "release" && opt == "version") || (sub == "diff" && (opt == "from" || opt == "to")) || (sub == "subscribe" && opt == "from") ||
		(sub == "scan" && (opt == "target" || opt == "from")) || (sub == "cves" || sub == "cve") && opt == "version":
		q := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(typed)), "v")
		return nameChoices(cat.Versions(), q, false)
	case sub == "gate" && opt == "name":
		return nameChoices(cat.Gates(), strings.ToLower(strings.TrimSpace(typed)), true)
	}
	return out
}

// kepChoices matches typed digits against KEP numbers (the number itself,
// then numbers starting with them, then holding them), and typed words
// against titles (a title starting with them, then holding them all).
func kepChoices(keps []KEPName, typed string) []*discordgo.ApplicationCommandOptionChoice {
	q := strings.ToLower(strings.TrimSpace(typed))
	q = strings.TrimLeft(strings.TrimPrefix(q, "kep"), "-:#_ ")
	digits := q != "" && strings.Trim(q, "0123456789") == ""
	words := strings.Fields(q)
	var exact, first, second []KEPName
	for _, k := range keps {
		num := strconv.Itoa(k.Number)
		title := strings.ToLower(k.Title)
		switch {
		case q == "":
			first = append(first, k)
		case digits && num == strings.TrimLeft(q, "0"):
			exact = append(exact, k)
		case digits && strings.HasPrefix(num, q):
			first = append(first, k)
		case digits && strings.Contains(num, q):
			second = append(second, k)
		case !digits && strings.HasPrefix(title, q):
			first = append(first, k)
		case !digits && containsAll(title, words):
			second = append(second, k)
		}
	}
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, k := range slices.Concat(exact, first, second) {
		if len(out) == MaxChoices {
			break
		}
		name := truncate(plain(fmt.Sprintf("KEP-%d: %s", k.Number, k.Title)), MaxChoiceName)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: strconv.Itoa(k.Number)})
	}
	return out
}

// nameChoices offers names starting with q first, then (when anywhere is
// set) names holding q, case aside. With anywhere set (gate names), each
// group is ordered shortest first, so that the exact name leads.
func nameChoices(names []string, q string, anywhere bool) []*discordgo.ApplicationCommandOptionChoice {
	var first, second []string
	for _, n := range names {
		low := strings.ToLower(n)
		switch {
		case strings.HasPrefix(low, q):
			first = append(first, n)
		case anywhere && strings.Contains(low, q):
			second = append(second, n)
		}
		if !anywhere && len(first) >= MaxChoices {
			break
		}
	}
	if anywhere {
		shortFirst := func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) }
		slices.SortFunc(first, shortFirst)
		slices.SortFunc(second, shortFirst)
	}
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, n := range append(first, second...) {
		if len(out) == MaxChoices {
			break
		}
		name := truncate(plain(n), MaxChoiceName)
		if name == "" || length(n) > MaxChoiceValue {
			continue
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: n})
	}
	return out
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return len(words) > 0
}
