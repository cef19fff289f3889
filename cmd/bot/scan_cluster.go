package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/kepbot/kepbot/internal/logging"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest/cluster"
)

// clusterOpts are scan's flags for a live cluster.
type clusterOpts struct {
	cluster             *bool
	kubeconfig, context *string
}

func clusterFlags(fs *flag.FlagSet) clusterOpts {
	return clusterOpts{
		cluster:    fs.Bool("cluster", false, "scan a live cluster instead of files: the deprecated-APIs metric, every object's managedFields, Helm releases (--from defaults to its version)"),
		kubeconfig: fs.String("kubeconfig", "", "the kubeconfig `FILE` of --cluster (default $KUBECONFIG, else ~/.kube/config, else the in-cluster service account)"),
		context:    fs.String("context", "", "the kubeconfig context `NAME` of --cluster (default its current context)"),
	}
}

// reader connects to the cluster and returns what scan.Request.Read
// takes; a progress line goes to errw when it is a terminal.
func (o clusterOpts) reader(errw io.Writer) (func(context.Context, func(string, string) bool) (*knowledge.ManifestRead, error), error) {
	c, err := cluster.Connect(cluster.Config{Kubeconfig: *o.kubeconfig, Context: *o.context})
	if err != nil {
		return nil, err
	}
	var progress func(done, total int, resource string)
	if logging.Console("", errw) {
		progress = func(done, total int, resource string) {
			if done == total {
				fmt.Fprintf(errw, "\r\033[K")
				return
			}
			fmt.Fprintf(errw, "\r\033[Kbot scan: listing %d of %d resources: %s", done+1, total, resource)
		}
	}
	return func(ctx context.Context, check func(string, string) bool) (*knowledge.ManifestRead, error) {
		return cluster.Read(ctx, c, cluster.Options{Check: check, Progress: progress})
	}, nil
}
