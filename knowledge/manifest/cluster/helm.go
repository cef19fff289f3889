package cluster

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
)

// Helm v3 keeps each revision of a release in a Secret of type
// helm.sh/release.v1 (or, with its configmap driver, a ConfigMap), labelled
// owner=helm, name, status and version, whose data key "release" holds the
// release as JSON, gzipped, then base64 (and, in a Secret, base64 again as
// every Secret value is).

// Release is a Helm release's latest deployed revision.
type Release struct {
	Name, Namespace string
	Revision        int
	Manifest        string
	// Storage names the Secret or ConfigMap it was read from.
	Storage string
}

// maxRelease caps a release's decompressed JSON (a gzip bomb stops there).
const maxRelease = 64 << 20

// helmPage is how many release objects one page asks for: each can be
// large (a chart's whole manifest).
const helmPage = 50

type helmStorage struct {
	Metadata struct {
		Continue string `json:"continue"`
	} `json:"metadata"`
	Items []struct {
		Metadata struct {
			Name      string            `json:"name"`
			Namespace string            `json:"namespace"`
			Labels    map[string]string `json:"labels"`
		} `json:"metadata"`
		Data map[string]string `json:"data"`
	} `json:"items"`
}

// HelmReleases reads every Helm v3 release's latest deployed revision
// from Secrets of type helm.sh/release.v1 and ConfigMaps labelled
// owner=helm. A revision that cannot be decoded is a problem of its
// storage object (bad), the others are still read; err is for a list
// that could not be read (Forbidden says when the credentials may not).
func (c *Client) HelmReleases(ctx context.Context) (rels []Release, bad map[string]error, err error) {
	latest := map[string]Release{}
	bad = map[string]error{}
	var order []string
	read := func(kind, path string, query url.Values, twice bool) error {
		cont := ""
		for range maxPages {
			var page helmStorage
			if err := c.getJSON(ctx, path, pageQuery(helmPage, cont, query), "application/json", &page); err != nil {
				return err
			}
			for _, it := range page.Items {
				m := it.Metadata
				if m.Labels["status"] != "deployed" {
					continue // only a deployed revision is what runs
				}
				where := fmt.Sprintf("k8s://%s/%s/%s", m.Namespace, kind, m.Name)
				r, err := decodeRelease(it.Data["release"], twice)
				if err != nil {
					bad[where] = err
					continue
				}
				r.Storage = where
				if r.Namespace == "" {
					r.Namespace = m.Namespace
				}
				key := r.Namespace + "/" + r.Name
				if old, ok := latest[key]; !ok || r.Revision > old.Revision {
					if !ok {
						order = append(order, key)
					}
					latest[key] = r
				}
			}
			if cont = page.Metadata.Continue; cont == "" {
				return nil
			}
		}
		return fmt.Errorf("list %s: more than %d pages", path, maxPages)
	}
	q := url.Values{"labelSelector": {"owner=helm"}, "fieldSelector": {"type=helm.sh/release.v1"}}
	if err := read("Secret", "/api/v1/secrets", q, true); err != nil {
		return nil, bad, err
	}
	if err := read("ConfigMap", "/api/v1/configmaps", url.Values{"labelSelector": {"owner=helm"}}, false); err != nil {
		return nil, bad, err
	}
	for _, k := range order {
		rels = append(rels, latest[k])
	}
	return rels, bad, nil
}

// decodeRelease reads Helm's stored release: base64 (twice for a Secret's
// value in JSON), gzip when it starts with gzip's magic bytes, JSON.
func decodeRelease(v string, twice bool) (Release, error) {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return Release{}, errors.New("its release is not base64")
	}
	if twice {
		if b, err = base64.StdEncoding.DecodeString(string(b)); err != nil {
			return Release{}, errors.New("its release is not base64 inside the Secret's value")
		}
	}
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return Release{}, errors.New("its release is not gzip")
		}
		b, err = io.ReadAll(io.LimitReader(zr, maxRelease+1))
		if err != nil {
			return Release{}, errors.New("its release's gzip is broken")
		}
		if len(b) > maxRelease {
			return Release{}, fmt.Errorf("its release is larger than %d MiB unpacked", maxRelease>>20)
		}
	}
	var r struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
		Version   int    `json:"version"`
		Manifest  string `json:"manifest"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return Release{}, errors.New("its release is not Helm's JSON")
	}
	if r.Name == "" {
		return Release{}, errors.New("its release has no name")
	}
	return Release{Name: r.Name, Namespace: r.Namespace, Revision: r.Version, Manifest: r.Manifest}, nil
}
