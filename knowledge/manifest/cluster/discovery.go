package cluster

import (
	"context"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Resource is one listable resource the apiserver serves.
type Resource struct {
	Group, Version, Name, Kind string
	Namespaced                 bool
}

// GroupVersion writes the resource's apiVersion: apps/v1, or v1.
func (r Resource) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

func (r Resource) path() string {
	if r.Group == "" {
		return "/api/" + r.Version + "/" + r.Name
	}
	return "/apis/" + r.Group + "/" + r.Version + "/" + r.Name
}

// serverBuild reads /version: the release, and the build as the server
// names itself (gitVersion: v1.31.4-gke.1256000).
func (c *Client) serverBuild(ctx context.Context) (major, minor, build string, err error) {
	var v struct {
		Major, Minor, GitVersion string
	}
	if err := c.getJSON(ctx, "/version", nil, "application/json", &v); err != nil {
		return "", "", "", err
	}
	return v.Major, v.Minor, v.GitVersion, nil
}

type apiResourceList struct {
	GroupVersion string `json:"groupVersion"`
	Resources    []struct {
		Name       string   `json:"name"`
		Kind       string   `json:"kind"`
		Namespaced bool     `json:"namespaced"`
		Verbs      []string `json:"verbs"`
	} `json:"resources"`
}

// Resources discovers every listable resource, each once: through its
// group's preferred version when that serves it, else the first version
// that does. kinds maps group/version/resource to its kind, for every
// version served (the metric names resources, not kinds). A group whose
// versions cannot be read is in failed, with the error.
func (c *Client) Resources(ctx context.Context) (res []Resource, kinds map[string]string, failed map[string]error, err error) {
	var core struct {
		Versions []string `json:"versions"`
	}
	if err := c.getJSON(ctx, "/api", nil, "application/json", &core); err != nil {
		return nil, nil, nil, err
	}
	var groups struct {
		Groups []struct {
			Name     string `json:"name"`
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
			Preferred struct {
				Version string `json:"version"`
			} `json:"preferredVersion"`
		} `json:"groups"`
	}
	if err := c.getJSON(ctx, "/apis", nil, "application/json", &groups); err != nil {
		return nil, nil, nil, err
	}
	type gv struct{ group, version string }
	var order []gv
	for _, v := range core.Versions {
		order = append(order, gv{"", v})
	}
	for _, g := range groups.Groups {
		vs := make([]string, 0, len(g.Versions))
		for _, v := range g.Versions {
			vs = append(vs, v.Version)
		}
		// the preferred version first, so its resources are listed through it
		sort.SliceStable(vs, func(i, j int) bool { return vs[i] == g.Preferred.Version && vs[j] != g.Preferred.Version })
		for _, v := range vs {
			order = append(order, gv{g.Name, v})
		}
	}
	kinds = map[string]string{}
	failed = map[string]error{}
	seen := map[string]bool{} // group/resource
	for _, x := range order {
		path := "/apis/" + x.group + "/" + x.version
		if x.group == "" {
			path = "/api/" + x.version
		}
		var list apiResourceList
		if err := c.getJSON(ctx, path, nil, "application/json", &list); err != nil {
			if ctx.Err() != nil {
				return nil, nil, nil, ctx.Err()
			}
			failed[path] = err
			continue
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") {
				continue // a subresource
			}
			kinds[x.group+"/"+x.version+"/"+r.Name] = r.Kind
			if !slices.Contains(r.Verbs, "list") || seen[x.group+"/"+r.Name] {
				continue
			}
			seen[x.group+"/"+r.Name] = true
			res = append(res, Resource{Group: x.group, Version: x.version, Name: r.Name, Kind: r.Kind, Namespaced: r.Namespaced})
		}
	}
	return res, kinds, failed, nil
}

// pageQuery is the query of one page of a list.
func pageQuery(limit int, cont string, extra url.Values) url.Values {
	q := url.Values{}
	for k, v := range extra {
		q[k] = v
	}
	q.Set("limit", strconv.Itoa(limit))
	if cont != "" {
		q.Set("continue", cont)
	}
	return q
}
