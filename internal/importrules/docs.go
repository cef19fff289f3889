package importrules

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// docImports reads the sentence of a package comment that says what the
// package imports ("It imports knowledge, knowledge/sources/relnotes.")
// and returns the module's packages it names; ok is false when the
// comment has no such sentence. "no package of the module" and "only the
// standard library" name none.
func docImports(comment string) (listed []string, ok bool) {
	text := strings.Join(strings.Fields(comment), " ")
	_, rest, found := strings.Cut(text, "It imports ")
	if !found {
		return nil, false
	}
	sentence, _, _ := strings.Cut(rest, ". ")
	sentence = strings.TrimSuffix(sentence, ".")
	for _, tok := range strings.FieldsFunc(sentence, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == ';' || r == ':' }) {
		if modulePathRe.MatchString(tok) {
			listed = append(listed, tok)
		}
	}
	return listed, true
}

// modulePathRe matches a path of the module's packages as a doc writes it.
var modulePathRe = regexp.MustCompile(`^(adapters|cmd|internal|knowledge|store)(/[a-z0-9_]+)*$`)

// packageComment returns the package comment of dir: its doc.go's, else
// the first other non-test file's that has one (a command's main.go);
// found is false when no file has one.
func packageComment(dir string) (comment string, found bool, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", false, err
	}
	sort.SliceStable(names, func(i, j int) bool { return filepath.Base(names[i]) == "doc.go" && filepath.Base(names[j]) != "doc.go" })
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return "", false, err
		}
		if f.Doc != nil {
			return f.Doc.Text(), true, nil
		}
	}
	return "", false, nil
}
