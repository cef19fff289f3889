package manifest

import "bytes"

// fast is the one-pass reader of block-style YAML (and, in json.go, of
// strict JSON). It walks a document line by line with a stack of open
// mappings and sequences, reads the keys of extract.go on the way, and
// checks every line against the subset of YAML it knows. It builds no
// tree and keeps no value except the four it reads. On anything outside
// that subset, broken or not, it gives up (returns false) and the
// document goes to the slow path; doc.go lists what that is.
type fast struct {
	e         *extraction
	stack     []frame
	flowStack []byte
	pend      pend
	block     blockState
	started   bool
	maxDepth  int
	intern    map[string]string
	bailLine  int  // the document line where it gave up
	suspect   bool // it gave up on a line that looks broken, not merely unusual
	quoteLine int  // a line where a quoted value is not closed (YAML reads on)
	deep      bool // it gave up because the document nests deeper than maxDepth
	jd        jsonState
}

// frame is an open block mapping or sequence.
type frame struct {
	indent  int  // column of its keys, or of its dashes
	seq     bool //
	compact bool // a sequence at the same column as the key that holds it
	role    role
	cand    int // the candidate its keys go to (-1: the root)
}

// pend is a key or a dash with nothing after it on its line: the lines
// that follow hold its value (or it is null).
type pend struct {
	on      bool
	indent  int  // column of the frame holding the key or the dash
	fromKey bool // a key: a sequence may follow at the same column
	itemOf  bool // a dash of an items sequence: the value is an item
	field   fieldID
	cand    int
	line    int
}

// blockState follows a literal (|) or folded (>) scalar over its lines.
type blockState struct {
	on      bool
	parent  int // column of the collection holding it; its lines are indented more
	indent  int // its indentation, once its first non-empty line sets it
	maxLead int // most spaces on an empty line before that one
}

func newFast(e *extraction, maxDepth int) *fast {
	return &fast{e: e, maxDepth: maxDepth, intern: make(map[string]string)}
}

func (f *fast) reset() {
	f.e.reset()
	f.stack = f.stack[:0]
	f.pend = pend{}
	f.block = blockState{}
	f.started = false
	f.bailLine, f.suspect, f.quoteLine, f.deep = 0, false, 0, false
}

// yaml reads a whole document of block-style YAML (its text without a
// leading "---" line) into f.e; it returns false when the document is
// for the slow path. The reader does the same a line at a time, with
// begin, line and end, as it reads the stream.
func (f *fast) yaml(src []byte) bool {
	f.begin()
	ln := 0
	for pos := 0; pos < len(src); {
		ln++
		var b []byte
		if nl := bytes.IndexByte(src[pos:], '\n'); nl >= 0 {
			b = src[pos : pos+nl]
			pos += nl + 1
		} else {
			b = src[pos:]
			pos = len(src)
		}
		if !f.line(b, ln, checkLine(b)) {
			return false
		}
	}
	return f.end()
}

// begin starts a document.
func (f *fast) begin() { f.reset() }

// line reads line ln of the document (without its line break); cf is
// what checkLine found in it. It returns false when the document is for
// the slow path.
func (f *fast) line(b []byte, ln int, cf charFlags) bool {
	if cf&(bad|hasOdd) != 0 {
		return f.bail(ln, false)
	}
	if f.block.on {
		consumed, ok := f.blockLine(b)
		if !ok {
			return f.bail(ln, true)
		}
		if consumed {
			return true
		}
	}
	if cf&hasTab != 0 {
		return f.bail(ln, true)
	}
	ind := indentOf(b)
	if ind == len(b) || b[ind] == '#' {
		return true
	}
	if !f.content(b, ind, ln) {
		return f.bail(ln, f.suspect)
	}
	return true
}

// end ends a document whose lines all went well.
func (f *fast) end() bool {
	if !f.started {
		return f.bail(1, false)
	}
	if f.pend.on {
		f.null(f.pend)
		f.pend.on = false
	}
	return true
}

func (f *fast) bail(ln int, suspect bool) bool {
	f.bailLine, f.suspect = ln, suspect
	return false
}

// content handles a line whose first non-space character, at column
// ind, is not '#'.
func (f *fast) content(b []byte, ind, ln int) bool {
	dash := b[ind] == '-' && (ind+1 == len(b) || b[ind+1] == ' ')
	if f.pend.on {
		p := f.pend
		f.pend.on = false
		switch {
		case ind > p.indent && dash:
			return f.open(p, ind, true, false, ln) && f.seqEntry(b, ind, ln)
		case ind > p.indent:
			return f.open(p, ind, false, false, ln) && f.mapEntry(b, ind, ln)
		case ind == p.indent && dash && p.fromKey:
			return f.open(p, ind, true, true, ln) && f.seqEntry(b, ind, ln)
		}
		f.null(p)
	}
	n := len(f.stack)
	for n > 0 {
		top := &f.stack[n-1]
		if top.indent > ind || (top.indent == ind && top.compact && !dash) {
			n--
			continue
		}
		break
	}
	f.stack = f.stack[:n]
	if n == 0 {
		if f.started {
			f.suspect = true // less indented than the document's top
			return false
		}
		f.started = true
		if dash {
			f.e.shape = shapeSequence
			return f.push(frame{indent: ind, seq: true, role: roleItems, cand: -1}) && f.seqEntry(b, ind, ln)
		}
		f.e.shape = shapeMapping
		f.e.root.line = ln
		return f.push(frame{indent: ind, role: roleRoot, cand: -1}) && f.mapEntry(b, ind, ln)
	}
	top := &f.stack[n-1]
	if top.indent != ind || top.seq != dash {
		f.suspect = true // bad indentation, or a dash among keys (or a key among dashes)
		return false
	}
	if dash {
		return f.seqEntry(b, ind, ln)
	}
	return f.mapEntry(b, ind, ln)
}

func (f *fast) push(fr frame) bool {
	if len(f.stack) >= f.maxDepth {
		f.deep = true
		return false
	}
	f.stack = append(f.stack, fr)
	return true
}

// open pushes the collection that is the value of pending key or dash p.
func (f *fast) open(p pend, ind int, seq, compact bool, ln int) bool {
	fr := frame{indent: ind, seq: seq, compact: compact, cand: p.cand}
	switch {
	case p.itemOf:
		if seq {
			f.e.newItem(ln, true)
		} else {
			fr.cand, fr.role = f.e.newItem(ln, false), roleItem
		}
	case p.field == fMetadata:
		if !seq {
			fr.role = roleMeta
		}
	case p.field == fItems:
		c := f.e.cand(p.cand)
		if seq {
			c.items, fr.role = itemsSeq, roleItems
		} else {
			c.items = itemsOther
		}
	case p.field != fNone:
		*f.e.cand(p.cand).at(p.field) = field{line: p.line, st: notText}
	}
	return f.push(fr)
}

// null records that pending key or dash p has no value.
func (f *fast) null(p pend) {
	switch {
	case p.itemOf:
		f.e.newItem(p.line, true)
	case p.field == fItems:
		f.e.cand(p.cand).items = itemsNull
	case p.field == fMetadata || p.field == fNone:
	default:
		*f.e.cand(p.cand).at(p.field) = field{line: p.line, st: notText}
	}
}

// seqEntry reads the entry whose dash is b[i] (the innermost frame is
// its sequence).
func (f *fast) seqEntry(b []byte, i, ln int) bool {
	itemOf := f.stack[len(f.stack)-1].role == roleItems
	m := skipSpaces(b, i+1)
	if m == len(b) || b[m] == '#' {
		f.pend = pend{on: true, indent: i, itemOf: itemOf, line: ln}
		return true
	}
	if b[m] == '-' && (m+1 == len(b) || b[m+1] == ' ') {
		if itemOf {
			f.e.newItem(ln, true)
		}
		return f.push(frame{indent: m, seq: true}) && f.seqEntry(b, m, ln)
	}
	k, ok := parseKey(b, m)
	if !ok {
		return false
	}
	if k.isKey {
		fr := frame{indent: m}
		if itemOf {
			fr.cand, fr.role = f.e.newItem(ln, false), roleItem
		}
		return f.push(fr) && f.keyValue(b, m, k, ln)
	}
	if itemOf {
		if b[m] == '{' {
			return false // an object written as a flow mapping: the slow path reads it
		}
		f.e.newItem(ln, true)
	}
	return f.value(b, m, fNone, -1, i, ln)
}

// mapEntry reads the entry whose key starts at b[i] (the innermost
// frame is its mapping).
func (f *fast) mapEntry(b []byte, i, ln int) bool {
	k, ok := parseKey(b, i)
	if !ok {
		return false
	}
	if !k.isKey {
		f.suspect = true // a scalar where a key should be
		return false
	}
	return f.keyValue(b, i, k, ln)
}

// keyValue reads the value of key k, whose mapping is the innermost
// frame and starts at column i.
func (f *fast) keyValue(b []byte, i int, k keyInfo, ln int) bool {
	top := &f.stack[len(f.stack)-1]
	fid := fNone
	if top.role != roleNone && top.role != roleItems {
		fid = fieldFor(top.role, k.key)
		if fid != fNone {
			c := f.e.cand(top.cand)
			if !c.see(fid, ln) {
				fid = fNone // a second one: a Problem; its value is not read
			} else if fid == fItems {
				c.itemsLine = ln
			}
		}
	}
	v := k.val
	if v == len(b) || b[v] == '#' {
		f.pend = pend{on: true, indent: i, fromKey: true, field: fid, cand: top.cand, line: ln}
		return true
	}
	return f.value(b, v, fid, top.cand, i, ln)
}

// value reads a value that starts at b[v] on its key's (or dash's) line;
// parent is the column of the collection holding it. fid says which
// key it is the value of, on candidate ci.
func (f *fast) value(b []byte, v int, fid fieldID, ci, parent, ln int) bool {
	switch c := b[v]; c {
	case '|', '>':
		if fid != fNone {
			return false
		}
		j := v + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && b[j] >= '0' && b[j] <= '9' {
			return false // an indentation indicator
		}
		if !restIsEnd(b, j) {
			return false
		}
		f.block = blockState{on: true, parent: parent}
		return true
	case '"', '\'':
		var end int
		var esc, ok bool
		if c == '"' {
			end, esc, ok = dquote(b, v)
		} else {
			end, esc, ok = squote(b, v)
		}
		if !ok {
			if bytes.IndexByte(b[v+1:], c) < 0 {
				f.quoteLine = ln // not closed on its line
			}
			return false
		}
		if !restIsEnd(b, end) {
			f.suspect = true
			return false
		}
		if fid == fNone {
			return true
		}
		if c == '"' && esc {
			return false // escapes in a value that is read: the slow path unescapes
		}
		f.setQuoted(fid, ci, ln, b[v+1:end-1], c == '\'' && esc)
		return true
	case '[', '{':
		var meta *cand
		if fid == fMetadata && c == '{' {
			meta = f.e.cand(ci)
		}
		end, empty, ok := f.flow(b, v, meta, ln)
		if !ok {
			return false
		}
		if !restIsEnd(b, end) {
			f.suspect = true
			return false
		}
		switch fid {
		case fNone, fMetadata:
		case fItems:
			if c == '{' {
				f.e.cand(ci).items = itemsOther
			} else if !empty {
				return false // items written as a flow list: the slow path reads them
			} else {
				f.e.cand(ci).items = itemsSeq
			}
		default:
			*f.e.cand(ci).at(fid) = field{line: ln, st: notText}
		}
		return true
	case '-':
		if v+1 == len(b) || b[v+1] == ' ' {
			return false // a sequence cannot start on a key's line
		}
	default:
		if isIndicator(c) {
			return false // an anchor, alias, tag, or a reserved character
		}
	}
	// A plain scalar: up to a comment; ": " or a final ':' would make it a
	// key, which YAML refuses here.
	p, ok := plainValue(b[v:])
	if !ok {
		return false
	}
	if fid != fNone {
		f.setPlain(fid, ci, ln, p)
	}
	return true
}

// plainValue returns plain scalar p without its comment and trailing
// spaces; ok is false when it holds ": " or ends in ':'.
func plainValue(p []byte) ([]byte, bool) {
	if len(p) > 64 {
		if h := commentAt(p); h >= 0 {
			p = p[:h]
		}
		p = trimRight(p)
		for i := 0; ; {
			c := bytes.IndexByte(p[i:], ':')
			if c < 0 {
				return p, true
			}
			i += c + 1
			if i == len(p) || p[i] == ' ' {
				return nil, false
			}
		}
	}
	for i := 1; i < len(p); i++ {
		switch p[i] {
		case '#':
			if p[i-1] == ' ' {
				return trimRight(p[:i]), true // a ':' before it was checked on the way
			}
		case ':':
			if i+1 == len(p) || p[i+1] == ' ' {
				return nil, false
			}
		}
	}
	p = trimRight(p)
	return p, len(p) == 0 || p[len(p)-1] != ':'
}

func (f *fast) setPlain(fid fieldID, ci, ln int, v []byte) {
	c := f.e.cand(ci)
	switch fid {
	case fMetadata:
	case fItems:
		if isNull(v) {
			c.items = itemsNull
		} else {
			c.items = itemsOther
		}
	default:
		if plainIsText(v) {
			*c.at(fid) = field{val: f.str(fid, v), line: ln, st: text}
		} else {
			*c.at(fid) = field{line: ln, st: notText}
		}
	}
}

func (f *fast) setQuoted(fid fieldID, ci, ln int, v []byte, sqEsc bool) {
	c := f.e.cand(ci)
	switch fid {
	case fMetadata:
	case fItems:
		c.items = itemsOther
	default:
		s := ""
		if sqEsc {
			s = unquoteSingle(v, true)
		} else {
			s = f.str(fid, v)
		}
		*c.at(fid) = field{val: s, line: ln, st: text}
	}
}

// str makes the string of a value; apiVersion, kind and namespace
// repeat, so they are kept once per Read.
func (f *fast) str(fid fieldID, v []byte) string {
	if fid == fName {
		return string(v)
	}
	if s, ok := f.intern[string(v)]; ok {
		return s
	}
	s := string(v)
	if len(f.intern) < 4096 {
		f.intern[s] = s
	}
	return s
}

func isNull(v []byte) bool {
	switch string(v) {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// blockLine takes line b while a block scalar is open. consumed says b
// was part of the scalar; otherwise the scalar has ended and b is read
// as usual. ok is false for a tab where YAML wants indentation.
func (f *fast) blockLine(b []byte) (consumed, ok bool) {
	s := indentOf(b)
	bs := &f.block
	if bs.indent == 0 {
		if s == len(b) {
			bs.maxLead = max(bs.maxLead, s)
			return true, true
		}
		if b[s] == '\t' {
			return false, false
		}
		ind := max(bs.maxLead, s, bs.parent+1, 1)
		if s < ind {
			bs.on = false
			return false, true
		}
		bs.indent = ind
		return true, true
	}
	if s >= bs.indent || s == len(b) {
		return true, true
	}
	if b[s] == '\t' {
		return false, false
	}
	bs.on = false
	return false, true
}

// keyInfo is what parseKey found.
type keyInfo struct {
	key   []byte // the key's text (inside its quotes)
	val   int    // index of the value after ": " and spaces (len(b): none)
	isKey bool   // false: b[i:] is a scalar, not "key: value"
}

// parseKey reads "key:" at b[i]. ok is false for a key the fast path
// leaves to the slow one: quoted with escapes, longer than 1000 bytes,
// or the merge key "<<".
func parseKey(b []byte, i int) (keyInfo, bool) {
	switch c := b[i]; c {
	case '"', '\'':
		var end int
		var esc, closed bool
		if c == '"' {
			end, esc, closed = dquote(b, i)
		} else {
			end, esc, closed = squote(b, i)
		}
		if !closed {
			return keyInfo{}, false
		}
		j := skipSpaces(b, end)
		if j < len(b) && b[j] == ':' && (j+1 == len(b) || b[j+1] == ' ') {
			if esc || j-i > 1000 {
				return keyInfo{}, false
			}
			return keyInfo{key: b[i+1 : end-1], val: skipSpaces(b, j+1), isKey: true}, true
		}
		return keyInfo{}, true
	}
	if isIndicator(b[i]) {
		return keyInfo{}, true // not a key: value() takes it, or gives up
	}
	// One pass over the key: the first ':' followed by a space or the end
	// of the line ends it, unless a comment starts first.
	for p := i + 1; p < len(b); p++ {
		switch b[p] {
		case '#':
			if b[p-1] == ' ' {
				return keyInfo{}, true
			}
		case ':':
			if p+1 < len(b) && b[p+1] != ' ' {
				continue
			}
			key := trimRight(b[i:p])
			if p-i > 1000 || string(key) == "<<" {
				return keyInfo{}, false
			}
			return keyInfo{key: key, val: skipSpaces(b, p+1), isKey: true}, true
		}
	}
	return keyInfo{}, true
}
