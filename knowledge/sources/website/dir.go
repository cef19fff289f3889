package website

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// ReasonDescribesSources is the Skip reason of SOURCE.md.
const ReasonDescribesSources = "describes the sources"

// ParseDir reads every .md file directly in dir (sorted by name) and joins
// what they give. A file that cannot be read or parsed becomes a Skip with
// the reason; SOURCE.md becomes a Skip "describes the sources", and what it
// says of each file (repository path, commit) gives the URL of a Source
// that has none from its front matter. It fails only when dir cannot be listed.
func ParseDir(dir string) (*knowledge.Corpus, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read website folder %s: %w", dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".md") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	out := &knowledge.Corpus{}
	var origins map[string]string
	for _, n := range names {
		path := filepath.Join(dir, n)
		data, err := readCapped(path)
		if err != nil {
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: path, Reason: err.Error()})
			continue
		}
		c, err := Parse(n, data)
		switch {
		case errors.Is(err, ErrDescribesSources):
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: path, Reason: ReasonDescribesSources})
			origins = sourceURLs(string(data))
			continue
		case err != nil:
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: path, Reason: err.Error()})
			continue
		}
		for i := range c.Sources {
			c.Sources[i].Path = path
		}
		out.Add(c)
	}
	for i, s := range out.Sources {
		if s.URL == "" {
			out.Sources[i].URL = origins[s.ID]
		}
	}
	return out, nil
}

// readCapped reads a regular file of at most MaxSize bytes. It asks what
// path is before opening it: opening a named pipe would wait for a writer.
func readCapped(path string) ([]byte, error) {
	data, err := capped.ReadPath(path, MaxSize)
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	case err != nil && !strings.Contains(err.Error(), path):
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, err
}

var (
	sourceHeadingRe = lazyre.New(`(?i)^sources?(?:\s*:|\s+of\b)`)
	fileColumnRe    = lazyre.New(`(?i)^\|\s*file\s*\|`)
)

// isSourceList reports whether a document is a list of where the others
// came from: no front matter, and the name SOURCE.md or a first heading
// "Source: ..." over a table with a "file" column.
func isSourceList(name string, fm frontMatter, o outline) bool {
	if fm != nil {
		return false
	}
	if strings.EqualFold(name, "SOURCE.md") {
		return true
	}
	if len(o) < 2 || o[1].level != 1 || !sourceHeadingRe().MatchString(o.heading(1)) {
		return false
	}
	for _, s := range o {
		for _, b := range s.body {
			if b.kind == blockTable && fileColumnRe().MatchString(b.text) {
				return true
			}
		}
	}
	return false
}

var (
	repoLineRe = lazyre.New(`(?i)\bRepository:\s*(https://github\.com/[\w.-]+/[\w.-]+)`)
	commitRe   = lazyre.New(`^[0-9a-f]{40}$`)
)

// sourceURLs reads a SOURCE.md table (columns "file", "repository path",
// "commit") into a URL per file: the kubernetes.io page of a docs page
// (content/en/docs/x/y.md is https://kubernetes.io/docs/x/y/), else the
// file in the repository at its commit.
func sourceURLs(md string) map[string]string {
	out := map[string]string{}
	repo := ""
	if m := repoLineRe().FindStringSubmatch(md); m != nil {
		repo = m[1]
	}
	col := map[string]int{}
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		if len(col) == 0 {
			for i, c := range cells {
				col[strings.ToLower(c)] = i
			}
			continue
		}
		fi, ok1 := col["file"]
		pi, ok2 := col["repository path"]
		if !ok1 || !ok2 || fi >= len(cells) || pi >= len(cells) {
			continue
		}
		commit := ""
		if ci, ok := col["commit"]; ok && ci < len(cells) {
			commit = cells[ci]
		}
		if u := pageURL(repo, cells[pi], commit); u != "" {
			out[cells[fi]] = u
		}
	}
	return out
}

// pageURL is where a file of kubernetes/website can be read.
func pageURL(repo, path, commit string) string {
	if rest, ok := strings.CutPrefix(path, "content/en/docs/"); ok && strings.HasSuffix(rest, ".md") {
		rest = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(rest, ".md"), "_index"), "index")
		return "https://kubernetes.io/docs/" + strings.TrimSuffix(rest, "/") + "/"
	}
	if repo == "" || !commitRe().MatchString(commit) || strings.ContainsAny(path, " <>\"") {
		return ""
	}
	return repo + "/blob/" + commit + "/" + path
}
