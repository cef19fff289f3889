package store

import (
	"slices"

	"github.com/kepbot/kepbot/knowledge"
)

// Format bytes: the first byte of every stored value. A new layout of a
// record gets a new byte; decoders refuse bytes they do not know.
const (
	fmtKEP       byte = 0x6D // 'm': schema 8, with YAMLThrough and Shipped
	fmtKEPv5     byte = 0x6C // 'l': schema 5 to 7, with Released, SharedGates and its Changes' Effects; read, never written
	fmtKEPv3     byte = 0x6A // 'j': schema 3, with Changes; read, never written
	fmtKEPv2     byte = 0x6B // 'k': schema 2, with Disagreements; read, never written
	fmtKEPv1     byte = 0x4B // 'K': schema 1, without Disagreements; read, never written
	fmtRelease   byte = 0x72 // 'r': with Lifecycle
	fmtReleaseV1 byte = 0x52 // 'R': without Lifecycle; read, never written
	fmtItem      byte = 0x4A // 'J': schema 7, with ToldBy
	fmtItemV1    byte = 0x49 // 'I': without ToldBy; read, never written
	fmtNotice    byte = 0x71 // 'q': schema 7, with Label and the API's ReplacedFor
	fmtNoticeV4  byte = 0x70 // 'p': schema 5, with the API replacement's Since; read, never written
	fmtNoticeV3  byte = 0x6F // 'o': schema 4, with KEPVia; read, never written
	fmtNoticeV2  byte = 0x6E // 'n': schema 3, with PR, URL, SIGs and Action; read, never written
	fmtNoticeV1  byte = 0x4E // 'N': without them; read, never written
	fmtChange    byte = 0x59 // 'Y': schema 5, with Effects
	fmtChangeV1  byte = 0x58 // 'X': without Effects; read, never written
	fmtPatch     byte = 0x50 // 'P'
	fmtSource    byte = 0x73 // 's': schema 2, with Commit
	fmtSourceV1  byte = 0x53 // 'S': schema 1, without Commit; read, never written
	fmtGate      byte = 0x47 // 'G'
)

// Smallest encodings, used to bound list lengths while decoding.
const (
	minMentionSize      = 13 // twelve fields, the release two numbers, one byte each at least
	minMilestoneSize    = 3  // key length and two version numbers
	minDisagreementSize = 9  // eight fields, the release two numbers
	minChangeSize       = 13 // twelve fields, the release two numbers (one more with Effects)
	minEffectSize       = 8  // eight fields
	minShippedSize      = 6  // five fields, the release two numbers
)

// encodeKEP appends k, with its History and Disagreements, to buf.
func encodeKEP(buf []byte, k *knowledge.KEP) []byte {
	e := encoder{buf: append(buf, fmtKEP)}
	e.int(k.Number)
	e.str(k.Title)
	e.str(k.SIG)
	e.str(k.Status)
	e.stage(k.Stage)
	keys := make([]string, 0, len(k.Milestones))
	for name := range k.Milestones {
		keys = append(keys, name)
	}
	slices.Sort(keys) // the same KEP always encodes to the same bytes
	e.uvarint(uint64(len(keys)))
	for _, name := range keys {
		e.str(name)
		e.version(k.Milestones[name])
	}
	e.strs(k.FeatureGates)
	e.str(k.Path)
	e.str(k.Source)
	e.uvarint(uint64(len(k.History)))
	for i := range k.History {
		e.mention(&k.History[i])
	}
	e.uvarint(uint64(len(k.Disagreements)))
	for i := range k.Disagreements {
		e.disagreement(&k.Disagreements[i])
	}
	e.uvarint(uint64(len(k.Changes)))
	for i := range k.Changes {
		e.change(&k.Changes[i])
	}
	e.version(k.Released)
	e.uvarint(uint64(len(k.SharedGates)))
	for _, g := range k.SharedGates {
		e.str(g.Gate)
		e.int(g.KEP)
		e.str(g.Status)
	}
	e.version(k.YAMLThrough)
	e.uvarint(uint64(len(k.Shipped)))
	for _, sh := range k.Shipped {
		e.stage(sh.Stage)
		e.version(sh.Release)
		e.str(sh.Gate)
		e.uvarint(uint64(len(sh.PRs)))
		for _, pr := range sh.PRs {
			e.int(pr)
		}
		e.strs(sh.Sources)
	}
	return e.buf
}

func (e *encoder) mention(m *knowledge.Mention) {
	e.int(m.KEP)
	e.str(m.Title)
	e.stage(m.Stage)
	e.version(m.Release)
	e.str(m.SIG)
	e.strs(m.FeatureGates)
	e.str(m.Section)
	e.str(m.Text)
	e.str(m.Link)
	e.str(m.Source)
	e.int(m.Line)
	e.str(m.Via)
}

// decodeKEP reads a value encodeKEP wrote, or one schema 2 wrote (the same
// layout without Changes) or schema 1 (without Disagreements either); it
// fails with errCorrupt on anything else.
func decodeKEP(b []byte) (*knowledge.KEP, error) {
	k := new(knowledge.KEP)
	if err := readKEP(newDecoder(b), k); err != nil {
		return nil, err
	}
	return k, nil
}

// readKEP reads the KEP d holds into k, as decodeKEP.
func readKEP(d *decoder, k *knowledge.KEP) error {
	format := fmtKEP
	if len(d.s) > 0 && (d.s[0] == fmtKEPv1 || d.s[0] == fmtKEPv2 || d.s[0] == fmtKEPv3 || d.s[0] == fmtKEPv5) {
		format = d.s[0]
	}
	v1 := format == fmtKEPv1
	d.header(format, "KEP")
	*k = knowledge.KEP{
		Number: d.int(),
		Title:  d.str(),
		SIG:    d.str(),
		Status: d.str(),
		Stage:  d.stage(),
	}
	if n := d.count(minMilestoneSize); n > 0 {
		k.Milestones = make(map[string]knowledge.Version, n)
		for range n {
			name := d.str()
			k.Milestones[name] = d.version()
		}
	}
	k.FeatureGates = d.strs()
	k.Path = d.str()
	k.Source = d.str()
	if n := d.count(minMentionSize); n > 0 {
		k.History = make([]knowledge.Mention, n)
		for i := range k.History {
			d.mention(&k.History[i])
		}
	}
	if !v1 {
		if n := d.count(minDisagreementSize); n > 0 {
			k.Disagreements = make([]knowledge.Disagreement, n)
			for i := range k.Disagreements {
				d.disagreement(&k.Disagreements[i])
			}
		}
	}
	if format == fmtKEP || format == fmtKEPv5 || format == fmtKEPv3 {
		if n := d.count(minChangeSize); n > 0 {
			k.Changes = make([]knowledge.Change, n)
			for i := range k.Changes {
				d.change(&k.Changes[i], format != fmtKEPv3)
			}
		}
	}
	if format == fmtKEP || format == fmtKEPv5 {
		k.Released = d.version()
		if n := d.count(3); n > 0 {
			k.SharedGates = make([]knowledge.SharedGate, n)
			for i := range k.SharedGates {
				k.SharedGates[i] = knowledge.SharedGate{Gate: d.str(), KEP: d.int(), Status: d.str()}
			}
		}
	}
	if format == fmtKEP {
		k.YAMLThrough = d.version()
		if n := d.count(minShippedSize); n > 0 {
			k.Shipped = make([]knowledge.ShippedStage, n)
			for i := range k.Shipped {
				sh := &k.Shipped[i]
				sh.Stage, sh.Release, sh.Gate = d.stage(), d.version(), d.str()
				if m := d.count(1); m > 0 {
					sh.PRs = make([]int, m)
					for j := range sh.PRs {
						sh.PRs[j] = d.int()
					}
				}
				sh.Sources = d.strs()
			}
		}
	}
	return d.finish()
}

func (d *decoder) mention(m *knowledge.Mention) {
	m.KEP = d.int()
	m.Title = d.str()
	m.Stage = d.stage()
	m.Release = d.version()
	m.SIG = d.str()
	m.FeatureGates = d.strs()
	m.Section = d.str()
	m.Text = d.str()
	m.Link = d.str()
	m.Source = d.str()
	m.Line = d.int()
	m.Via = d.str()
}

func (e *encoder) disagreement(g *knowledge.Disagreement) {
	e.str(string(g.Kind))
	e.int(g.KEP)
	e.str(g.Source)
	e.version(g.Release)
	e.stage(g.Stage)
	e.str(g.Claim)
	e.str(g.Trusted)
	e.int(g.Likely)
}

func (d *decoder) disagreement(g *knowledge.Disagreement) {
	g.Kind = knowledge.DisagreementKind(d.str())
	g.KEP = d.int()
	g.Source = d.str()
	g.Release = d.version()
	g.Stage = d.stage()
	g.Claim = d.str()
	g.Trusted = d.str()
	g.Likely = d.int()
}

// encodeRelease appends a release's facts (not its items or notices) to buf.
func encodeRelease(buf []byte, r *knowledge.Release) []byte {
	e := encoder{buf: append(buf, fmtRelease)}
	e.version(r.Version)
	e.str(r.Date)
	e.str(r.Theme)
	e.int(r.Enhancements.Total)
	e.int(r.Enhancements.Stable)
	e.int(r.Enhancements.Beta)
	e.int(r.Enhancements.Alpha)
	e.strs(r.Sources)
	e.bool(r.Lifecycle != nil)
	if l := r.Lifecycle; l != nil {
		e.version(l.Release)
		e.str(l.Released)
		e.str(l.EndOfSupport)
		e.str(l.EOL)
		e.str(l.Latest)
		e.str(l.LatestDate)
		e.str(l.Source)
	}
	return e.buf
}

// decodeRelease reads a value encodeRelease wrote, or one an older schema
// wrote (the same layout without Lifecycle).
func decodeRelease(b []byte) (*knowledge.Release, error) {
	d := newDecoder(b)
	v1 := len(b) > 0 && b[0] == fmtReleaseV1
	if v1 {
		d.header(fmtReleaseV1, "release")
	} else {
		d.header(fmtRelease, "release")
	}
	r := &knowledge.Release{
		Version: d.version(),
		Date:    d.str(),
		Theme:   d.str(),
	}
	r.Enhancements.Total = d.int()
	r.Enhancements.Stable = d.int()
	r.Enhancements.Beta = d.int()
	r.Enhancements.Alpha = d.int()
	r.Sources = d.strs()
	if !v1 && d.bool() {
		r.Lifecycle = &knowledge.Lifecycle{
			Release:      d.version(),
			Released:     d.str(),
			EndOfSupport: d.str(),
			EOL:          d.str(),
			Latest:       d.str(),
			LatestDate:   d.str(),
			Source:       d.str(),
		}
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return r, nil
}

// encodeItem appends one release item to buf.
func encodeItem(buf []byte, it *knowledge.Item) []byte {
	e := encoder{buf: append(buf, fmtItem)}
	e.int(it.KEP)
	e.str(it.Title)
	e.stage(it.Stage)
	e.version(it.Release)
	e.str(it.Text)
	e.str(it.SIG)
	e.str(it.Source)
	e.int(it.Rank)
	e.strs(it.ToldBy)
	return e.buf
}

// decodeItem reads a value encodeItem wrote into it.
func decodeItem(b []byte, it *knowledge.Item) error { return readItem(newDecoder(b), it) }

// readItem reads the item d holds into it.
func readItem(d *decoder, it *knowledge.Item) error {
	format := fmtItem
	if len(d.s) > 0 && d.s[0] == fmtItemV1 {
		format = fmtItemV1
	}
	d.header(format, "item")
	it.KEP = d.int()
	it.Title = d.str()
	it.Stage = d.stage()
	it.Release = d.version()
	it.Text = d.str()
	it.SIG = d.str()
	it.Source = d.str()
	it.Rank = d.int()
	it.ToldBy = nil
	if format == fmtItem {
		it.ToldBy = d.strs()
	}
	return d.finish()
}

// encodeNotice appends one notice to buf.
func encodeNotice(buf []byte, n *knowledge.Notice) []byte {
	e := encoder{buf: append(buf, fmtNotice)}
	e.str(string(n.Kind))
	e.version(n.Release)
	e.int(n.KEP)
	e.str(n.Title)
	e.str(n.Text)
	e.strs(n.FeatureGates)
	e.bool(n.API != nil)
	if n.API != nil {
		e.str(n.API.GroupVersion)
		e.strs(n.API.Kinds)
		e.str(n.API.ReplacedBy)
	}
	e.str(n.Source)
	e.int(n.Line)
	e.int(n.PR)
	e.str(n.URL)
	e.strs(n.SIGs)
	e.bool(n.Action)
	e.str(n.KEPVia)
	if n.API != nil {
		e.version(n.API.Since)
	}
	e.str(string(n.Label))
	if n.API != nil {
		e.strs(n.API.ReplacedFor)
	}
	return e.buf
}

// decodeNotice reads a value encodeNotice wrote into n, or one an older
// schema wrote: the same layout without Label (schema 5), also without the
// API's Since (schema 4), also
// without KEPVia (schema 3), or also without PR, URL, SIGs and Action
// (schema 2).
func decodeNotice(b []byte, n *knowledge.Notice) error { return readNotice(newDecoder(b), n) }

// readNotice reads the notice d holds into n, as decodeNotice.
func readNotice(d *decoder, n *knowledge.Notice) error {
	format := fmtNotice
	if len(d.s) > 0 && (d.s[0] == fmtNoticeV1 || d.s[0] == fmtNoticeV2 || d.s[0] == fmtNoticeV3 || d.s[0] == fmtNoticeV4) {
		format = d.s[0]
	}
	v1 := format == fmtNoticeV1
	d.header(format, "notice")
	n.Kind = knowledge.NoticeKind(d.str())
	n.Release = d.version()
	n.KEP = d.int()
	n.Title = d.str()
	n.Text = d.str()
	n.FeatureGates = d.strs()
	n.API = nil
	if d.bool() {
		n.API = &knowledge.APIChange{
			GroupVersion: d.str(),
			Kinds:        d.strs(),
			ReplacedBy:   d.str(),
		}
	}
	n.Source = d.str()
	n.Line = d.int()
	n.PR, n.URL, n.SIGs, n.Action, n.KEPVia = 0, "", nil, false, ""
	if !v1 {
		n.PR = d.int()
		n.URL = d.str()
		n.SIGs = d.strs()
		n.Action = d.bool()
	}
	if format == fmtNotice || format == fmtNoticeV4 || format == fmtNoticeV3 {
		n.KEPVia = d.str()
	}
	if (format == fmtNotice || format == fmtNoticeV4) && n.API != nil {
		n.API.Since = d.version()
	}
	n.Label = ""
	if format == fmtNotice {
		n.Label = knowledge.NoticeKind(d.str())
		if n.API != nil {
			n.API.ReplacedFor = d.strs()
		}
	}
	return d.finish()
}

// encodeChange appends one release-note entry to buf.
func encodeChange(buf []byte, c *knowledge.Change) []byte {
	e := encoder{buf: append(buf, fmtChange)}
	e.change(c)
	return e.buf
}

// readChange reads the release-note entry d holds, a value encodeChange
// wrote, into c.
func readChange(d *decoder, c *knowledge.Change) error {
	format := fmtChange
	if len(d.s) > 0 && d.s[0] == fmtChangeV1 {
		format = fmtChangeV1
	}
	d.header(format, "release-note entry")
	d.change(c, format == fmtChange)
	return d.finish()
}

func (e *encoder) change(c *knowledge.Change) {
	e.version(c.Release)
	e.int(c.PR)
	e.str(c.URL)
	e.strs(c.Kinds)
	e.strs(c.SIGs)
	e.uvarint(uint64(len(c.KEPs)))
	for _, n := range c.KEPs {
		e.int(n)
	}
	e.strs(c.Names)
	e.bool(c.Action)
	e.str(string(c.Notice))
	e.str(c.Text)
	e.str(c.Source)
	e.uvarint(uint64(len(c.Effects)))
	for i := range c.Effects {
		f := &c.Effects[i]
		e.str(string(f.What))
		e.str(f.Name)
		e.strs(f.Kinds)
		e.str(f.Of)
		e.str(string(f.Action))
		e.stage(f.Stage)
		e.str(f.Value)
		e.str(f.Replacement)
	}
}

func (d *decoder) change(c *knowledge.Change, effects bool) {
	c.Release = d.version()
	c.PR = d.int()
	c.URL = d.str()
	c.Kinds = d.strs()
	c.SIGs = d.strs()
	c.KEPs = nil
	if n := d.count(1); n > 0 {
		c.KEPs = make([]int, n)
		for i := range c.KEPs {
			c.KEPs[i] = d.int()
		}
	}
	c.Names = d.strs()
	c.Action = d.bool()
	c.Notice = knowledge.NoticeKind(d.str())
	c.Text = d.str()
	c.Source = d.str()
	c.Effects = nil
	if !effects {
		return
	}
	if n := d.count(minEffectSize); n > 0 {
		c.Effects = make([]knowledge.Effect, n)
		for i := range c.Effects {
			c.Effects[i] = knowledge.Effect{What: knowledge.EffectWhat(d.str()), Name: d.str(), Kinds: d.strs(), Of: d.str(),
				Action: knowledge.EffectAction(d.str()), Stage: d.stage(), Value: d.str(), Replacement: d.str()}
		}
	}
}

// encodePatch appends one patch release to buf.
func encodePatch(buf []byte, p *knowledge.Patch) []byte {
	e := encoder{buf: append(buf, fmtPatch)}
	e.version(p.Release)
	e.int(p.Number)
	e.str(p.Date)
	e.str(p.Source)
	return e.buf
}

// readPatch reads the patch release d holds, a value encodePatch wrote,
// into p.
func readPatch(d *decoder, p *knowledge.Patch) error {
	d.header(fmtPatch, "patch release")
	p.Release = d.version()
	p.Number = d.int()
	p.Date = d.str()
	p.Source = d.str()
	return d.finish()
}

// encodeSource appends one source to buf.
func encodeSource(buf []byte, s *knowledge.Source) []byte {
	e := encoder{buf: append(buf, fmtSource)}
	e.str(s.ID)
	e.str(s.Name)
	e.str(string(s.Kind))
	e.str(s.Lang)
	e.str(s.AsOf)
	e.str(s.Path)
	e.str(s.URL)
	e.str(s.Commit)
	return e.buf
}

// decodeSource reads a value encodeSource wrote into s, or one schema 1
// wrote (the same layout without Commit).
func decodeSource(b []byte, s *knowledge.Source) error {
	d := newDecoder(b)
	v1 := len(b) > 0 && b[0] == fmtSourceV1
	if v1 {
		d.header(fmtSourceV1, "source")
	} else {
		d.header(fmtSource, "source")
	}
	s.ID = d.str()
	s.Name = d.str()
	s.Kind = knowledge.SourceKind(d.str())
	s.Lang = d.str()
	s.AsOf = d.str()
	s.Path = d.str()
	s.URL = d.str()
	s.Commit = ""
	if !v1 {
		s.Commit = d.str()
	}
	return d.finish()
}
