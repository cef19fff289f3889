package scan

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/manifest"
)

// StdinArg is the argument that reads standard input, and StdinName how
// findings name what was read from it.
const (
	StdinArg  = "-"
	StdinName = "stdin"
)

// ReadInputs reads every input (files, folders read recursively for
// .yaml, .yml and .json, "-" for stdin) with manifest.Read, files in
// parallel, and gathers what they hold in input order. What cannot be
// read (a missing path, a file over the caps, a binary file) is a problem
// of that file; the others are still read.
func ReadInputs(ctx context.Context, paths []string, stdin io.Reader) *knowledge.ManifestRead {
	files, problems, skipped := manifestFiles(paths)
	results := make([]*knowledge.ManifestRead, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = readManifestFile(files[i], stdin)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	all := &knowledge.ManifestRead{Problems: problems, Skipped: skipped}
	for _, r := range results {
		if r == nil {
			continue
		}
		all.Objects = append(all.Objects, r.Objects...)
		all.Problems = append(all.Problems, r.Problems...)
		all.Gates = append(all.Gates, r.Gates...) // gates.go
		all.Documents += r.Documents
		all.NotObjects += r.NotObjects
		if all.ServerVersion.IsZero() {
			all.ServerVersion, all.ServerPatch, all.ServerBuild = r.ServerVersion, r.ServerPatch, r.ServerBuild
		}
		all.Kubectl = all.Kubectl || r.Kubectl
	}
	return all
}

// manifestFiles expands paths into the files to read, in order: a folder
// gives its .yaml, .yml and .json files (hidden folders passed over),
// sorted; a file or "-" stands for itself. A path that cannot be used is
// a problem; what is passed over on purpose (skipReason) is skipped.
func manifestFiles(paths []string) ([]string, []knowledge.ManifestProblem, []knowledge.ManifestSkip) {
	var files []string
	var problems []knowledge.ManifestProblem
	var skipped []knowledge.ManifestSkip
	for _, p := range paths {
		if p == StdinArg {
			files = append(files, StdinName)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			problems = append(problems, knowledge.ManifestProblem{File: p, Message: describe(err)})
			continue
		}
		if !info.IsDir() {
			// Named on its own, a pipe is read as stdin is: <(helm template …).
			why := nameReason(info.Name())
			if why == "" && inChart(p) {
				why = ReasonChart
			}
			if why != "" {
				skipped = append(skipped, knowledge.ManifestSkip{File: p, Reason: why})
				continue
			}
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, knowledge.ManifestProblem{File: q, Message: describe(err)})
				return nil
			}
			if d.IsDir() {
				if q != p && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				if isChart(q) {
					skipped = append(skipped, knowledge.ManifestSkip{File: q, Reason: ReasonChart})
					return fs.SkipDir
				}
				return nil
			}
			switch strings.ToLower(filepath.Ext(d.Name())) {
			case ".yaml", ".yml", ".json":
			default:
				return nil
			}
			if why := nameReason(d.Name()); why != "" {
				skipped = append(skipped, knowledge.ManifestSkip{File: q, Reason: why})
				return nil
			}
			if why := typeReason(q, d); why != "" {
				skipped = append(skipped, knowledge.ManifestSkip{File: q, Reason: why})
				return nil
			}
			found = append(found, q)
			return nil
		})
		if err != nil {
			problems = append(problems, knowledge.ManifestProblem{File: p, Message: describe(err)})
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, problems, skipped
}

// Why inputs are passed over, said once each in the report.
const (
	ReasonChart         = "a Helm chart (it holds Chart.yaml): its templates become manifests when rendered, so scan helm template DIR | bot scan -"
	ReasonKustomization = "a kustomization file, not an object: scan kustomize build DIR | bot scan -"
	ReasonNotRegular    = "not a regular file (a named pipe, a socket or a device): in a folder it is not read; name it alone to read it"
	ReasonLinkedFolder  = "a link to a folder, not followed"
)

// nameReason says why a file is not a manifest by its name, or "".
func nameReason(name string) string {
	switch name {
	case "Chart.yaml":
		return ReasonChart
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return ReasonKustomization
	}
	return ""
}

// inChart reports whether file p lies in a Helm chart's templates folder
// (a pre-commit hook names each changed file, templates included).
func inChart(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	for dir := filepath.Dir(abs); ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		if filepath.Base(dir) == "templates" && isChart(parent) {
			return true
		}
		dir = parent
	}
}

// isChart reports whether folder dir is a Helm chart: it holds Chart.yaml.
func isChart(dir string) bool {
	info, err := os.Lstat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// typeReason says why an entry found in a folder is not read: it is not a
// regular file (a named pipe would wait for a writer for ever), or a link
// to a folder; "" for a regular file or a link to one.
func typeReason(path string, d fs.DirEntry) string {
	if d.Type().IsRegular() {
		return ""
	}
	if d.Type()&fs.ModeSymlink != 0 {
		info, err := os.Stat(path)
		switch {
		case err != nil:
			return "" // read it, and say why it cannot be
		case info.IsDir():
			return ReasonLinkedFolder
		case info.Mode().IsRegular():
			return ""
		}
	}
	return ReasonNotRegular
}

// readManifestFile reads one file (or stdin) with the command line's
// limits. A file that is not a regular file (a pipe, a device) is read
// only when named on its own, as stdin is.
func readManifestFile(name string, stdin io.Reader) *knowledge.ManifestRead {
	var r io.Reader = stdin
	if name != StdinName {
		f, err := os.Open(name)
		if err != nil {
			return &knowledge.ManifestRead{Problems: []knowledge.ManifestProblem{{File: name, Message: describe(err)}}}
		}
		defer f.Close()
		r = f
	}
	out, err := manifest.ReadKnowledge(r, name, manifest.DefaultLimits())
	if err != nil {
		out.Problems = append(out.Problems, knowledge.ManifestProblem{File: name, Message: describe(err)})
	}
	return out
}

// ProblemText writes a problem as "file: document 3, line 12: message".
func ProblemText(p knowledge.ManifestProblem) string {
	var where []string
	if p.Document > 0 {
		where = append(where, "document "+strconv.Itoa(p.Document))
	}
	if p.Line > 0 {
		where = append(where, "line "+strconv.Itoa(p.Line))
	}
	s := p.File
	if len(where) > 0 {
		s += ": " + strings.Join(where, ", ")
	}
	return s + ": " + p.Message
}

// describe says why a path could not be read, without Go's wording.
func describe(err error) string {
	if s, ok := fsreason.Known(err); ok {
		return s
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
