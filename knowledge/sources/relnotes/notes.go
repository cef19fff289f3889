package relnotes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// ParseNotes reads one release-notes-draft.json, the notes of release v.
// name is what warnings and errors call the file (its path or URL); stamp
// gives the source's as-of date. It returns one Change per pull request,
// sorted by PR number, each with its Notice (see Classify), and the
// APIClaims their texts make (see apiclaims.go), in the same order;
// entries marked do_not_publish are left out. An entry that cannot be
// read (not an object, no pr_number, no text) is a Skip in the corpus and
// a Warning; a text longer than MaxTextBytes is cut, with a Warning. It
// fails, wrapping one of the Err values and naming the file, when v is
// zero, the file is empty, larger than MaxNotesSize, not a JSON object, or
// holds entries none of which can be read.
func ParseNotes(v knowledge.Version, name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	if v.IsZero() {
		return nil, nil, fileError(name, ErrNoRelease)
	}
	switch {
	case len(data) > MaxNotesSize:
		return nil, nil, fileError(name, fmt.Errorf("%w: %d bytes, more than the %d MiB read", ErrTooLarge, len(data), MaxNotesSize>>20))
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil, fileError(name, ErrEmpty)
	}
	p := &notesParser{release: v, name: name, source: NotesSourceID(v), byPR: map[int]int{}, claims: map[int][]knowledge.APIClaim{}}
	if err := p.read(data); err != nil {
		return nil, nil, fileError(name, err)
	}
	if p.entries > p.unpublished && len(p.changes) == 0 {
		return nil, nil, fileError(name, fmt.Errorf("%w (%d entries, none readable)", ErrNotNotes, p.entries))
	}
	if p.entries == 0 {
		p.warn("", "holds no entries yet")
	}
	p.finish()
	sort.Slice(p.changes, func(i, j int) bool { return p.changes[i].PR < p.changes[j].PR })
	c := &knowledge.Corpus{
		Sources:   []knowledge.Source{releaseSource(v, knowledge.SourceReleaseNotesData, "release notes", NotesFile, stamp.Date)},
		Changes:   p.changes,
		APIClaims: p.apiClaims(),
		Skipped:   p.skips,
	}
	return c, p.warnings, nil
}

type notesParser struct {
	release     knowledge.Version
	name        string
	source      string
	changes     []knowledge.Change
	byPR        map[int]int                  // PR → index in changes
	claims      map[int][]knowledge.APIClaim // PR → the API claims its (first) text makes
	skips       []knowledge.Skip
	warnings    []Warning
	entries     int
	unpublished int
	unsaid      int // warnings past maxWarnings
}

// maxWarnings caps the warnings and the skips of one file; past it they
// are counted, and one last warning gives the count.
const maxWarnings = 1000

func (p *notesParser) warn(entry, problem string) {
	if len(p.warnings) == maxWarnings {
		p.unsaid++
		return
	}
	p.warnings = append(p.warnings, Warning{File: p.name, Entry: entry, Problem: problem})
}

func (p *notesParser) skip(entry, reason string) {
	if len(p.skips) < maxWarnings {
		p.skips = append(p.skips, knowledge.Skip{Path: p.name + "#" + entry, Reason: reason})
	}
	p.warn(entry, "skipped: "+reason)
}

// finish adds the count of what went unsaid.
func (p *notesParser) finish() {
	if p.unsaid > 0 {
		p.warnings = append(p.warnings, Warning{File: p.name, Problem: fmt.Sprintf("%d more warnings left out", p.unsaid)})
	}
}

// read walks the top-level object entry by entry, so one bad entry costs
// only itself; a syntax error anywhere fails the whole file.
func (p *notesParser) read(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("%w: it starts with %v", ErrNotJSON, describeToken(tok))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotJSON, err)
		}
		key, _ := tok.(string)
		var f fields
		err = dec.Decode(&f)
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr):
			p.entries++
			p.skip(short(key), "not an object")
			continue
		case err != nil:
			return fmt.Errorf("%w: entry %s: %v", ErrNotJSON, short(key), err)
		}
		p.entries++
		p.entry(short(key), &f)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: something follows the object", ErrNotJSON)
	}
	return nil
}

// fields are the fields of an entry that are read, each kept raw so a
// value of an unexpected type costs only that value.
type fields struct {
	PRNumber       json.RawMessage `json:"pr_number"`
	PRURL          json.RawMessage `json:"pr_url"`
	Text           json.RawMessage `json:"text"`
	Kinds          json.RawMessage `json:"kinds"`
	SIGs           json.RawMessage `json:"sigs"`
	Documentation  json.RawMessage `json:"documentation"`
	ActionRequired json.RawMessage `json:"action_required"`
	DoNotPublish   json.RawMessage `json:"do_not_publish"`
}

// entry reads one entry into a Change, or skips it.
func (p *notesParser) entry(key string, f *fields) {
	if boolField(f.DoNotPublish) {
		p.unpublished++
		return
	}
	pr, ok := prNumber(f.PRNumber)
	if !ok {
		p.skip(key, "no pr_number")
		return
	}
	text := strings.TrimSpace(stringField(f.Text))
	if text == "" {
		p.skip(key, "no text")
		return
	}
	if key != strconv.Itoa(pr) {
		p.warn(key, fmt.Sprintf("its key is not its pr_number %d; read as PR %d", pr, pr))
	}
	if len(text) > MaxTextBytes {
		p.warn(key, fmt.Sprintf("text of %d bytes cut to the first %d KiB", len(text), MaxTextBytes>>10))
		text = cut(text, MaxTextBytes)
	}
	kinds := p.words(key, "kinds", f.Kinds, "kind/")
	ch := knowledge.Change{
		Release: p.release,
		PR:      pr,
		URL:     prURL(stringField(f.PRURL), pr),
		Kinds:   kinds,
		SIGs:    p.words(key, "sigs", f.SIGs, "sig/"),
		KEPs:    keps(p.links(key, f.Documentation), text),
		Names:   names(text),
		Action:  boolField(f.ActionRequired),
		Text:    text,
		Source:  p.source,
	}
	claims := apiClaims(p.release, text)
	read := effectsWith(p.release, text, claims)
	ch.Notice = Classify(ch.Kinds, ch.Text, ch.Action, read)
	ch.Effects = sureEffects(p.release, text, read)
	ch.Effects = append(ch.Effects, sureEffects(p.release, text, enhancementGraduation(&ch))...)
	if i, dup := p.byPR[pr]; dup {
		p.warn(key, fmt.Sprintf("PR %d is listed twice; the entries are read as one", pr))
		p.changes[i] = merge(p.changes[i], ch)
		return
	}
	p.byPR[pr] = len(p.changes)
	p.changes = append(p.changes, ch)
	if len(claims) > 0 {
		p.claims[pr] = claims
	}
}

// apiClaims returns the API claims of the changes' texts (read once, with
// their effects), in the changes' order, each with its change's release,
// PR and source.
func (p *notesParser) apiClaims() []knowledge.APIClaim {
	var out []knowledge.APIClaim
	for i := range p.changes {
		ch := &p.changes[i]
		for _, c := range p.claims[ch.PR] {
			c.PR, c.Source = ch.PR, ch.Source
			out = append(out, c)
		}
	}
	return out
}

// merge joins two entries of one pull request: the first's text, both
// kinds, SIGs, KEPs and names, action if either asks it.
func merge(a, b knowledge.Change) knowledge.Change {
	a.Kinds = union(a.Kinds, b.Kinds)
	a.SIGs = union(a.SIGs, b.SIGs)
	a.Names = union(a.Names, b.Names)
	for _, n := range b.KEPs {
		if !slices.Contains(a.KEPs, n) {
			a.KEPs = append(a.KEPs, n)
		}
	}
	a.Action = a.Action || b.Action
	if n := Classify(a.Kinds, a.Text, a.Action, a.Effects); n != "" && a.Notice != knowledge.NoticeRemoval && a.Notice != knowledge.NoticeDeprecation {
		a.Notice = n // what the first entry's words were read as stays (its effects kept are only the sure ones)
	}
	return a
}

// words reads a list of short names (kinds, SIGs): lower case, without a
// label prefix such as "kind/", once each. A lone string is read as a
// list of one; what is neither is dropped with a warning.
func (p *notesParser) words(key, field string, raw json.RawMessage, label string) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			p.warn(key, field+" is not a list of names; left out")
			return nil
		}
		list = []string{one}
	}
	var out []string
	long := 0
	for _, w := range list {
		w = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(w)), label)
		switch {
		case w == "" || slices.Contains(out, w):
		case len(w) > maxWordBytes:
			long++
		case len(out) == maxListLen:
			p.warn(key, fmt.Sprintf("%s has more than %d names; the rest are left out", field, maxListLen))
			return out
		default:
			out = append(out, w)
		}
	}
	if long > 0 {
		p.warn(key, fmt.Sprintf("%d name(s) in %s longer than %d bytes left out", long, field, maxWordBytes))
	}
	return out
}

// links returns the URLs of an entry's documentation list, whatever their
// type: KEP links are sometimes typed "external".
func (p *notesParser) links(key string, raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var docs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &docs); err != nil {
		p.warn(key, "documentation is not a list of links; left out")
		return nil
	}
	var out []string
	for _, d := range docs {
		if u := stringField(d["url"]); u != "" && len(u) <= maxLinkBytes && len(out) < maxListLen {
			out = append(out, u)
		}
	}
	return out
}

// prNumber reads a pull request number: a JSON number or a string of
// digits, from 1 to 999999999.
func prNumber(raw json.RawMessage) (int, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

func stringField(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// boolField reads true or "true"; anything else is false.
func boolField(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "true" || s == `"true"`
}

// prURL is the entry's pull request link when it is a plain https URL,
// else the link made from its number.
func prURL(u string, pr int) string {
	if strings.HasPrefix(u, "https://") && len(u) <= 200 && !strings.ContainsAny(u, " \t\r\n<>\"") {
		return u
	}
	return "https://github.com/kubernetes/kubernetes/pull/" + strconv.Itoa(pr)
}

// cut returns the first max bytes of s or fewer, ending on a character
// boundary, and an ellipsis.
func cut(s string, max int) string {
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max] + "…"
}

// short keeps a key fit to name in a message.
func short(key string) string {
	if len(key) > 40 {
		return cut(key, 40)
	}
	if key == "" {
		return `""`
	}
	return key
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return "'" + t.String() + "'"
	case string:
		return "a string"
	case nil:
		return "null"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	default:
		return fmt.Sprintf("%T", t)
	}
}

func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}
