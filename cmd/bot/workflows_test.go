package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// workflow is the part of a GitHub Actions workflow the checks read.
type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]job `yaml:"jobs"`
}

type job struct {
	Needs          any               `yaml:"needs"`
	Uses           string            `yaml:"uses"`
	TimeoutMinutes int               `yaml:"timeout-minutes"`
	Permissions    map[string]string `yaml:"permissions"`
	Steps          []step            `yaml:"steps"`
}

type step struct {
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	With             map[string]string `yaml:"with"`
}

// step returns the first step of j using action (owner/name, any
// version), or nil.
func (j job) step(action string) *step {
	for i, s := range j.Steps {
		if strings.HasPrefix(s.Uses, action+"@") {
			return &j.Steps[i]
		}
	}
	return nil
}

// pinnedRe is a version an action may be used at: a release (v4, v4.1.2)
// or a commit; never a branch.
var pinnedRe = regexp.MustCompile(`@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$`)

func readWorkflows(t *testing.T) map[string]workflow {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, ".github", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in .github/workflows (%v)", err)
	}
	out := map[string]workflow{}
	for _, f := range files {
		var w workflow
		readYAML(t, filepath.Join(".github", "workflows", filepath.Base(f)), &w)
		out[filepath.Base(f)] = w
	}
	return out
}

// TestWorkflows checks the CI and release workflows' structure: every
// action pinned to a release; CI runs .ci/run on a checkout with the shared
// source documents beside it as ../shared, on the Go go.mod names, within
// the 20 minutes CI may take; the release runs CI first, then GoReleaser
// (the version CI checks the config with) and a multi-arch image with
// provenance to the registry deploy/ pulls from, stamped as the Dockerfile
// expects.
func TestWorkflows(t *testing.T) {
	ws := readWorkflows(t)
	for name, w := range ws {
		for jname, j := range w.Jobs {
			for _, s := range j.Steps {
				if s.Uses != "" && !pinnedRe.MatchString(s.Uses) {
					t.Errorf("%s: job %s uses %s, not pinned to a release", name, jname, s.Uses)
				}
			}
		}
	}

	ci, ok := ws["ci.yml"]
	if !ok {
		t.Fatal("no .github/workflows/ci.yml")
	}
	for _, ev := range []string{"push", "pull_request", "workflow_call"} {
		if _, ok := ci.On[ev]; !ok {
			t.Errorf("ci.yml does not run on %s", ev)
		}
	}
	test := ci.Jobs["test"]
	if test.TimeoutMinutes == 0 || test.TimeoutMinutes > 20 {
		t.Errorf("ci.yml test job: timeout %d minutes, want at most 20", test.TimeoutMinutes)
	}
	var repo, shared string
	var run *step
	for i, s := range test.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["repository"] == "":
			repo = s.With["path"]
		case strings.HasPrefix(s.Uses, "actions/checkout@"):
			shared = s.With["path"]
		case strings.Contains(s.Run, ".ci/run"):
			run = &test.Steps[i]
		}
	}
	if repo == "" || shared == "" || filepath.Dir(repo) != filepath.Dir(shared) {
		t.Errorf("ci.yml checks out kepbot at %q and the shared documents at %q: want them side by side", repo, shared)
	}
	if run == nil || filepath.Clean(run.WorkingDirectory) != filepath.Clean(repo) {
		t.Errorf("ci.yml does not run .ci/run in the checkout %q", repo)
	}
	if rel, _ := filepath.Rel(repo, shared); rel != filepath.Join("..", shared) || !ciRunReadsShared(t, rel) {
		t.Errorf(".ci/run does not read the shared documents at %s", rel)
	}
	if s := test.step("actions/setup-go"); s == nil || s.With["go-version-file"] != filepath.Join(repo, "go.mod") {
		t.Errorf("ci.yml does not take Go's version from go.mod: %+v", s)
	}
	check := ci.Jobs["goreleaser-check"].step("goreleaser/goreleaser-action")
	if check == nil || check.With["args"] != "check" {
		t.Fatalf("ci.yml does not check .goreleaser.yaml with GoReleaser: %+v", check)
	}

	rel, ok := ws["release.yml"]
	if !ok {
		t.Fatal("no .github/workflows/release.yml")
	}
	if push, _ := rel.On["push"].(map[string]any); push == nil || !slices.Contains(anyStrings(push["tags"]), "v*") {
		t.Errorf("release.yml does not run on a tag v*: %v", rel.On)
	}
	if rel.Jobs["ci"].Uses != "./.github/workflows/ci.yml" {
		t.Errorf("release.yml does not run CI first: %q", rel.Jobs["ci"].Uses)
	}
	bins, image := rel.Jobs["binaries"], rel.Jobs["image"]
	for name, j := range map[string]job{"binaries": bins, "image": image} {
		if !slices.Contains(anyStrings(j.Needs), "ci") {
			t.Errorf("release.yml %s does not wait for CI: needs %v", name, j.Needs)
		}
	}
	gr := bins.step("goreleaser/goreleaser-action")
	if gr == nil || !strings.HasPrefix(gr.With["args"], "release") || gr.With["version"] != check.With["version"] {
		t.Errorf("release.yml's GoReleaser step %+v: want release, at the version CI checks with (%s)", gr, check.With["version"])
	}
	if bins.step("anchore/sbom-action/download-syft") == nil {
		t.Error("release.yml installs no syft, which the SBOMs of .goreleaser.yaml need")
	}
	if bins.Permissions["contents"] != "write" || image.Permissions["packages"] != "write" {
		t.Errorf("release.yml permissions: binaries %v, image %v", bins.Permissions, image.Permissions)
	}
	push := image.step("docker/build-push-action")
	if push == nil {
		t.Fatal("release.yml builds no image")
	}
	platforms := strings.Split(push.With["platforms"], ",")
	if !slices.Contains(platforms, "linux/amd64") || !slices.Contains(platforms, "linux/arm64") || push.With["push"] != "true" {
		t.Errorf("release.yml image: platforms %v, push %q", platforms, push.With["push"])
	}
	if !strings.HasPrefix(push.With["provenance"], "mode=") || push.With["sbom"] != "true" {
		t.Errorf("release.yml image: provenance %q, sbom %q", push.With["provenance"], push.With["sbom"])
	}
	for _, arg := range []string{"VERSION=", "COMMIT="} {
		if !strings.Contains(push.With["build-args"], arg) {
			t.Errorf("release.yml image does not pass the build argument %s the Dockerfile stamps", arg)
		}
	}
	if meta := image.step("docker/metadata-action"); meta == nil || meta.With["images"] != releaseImage {
		t.Errorf("release.yml pushes %+v, want %s", meta, releaseImage)
	}
}

// releaseImage is where the release pushes the image, and what deploy/
// runs.
const releaseImage = "ghcr.io/kepbot/kepbot"

// ciRunReadsShared reports whether .ci/run looks for the shared documents
// at rel by default.
func ciRunReadsShared(t *testing.T, rel string) bool {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(raw), "${KEPBOT_SHARED:-"+rel+"}")
}

// anyStrings reads a YAML string or list of strings.
func anyStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
