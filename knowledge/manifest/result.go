package manifest

// Object is one Kubernetes object found in a stream. It holds the
// object's apiVersion, kind, metadata.name and metadata.namespace and
// nothing else from the manifest.
type Object struct {
	Document   int    `json:"document"`            // 1-based index of the (non-empty) document in its stream
	Item       int    `json:"item,omitempty"`      // 1-based index in a List's items (or a top-level list); 0 when not a list item
	Line       int    `json:"line"`                // 1-based stream line of the object's apiVersion key, or where the object starts
	APIVersion string `json:"apiVersion"`          //
	Kind       string `json:"kind"`                //
	Name       string `json:"name,omitempty"`      // empty when missing or not a string
	Namespace  string `json:"namespace,omitempty"` // empty when missing or not a string
	Template   string `json:"template,omitempty"`  // from helm template's "# Source: chart/templates/x.yaml" comment
}

// Problem is a document that could not be read, or that is not a usable
// object. Message is a fixed sentence: it never quotes the document.
type Problem struct {
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

// Result is what Read found in a stream.
type Result struct {
	Objects       []Object  `json:"objects"`
	Problems      []Problem `json:"problems,omitempty"`
	Documents     int       `json:"documents"`               // non-empty documents read
	NotObjects    int       `json:"notObjects,omitempty"`    // documents that parsed but hold no object (no apiVersion and no kind), such as a values file
	ServerVersion string    `json:"serverVersion,omitempty"` // "1.28" when the stream holds `kubectl version` output naming a server
	Kubectl       bool      `json:"kubectl,omitempty"`       // the stream holds `kubectl version` output, naming a server or not
	ServerBuild   string    `json:"serverBuild,omitempty"`   // the server's gitVersion as that output gives it: "v1.28.3-gke.100"
}
