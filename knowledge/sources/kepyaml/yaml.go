package kepyaml

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// kepFile is the part of kep.yaml kepbot reads. Every field takes any YAML
// shape without a type error: what a field holds is judged after decoding,
// so one odd value never loses the rest of the file. Keys outside this list
// (id, name, authors, ...) are ignored and never decoded.
type kepFile struct {
	Title           scalar     `yaml:"title"`
	Number          scalar     `yaml:"kep-number"`
	OwningSIG       scalar     `yaml:"owning-sig"`
	Status          scalar     `yaml:"status"`
	Stage           scalar     `yaml:"stage"`
	LatestMilestone scalar     `yaml:"latest-milestone"`
	Milestone       milestones `yaml:"milestone"`
	FeatureGates    gates      `yaml:"feature-gates"`
}

// scalar is one value as written: the raw text of a scalar (so "1.30"
// stays "1.30" and 0000 stays "0000"), or the shape it had instead.
// A null or missing value is the zero scalar.
type scalar struct {
	Text  string
	Shape string // "" for a scalar, else "a list" or "a mapping"
}

// UnmarshalYAML records n without converting it.
func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		s.Text = n.Value
		return nil
	}
	s.Shape = shapeOf(n)
	return nil
}

// pair is one stage key of milestone and its value.
type pair struct {
	Key   string
	Value scalar
}

// milestones is kep.yaml's milestone mapping, in file order.
type milestones struct {
	Pairs []pair
	Shape string // set when milestone is not a mapping
}

// UnmarshalYAML reads each key and value; a list value (two versions
// written as a list) is joined with ", " and judged like "v1.21, v1.37".
func (m *milestones) UnmarshalYAML(n *yaml.Node) error {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		m.Shape = shapeOf(n)
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		p := pair{Key: k.Value}
		switch v.Kind {
		case yaml.ScalarNode:
			if v.ShortTag() != "!!null" {
				p.Value.Text = v.Value
			}
		case yaml.SequenceNode:
			var parts []string
			for _, c := range v.Content {
				if len(parts) == maxListVersions {
					break
				}
				if c = deref(c); c.Kind == yaml.ScalarNode {
					parts = append(parts, clip(c.Value, 64))
				}
			}
			p.Value.Text = strings.Join(parts, ", ")
		default:
			p.Value.Shape = shapeOf(v)
		}
		m.Pairs = append(m.Pairs, p)
	}
	return nil
}

// gates is feature-gates: a list of mappings with a name. A single mapping
// instead of a list, or bare names in the list, are read too and noted.
type gates struct {
	Names []scalar
	Odd   string // how the list was not the usual shape
}

// UnmarshalYAML collects the name of every gate.
func (g *gates) UnmarshalYAML(n *yaml.Node) error {
	n = deref(n)
	items := n.Content
	switch n.Kind {
	case yaml.SequenceNode:
	case yaml.MappingNode:
		g.Odd = "a single mapping, not a list"
		items = []*yaml.Node{n}
	default:
		g.Odd = shapeOf(n) + ", not a list"
		return nil
	}
	for _, it := range items {
		it = deref(it)
		switch it.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(it.Content); i += 2 {
				if deref(it.Content[i]).Value == "name" {
					var s scalar
					v := deref(it.Content[i+1])
					if v.ShortTag() != "!!null" {
						_ = s.UnmarshalYAML(v)
					}
					g.Names = append(g.Names, s)
				}
			}
		case yaml.ScalarNode:
			g.Odd = "bare names, not mappings with a name"
			g.Names = append(g.Names, scalar{Text: it.Value})
		}
	}
	return nil
}

// deref follows aliases to the node they stand for. checkShape has already
// bounded how far that can go.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < maxDepth; i++ {
		n = n.Alias
	}
	return n
}

func shapeOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "empty"
		}
		return "text"
	}
	return "an unknown node"
}

// checkSize refuses, before the YAML parser builds a node for each, a file
// with more than maxItems lines, commas, brackets, braces and aliases
// together: a bound on the number of nodes it can hold, so parsing a file
// at the size limit stays under about 20 MB.
func checkSize(path string, data []byte) error {
	items := 0
	for _, c := range data {
		switch c {
		case '\n', ',', '[', '{', '*':
			items++
		}
	}
	if items > maxItems {
		return perr(path, KindBomb, "it has more than %d lines, list items and aliases; a real kep.yaml has about 100 lines", maxItems)
	}
	return nil
}

// checkShape walks the parsed document with a budget before anything is
// decoded: each alias is followed and counted again, so a billion-laughs
// document fails after maxNodes steps instead of expanding. It also refuses
// nesting deeper than maxDepth and mappings with more than maxMappingKeys
// keys (the decoder's duplicate-key check is quadratic in them).
func checkShape(path string, root *yaml.Node) error {
	type item struct {
		n     *yaml.Node
		depth int
	}
	stack := []item{{root, 0}}
	nodes, aliases := 0, 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n == nil {
			continue
		}
		nodes++
		if nodes > maxNodes {
			if aliases > 0 {
				return perr(path, KindBomb, "its aliases expand to more than %d YAML nodes (a billion-laughs alias bomb?); a real kep.yaml has a few hundred", maxNodes)
			}
			return perr(path, KindBomb, "it has more than %d YAML nodes; a real kep.yaml has a few hundred", maxNodes)
		}
		if it.depth > maxDepth {
			return perr(path, KindBomb, "it nests more than %d levels deep; a real kep.yaml nests 4", maxDepth)
		}
		switch it.n.Kind {
		case yaml.AliasNode:
			aliases++
			stack = append(stack, item{it.n.Alias, it.depth + 1})
		case yaml.MappingNode:
			if len(it.n.Content)/2 > maxMappingKeys {
				return perr(path, KindBomb, "a mapping at line %d has more than %d keys", it.n.Line, maxMappingKeys)
			}
			fallthrough
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range it.n.Content {
				stack = append(stack, item{c, it.depth + 1})
			}
		}
	}
	return nil
}
