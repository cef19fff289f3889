package kubernetes_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/kastest"
)

// kasVersion is the kube-apiserver the manifests are applied to: the one
// .ci/run builds for the cluster scan's tests, so CI builds it once.
const kasVersion = "v1.31.14"

// collection is where objects of each kind the variants render are
// created, under namespace ns.
func collection(kind, ns string) string {
	switch kind {
	case "Namespace":
		return "/api/v1/namespaces"
	case "Deployment":
		return "/apis/apps/v1/namespaces/" + ns + "/deployments"
	case "PodDisruptionBudget":
		return "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets"
	}
	return "/api/v1/namespaces/" + ns + "/" + strings.ToLower(kind) + "s" // configmaps, services, persistentvolumeclaims, pods, serviceaccounts
}

// TestApplyServerSide applies both variants to a real kube-apiserver as
// `kubectl apply --dry-run=server` would: the namespace for real (it
// carries the Pod Security labels), every other object with dryRun=All and
// strict field validation, so that an unknown or misplaced field fails.
// Then the Deployment's pod, as its ReplicaSet would create it, is
// admitted by Pod Security admission enforcing "restricted" in that
// namespace, with no warning; the same pod without its seccomp profile is
// refused, which shows the namespace enforces.
func TestApplyServerSide(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no kube-apiserver")
	}
	s := kastest.Start(t, kasVersion)
	for _, v := range variants {
		objs := mustRender(t, v.dir)
		ns := find(t, objs, "Namespace")
		// The namespace, and its default service account, which the
		// controller manager (not running here) would make and service
		// account admission looks up for a pod.
		sa := object{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}}
		for _, o := range []struct {
			path string
			obj  object
		}{{collection("Namespace", ""), ns}, {collection("ServiceAccount", namespace), sa}} {
			switch r := s.Do(t, http.MethodPost, o.path, o.obj); r.Status {
			case http.StatusCreated, http.StatusConflict: // the other variant made it
			default:
				t.Fatalf("%s: create %s: %d %s", v.dir, o.path, r.Status, r.Body)
			}
		}
		for _, o := range objs {
			kind := str(o["kind"])
			if kind == "Namespace" {
				continue
			}
			r := s.Do(t, http.MethodPost, collection(kind, namespace)+"?dryRun=All&fieldValidation=Strict", o)
			if r.Status != http.StatusCreated || len(r.Warnings) > 0 {
				t.Errorf("%s: %s %v: %d %.400s, warnings %q", v.dir, kind, get(o, "metadata", "name"), r.Status, r.Body, r.Warnings)
			}
		}
		pod := podOf(find(t, objs, "Deployment"))
		r := s.Do(t, http.MethodPost, collection("Pod", namespace)+"?dryRun=All&fieldValidation=Strict", pod)
		if r.Status != http.StatusCreated || len(r.Warnings) > 0 {
			t.Errorf("%s: Pod Security admission (restricted) refuses the Deployment's pod: %d %.600s, warnings %q", v.dir, r.Status, r.Body, r.Warnings)
		}
		delete(mapOf(get(pod, "spec", "securityContext")), "seccompProfile")
		r = s.Do(t, http.MethodPost, collection("Pod", namespace)+"?dryRun=All", pod)
		var status struct{ Message string }
		json.Unmarshal(r.Body, &status)
		if r.Status != http.StatusForbidden || !strings.Contains(status.Message, `violates PodSecurity "restricted`) {
			t.Errorf("%s: a pod without a seccomp profile was not refused by Pod Security: %d %.300s", v.dir, r.Status, r.Body)
		}
	}
}

// podOf is the pod a Deployment's ReplicaSet would create: its template,
// named, as a Pod. It is a copy: changing it leaves dep alone.
func podOf(dep object) object {
	tmpl := get(dep, "spec", "template")
	b, _ := json.Marshal(tmpl)
	var t map[string]any
	json.Unmarshal(b, &t)
	meta := mapOf(t["metadata"])
	meta["name"] = str(get(dep, "metadata", "name")) + "-7d9f8-abcde"
	return object{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": t["spec"]}
}
