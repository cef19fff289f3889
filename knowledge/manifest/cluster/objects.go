package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// metadataOnly asks a list for its items' metadata alone
// (PartialObjectMetadataList): a Secret's data never crosses the wire.
const metadataOnly = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"

// PageSize is how many objects one page of a list asks for.
const PageSize = 500

// maxPages bounds the pages of one list (a server that answers a continue
// token for ever).
const maxPages = 100000

// Meta is what a scan keeps of one object: where it is and the API
// versions its writers used (managedFields[].apiVersion), each once.
type Meta struct {
	Namespace, Name string
	APIVersions     []string
}

type metaList struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Continue string `json:"continue"`
	} `json:"metadata"`
	Items []struct {
		Metadata struct {
			Name          string `json:"name"`
			Namespace     string `json:"namespace"`
			ManagedFields []struct {
				APIVersion string `json:"apiVersion"`
			} `json:"managedFields"`
		} `json:"metadata"`
	} `json:"items"`
}

// errNotMetadata is ListMeta's error when the apiserver answers a list
// with whole objects instead of their metadata.
var errNotMetadata = errors.New("the apiserver answered with whole objects, not their metadata alone")

// ListMeta lists every object of r, a page at a time, as metadata alone,
// and hands each to each; it holds one page in memory.
func (c *Client) ListMeta(ctx context.Context, r Resource, each func(Meta)) error {
	cont := ""
	for range maxPages {
		var page metaList
		if err := c.getJSON(ctx, r.path(), pageQuery(PageSize, cont, nil), metadataOnly, &page); err != nil {
			return err
		}
		if page.Kind != "PartialObjectMetadataList" {
			return fmt.Errorf("list %s: %w", r.Name, errNotMetadata)
		}
		for _, it := range page.Items {
			m := Meta{Namespace: it.Metadata.Namespace, Name: it.Metadata.Name}
			for _, f := range it.Metadata.ManagedFields {
				if f.APIVersion != "" && !slices.Contains(m.APIVersions, f.APIVersion) {
					m.APIVersions = append(m.APIVersions, f.APIVersion)
				}
			}
			each(m)
		}
		if cont = page.Metadata.Continue; cont == "" {
			return nil
		}
	}
	return fmt.Errorf("list %s: more than %d pages", r.Name, maxPages)
}
