package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The release path lives at the root of the repository: .goreleaser.yaml
// builds this command, the Dockerfile builds it for the image, and both
// stamp the version and commit bot version prints.
const repoRoot = "../.."

// goreleaserConfig is the part of .goreleaser.yaml the checks read.
type goreleaserConfig struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		Files []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Disable      bool   `yaml:"disable"`
	} `yaml:"checksum"`
	SBOMs []struct {
		Artifacts string `yaml:"artifacts"`
	} `yaml:"sboms"`
}

// readYAML decodes the file at path (relative to the repository root) into v.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// linkerVars returns the package-level string variables of this command
// that -ldflags -X can set: declared string, initialised to a constant
// string or not at all (the linker refuses anything else).
func linkerVars(t *testing.T) map[string]bool {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					typed := vs.Type != nil && identName(vs.Type) == "string"
					constant := i < len(vs.Values) && isStringLit(vs.Values[i])
					if (typed && len(vs.Values) == 0) || constant {
						vars["main."+id.Name] = true
					}
				}
			}
		}
	}
	return vars
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func isStringLit(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}

// xFlagRe matches one -X name=value of a linker flag string.
var xFlagRe = regexp.MustCompile(`-X[ =]([A-Za-z0-9_./-]+)=(\S+)`)

// xFlags returns the -X settings of ldflags, name to value.
func xFlags(ldflags string) map[string]string {
	out := map[string]string{}
	for _, m := range xFlagRe.FindAllStringSubmatch(ldflags, -1) {
		out[m[1]] = strings.Trim(m[2], `"'`)
	}
	return out
}

// TestGoReleaserConfig checks .goreleaser.yaml without GoReleaser: it
// builds this command for linux, darwin and windows on amd64 and arm64
// without cgo, stamps the version and commit into variables that exist
// here, packs files that exist (zip on Windows), and writes checksums and
// SBOMs. (`go run github.com/goreleaser/goreleaser/v2@v2.15.1 check` checks
// the rest; CI runs it.)
func TestGoReleaserConfig(t *testing.T) {
	var c goreleaserConfig
	readYAML(t, ".goreleaser.yaml", &c)
	if c.Version != 2 {
		t.Errorf("version %d, want 2 (GoReleaser v2's format)", c.Version)
	}
	if len(c.Builds) != 1 {
		t.Fatalf("%d builds, want one: bot", len(c.Builds))
	}
	b := c.Builds[0]
	if filepath.Clean(b.Main) != filepath.Join("cmd", "bot") || b.Binary != "bot" {
		t.Errorf("the build makes %q from %q, want bot from ./cmd/bot", b.Binary, b.Main)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("env %v: want CGO_ENABLED=0, a static binary", b.Env)
	}
	for _, want := range [][2][]string{{{"linux", "darwin", "windows"}, b.Goos}, {{"amd64", "arm64"}, b.Goarch}} {
		got := slices.Clone(want[1])
		slices.Sort(got)
		w := slices.Clone(want[0])
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("targets %v, want %v", want[1], want[0])
		}
	}
	x := xFlags(strings.Join(b.Ldflags, " "))
	checkStamps(t, ".goreleaser.yaml", x, map[string]string{"main.version": ".Version", "main.commit": ".FullCommit"})

	if len(c.Archives) == 0 {
		t.Fatal("no archives")
	}
	for _, a := range c.Archives {
		zip := false
		for _, o := range a.FormatOverrides {
			zip = zip || (o.Goos == "windows" && slices.Equal(o.Formats, []string{"zip"}))
		}
		if !zip {
			t.Errorf("archives %v: Windows gets no zip", a.Formats)
		}
		for _, f := range a.Files {
			if m, err := filepath.Glob(filepath.Join(repoRoot, f)); err != nil || len(m) == 0 {
				t.Errorf("an archive packs %s, which matches no file (%v)", f, err)
			}
		}
		for _, doc := range []string{"README.md", "docs/*.md"} {
			if !slices.Contains(a.Files, doc) {
				t.Errorf("the archives do not carry %s, which the README links to: %v", doc, a.Files)
			}
		}
		if !slices.Contains(a.Files, "LICENSE") {
			t.Errorf("the archives do not carry the LICENSE: %v", a.Files)
		}
	}
	if c.Checksum.Disable || c.Checksum.NameTemplate == "" {
		t.Errorf("checksums: %+v", c.Checksum)
	}
	if len(c.SBOMs) == 0 || c.SBOMs[0].Artifacts != "archive" {
		t.Errorf("sboms %+v: want an SBOM of each archive", c.SBOMs)
	}
}

// checkStamps checks that x (a build's -X settings, in file) sets each
// variable of want to a value naming what want says, and that each is a
// variable of this command the linker can set.
func checkStamps(t *testing.T, file string, x, want map[string]string) {
	t.Helper()
	vars := linkerVars(t)
	for name, value := range want {
		if !strings.Contains(x[name], value) {
			t.Errorf("%s: -X %s=%q, want it set from %s", file, name, x[name], value)
		}
	}
	for name := range x {
		if !vars[name] {
			t.Errorf("%s sets -X %s, which is no string variable of cmd/bot (it has %v): the linker would ignore it", file, name, slices.Sorted(maps.Keys(vars)))
		}
	}
}

// TestDockerfileStamps: the image's build takes VERSION and COMMIT as
// build arguments and stamps them into the variables bot version reads,
// on the Go release go.mod names.
func TestDockerfileStamps(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(raw), "\\\n", " ")
	args := map[string]bool{}
	var build string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "ARG":
			name, _, _ := strings.Cut(f[1], "=")
			args[name] = true
		case len(f) >= 2 && f[0] == "RUN" && strings.Contains(line, "go build"):
			build = line
		}
	}
	if build == "" {
		t.Fatal("the Dockerfile runs no go build")
	}
	for _, a := range []string{"VERSION", "COMMIT", "TARGETOS", "TARGETARCH"} {
		if !args[a] {
			t.Errorf("the Dockerfile takes no ARG %s", a)
		}
	}
	checkStamps(t, "Dockerfile", xFlags(build), map[string]string{"main.version": "${VERSION}", "main.commit": "${COMMIT}"})
	if !strings.Contains(build, "./cmd/bot") || !strings.Contains(build, "CGO_ENABLED=0") {
		t.Errorf("the Dockerfile's build is not a static build of ./cmd/bot: %s", build)
	}
	goVersion := goModVersion(t)
	minor := goVersion[:strings.LastIndex(goVersion, ".")]
	if !strings.Contains(text, "golang:"+minor+" ") && !strings.Contains(text, "golang:"+goVersion+" ") {
		t.Errorf("the Dockerfile does not build with golang:%s, the Go go.mod names (go %s)", minor, goVersion)
	}
}

// goModVersion is go.mod's go directive: 1.26.0.
func goModVersion(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)$`).FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	if strings.Count(m[1], ".") == 1 {
		return m[1] + ".0"
	}
	return m[1]
}

// TestREADMENamesGoVersion: the README says which Go builds kepbot, as
// go.mod does, and that the code is under the LICENSE it ships.
func TestREADMENamesGoVersion(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	v := goModVersion(t)
	minor := v[:strings.LastIndex(v, ".")]
	if !strings.Contains(string(raw), "Go "+minor) {
		t.Errorf("README.md does not name Go %s, the version go.mod asks for (go %s)", minor, v)
	}
	lic, err := os.ReadFile(filepath.Join(repoRoot, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lic), "Apache License") || !strings.Contains(string(lic), "Version 2.0, January 2004") || !strings.Contains(string(raw), "Apache-2.0") {
		t.Error("LICENSE is not the Apache License 2.0, or README.md does not say so")
	}
}
