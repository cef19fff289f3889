package engine_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// rawModules reads, from the raw files of ../shared/data/feature-gates
// (by regular expression, apart from the parser the answers use), which
// modules' Go maps declare each gate in each release up to 1.31 (before
// the generated list), and which module versions VERSIONS.tsv says were
// read: name → release → modules, and module → releases read.
func rawModules(t *testing.T) (map[string]map[string][]string, map[string][]string) {
	t.Helper()
	root := sharedtest.Path(t, "data", "feature-gates")
	tsv, err := os.ReadFile(filepath.Join(root, "VERSIONS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	read := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if parts := strings.Split(f[1%len(f)], "."); len(f) == 3 && len(parts) == 3 {
			read[f[0]] = append(read[f[0]], "1."+parts[1])
		}
	}
	constRe := regexp.MustCompile(`(?m)^\s*(\w+)\s+featuregate\.Feature\s*=\s*"(\w+)"`)
	entryRe := regexp.MustCompile(`(?m)^\s*(?:(\w+)\.)?(\w+):\s*\{`)
	out := map[string]map[string][]string{}
	for minor := 19; minor <= 31; minor++ {
		v := fmt.Sprintf("1.%d", minor)
		consts := map[string]string{}
		files := map[string][]string{} // module → sources
		for _, dir := range []string{"k8s.io_kubernetes", "k8s.io_apiserver", "k8s.io_apiextensions-apiserver", "k8s.io_client-go", "k8s.io_component-base", "k8s.io_controller-manager"} {
			module := strings.Replace(dir, "_", "/", 1)
			filepath.WalkDir(filepath.Join(root, dir, "release-"+v), func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "kubeadm") {
					return nil
				}
				src, _ := os.ReadFile(p)
				for _, m := range constRe.FindAllStringSubmatch(string(src), -1) {
					consts[m[1]] = m[2]
				}
				files[module] = append(files[module], string(src))
				return nil
			})
		}
		for module, srcs := range files {
			for _, src := range srcs {
				for _, m := range entryRe.FindAllStringSubmatch(src, -1) {
					name, ok := consts[m[2]]
					if !ok {
						continue // not a gate's constant
					}
					k := strings.ToLower(name)
					if out[k] == nil {
						out[k] = map[string][]string{}
					}
					if !slices.Contains(out[k][v], module) {
						out[k][v] = append(out[k][v], module)
					}
				}
			}
		}
	}
	return out, read
}

// TestGateModulesAgreeWithRawFiles: for every gate the code of 1.19-1.31
// declares, `gate NAME` says which modules declare it in which of those
// releases as the raw files do, and its removal (the release after the last
// declaration; uncertain, with the first release known not to declare it,
// where a module of that release was not read, as
// k8s.io/controller-manager v0.27.0) as VERSIONS.tsv and the files give.
func TestGateModulesAgreeWithRawFiles(t *testing.T) {
	raw, read := rawModules(t)
	checked := 0
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for k, byRel := range raw {
				a := ask(t, e, "gate "+k)
				if a.Gate == nil {
					t.Errorf("gate %s: %s %q", k, a.Kind, a.Text)
					continue
				}
				got := map[string][]string{}
				for _, m := range a.Gate.Modules {
					for _, v := range m.Releases {
						if knowledge.MustVersion(v).Less(knowledge.MustVersion("1.32")) {
							got[v] = append(got[v], m.Module)
						}
					}
				}
				for v := range got {
					slices.Sort(got[v])
				}
				want := map[string][]string{}
				for v, ms := range byRel {
					want[v] = slices.Sorted(slices.Values(ms))
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("gate %s: modules by release %v; the raw files say %v", k, got, want)
				}
				// the removal of a gate no module declares after 1.31
				if last := a.Gate.Releases[len(a.Gate.Releases)-1].Release; knowledge.MustVersion(last).Less(knowledge.MustVersion("1.31")) {
					next := knowledge.MustVersion(last).Next().String()
					unread := false
					for _, ms := range byRel[last] {
						unread = unread || !slices.Contains(read[ms], next)
					}
					if a.Gate.RemovedIn == nil || *a.Gate.RemovedIn != next || a.Gate.RemovedInUncertain != unread {
						t.Errorf("gate %s: last declared in %s; removed_in %v uncertain %v; want %s, uncertain %v", k, last, a.Gate.RemovedIn, a.Gate.RemovedInUncertain, next, unread)
					}
				}
				checked++
			}
		})
	}
	if checked < 600 {
		t.Errorf("%d gates checked; the raw files of 1.19-1.31 declare far more", checked)
	}
}

// TestIPv6DualStackByModule: k8s.io/kubernetes declares IPv6DualStack in
// 1.19-1.24 (the 1.25 notes, PR 109435, remove it), k8s.io/controller-manager
// in 1.21-1.26, and that module's 1.27 (v0.27.0) is not in the data: removed
// from it, and from the code, in 1.27 or 1.28. The card, the JSON, the
// default answers, the changes of 1.27 and 1.28 and an upgrade say so.
func TestIPv6DualStackByModule(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a := ask(t, e, "gate IPv6DualStack")
			g := a.Gate
			if g == nil || g.RemovedIn == nil || *g.RemovedIn != "1.27" || !g.RemovedInUncertain || g.RemovedBy == nil || *g.RemovedBy != "1.28" {
				t.Fatalf("gate IPv6DualStack: %+v; want removed in 1.27, uncertain, by 1.28", g)
			}
			if len(g.Releases) != 8 || g.Releases[7].Release != "1.26" || !slices.Equal(g.KEPs, []int{563}) {
				t.Errorf("releases %+v keps %v", g.Releases, g.KEPs)
			}
			mods := map[string]knowledge.GateModuleFacts{}
			for _, m := range g.Modules {
				mods[m.Module] = m
			}
			if m := mods["k8s.io/kubernetes"]; m.Runs() != "1.19-1.24" || m.RemovalWords() != "removed in 1.25" {
				t.Errorf("k8s.io/kubernetes: %s, %s", m.Runs(), m.RemovalWords())
			}
			if m := mods["k8s.io/controller-manager"]; m.Runs() != "1.21-1.26" || m.RemovalWords() != "removed in 1.27 or 1.28 (its 1.27 module was not read)" {
				t.Errorf("k8s.io/controller-manager: %s, %s", m.Runs(), m.RemovalWords())
			}
			for _, w := range []string{
				"k8s.io/kubernetes declares it in 1.19-1.24 and removed it in 1.25",
				"k8s.io/controller-manager declares it in 1.21-1.26 and removed it in 1.27 or 1.28 (its 1.27 module was not read)",
				"No module declares it from 1.28: it was removed in 1.27 or 1.28",
			} {
				if !strings.Contains(a.Text, w) {
					t.Errorf("gate IPv6DualStack: %q lacks %q", a.Text, w)
				}
			}
			if strings.Contains(a.Text, "declared by k8s.io/controller-manager:") {
				t.Errorf("gate IPv6DualStack: %q puts every release on one module", a.Text)
			}
			if v := ask(t, e, "is IPv6DualStack on by default in 1.27"); v.Verdict != knowledge.VerdictUnknown || !strings.Contains(v.Text, "k8s.io/controller-manager 1.27 was not read") {
				t.Errorf("1.27: %s %q", v.Verdict, v.Text)
			}
			if v := ask(t, e, "is IPv6DualStack on by default in 1.28"); v.Verdict != knowledge.VerdictYes || !strings.Contains(v.Text, "removed in 1.27 or 1.28") {
				t.Errorf("1.28: %s %q", v.Verdict, v.Text)
			}
			c27 := ask(t, e, "1.27 gates")
			for _, ch := range c27.Changes {
				if ch.Gate == "IPv6DualStack" {
					t.Errorf("1.27 gates says IPv6DualStack %s; its module's 1.27 was not read", ch.Change)
				}
			}
			if !slices.ContainsFunc(c27.Notes, func(n string) bool {
				return strings.Contains(n, "k8s.io/controller-manager") && strings.Contains(n, "IPv6DualStack")
			}) {
				t.Errorf("1.27 gates notes %q; want the gates whose module was not read", c27.Notes)
			}
			if !slices.ContainsFunc(ask(t, e, "1.28 gates").Changes, func(ch knowledge.GateChange) bool {
				return ch.Gate == "IPv6DualStack" && ch.Change == knowledge.GateRemoved && ch.Since == "1.27"
			}) {
				t.Error("1.28 gates: want IPv6DualStack removed since 1.27")
			}
			up := ask(t, e, "upgrade 1.24 1.28")
			if up.Gates == nil || !slices.ContainsFunc(up.Gates.Removed, func(r knowledge.GateRemoval) bool {
				return r.Gate == "IPv6DualStack" && r.RemovedIn == "1.27" && r.RemovedBy == "1.28"
			}) {
				t.Errorf("upgrade 1.24 1.28: gates %+v; want IPv6DualStack removed in 1.27 or 1.28", up.Gates)
			}
			// the name users set, not the Go constant the generated list writes
			if a := ask(t, e, "gate CPUCFSQuotaPeriod"); !slices.Contains(a.Suggest, "gate CustomCPUCFSQuotaPeriod") || !strings.Contains(a.Text, "Go constant of feature gate CustomCPUCFSQuotaPeriod") {
				t.Errorf("gate CPUCFSQuotaPeriod: %q %v", a.Text, a.Suggest)
			}
		})
	}
}
