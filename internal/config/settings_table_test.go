package config

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/knowledge/sources"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md's table of settings from the code")

// setting is one row of the table of settings.
type setting struct {
	key, env, def, meaning string
}

// TestSettingsTable: docs/configuration.md's table of settings is what the
// code says: every key of Config (and of the Discord adapter's Config, its
// discord section) and every variable read with it, from their yaml and env tags;
// the defaults from Default (and the registry's URLs); the meanings from
// the fields' comments. `go test ./internal/config -run TestSettingsTable
// -update` rewrites it.
func TestSettingsTable(t *testing.T) {
	docs := fieldDocs(t, ".", "../../adapters/discord")
	var rows []setting
	rows = walkSettings(t, rows, "", reflect.ValueOf(*Default()), docs)
	var b strings.Builder
	b.WriteString("| key | environment | default | meaning |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.key, r.env, r.def, strings.ReplaceAll(r.meaning, "|", `\|`))
	}
	goldentest.CompareSection(t, "../../docs/configuration.md", "settings", "go test ./internal/config -run TestSettingsTable -update", []byte(b.String()), *update)
	// configs/bot.example.yaml documents every key, and no other.
	raw, err := os.ReadFile("../../configs/bot.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var example map[string]any
	if err := yaml.Unmarshal(raw, &example); err != nil {
		t.Fatal(err)
	}
	var inExample, inTable []string
	flattenKeys("", example, &inExample)
	for _, r := range rows {
		if k, ok := strings.CutPrefix(r.key, "`"); ok {
			inTable = append(inTable, strings.TrimSuffix(k, "`"))
		}
	}
	slices.Sort(inExample)
	slices.Sort(inTable)
	if diff := cmp.Diff(inTable, inExample); diff != "" {
		t.Errorf("configs/bot.example.yaml's keys differ from the code's (-code +example):\n%s", diff)
	}
	for _, want := range []string{"`sources.refresh`", "`sources.refresh_interval`", "`sources.stale_after`", "`sources.timeout`", "`BOT_REPLICA_ID`"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %s", want)
		}
	}
}

// walkSettings appends the rows of v's fields, keys under prefix.
func walkSettings(t *testing.T, rows []setting, prefix string, v reflect.Value, docs map[string]map[string]string) []setting {
	t.Helper()
	typ := v.Type()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		env := f.Tag.Get("env")
		key := prefix + name
		switch {
		case name == "-" && env == "":
			continue // not a setting: a secret read from elsewhere, the file's path
		case f.Type == reflect.TypeOf(yaml.Node{}) && name == "discord":
			rows = walkSettings(t, rows, key+".", reflect.ValueOf(discord.Config{}.WithDefaults()), docs)
			continue
		case f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)):
			rows = walkSettings(t, rows, key+".", v.Field(i), docs)
			continue
		}
		doc := docs[path.Base(typ.PkgPath())+"."+typ.Name()][f.Name]
		if doc == "" {
			t.Errorf("%s.%s (%s) has no comment to say what it means", typ.Name(), f.Name, key)
		}
		r := setting{key: "`" + key + "`", env: "–", def: defaultText(key, v.Field(i)), meaning: meaning(f.Name, doc)}
		if name == "-" {
			r.key = "– (environment only)"
		}
		if env != "" {
			r.env = "`" + strings.Join(strings.Split(env, ","), "`, `") + "`"
		}
		rows = append(rows, r)
	}
	return rows
}

// defaultText is how the table shows the default value v of key.
func defaultText(key string, v reflect.Value) string {
	if setting, ok := strings.CutPrefix(key, "sources."); ok && strings.HasSuffix(setting, "_url") {
		for _, f := range sources.Formats {
			if f.Remote != nil && strings.ReplaceAll(f.Remote.Setting, "-", "_")+"_url" == setting {
				return "`" + f.Remote.Default + "`"
			}
		}
	}
	switch x := v.Interface().(type) {
	case time.Duration:
		s := x.String() // 1h0m0s, 5m0s, 10s
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return "`" + s + "`"
	case []string:
		if len(x) == 0 {
			return "none"
		}
		return "`" + strings.Join(x, ",") + "`"
	case string:
		if x == "" {
			return "–"
		}
	}
	return fmt.Sprintf("`%v`", v.Interface())
}

// meaning is a field's comment without its first words (the field's name,
// and "is" or "are"), as a phrase.
func meaning(field, doc string) string {
	m := strings.TrimPrefix(doc, field+" ")
	for _, verb := range []string{"is ", "are "} {
		m = strings.TrimPrefix(m, verb)
	}
	return strings.TrimSuffix(m, ".")
}

// fieldDocs reads the comments of the struct fields declared in dirs'
// non-test files, by package and type ("config.Sources") and field name.
func fieldDocs(t *testing.T, dirs ...string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range slices.Sorted(maps.Keys(pkgs)) {
			for _, file := range pkgs[name].Files {
				ast.Inspect(file, func(n ast.Node) bool {
					ts, ok := n.(*ast.TypeSpec)
					if !ok {
						return true
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						return true
					}
					fields := map[string]string{}
					for _, f := range st.Fields.List {
						for _, id := range f.Names {
							fields[id.Name] = strings.Join(strings.Fields(f.Doc.Text()), " ")
						}
					}
					out[name+"."+ts.Name.Name] = fields
					return true
				})
			}
		}
	}
	return out
}

// TestEnvTagsAreRead: every env tag of Config names a variable that sets
// its field (a secret's: the variable and its _FILE form that Load reads).
func TestEnvTagsAreRead(t *testing.T) {
	secrets := map[string]string{}
	for _, s := range Default().secretSpecs() {
		secrets[s.key+"_file"] = s.env + "," + s.env + "_FILE"
	}
	var check func(prefix string, typ reflect.Type, path []int)
	check = func(prefix string, typ reflect.Type, path []int) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			key, env := prefix+name, f.Tag.Get("env")
			at := append(slices.Clone(path), i)
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)) && f.Type != reflect.TypeOf(yaml.Node{}) {
				check(key+".", f.Type, at)
				continue
			}
			if env == "" {
				continue
			}
			if want, ok := secrets[key]; ok || strings.Contains(env, ",") {
				if env != want {
					t.Errorf("%s: env %q; Load reads %q", key, env, want)
				}
				continue
			}
			changed := false
			for _, val := range []string{"env-test", "7s", "a,b", "true", "false", "off"} {
				c := Default()
				if err := c.applyEnv(func(k string) string {
					if k == env {
						return val
					}
					return ""
				}); err != nil {
					continue
				}
				if !reflect.DeepEqual(reflect.ValueOf(*c).FieldByIndex(at).Interface(), reflect.ValueOf(*Default()).FieldByIndex(at).Interface()) {
					changed = true
					break
				}
			}
			if !changed {
				t.Errorf("%s: %s does not set it", key, env)
			}
		}
	}
	check("", reflect.TypeOf(Config{}), nil)
}

// flattenKeys appends the dotted keys of m's leaves (a list is a leaf).
func flattenKeys(prefix string, m map[string]any, out *[]string) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flattenKeys(prefix+k+".", sub, out)
			continue
		}
		*out = append(*out, prefix+k)
	}
}
