package manifest

// The fast path for strict JSON (RFC 8259), as `kubectl get -o json`
// writes it. JSON is YAML's flow style, and the slow path reads it as
// such; this reader takes only the JSON that YAML reads alike, and gives
// up (to the slow path) on the rest: "\/" escapes and UTF-16 surrogate
// escapes (YAML refuses both), escapes in keys or in the values read, a
// key whose ':' is more than 1000 bytes after its start or on another
// line (YAML would not take it as a key), tabs after the top value.

type jsonState struct {
	b     []byte
	i     int
	line  int
	depth int
}

// json reads the JSON value that starts text into f.e. It returns the
// index where another top-level JSON value starts (0 when none does:
// the text is one value); ok is false when the text is for the slow
// path.
func (f *fast) json(text []byte) (next int, ok bool) {
	f.reset()
	j := &f.jd
	*j = jsonState{b: text, line: 1}
	j.ws()
	if j.i == len(text) {
		return 0, false
	}
	switch text[j.i] {
	case '{':
		f.e.shape, f.e.root.line = shapeMapping, j.line
		ok = f.jobject(roleRoot, -1)
	case '[':
		f.e.shape = shapeSequence
		ok = f.jarray(roleItems)
	}
	if !ok {
		f.bailLine = j.line
		return 0, false
	}
	k := j.i
	for k < len(text) && (text[k] == ' ' || text[k] == '\n') {
		k++
	}
	switch {
	case k == len(text):
		return 0, true
	case text[k] == '{' || text[k] == '[':
		return k, true
	}
	f.bailLine = j.line
	return 0, false
}

// ws skips JSON whitespace (a CR never gets here: the reader joins CRLF
// and sends a lone CR to the slow path).
func (j *jsonState) ws() {
	for j.i < len(j.b) {
		switch j.b[j.i] {
		case ' ', '\t':
		case '\n':
			j.line++
		default:
			return
		}
		j.i++
	}
}

// jopen enters the object or array whose opening bracket is at b[i], one
// level deeper (ok is false, and f.deep true, when that is too deep); an
// empty one (end at once) is read whole, and done is true.
func (f *fast) jopen(end byte) (done, ok bool) {
	j := &f.jd
	if j.depth++; j.depth >= f.maxDepth {
		f.deep = true
		return false, false
	}
	j.i++
	j.ws()
	if j.i < len(j.b) && j.b[j.i] == end {
		j.i++
		j.depth--
		return true, true
	}
	return false, true
}

// next reads what follows a member of an object or an element of an
// array: ',' (more is true, and the whitespace after it is skipped) or
// end, which closes it, one level up. Anything else is not JSON (ok is
// false).
func (j *jsonState) next(end byte) (more, ok bool) {
	j.ws()
	if j.i == len(j.b) {
		return false, false
	}
	switch j.b[j.i] {
	case ',':
		j.i++
		j.ws()
		return true, true
	case end:
		j.i++
		j.depth--
		return false, true
	}
	return false, false
}

// jobject reads the object at b[i]; keys of role r go to candidate ci.
func (f *fast) jobject(r role, ci int) bool {
	if done, ok := f.jopen('}'); done || !ok {
		return ok
	}
	j := &f.jd
	for {
		if j.i == len(j.b) || j.b[j.i] != '"' {
			return false
		}
		kl, k0 := j.line, j.i
		key, esc, ok := j.str()
		if !ok || esc {
			return false
		}
		j.ws()
		if j.i == len(j.b) || j.b[j.i] != ':' || j.line != kl || j.i-k0 > 1000 {
			return false
		}
		j.i++
		fid := fNone
		if r != roleNone {
			if fid = fieldFor(r, key); fid != fNone {
				c := f.e.cand(ci)
				if !c.see(fid, kl) {
					fid = fNone
				} else if fid == fItems {
					c.itemsLine = kl
				}
			}
		}
		if !f.jvalue(fid, ci, kl) {
			return false
		}
		if more, ok := j.next('}'); !more {
			return ok
		}
	}
}

// jarray reads the array at b[i]; in an items array (r is roleItems)
// each entry is an item.
func (f *fast) jarray(r role) bool {
	if done, ok := f.jopen(']'); done || !ok {
		return ok
	}
	j := &f.jd
	for {
		if j.i == len(j.b) {
			return false
		}
		ok := false
		switch {
		case r != roleItems:
			ok = f.jvalue(fNone, -1, 0)
		case j.b[j.i] == '{':
			ok = f.jobject(roleItem, f.e.newItem(j.line, false))
		default:
			f.e.newItem(j.line, true)
			ok = f.jvalue(fNone, -1, 0)
		}
		if !ok {
			return false
		}
		if more, ok := j.next(']'); !more {
			return ok
		}
	}
}

// jvalue reads a value; fid says which key of candidate ci (at line kl)
// it belongs to.
func (f *fast) jvalue(fid fieldID, ci, kl int) bool {
	j := &f.jd
	j.ws()
	if j.i == len(j.b) {
		return false
	}
	var c *cand
	if fid != fNone {
		c = f.e.cand(ci)
	}
	switch j.b[j.i] {
	case '{':
		switch fid {
		case fNone:
		case fMetadata:
			return f.jobject(roleMeta, ci)
		case fItems:
			c.items = itemsOther
		default:
			*c.at(fid) = field{line: kl, st: notText}
		}
		return f.jobject(roleNone, -1)
	case '[':
		switch fid {
		case fNone, fMetadata:
		case fItems:
			c.items = itemsSeq
			return f.jarray(roleItems)
		default:
			*c.at(fid) = field{line: kl, st: notText}
		}
		return f.jarray(roleNone)
	case '"':
		s, esc, ok := j.str()
		if !ok {
			return false
		}
		switch fid {
		case fNone, fMetadata:
		case fItems:
			c.items = itemsOther
		default:
			if esc {
				return false
			}
			*c.at(fid) = field{val: f.str(fid, s), line: kl, st: text}
		}
		return true
	}
	v, ok := j.literal()
	if !ok {
		return false
	}
	if fid != fNone {
		// true, false, null or a number: YAML reads it as the plain
		// scalar it is, and so does the fast path.
		f.setPlain(fid, ci, kl, v)
	}
	return true
}

// str reads the string at b[i] and returns its inside; esc says it holds
// escapes. ok is false for what JSON refuses, and for the escapes YAML
// refuses: "\/" and surrogates.
func (j *jsonState) str() (s []byte, esc, ok bool) {
	b := j.b
	start := j.i + 1
	for k := start; k < len(b); k++ {
		c := b[k]
		switch {
		case c == '"':
			j.i = k + 1
			return b[start:k], esc, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			esc = true
			if k+1 == len(b) {
				return nil, false, false
			}
			k++
			switch b[k] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if k+4 >= len(b) {
					return nil, false, false
				}
				v := 0
				for _, h := range b[k+1 : k+5] {
					d := unhex(h)
					if d < 0 {
						return nil, false, false
					}
					v = v<<4 | d
				}
				if v >= 0xD800 && v <= 0xDFFF {
					return nil, false, false
				}
				k += 4
			default:
				return nil, false, false
			}
		}
	}
	return nil, false, false
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// literal reads true, false, null or a number at b[i].
func (j *jsonState) literal() ([]byte, bool) {
	b, start := j.b, j.i
	k := start
	for k < len(b) {
		c := b[k]
		if c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' {
			break
		}
		k++
	}
	v := b[start:k]
	j.i = k
	switch string(v) {
	case "true", "false", "null":
		return v, true
	}
	return v, isJSONNumber(v)
}

func isJSONNumber(v []byte) bool {
	i := 0
	if i < len(v) && v[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(v) && v[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(v)
}
