package manifest

// flow parses a flow collection ([...] or {...}) that opens at b[i] and
// closes on the same line, and returns the index after it; ok is false
// for anything outside the subset the fast path takes (see doc.go). When
// meta is set and the collection is a mapping, its name and namespace
// are recorded on meta, at document line ln.
func (f *fast) flow(b []byte, i int, meta *cand, ln int) (end int, empty, ok bool) {
	const (
		open  = iota // b[j] opens a collection
		item         // b[j] starts an item of the innermost collection
		after        // an item ended at b[j]: a comma or a closer follows
	)
	st := f.flowStack[:0]
	defer func() { f.flowStack = st[:0] }()
	j, state := i, open
	for {
		switch state {
		case open:
			if len(st)+len(f.stack) >= f.maxDepth {
				f.deep = true
				return 0, false, false
			}
			st = append(st, b[j])
			j = skipSpaces(b, j+1)
			if j == len(b) {
				return 0, false, false
			}
			state = item
			if c := b[j]; c == ']' || c == '}' {
				if c != closer(st[len(st)-1]) {
					return 0, false, false
				}
				empty = len(st) == 1
				st = st[:len(st)-1]
				j++
				state = after
			}
		case item:
			state = after
			if st[len(st)-1] == '{' {
				var ok bool
				if j, ok = f.flowPair(b, j, len(st) == 1 && meta != nil, meta, ln); !ok {
					return 0, false, false
				}
				if j < 0 {
					j, state = -j, open
				}
				break
			}
			if b[j] == '[' || b[j] == '{' {
				state = open
				break
			}
			var ok bool
			if j, _, ok = flowScalar(b, j, false); !ok {
				return 0, false, false
			}
		case after:
			if len(st) == 0 {
				return j, empty, true
			}
			j = skipSpaces(b, j)
			if j == len(b) {
				return 0, false, false
			}
			if b[j] == closer(st[len(st)-1]) {
				st = st[:len(st)-1]
				j++
				break
			}
			if b[j] != ',' {
				return 0, false, false
			}
			j = skipSpaces(b, j+1)
			if j == len(b) || isFlowInd(b[j]) && b[j] != '[' && b[j] != '{' {
				return 0, false, false
			}
			state = item
		}
	}
}

func closer(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

// flowPair reads "key: " and the value after it when that value is a
// scalar; it returns the index after the pair, or minus the index of a
// collection value still to be read. record says to record name and
// namespace on meta.
func (f *fast) flowPair(b []byte, j int, record bool, meta *cand, ln int) (int, bool) {
	k0 := j
	j, kesc, ok := flowScalar(b, j, true)
	if !ok || kesc {
		return 0, false
	}
	kv := b[k0:j]
	if kv[0] == '"' || kv[0] == '\'' {
		kv = kv[1 : len(kv)-1]
	} else {
		kv = trimRight(kv)
	}
	j = skipSpaces(b, j)
	if j+1 >= len(b) || b[j] != ':' || b[j+1] != ' ' {
		return 0, false
	}
	if len(kv) == 2 && kv[0] == '<' && kv[1] == '<' {
		return 0, false
	}
	j = skipSpaces(b, j+1)
	if j == len(b) {
		return 0, false
	}
	var fid fieldID
	if record {
		if fid = fieldFor(roleMeta, kv); fid != fNone && !meta.see(fid, ln) {
			fid = fNone
		}
	}
	if b[j] == '[' || b[j] == '{' {
		if fid != fNone {
			*meta.at(fid) = field{line: ln, st: notText}
		}
		return -j, true
	}
	v0 := j
	j, esc, ok := flowScalar(b, j, false)
	if !ok {
		return 0, false
	}
	if fid != fNone {
		v := b[v0:j]
		fl := field{line: ln, st: text}
		switch v[0] {
		case '"':
			if esc {
				return 0, false
			}
			fl.val = string(v[1 : len(v)-1])
		case '\'':
			fl.val = unquoteSingle(v[1:len(v)-1], esc)
		default:
			v = trimRight(v)
			if plainIsText(v) {
				fl.val = string(v)
			} else {
				fl.st = notText
			}
		}
		*meta.at(fid) = fl
	}
	return j, true
}

// flowScalar scans a quoted or plain scalar in a flow collection at
// b[j], and returns the index after it (for a plain one, before the
// character that ends it). A plain scalar ends at , ] } and, for a key,
// at ':'; one holding ':', '#', '?', '[' or '{' is left to the slow path.
func flowScalar(b []byte, j int, isKey bool) (end int, esc, ok bool) {
	switch c := b[j]; c {
	case '"':
		return dquote(b, j)
	case '\'':
		return squote(b, j)
	case '-':
		if j+1 == len(b) || b[j+1] == ' ' || isFlowInd(b[j+1]) {
			return 0, false, false
		}
	default:
		if isIndicator(c) {
			return 0, false, false
		}
	}
	k := j
	for ; k < len(b); k++ {
		switch b[k] {
		case ',', ']', '}':
			return k, false, true
		case ':':
			if isKey {
				return k, false, true
			}
			return 0, false, false
		case '#', '?', '[', '{', '\t':
			return 0, false, false
		}
	}
	return 0, false, false
}

func isFlowInd(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// isIndicator reports whether c may not start a plain scalar (or is one
// the fast path does not take there: '-', '?' and ':' are allowed by
// YAML when a non-space follows, but rare).
func isIndicator(c byte) bool {
	switch c {
	case ' ', '\t', '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}
