package manifest

// The fast and the slow path both reduce a document to an extraction:
// the few keys kepbot reads, where they are, and whether they are text.
// One function, decide, turns an extraction into Objects and Problems,
// so the two paths cannot differ in what they make of the same keys.

// fieldID names a key that is read. Which keys count depends on where
// the mapping is: apiVersion, kind, metadata and items in an object
// (items only at the top of a document), name and namespace in its
// metadata.
type fieldID uint8

const (
	fNone fieldID = iota
	fAPIVersion
	fKind
	fMetadata
	fItems
	fName
	fNamespace
)

// keyName is the key each fieldID stands for; messages use it.
var keyName = [...]string{"", "apiVersion", "kind", "metadata", "items", "name", "namespace"}

// role is what a mapping or sequence is to the extraction.
type role uint8

const (
	roleNone  role = iota
	roleRoot       // the document's top mapping: an object, or a List
	roleItem       // a mapping in items (or in a top-level sequence): an object
	roleMeta       // metadata of an object
	roleItems      // the items sequence of the root, or a top-level sequence
)

// fieldFor returns the field key names in a mapping of role r.
func fieldFor[K string | []byte](r role, key K) fieldID {
	switch r {
	case roleRoot, roleItem:
		switch string(key) {
		case "apiVersion":
			return fAPIVersion
		case "kind":
			return fKind
		case "metadata":
			return fMetadata
		case "items":
			if r == roleRoot {
				return fItems
			}
		}
	case roleMeta:
		switch string(key) {
		case "name":
			return fName
		case "namespace":
			return fNamespace
		}
	}
	return fNone
}

// fieldState is what a read key held.
type fieldState uint8

const (
	absent  fieldState = iota
	text               // a string
	notText            // null, a number, a boolean, a mapping, a list...
)

type field struct {
	val  string
	line int // doc line of the key (1-based, in the document's own text)
	st   fieldState
}

// itemsState is what a List's items key held.
type itemsState uint8

const (
	itemsAbsent itemsState = iota
	itemsNull              // items: (nothing) or null
	itemsSeq               // a sequence
	itemsOther             // a scalar or a mapping
)

// cand is a mapping that may be an object: the root, or an item.
type cand struct {
	line       int // doc line where it starts
	f          [4]field
	seen       uint8 // fieldIDs seen as keys of its own (bit 1<<id)
	dup        fieldID
	dupLine    int
	items      itemsState
	itemsLine  int
	notMapping bool // an item that is not a mapping at all
}

// at returns the field slot of id (apiVersion, kind, name, namespace).
func (c *cand) at(id fieldID) *field {
	switch id {
	case fAPIVersion:
		return &c.f[0]
	case fKind:
		return &c.f[1]
	case fName:
		return &c.f[2]
	case fNamespace:
		return &c.f[3]
	}
	return nil
}

// see records key id of the candidate at line and reports whether it is
// the first; a second one is remembered as a duplicate.
func (c *cand) see(id fieldID, line int) bool {
	bit := uint8(1) << id
	if c.seen&bit != 0 {
		if c.dup == fNone {
			c.dup, c.dupLine = id, line
		}
		return false
	}
	c.seen |= bit
	return true
}

// shape is what a document's top node is.
type shape uint8

const (
	shapeOther    shape = iota // a scalar, null, or nothing
	shapeMapping               // root is set; items are its items
	shapeSequence              // items are the entries
)

// extraction is what a path found in one document.
type extraction struct {
	shape shape
	root  cand
	items []cand
	// A document that could not be parsed: its problem (doc line, message).
	failed  bool
	errLine int
	errMsg  string
}

func (e *extraction) reset() {
	e.shape = shapeOther
	e.root = cand{}
	e.items = e.items[:0]
	e.failed, e.errLine, e.errMsg = false, 0, ""
}

// cand returns the candidate of index i: -1 is the root.
func (e *extraction) cand(i int) *cand {
	if i < 0 {
		return &e.root
	}
	return &e.items[i]
}

// newItem starts an item at line and returns its index.
func (e *extraction) newItem(line int, notMapping bool) int {
	e.items = append(e.items, cand{line: line, notMapping: notMapping})
	return len(e.items) - 1
}

func (e *extraction) fail(line int, msg string) {
	e.failed, e.errLine, e.errMsg = true, line, msg
}
