package manifest

import (
	"strings"
	"testing"
)

func TestKubectlVersion(t *testing.T) {
	tests := []struct {
		name, src, want string
		build           string // the server's gitVersion as written
	}{
		{"plain", "Client Version: v1.29.1\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3\nServer Version: v1.28.3\n", "1.28", "v1.28.3"},
		{"plain with warning and prompt", "$ kubectl version\nWARNING: This version information is deprecated and will be replaced with the output from kubectl version --short.  Use --output=yaml|json to get the full version.\nClient Version: version.Info{Major:\"1\", Minor:\"25\", GitVersion:\"v1.25.0\"}\nKustomize Version: v4.5.7\nServer Version: version.Info{Major:\"1\", Minor:\"24+\", GitVersion:\"v1.24.10-eks-48e63af\", GitCommit:\"9176fb99b52f8d5ff73d67fea27f3a638f679f8a\", GitTreeState:\"clean\", BuildDate:\"2023-01-24T19:17:48Z\", GoVersion:\"go1.19.5\", Compiler:\"gc\", Platform:\"linux/amd64\"}\n", "1.24", "v1.24.10-eks-48e63af"},
		{"old info form", "Client Version: version.Info{Major:\"1\", Minor:\"22\", GitVersion:\"v1.22.3\", GitCommit:\"c92036820499fedefec0f847e2054d824aea6cd1\", GitTreeState:\"clean\", BuildDate:\"2021-10-27T18:41:28Z\", GoVersion:\"go1.16.9\", Compiler:\"gc\", Platform:\"linux/amd64\"}\nServer Version: version.Info{Major:\"1\", Minor:\"21\", GitVersion:\"v1.21.5\", GitCommit:\"aea7bbadd2fc0cd689de94a54e5b7b758869d691\", GitTreeState:\"clean\", BuildDate:\"2021-09-15T21:04:16Z\", GoVersion:\"go1.16.8\", Compiler:\"gc\", Platform:\"linux/amd64\"}\n", "1.21", "v1.21.5"},
		{"yaml", "clientVersion:\n  buildDate: \"2024-01-17T13:38:41Z\"\n  compiler: gc\n  gitVersion: v1.29.1\n  major: \"1\"\n  minor: \"29\"\nkustomizeVersion: v5.0.4\nserverVersion:\n  buildDate: \"2023-10-18T11:33:23Z\"\n  gitVersion: v1.28.3\n  major: \"1\"\n  minor: \"28\"\n  platform: linux/amd64\n", "1.28", "v1.28.3"},
		{"yaml flow", "serverVersion: {gitVersion: v1.28.3, major: \"1\", minor: \"28\"}\n", "1.28", "v1.28.3"},
		{"json", "{\n  \"clientVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"29\",\n    \"gitVersion\": \"v1.29.1\"\n  },\n  \"kustomizeVersion\": \"v5.0.4\",\n  \"serverVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"27+\",\n    \"gitVersion\": \"v1.27.8-gke.1067004\"\n  }\n}\n", "1.27", "v1.27.8-gke.1067004"},
		{"json compact", `{"clientVersion":{"major":"1","minor":"29"},"serverVersion":{"gitVersion":"v1.30.2"}}`, "1.30", "v1.30.2"},
		{"client only", "Client Version: v1.29.1\nKustomize Version: v5.0.4\nThe connection to the server localhost:8080 was refused - did you specify the right host or port?\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "apiVersion: v1\nkind: Before\n---\n" + tc.src + "\n---\napiVersion: v1\nkind: After\n"
			r := read(t, src)
			if r.ServerVersion != tc.want || r.ServerBuild != tc.build {
				t.Errorf("server version %q, build %q; want %q, %q", r.ServerVersion, r.ServerBuild, tc.want, tc.build)
			}
			if len(r.Problems) != 0 || r.NotObjects != 0 || len(r.Objects) != 2 || r.Documents != 3 {
				t.Errorf("result %+v; want the version document neither an object nor a problem", r)
			}
		})
	}
}

func TestNotKubectlVersion(t *testing.T) {
	r := read(t, "apiVersion: v1\nkind: ConfigMap\ndata:\n  v: |\n    Server Version: v1.20.0\n")
	if r.ServerVersion != "" || len(r.Objects) != 1 {
		t.Errorf("result %+v: an object that mentions a version is an object", r)
	}
	r = read(t, "serverVersion: 3\n")
	if r.ServerVersion != "" {
		t.Errorf("server version %q from a value that is not a release", r.ServerVersion)
	}
	if v, _, ok := kubectlVersion([]byte("Server Version: v1.2345.0")); !ok || v != "" {
		t.Errorf("%q, %v; want no release from a four-digit minor", v, ok)
	}
	_ = strings.TrimSpace
}

// TestKubectlVersionWithoutMarker: `kubectl version | cat - app.yaml`
// puts the version output right against the manifest, with no "---"
// between them (and `cat app.yaml -` puts it after). In each of kubectl's
// three forms the server's release is read and the object is still one
// object; before, the plain and YAML forms made one document of both (no
// version read) and the JSON form lost the object without a word.
func TestKubectlVersionWithoutMarker(t *testing.T) {
	const obj = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"
	plain := "Client Version: v1.31.2\nKustomize Version: v5.4.2\nServer Version: v1.29.7\n"
	yamlForm := "clientVersion:\n  gitVersion: v1.31.2\n  major: \"1\"\n  minor: \"31\"\nkustomizeVersion: v5.4.2\nserverVersion:\n  gitVersion: v1.29.7-eks-1\n  major: \"1\"\n  minor: 29+\n\n"
	jsonForm := "{\n  \"clientVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"31\"\n  },\n  \"kustomizeVersion\": \"v5.4.2\",\n  \"serverVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"29\",\n    \"gitVersion\": \"v1.29.7\"\n  }\n}\n"
	for _, tc := range []struct{ name, src string }{
		{"plain before", plain + obj},
		{"plain after", obj + plain},
		{"yaml before", yamlForm + obj},
		{"yaml after", obj + yamlForm},
		{"json before", jsonForm + obj},
		{"between two objects", obj + plain + obj},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := read(t, tc.src)
			if r.ServerVersion != "1.29" || !r.Kubectl {
				t.Errorf("server version %q (kubectl %v); want 1.29", r.ServerVersion, r.Kubectl)
			}
			want := strings.Count(tc.src, "kind: Ingress")
			if len(r.Objects) != want || len(r.Problems) != 0 {
				t.Fatalf("objects %+v, problems %+v; want %d Ingress and no problem", r.Objects, r.Problems, want)
			}
			for _, o := range r.Objects {
				if o.Kind != "Ingress" || o.Name != "web" || !strings.HasPrefix(strings.Split(tc.src, "\n")[o.Line-1], "apiVersion: extensions/v1beta1") {
					t.Errorf("object %+v; want the Ingress at its apiVersion line", o)
				}
			}
		})
	}
}

// TestKubectlVersionNamingNoServer: kubectl output with no server (the
// cluster could not be reached) is read as such, so a scan can say the
// release was not read.
func TestKubectlVersionNamingNoServer(t *testing.T) {
	r := read(t, "Client Version: v1.31.2\nKustomize Version: v5.4.2\napiVersion: v1\nkind: ConfigMap\n")
	if r.ServerVersion != "" || !r.Kubectl || len(r.Objects) != 1 {
		t.Errorf("result %+v; want kubectl output without a server, and the ConfigMap", r)
	}
}

// TestBrokenDocumentLikeKubectlIsAProblem: a document that does not parse
// and names an apiVersion is a problem even when it also reads as
// kubectl version output; only what cannot hold an object is passed over.
func TestBrokenDocumentLikeKubectlIsAProblem(t *testing.T) {
	r := read(t, "---\nServer Version: v1.29.7\nspec: [unclosed\napiVersion: v1\n")
	if len(r.Problems) != 1 {
		t.Errorf("problems %+v; want the broken document", r.Problems)
	}
}
