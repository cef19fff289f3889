package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// The slow path hands one document to go.yaml.in/yaml/v3, which parses
// it into a yaml.Node tree, and reads the same keys from the tree as the
// fast path does, following aliases and merge keys (<<). The library is
// guarded: nesting and size are checked before it sees the document, a
// panic in it is recovered, and walking aliases has a budget, so an
// alias bomb costs a few thousand steps. Nothing is decoded into Go
// values, so the library's own alias expansion never runs.

// maxAliasSteps bounds the aliases and merge keys followed in one
// document. Real manifests follow a handful.
const maxAliasSteps = 10_000

// slow reads document text (with the reader's leading '\n', so that the
// library never reports "line 0") into e. f, when set, is the fast path
// that gave up on the document: where it did, and why, help place an
// error the library reports only by the block it is in, or further on.
func slow(text []byte, lim Limits, e *extraction, f *fast) {
	e.reset()
	if line, msg := precheck(text[1:], lim); msg != "" {
		e.fail(line, msg)
		return
	}
	yaml12as11(text)
	root, err := parseYAML(text)
	if err != nil {
		line, msg := yamlProblem(err, text[1:])
		if line == 0 {
			line = 1
		}
		switch {
		case msg == msgEscape && isJSON(text):
			msg = msgJSONEscape
		case f == nil:
		case f.quoteLine > 0 && f.quoteLine <= line && msg != msgControl && msg != msgUTF8:
			// A quote left open: YAML reads on, and fails further down.
			line, msg = f.quoteLine, msgOpenQuote
		case f.suspect && f.bailLine >= line && placedByBlock(err):
			line = f.bailLine
		}
		e.fail(line, msg)
		return
	}
	if l := tooDeep(root, lim.MaxDepth); l != 0 {
		e.fail(max(l, 1), msgDeep(lim))
		return
	}
	w := walker{e: e}
	w.document(root)
	if w.bomb {
		e.reset()
		e.fail(1, fmt.Sprintf("the document follows more than %d aliases or merge keys (an alias bomb?)", maxAliasSteps))
	}
}

// yaml12as11 rewrites a "%YAML 1.2" directive at the start of text to
// 1.1, in place: the library refuses 1.2, though it reads a document
// the same either way.
func yaml12as11(text []byte) {
	for rest := text[1:]; len(rest) > 0 && rest[0] == '%'; {
		if bytes.HasPrefix(rest, []byte("%YAML 1.2")) && (len(rest) == 9 || rest[9] == ' ' || rest[9] == '\n') {
			rest[8] = '1'
		}
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return
		}
		rest = rest[i+1:]
	}
}

// isJSON reports whether text starts (after spaces and line breaks)
// with { or [.
func isJSON(text []byte) bool {
	t := bytes.TrimLeft(text, " \n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// parseYAML parses text into a node tree, turning a panic of the
// library into an error. yaml.Unmarshal would read the first document
// and ignore what follows its top node ("{...} x", or a line less
// indented than an indented top mapping); a second Decode makes that
// an error, as it is.
func parseYAML(text []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, errInternalPanic
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return &yaml.Node{Kind: yaml.DocumentNode}, nil
		}
		return nil, err
	}
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case errors.Is(err, io.EOF):
		return &n, nil
	case err != nil:
		return nil, err
	}
	return nil, errMoreThanOne
}

// precheck refuses, before the library builds a node for each, a
// document that may hold more than maxSlowNodes(lim) nodes: it counts
// lines, commas, colons, brackets and aliases, a bound from above. It
// returns the line and the problem. Nesting needs no check here: the
// library stops at 10,000 levels by itself, cheaply, and the tree's
// depth is measured after parsing.
func precheck(text []byte, lim Limits) (int, string) {
	maxNodes := maxSlowNodes(lim)
	nodes, line := 0, 1
	for _, c := range text {
		switch c {
		case '\n':
			line++
			nodes++
		case '[', '{', ',', ':', '*':
			nodes++
		default:
			continue
		}
		if nodes > maxNodes {
			return line, fmt.Sprintf("the document holds more than %d values in a form only the slow YAML reader takes (anchors, tags, flow collections over several lines...); split it, or write it in block style", maxNodes)
		}
	}
	return 0, ""
}

// msgDeep says a document nests deeper than lim allows.
func msgDeep(lim Limits) string {
	return fmt.Sprintf("the document nests more than %d levels deep", lim.MaxDepth)
}

// tooDeep returns the line of a collection nested deeper than max in
// the tree under n (aliases are not followed: what they name is
// measured where it is written), or 0.
func tooDeep(n *yaml.Node, max int) int {
	type item struct {
		n     *yaml.Node
		depth int
	}
	stack := []item{{n, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := it.depth
		if k := it.n.Kind; k == yaml.MappingNode || k == yaml.SequenceNode {
			if d++; d > max {
				return it.n.Line - 1
			}
		}
		for _, c := range it.n.Content {
			if c != nil {
				stack = append(stack, item{c, d})
			}
		}
	}
	return 0
}

// maxSlowNodes bounds the nodes the library may build for one document:
// one per 16 bytes of the document limit, and never more than 262,144
// (the count at 4 MiB), about 50 MB of tree at the worst, however high
// the document limit is raised. Bigger documents are for the fast path.
func maxSlowNodes(lim Limits) int {
	return max(min(lim.MaxDocumentBytes, 4<<20)/16, 4096)
}

// walker reads the keys of extract.go from a node tree. Node lines count
// the reader's leading '\n', so document line = node line - 1.
type walker struct {
	e     *extraction
	steps int
	bomb  bool
}

// deref follows aliases, within the budget.
func (w *walker) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		if w.steps++; w.steps > maxAliasSteps {
			w.bomb = true
			return nil
		}
		n = n.Alias
	}
	return n
}

func (w *walker) document(doc *yaml.Node) {
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return
	}
	n := w.deref(doc.Content[0])
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		w.e.shape = shapeMapping
		w.e.root.line = n.Line - 1
		w.mapping(n, roleRoot, -1, false)
	case yaml.SequenceNode:
		w.e.shape = shapeSequence
		w.items(n)
	}
}

// mapping reads the keys of role r in mapping m onto candidate ci. Its
// own keys come first, and a second one of a key is a duplicate; then
// the mappings its merge keys name, in order, fill what is still
// missing (merged is true for those, where a repeat is not a duplicate).
func (w *walker) mapping(m *yaml.Node, r role, ci int, merged bool) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content) && !w.bomb; i += 2 {
		k := w.deref(m.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, m.Content[i+1])
			continue
		}
		fid := fieldFor(r, k.Value)
		if fid == fNone {
			continue
		}
		c := w.e.cand(ci)
		if merged && c.has(fid) {
			continue
		}
		if !c.see(fid, k.Line-1) {
			continue
		}
		w.value(fid, ci, k.Line-1, m.Content[i+1])
	}
	for _, v := range merges {
		if w.bomb {
			return
		}
		v = w.deref(v)
		if v == nil {
			return
		}
		switch v.Kind {
		case yaml.MappingNode:
			w.merge(v, r, ci)
		case yaml.SequenceNode:
			for _, s := range v.Content {
				if s = w.deref(s); s != nil && s.Kind == yaml.MappingNode {
					w.merge(s, r, ci)
				}
			}
		}
	}
}

func (w *walker) merge(m *yaml.Node, r role, ci int) {
	if w.steps++; w.steps > maxAliasSteps {
		w.bomb = true
		return
	}
	w.mapping(m, r, ci, true)
}

// value reads the value v of key fid of candidate ci.
func (w *walker) value(fid fieldID, ci, line int, v *yaml.Node) {
	v = w.deref(v)
	if v == nil {
		return
	}
	switch fid {
	case fMetadata:
		if v.Kind == yaml.MappingNode {
			w.mapping(v, roleMeta, ci, false)
		}
	case fItems:
		c := w.e.cand(ci)
		c.itemsLine = line
		switch {
		case v.Kind == yaml.SequenceNode:
			c.items = itemsSeq
			w.items(v)
		case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
			c.items = itemsNull
		default:
			c.items = itemsOther
		}
	default:
		f := field{line: line, st: notText}
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
			f.val, f.st = v.Value, text
		}
		*w.e.cand(ci).at(fid) = f
	}
}

// items reads the entries of an items sequence (or of a top-level one).
func (w *walker) items(seq *yaml.Node) {
	for _, it := range seq.Content {
		if w.bomb {
			return
		}
		line := it.Line - 1
		n := w.deref(it)
		if n == nil {
			return
		}
		if n.Kind != yaml.MappingNode {
			w.e.newItem(line, true)
			continue
		}
		w.mapping(n, roleItem, w.e.newItem(n.Line-1, false), false)
	}
}
