package manifest

import (
	"bytes"
	"io"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest/gates"
)

// ReadKnowledge is Read in the knowledge's terms: each object and problem
// named by file (the name the caller gives the stream; "" for a message
// in chat), the server's release of a pasted `kubectl version` as a
// Version, and the feature gates its configurations set (package gates,
// of each document read whole). A stream-level failure is returned as
// Read returns it, with what was read before it; its message is a
// sentence safe to show.
func ReadKnowledge(r io.Reader, file string, lim Limits) (*knowledge.ManifestRead, error) {
	g := gates.NewCollector(file) // the feature gates configurations set, read as the documents go by
	res, err := readEach(r, lim, g.Document)
	out := &knowledge.ManifestRead{Gates: g.Settings()}
	if res == nil {
		return out, err
	}
	out.Documents, out.NotObjects, out.Kubectl = res.Documents, res.NotObjects, res.Kubectl
	if v, perr := knowledge.ParseVersion(res.ServerVersion); perr == nil {
		// a pasted kubectl version names the server's patch: its
		// vulnerabilities are reported beside the scan, as a cluster's
		out.SetServer(v, res.ServerBuild)
	}
	out.Objects = make([]knowledge.ManifestObject, len(res.Objects))
	for i, o := range res.Objects {
		out.Objects[i] = knowledge.ManifestObject{File: file, Document: o.Document, Item: o.Item, Line: o.Line,
			APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, Template: o.Template}
	}
	for _, p := range res.Problems {
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: file, Document: p.Document, Line: p.Line, Message: p.Message})
	}
	return out, err
}

// ChatReader reads manifests sent in chat, within ChatLimits: what
// engine.WithManifestReader takes.
func ChatReader(text []byte) (*knowledge.ManifestRead, error) {
	return ReadKnowledge(bytes.NewReader(text), "", ChatLimits())
}
