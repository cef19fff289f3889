package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest"
)

// Options of a Read.
type Options struct {
	// Check says whether an object of this apiVersion and kind is worth
	// keeping (it would be a finding); nil keeps all. With it, memory grows
	// with the findings, not with the objects of the cluster.
	Check func(apiVersion, kind string) bool
	// Progress, when set, is told each resource before it is listed.
	Progress func(done, total int, resource string)
}

// Why parts of a cluster were not read, said once each in the report.
const (
	ReasonNoMetrics = "the credentials may not read the apiserver's /metrics (get on the non-resource URL /metrics), so the deprecated-APIs metric was not read"
	ReasonNoList    = "the credentials may not list these, so their objects' managedFields were not read"
	ReasonNoHelm    = "the credentials may not list Secrets (or ConfigMaps) labelled owner=helm, so Helm releases stored there were not read"
)

// maxFailures is how many lists in a row may fail on the way (not with a
// status: the connection) before a Read says the apiserver stopped
// answering and lists no more.
const maxFailures = 3

// Read asks the cluster for its release and the three signals, and
// returns the objects they name as one ManifestRead: Documents counts the
// objects looked at, Objects those Check kept, Problems what could not
// be read (a list the apiserver failed, a release that does not decode),
// Skipped what the credentials may not read. The error is for a cluster
// that cannot be read at all: unreachable, or the credentials refused.
func Read(ctx context.Context, c *Client, opts Options) (*knowledge.ManifestRead, error) {
	keep := opts.Check
	if keep == nil {
		keep = func(string, string) bool { return true }
	}
	out := &knowledge.ManifestRead{}
	major, minor, build, err := c.serverBuild(ctx)
	if err != nil {
		if statusIs(err, http.StatusUnauthorized) {
			return nil, fmt.Errorf("%s refused the credentials of the kubeconfig: %w", c.Host, err)
		}
		return nil, fmt.Errorf("cannot read %s: %w", c.Host, err)
	}
	if v, perr := knowledge.ParseVersion(major + "." + strings.TrimSuffix(minor, "+")); perr == nil {
		out.SetServer(v, build) // its vulnerabilities are reported beside the scan
	}
	resources, kinds, failed, err := c.Resources(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot discover the APIs %s serves: %w", c.Host, err)
	}
	for _, path := range slices.Sorted(maps.Keys(failed)) { // the same report on every run
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: "k8s://apiserver" + path, Message: "its API discovery could not be read: " + failed[path].Error()})
	}
	add := func(o knowledge.ManifestObject) {
		if keep(o.APIVersion, o.Kind) {
			out.Objects = append(out.Objects, o)
		}
	}
	readMetrics(ctx, c, kinds, out, add)
	stopped, err := readObjects(ctx, c, resources, opts.Progress, out, add)
	if err != nil {
		return out, err
	}
	if !stopped {
		readHelm(ctx, c, out, add)
	}
	return out, ctx.Err()
}

// readMetrics adds a finding object for each deprecated API version the
// apiserver was asked for since it started.
func readMetrics(ctx context.Context, c *Client, kinds map[string]string, out *knowledge.ManifestRead, add func(knowledge.ManifestObject)) {
	reqs, err := c.DeprecatedRequests(ctx)
	switch {
	case Forbidden(err):
		out.Skipped = append(out.Skipped, knowledge.ManifestSkip{File: "k8s://apiserver/metrics", Reason: ReasonNoMetrics})
		return
	case err != nil:
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: "k8s://apiserver/metrics", Message: "the deprecated-APIs metric could not be read: " + err.Error()})
		return
	}
	for _, r := range reqs {
		kind := kinds[r.Group+"/"+r.Version+"/"+r.Resource]
		if kind == "" {
			continue // not a resource of this server: an aggregated API's, gone
		}
		name := r.Resource
		if r.Subresource != "" {
			name += "/" + r.Subresource
		}
		out.Documents++
		add(knowledge.ManifestObject{File: "k8s://apiserver/metrics/" + r.Resource + "." + r.Version + "." + groupOrCore(r.Group),
			APIVersion: r.GroupVersion(), Kind: kind, Name: name, Source: knowledge.SourceMetrics})
	}
}

// readObjects lists every resource's objects as metadata and adds one
// object a managedFields apiVersion.
// It reports stopped when the apiserver stopped answering (maxFailures
// lists in a row failed), which leaves the Helm releases unread too.
func readObjects(ctx context.Context, c *Client, resources []Resource, progress func(int, int, string), out *knowledge.ManifestRead, add func(knowledge.ManifestObject)) (stopped bool, err error) {
	fails := 0
	for i, r := range resources {
		if progress != nil {
			progress(i, len(resources), r.Name)
		}
		err := c.ListMeta(ctx, r, func(m Meta) {
			out.Documents++
			for _, av := range m.APIVersions {
				add(knowledge.ManifestObject{File: objectURI(m.Namespace, r.Kind, m.Name), APIVersion: av, Kind: r.Kind,
					Name: m.Name, Namespace: m.Namespace, Source: knowledge.SourceObject})
			}
		})
		var se *StatusError
		switch {
		case err == nil:
			fails = 0
		case ctx.Err() != nil:
			return false, ctx.Err()
		case Forbidden(err):
			out.Skipped = append(out.Skipped, knowledge.ManifestSkip{File: "k8s://" + r.Name + "." + groupOrCore(r.Group), Reason: ReasonNoList})
		case errors.As(err, &se) && se.Code == http.StatusNotFound:
			// gone since discovery
		case errors.As(err, &se):
			out.Problems = append(out.Problems, knowledge.ManifestProblem{File: "k8s://" + r.Name + "." + groupOrCore(r.Group), Message: "could not be listed: " + err.Error()})
		default:
			out.Problems = append(out.Problems, knowledge.ManifestProblem{File: "k8s://" + r.Name + "." + groupOrCore(r.Group), Message: "could not be listed: " + err.Error()})
			if fails++; fails == maxFailures {
				left := len(resources) - i - 1
				out.Problems = append(out.Problems, knowledge.ManifestProblem{File: c.Host,
					Message: fmt.Sprintf("the apiserver stopped answering (%d lists in a row failed); %d resources and the Helm releases were not read", maxFailures, left)})
				return true, nil
			}
		}
	}
	if progress != nil {
		progress(len(resources), len(resources), "")
	}
	return false, nil
}

// readHelm adds the objects of each Helm release's latest deployed
// revision, named by the release.
func readHelm(ctx context.Context, c *Client, out *knowledge.ManifestRead, add func(knowledge.ManifestObject)) {
	rels, bad, err := c.HelmReleases(ctx)
	switch {
	case Forbidden(err):
		out.Skipped = append(out.Skipped, knowledge.ManifestSkip{File: "k8s://secrets.core", Reason: ReasonNoHelm})
	case err != nil:
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: "k8s://helm-releases", Message: "the Helm releases could not be listed: " + err.Error()})
	}
	for _, where := range slices.Sorted(maps.Keys(bad)) {
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: where, Message: "a Helm release that cannot be read: " + bad[where].Error()})
	}
	for _, r := range rels {
		read, err := manifest.ReadKnowledge(strings.NewReader(r.Manifest), r.Storage, manifest.DefaultLimits())
		if err != nil {
			read.Problems = append(read.Problems, knowledge.ManifestProblem{File: r.Storage, Message: err.Error()})
		}
		out.Problems = append(out.Problems, read.Problems...)
		for _, o := range read.Objects {
			out.Documents++
			o.Source, o.HelmRelease = knowledge.SourceHelmRelease, r.Name
			if o.Namespace == "" {
				o.Namespace = r.Namespace
			}
			add(o)
		}
	}
}

// objectURI names a cluster's object: k8s://namespace/Kind/name, with an
// empty namespace for one of the cluster's scope.
func objectURI(ns, kind, name string) string {
	return "k8s://" + ns + "/" + kind + "/" + name
}

func groupOrCore(g string) string {
	if g == "" {
		return "core"
	}
	return g
}
