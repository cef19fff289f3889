package digest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// Digest is what one batch of deprecation news says: the notices, grouped
// by release, oldest first. It depends only on its content and window, never
// on who gets it, so every channel owed the same news shares one Digest.
type Digest struct {
	// ID is the first 128 bits of sha256 over the window and the content, in
	// hex: building the same digest again gives the same ID, so queueing it
	// again is a no-op.
	ID     string        `json:"id"`
	Window string        `json:"window"` // "release", "weekly:2026-11-23T09:00Z", ...
	Title  string        `json:"title"`
	Groups []DigestGroup `json:"groups"`
	// Vulns are the new vulnerability records (a subscription to cves), by
	// ID.
	Vulns []DigestVuln `json:"vulns,omitempty"`
}

// DigestGroup is one release's notices in a digest.
type DigestGroup struct {
	Release knowledge.Version  `json:"release"`
	Items   []knowledge.Notice `json:"items"`
}

// Count returns how many notices d holds.
func (d *Digest) Count() int {
	n := 0
	for _, g := range d.Groups {
		n += len(g.Items)
	}
	return n
}

// NoticeSet is what digests are built from: the deprecations and removals
// known now, one item per NoticeKey, the ledger sequence of each (found by
// its notices' aliases, see NoticeAliases), and the SIG of the KEPs they
// name. Build it with NewNoticeSet or LoadNoticeSet.
type NoticeSet struct {
	items []setItem // by release, then key
	cves  []cveItem // the vulnerability records, by key (digest_cve.go)
	seq   map[string]uint64
	sigs  map[int]string
	max   uint64
}

type setItem struct {
	key string
	n   knowledge.Notice
	id  NoticeIdentity
}

// NewNoticeSet joins notices that share a NoticeKey (keeping the fullest
// words and every feature gate) and drops upgrade notes (but those the
// release notes label deprecation). sigs maps KEP
// numbers to their SIG ("sig-network"); seq gives each item's ledger
// sequence by its NoticeKey, and an item without one counts as newer than
// any Seen.
func NewNoticeSet(notices []knowledge.Notice, sigs map[int]string, seq map[string]uint64) NoticeSet {
	type group struct {
		n                          knowledge.Notice
		aliases, legacy, atUpgrade []string
	}
	byKey := map[string]*group{}
	sorted := append([]knowledge.Notice(nil), notices...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Line < b.Line
	})
	for _, n := range sorted {
		if !n.Lists(knowledge.NoticeDeprecation) && n.Kind != knowledge.NoticeRemoval {
			continue // an upgrade note, unless upstream labelled it a deprecation
		}
		k := NoticeKey(n)
		g := byKey[k]
		if g == nil {
			g = &group{n: cloneNotice(n)}
			byKey[k] = g
		} else {
			g.n = mergeNotice(g.n, n)
		}
		always, atUpgrade := legacyNoticeKeys(n)
		g.aliases = append(g.aliases, NoticeAliases(n)...)
		g.legacy = append(g.legacy, always...)
		g.atUpgrade = append(g.atUpgrade, atUpgrade...)
	}
	s := NoticeSet{seq: seq, sigs: sigs}
	for k, g := range byKey {
		id := NoticeIdentity{Aliases: sortUnique(g.aliases), Legacy: sortUnique(g.legacy), LegacyAtUpgrade: sortUnique(g.atUpgrade)}
		s.items = append(s.items, setItem{key: k, n: g.n, id: id})
	}
	sort.Slice(s.items, func(i, j int) bool {
		a, b := s.items[i], s.items[j]
		if c := a.n.Release.Compare(b.n.Release); c != 0 {
			return c < 0
		}
		return a.key < b.key
	})
	for _, q := range seq {
		s.max = max(s.max, q)
	}
	return s
}

// Keys returns the key of every notice in s, by release then key: the
// order LoadNoticeSet gives them to the ledger.
func (s *NoticeSet) Keys() []string {
	out := make([]string, len(s.items), len(s.items)+len(s.cves))
	for i, it := range s.items {
		out[i] = it.key
	}
	for _, it := range s.cves {
		out = append(out, it.key)
	}
	return out
}

// Identities returns what the ledger knows each item of s by, in the
// order of Keys.
func (s *NoticeSet) Identities() []NoticeIdentity {
	out := make([]NoticeIdentity, len(s.items), len(s.items)+len(s.cves))
	for i, it := range s.items {
		out[i] = it.id
	}
	for _, it := range s.cves {
		out = append(out, it.id)
	}
	return out
}

// Len returns how many notices s holds (its vulnerability records apart).
func (s *NoticeSet) Len() int { return len(s.items) }

// NoticeSource is the part of a KnowledgeStore that digests read; every
// KnowledgeStore is one.
type NoticeSource interface {
	ListReleases(ctx context.Context) ([]knowledge.Release, error)
	FindNotices(ctx context.Context, v knowledge.Version, kind knowledge.NoticeKind) ([]knowledge.Notice, error)
	FindKEPByNumber(ctx context.Context, n int) (*knowledge.KEP, error)
	// The vulnerability records, the sources (their as-of days say which
	// releases are supported) and the patch releases (which a record
	// affects).
	ListVulns(ctx context.Context) ([]knowledge.Vuln, error)
	ListSources(ctx context.Context) ([]knowledge.Source, error)
	FindPatches(ctx context.Context, v knowledge.Version) ([]knowledge.Patch, error)
}

// LoadNoticeSet reads every release's deprecations and removals and the
// SIG of the KEPs they name from kb, and has ledger number each item by
// its identity: an item with an alias the ledger numbered before keeps
// that sequence, so what was delivered is never new again. It fails when
// kb or ledger fails; a KEP kb does not know has no SIG.
func LoadNoticeSet(ctx context.Context, kb NoticeSource, ledger NoticeLedger) (NoticeSet, error) {
	rels, err := kb.ListReleases(ctx)
	if err != nil {
		return NoticeSet{}, fmt.Errorf("list releases: %w", err)
	}
	var all []knowledge.Notice
	for _, r := range rels {
		ns, err := kb.FindNotices(ctx, r.Version, "")
		if err != nil && knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
			return NoticeSet{}, fmt.Errorf("notices of %s: %w", r.Version, err)
		}
		all = append(all, ns...)
	}
	sigs := map[int]string{}
	for _, n := range all {
		if _, done := sigs[n.KEP]; n.KEP <= 0 || done {
			continue
		}
		k, err := kb.FindKEPByNumber(ctx, n.KEP)
		switch {
		case knowledge.ErrorCode(err) == knowledge.ENOTFOUND:
			sigs[n.KEP] = ""
		case err != nil:
			return NoticeSet{}, fmt.Errorf("KEP-%d: %w", n.KEP, err)
		default:
			sigs[n.KEP] = k.SIG
		}
	}
	set := NewNoticeSet(all, sigs, nil)
	if set.cves, err = loadVulns(ctx, kb, rels); err != nil {
		return NoticeSet{}, err
	}
	keys := set.Keys()
	seqs, err := ledger.ObserveNotices(ctx, set.Identities())
	if err != nil {
		return NoticeSet{}, fmt.Errorf("observe notices: %w", err)
	}
	if len(seqs) != len(keys) {
		return NoticeSet{}, fmt.Errorf("observe notices: %d sequences for %d notices", len(seqs), len(keys))
	}
	set.seq = make(map[string]uint64, len(seqs))
	for i, k := range keys {
		set.seq[k] = seqs[i].First
		set.max = max(set.max, seqs[i].First, seqs[i].Last)
	}
	return set, nil
}

// BuildDigest returns the digest a subscription with filter f that has
// seen what seen says gets now: the deprecations and removals (API
// removals among them) of the releases after f.From, of f.SIG, that are new
// since seen, grouped by release, oldest first. The second result is the
// Seen to record once the digest is queued. ok is false when nothing is
// new; the Seen returned is then seen.
//
// f.SIG matches a notice by its KEP's SIG when the KEP is known, else by
// the notice's words naming the SIG ("SIG Network", "sig-network").
func BuildDigest(set NoticeSet, f Filter, seen Seen, window string) (Digest, Seen, bool) {
	d := Digest{Window: window}
	if f.Has(TopicCVEs) {
		d.Vulns = set.newVulns(seen.CVEs, f.From)
	}
	for _, it := range set.items {
		if !f.Has(TopicDeprecations) {
			break
		}
		if q, ok := set.seq[it.key]; ok && q <= seen.Through {
			continue
		}
		if !f.From.IsZero() && !f.From.Less(it.n.Release) {
			continue
		}
		if !set.matchesSIG(it.n, f.SIG) {
			continue
		}
		if g := len(d.Groups); g == 0 || d.Groups[g-1].Release != it.n.Release {
			d.Groups = append(d.Groups, DigestGroup{Release: it.n.Release})
		}
		g := &d.Groups[len(d.Groups)-1]
		g.Items = append(g.Items, it.n)
	}
	if len(d.Groups) == 0 && len(d.Vulns) == 0 {
		return Digest{}, seen, false
	}
	d.Title = digestTitle(d)
	d.ID = digestID(window, d.Groups, d.Vulns)
	return d, Seen{Through: max(seen.Through, set.max), CVEs: max(seen.CVEs, set.max)}, true
}

// digestTitle names a digest by what it holds: its releases' deprecations,
// its vulnerability records, or both.
func digestTitle(d Digest) string {
	if len(d.Groups) == 0 {
		return "CVE digest: " + knowledge.Plural(len(d.Vulns), "new vulnerability record", "new vulnerability records") + " of Kubernetes"
	}
	t := deprecationTitle(d.Groups)
	if len(d.Vulns) > 0 {
		t += ", and " + knowledge.Plural(len(d.Vulns), "new CVE", "new CVEs")
	}
	return t
}

func deprecationTitle(gs []DigestGroup) string {
	first, last := gs[0].Release, gs[len(gs)-1].Release
	if first == last {
		return "Deprecation digest: Kubernetes " + first.String()
	}
	return "Deprecation digest: Kubernetes " + first.String() + " to " + last.String()
}

func digestID(window string, gs []DigestGroup, vs []DigestVuln) string {
	h := sha256.New()
	h.Write([]byte(window))
	enc := json.NewEncoder(h)
	for _, g := range gs {
		for _, n := range g.Items {
			h.Write([]byte{'\n'})
			h.Write([]byte(NoticeKey(n)))
			_ = enc.Encode(n) // a Notice always encodes; hashing never fails
		}
	}
	for _, v := range vs { // none in a digest of deprecations alone: its ID is as before
		h.Write([]byte{'\n'})
		h.Write([]byte(vulnAlias(v.ID)))
		_ = enc.Encode(v)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// matchesSIG reports whether n belongs to sig ("" matches every notice).
func (s *NoticeSet) matchesSIG(n knowledge.Notice, sig string) bool {
	if sig == "" {
		return true
	}
	if n.KEP > 0 {
		if known := s.sigs[n.KEP]; known != "" {
			return normSIG(known) == sig
		}
	}
	return namesSIG(n.Title+" "+n.Text, sig)
}

// normSIG turns "SIG Network", "sig-network" and "network" into "network".
func normSIG(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(strings.TrimPrefix(s, "sig-"), "sig ")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "_", "-")), "-")
}

// namesSIG reports whether text names SIG sig as "sig-api-machinery",
// "SIG API Machinery" or "[sig api-machinery]", as whole words.
func namesSIG(text, sig string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	want := strings.Split(sig, "-")
	for i, w := range words {
		if w != "sig" || i+len(want) >= len(words) {
			continue
		}
		match := true
		for j, p := range want {
			if words[i+1+j] != p {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// mergeNotice joins two documents' words about the same notice: a's
// fields win, b fills what a lacks, the longer words are kept and the
// feature gates are joined.
func mergeNotice(a, b knowledge.Notice) knowledge.Notice {
	switch {
	case a.KEP == 0:
		a.KEP, a.KEPVia = b.KEP, b.KEPVia
	case a.KEP == b.KEP && b.KEPVia == "":
		a.KEPVia = "" // another document names it
	}
	if len(b.Text) > len(a.Text) {
		a.Text = b.Text
	}
	if a.API != nil && b.API != nil && a.API.ReplacedBy == "" && b.API.ReplacedBy != "" {
		api := *a.API
		api.ReplacedBy = b.API.ReplacedBy
		a.API = &api
	}
	for _, g := range b.FeatureGates {
		if !contains(a.FeatureGates, g) {
			a.FeatureGates = append(a.FeatureGates, g)
		}
	}
	return a
}

// cloneNotice copies n's slices so that merging never writes into the
// caller's notices.
func cloneNotice(n knowledge.Notice) knowledge.Notice {
	n.FeatureGates = append([]string(nil), n.FeatureGates...)
	if n.API != nil {
		api := *n.API
		api.Kinds = append([]string(nil), api.Kinds...)
		n.API = &api
	}
	return n
}
