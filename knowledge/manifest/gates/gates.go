package gates

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/knowledge"
)

// Collector gathers the feature gates the documents of one stream set,
// a document at a time (Document is what package manifest calls for each
// document it reads). It is not safe for concurrent use.
type Collector struct {
	file     string
	settings []knowledge.GateSetting
}

// NewCollector returns a Collector naming file as where its settings are.
func NewCollector(file string) *Collector { return &Collector{file: file} }

// Settings returns what the documents read so far set, in order.
func (c *Collector) Settings() []knowledge.GateSetting { return c.settings }

// Document reads document doc of the stream (text, its first line in the
// stream at line) for the gates it sets. Only a document that names
// featureGates or feature-gates is parsed (with yaml.v3, as a node tree):
// every other passes at the cost of a byte search. A document it cannot
// parse sets nothing here (the manifest reader says what is wrong with it).
func (c *Collector) Document(doc int, text []byte, line int) {
	if !bytes.Contains(text, []byte("featureGates")) && !bytes.Contains(text, []byte("feature-gates")) {
		return
	}
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil || root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return
	}
	// text starts with the '\n' the manifest reader keeps before it:
	// node lines count from that empty line
	r := reader{c: c, doc: doc, offset: line - 2}
	r.object(root.Content[0], 0)
}

// reader reads one document's objects.
type reader struct {
	c      *Collector
	doc    int
	offset int // add to a node's line to get the stream's
}

// maxItems caps the items of a List read, and the containers of a pod.
const maxItems = 100_000

// object reads one object (and the items of a List).
func (r *reader) object(n *yaml.Node, depth int) {
	if n.Kind != yaml.MappingNode || depth > 2 {
		return
	}
	apiVersion, kind := str(get(n, "apiVersion")), str(get(n, "kind"))
	name := str(get(get(n, "metadata"), "name"))
	switch {
	case strings.HasSuffix(kind, "List") || kind == "List":
		if items := get(n, "items"); items != nil && items.Kind == yaml.SequenceNode {
			for i, it := range items.Content {
				if i == maxItems {
					break
				}
				r.object(it, depth+1)
			}
		}
	case kind == "KubeletConfiguration" && strings.HasPrefix(apiVersion, "kubelet.config.k8s.io/"):
		r.gateMap(get(n, "featureGates"), kind, name, "kubelet", false)
	case kind == "KubeProxyConfiguration" && strings.HasPrefix(apiVersion, "kubeproxy.config.k8s.io/"):
		r.gateMap(get(n, "featureGates"), kind, name, "kube-proxy", false)
	case strings.HasPrefix(apiVersion, "kubeadm.k8s.io/"):
		r.kubeadm(n, kind, name)
	default:
		r.pod(n, kind, name)
	}
}

// gateMap reads a map of gate to value (featureGates).
func (r *reader) gateMap(m *yaml.Node, kind, name, component string, kubeadm bool) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value == "" {
			continue
		}
		s := knowledge.GateSetting{Kind: kind, Name: name, Component: component, Gate: k.Value, Kubeadm: kubeadm, Line: r.offset + k.Line}
		b, ok := mapBool(v)
		if ok {
			s.Value = b
		} else {
			s.Invalid = written(v)
		}
		r.add(s)
	}
}

// yaml11Bools are the plain scalars YAML 1.1 reads as booleans. The
// components read their configuration files through sigs.k8s.io/yaml,
// whose YAML 1.1 reader takes featureGates: {X: yes} as true, where
// yaml.v3 (YAML 1.2) sees the string "yes".
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "false": false, "False": false, "FALSE": false, "off": false, "Off": false, "OFF": false,
}

// mapBool reads a featureGates value as the components do: a plain
// YAML 1.1 boolean; a quoted string, a number or anything else is no
// boolean to them (ok false).
func mapBool(v *yaml.Node) (value, ok bool) {
	if v.Kind != yaml.ScalarNode || v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return false, false
	}
	if v.Tag != "" && v.Tag != "!!bool" && v.Tag != "!!str" {
		return false, false
	}
	b, ok := yaml11Bools[v.Value]
	return b, ok
}

// written is how a value that is not a boolean was written, for the
// message: a scalar as it is, quoted when it was, else its kind.
func written(v *yaml.Node) string {
	switch {
	case v.Kind != yaml.ScalarNode:
		return map[yaml.Kind]string{yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list", yaml.AliasNode: "an alias"}[v.Kind]
	case v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0:
		return `the string "` + v.Value + `"`
	case v.Value == "" || v.Tag == "!!null":
		return knowledge.GateNoValue
	}
	return v.Value
}

// kubeadm reads kubeadm's configuration: ClusterConfiguration's own
// featureGates (kubeadm's gates) and the extra args of its control plane
// (v1beta3: a map; v1beta4: a list of name and value);
// InitConfiguration's and JoinConfiguration's kubelet extra args.
func (r *reader) kubeadm(n *yaml.Node, kind, name string) {
	switch kind {
	case "ClusterConfiguration":
		r.gateMap(get(n, "featureGates"), kind, name, knowledge.ComponentKubeadm, true)
		for _, c := range []struct{ key, component string }{
			{"apiServer", "kube-apiserver"}, {"controllerManager", "kube-controller-manager"}, {"scheduler", "kube-scheduler"},
		} {
			r.extraArgs(get(get(n, c.key), "extraArgs"), kind, name, c.component)
		}
	case "InitConfiguration", "JoinConfiguration":
		r.extraArgs(get(get(n, "nodeRegistration"), "kubeletExtraArgs"), kind, name, "kubelet")
	}
}

// extraArgs reads feature-gates among a component's extra args: a map
// (v1beta3) or a list of {name, value} (v1beta4).
func (r *reader) extraArgs(args *yaml.Node, kind, name, component string) {
	if args == nil {
		return
	}
	switch args.Kind {
	case yaml.MappingNode:
		if v := get(args, "feature-gates"); v != nil && v.Kind == yaml.ScalarNode {
			r.flagValue(v.Value, v.Line, kind, name, component)
		}
	case yaml.SequenceNode:
		for _, a := range args.Content {
			if str(get(a, "name")) == "feature-gates" {
				if v := get(a, "value"); v != nil && v.Kind == yaml.ScalarNode {
					r.flagValue(v.Value, v.Line, kind, name, component)
				}
			}
		}
	}
}

// flagValue reads the value of --feature-gates: A=true,B=false.
func (r *reader) flagValue(value string, line int, kind, name, component string) {
	for _, part := range strings.Split(value, ",") {
		gate, val, hasValue := strings.Cut(strings.TrimSpace(part), "=")
		if strings.TrimSpace(gate) == "" {
			continue
		}
		s := knowledge.GateSetting{Kind: kind, Name: name, Component: component, Gate: strings.TrimSpace(gate), Line: r.offset + line}
		// component-base's featuregate Set refuses a key without =value
		// and takes the value through strconv.ParseBool
		b, err := strconv.ParseBool(strings.TrimSpace(val))
		switch {
		case !hasValue || strings.TrimSpace(val) == "":
			s.Invalid = knowledge.GateNoValue
		case err != nil:
			s.Invalid = strings.TrimSpace(val)
		default:
			s.Value = b
		}
		r.add(s)
	}
}

// components are the binaries whose --feature-gates a container's
// command or arguments may carry.
var components = []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kube-proxy", "kubelet"}

// pod reads --feature-gates from the command and arguments of the
// containers of a Pod (a static Pod) or a workload's pod template
// (DaemonSet, Deployment, ...), for containers that run a Kubernetes
// component (by its command, its name or its image).
func (r *reader) pod(n *yaml.Node, kind, name string) {
	spec := get(n, "spec")
	if t := get(spec, "template"); t != nil {
		spec = get(t, "spec")
	}
	for _, key := range []string{"initContainers", "containers"} {
		cs := get(spec, key)
		if cs == nil || cs.Kind != yaml.SequenceNode {
			continue
		}
		for i, c := range cs.Content {
			if i == maxItems {
				break
			}
			r.container(c, kind, name)
		}
	}
}

func (r *reader) container(c *yaml.Node, kind, name string) {
	var words []*yaml.Node
	for _, key := range []string{"command", "args"} {
		if s := get(c, key); s != nil && s.Kind == yaml.SequenceNode {
			words = append(words, s.Content...)
		}
	}
	component := componentOf(words, str(get(c, "name")), str(get(c, "image")))
	if component == "" {
		return
	}
	for i, w := range words {
		if w.Kind != yaml.ScalarNode {
			continue
		}
		// "--feature-gates=A=true" or "--feature-gates" "A=true"; a shell
		// line ("kube-proxy --feature-gates=A=true ...") too
		for _, tok := range strings.Fields(w.Value) {
			if v, ok := strings.CutPrefix(tok, "--feature-gates="); ok {
				r.flagValue(strings.Trim(v, `"'`), w.Line, kind, name, component)
			}
		}
		if strings.TrimSpace(w.Value) == "--feature-gates" && i+1 < len(words) && words[i+1].Kind == yaml.ScalarNode {
			r.flagValue(words[i+1].Value, words[i+1].Line, kind, name, component)
		}
	}
}

// componentOf is the component a container runs: the first word of its
// command naming one, else its name, else its image; "" for none.
func componentOf(words []*yaml.Node, name, image string) string {
	for _, w := range words {
		for _, tok := range strings.Fields(w.Value) {
			base := tok[strings.LastIndexByte(tok, '/')+1:]
			for _, c := range components {
				if base == c {
					return c
				}
			}
		}
	}
	for _, s := range []string{name, imageName(image)} {
		for _, c := range components {
			if s == c {
				return c
			}
		}
	}
	return ""
}

// imageName is an image's name without its registry, tag or digest:
// kube-apiserver for registry.k8s.io/kube-apiserver:v1.33.0.
func imageName(image string) string {
	if i := strings.IndexAny(image, "@"); i >= 0 {
		image = image[:i]
	}
	image = image[strings.LastIndexByte(image, '/')+1:]
	if i := strings.IndexByte(image, ':'); i >= 0 {
		image = image[:i]
	}
	return image
}

func (r *reader) add(s knowledge.GateSetting) {
	s.File, s.Document = r.c.file, r.doc
	r.c.settings = append(r.c.settings, s)
}

// get is the value of key in mapping m, nil when m is not a mapping or
// has no such key.
func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// str is a scalar's value, "" for anything else.
func str(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
