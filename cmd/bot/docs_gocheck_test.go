package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goTestValueFlags are the go test flags that take a value; any other
// flag is a boolean of go test's, or one of the test binary's own
// (-update), which its package must define.
var goTestValueFlags = map[string]bool{"run": true, "bench": true, "count": true, "benchtime": true, "timeout": true,
	"cpu": true, "tags": true, "coverprofile": true, "cpuprofile": true, "memprofile": true, "trace": true, "o": true,
	"p": true, "parallel": true, "shuffle": true, "list": true, "skip": true, "fuzz": true, "fuzztime": true, "exec": true}

// goTestBoolFlags are go test's own boolean flags.
var goTestBoolFlags = map[string]bool{"v": true, "race": true, "benchmem": true, "short": true, "cover": true,
	"json": true, "failfast": true, "x": true, "n": true, "trimpath": true}

// checkGoCommand checks a go command of the docs without running it (CI
// builds and tests the module already, and a -update would rewrite the
// checkout): the packages it names exist, a go test's -run and -bench
// patterns match a test or benchmark of them and its own flags are
// defined there, go generate has a directive to run, and a go run or go
// install of a module at a version is in a block marked as needing the
// network.
func checkGoCommand(words []string, needs string) error {
	if len(words) < 2 {
		return fmt.Errorf("go with no subcommand")
	}
	sub, rest := words[1], words[2:]
	var pkgs []string
	flags := map[string]string{}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if sub == "test" && goTestValueFlags[name] && !hasVal && i+1 < len(rest) {
			i++
			val = rest[i]
		} else if sub != "test" && (name == "o" || name == "ldflags" || name == "tags") && !hasVal && i+1 < len(rest) {
			i++
			val = rest[i]
		}
		flags[name] = val
	}
	for _, p := range pkgs {
		if strings.Contains(p, "@") {
			if !strings.Contains(needs, "network") {
				return fmt.Errorf("%s fetches a module at a version from the proxy: mark its block <!-- needs: network -->", p)
			}
			return nil
		}
	}
	switch sub {
	case "test", "build", "vet", "generate", "install", "run":
	default:
		return nil
	}
	if len(pkgs) == 0 {
		return nil // the tool named in passing (go test -bench), not a command to check
	}
	var dirs []string
	for _, p := range pkgs {
		if sub == "run" && strings.HasSuffix(p, ".go") {
			break
		}
		if !strings.HasPrefix(p, ".") {
			return fmt.Errorf("go %s %s: name packages by path (./...)", sub, p)
		}
		ds, err := packageDirs(p)
		if err != nil {
			return fmt.Errorf("go %s %s: %v", sub, p, err)
		}
		dirs = append(dirs, ds...)
		if sub == "run" {
			break // the rest are the program's arguments
		}
	}
	switch sub {
	case "generate":
		for _, d := range dirs {
			if !filesContain(d, "*.go", "//go:generate ") {
				return fmt.Errorf("go generate %s: the package has no //go:generate directive", d)
			}
		}
	case "test":
		return checkGoTestFlags(dirs, flags)
	}
	return nil
}

// checkGoTestFlags checks go test's -run and -bench against the tests and
// benchmarks of dirs, and every flag go test does not know against the
// flags their tests define.
func checkGoTestFlags(dirs []string, flags map[string]string) error {
	funcs := map[string][]string{} // Test, Benchmark → names
	var src strings.Builder
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*_test.go"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			src.Write(raw)
			for _, m := range testFuncRe.FindAllStringSubmatch(string(raw), -1) {
				kind := m[1]
				if kind == "Example" || kind == "Fuzz" {
					kind = "Test"
				}
				funcs[kind] = append(funcs[kind], m[1]+m[2])
			}
		}
	}
	for name, val := range flags {
		switch {
		case name == "run" || name == "bench":
			kind := map[string]string{"run": "Test", "bench": "Benchmark"}[name]
			if val == "^$" || val == "." && len(funcs[kind]) > 0 {
				continue
			}
			first, _, _ := strings.Cut(val, "/")
			re, err := regexp.Compile(first)
			if err != nil {
				return fmt.Errorf("-%s %q: %v", name, val, err)
			}
			found := false
			for _, f := range funcs[kind] {
				found = found || re.MatchString(f)
			}
			if !found {
				return fmt.Errorf("-%s %q matches no %s of %v", name, val, strings.ToLower(kind), dirs)
			}
		case goTestValueFlags[name], goTestBoolFlags[name]:
		default:
			if !strings.Contains(src.String(), `("`+name+`"`) {
				return fmt.Errorf("-%s is not a flag the tests of %v define", name, dirs)
			}
		}
	}
	return nil
}

// testFuncRe is a test, benchmark, example or fuzz function.
var testFuncRe = regexp.MustCompile(`(?m)^func (Test|Benchmark|Example|Fuzz)([A-Za-z0-9_]*)\(`)

// packageDirs resolves a package pattern (./knowledge/engine, ./store/...,
// ./...) to the folders of Go packages it names, relative to the
// repository's root; it fails when it names none.
func packageDirs(pattern string) ([]string, error) {
	base, all := strings.CutSuffix(pattern, "/...")
	root := filepath.Join(repoRoot, filepath.FromSlash(base))
	var dirs []string
	if !all {
		if m, _ := filepath.Glob(filepath.Join(root, "*.go")); len(m) > 0 {
			dirs = append(dirs, root)
		}
	} else {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
				return filepath.SkipDir
			}
			if d.IsDir() {
				if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
					dirs = append(dirs, p)
				}
			}
			return nil
		})
	}
	if len(dirs) == 0 {
		return nil, errors.New("no Go package there")
	}
	return dirs, nil
}

// filesContain reports whether a file of dir matching glob holds s.
func filesContain(dir, glob, s string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, glob))
	for _, f := range files {
		if raw, err := os.ReadFile(f); err == nil && strings.Contains(string(raw), s) {
			return true
		}
	}
	return false
}

// TestDocsGoCommandsInProse: every `go test …` and `go generate …` written
// in the docs' prose and tables (not only their sh blocks) names packages
// that exist, and -run, -bench and its own flags that their tests have.
func TestDocsGoCommandsInProse(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		_, prose := parsePage(page, readPage(t, page))
		for _, span := range codeSpans(prose) {
			if !strings.HasPrefix(span, "go test ") && !strings.HasPrefix(span, "go generate ") {
				continue
			}
			for _, g := range goSegments(shellSegments(span)) {
				checked++
				if err := checkGoCommand(g, ""); err != nil {
					t.Errorf("%s: `%s`: %v", page, span, err)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d go commands in the docs' prose", checked)
	}
}
