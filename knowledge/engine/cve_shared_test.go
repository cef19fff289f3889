package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store/storetest"
)

// This file checks the answers about vulnerabilities against the raw OSV
// records of ../shared/data/cves and the patch list of
// ../shared/data/lifecycle, read here on their own: plain JSON maps, a
// version order of its own and OSV's evaluation written out again, not
// the production reader (knowledge/sources/osv) nor its ranges
// (knowledge.VulnRange).

// rawRecord is what the test reads of one record.
type rawRecord struct {
	id        string
	withdrawn bool
	affected  []rawAffected
}

type rawAffected struct {
	module string
	events [][2]string // kind (introduced, fixed, last_affected, limit) and version, in the record's order
}

func readRawRecords(t *testing.T) []rawRecord {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sharedtest.Path(t, "data", "cves", "osv"), "*.json"))
	if err != nil || len(files) != 76 {
		t.Fatalf("want the 76 records of data/cves/osv, found %d (%v)", len(files), err)
	}
	var out []rawRecord
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r := rawRecord{id: m["id"].(string), withdrawn: m["withdrawn"] != nil}
		for _, a := range m["affected"].([]any) {
			am := a.(map[string]any)
			ra := rawAffected{module: am["package"].(map[string]any)["name"].(string)}
			ranges, _ := am["ranges"].([]any)
			for _, rg := range ranges {
				for _, e := range rg.(map[string]any)["events"].([]any) {
					for k, v := range e.(map[string]any) {
						ra.events = append(ra.events, [2]string{k, v.(string)})
					}
				}
			}
			r.affected = append(r.affected, ra)
		}
		out = append(out, r)
	}
	return out
}

// rawStaging are the staging modules among the records (SOURCE.md: tagged
// v0.N.P for Kubernetes 1.N.P); every other k8s.io module in them is a
// product of its own (ingress-nginx, kops, minikube, kube-state-metrics).
var rawStaging = map[string]bool{"k8s.io/client-go": true, "k8s.io/apimachinery": true, "k8s.io/mount-utils": true}

// asKubernetes is the version a record's module would give Kubernetes
// 1.N.P in, and false for a module of another product.
func asKubernetes(module, v string) (string, bool) {
	switch {
	case module == "k8s.io/kubernetes" || module == "github.com/kubernetes/kubernetes":
		return v, true
	case rawStaging[module]:
		return "0." + strings.TrimPrefix(v, "1."), true
	}
	return "", false
}

// older reports whether a is older than b: "0" first, then by the three
// numbers, a pre-release (after "-") before its release; two pre-releases
// of one release by their text, numbers as numbers.
func older(a, b string) bool {
	if a == b {
		return false
	}
	if a == "0" || b == "0" {
		return a == "0"
	}
	ac, ap, _ := strings.Cut(a, "-")
	bc, bp, _ := strings.Cut(b, "-")
	an, bn := strings.Split(ac, "."), strings.Split(bc, ".")
	for i := 0; i < 3; i++ {
		x, _ := strconv.Atoi(an[i])
		y, _ := strconv.Atoi(bn[i])
		if x != y {
			return x < y
		}
	}
	switch {
	case ap == "" || bp == "":
		return bp == "" && ap != ""
	}
	as, bs := strings.Split(ap, "."), strings.Split(bp, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		switch {
		case errx == nil && erry == nil && x != y:
			return x < y
		case errx == nil && erry != nil:
			return true
		case errx != nil && erry == nil:
			return false
		case errx != nil && as[i] != bs[i]:
			return as[i] < bs[i]
		}
	}
	return len(as) < len(bs)
}

// holds is OSV's evaluation of one module's events for version v.
func holds(events [][2]string, v string) bool {
	evs := slices.Clone(events)
	sort.SliceStable(evs, func(i, j int) bool { return older(evs[i][1], evs[j][1]) })
	in := false
	for _, e := range evs {
		switch e[0] {
		case "introduced":
			if !older(v, e[1]) {
				in = true
			}
		case "fixed":
			if !older(v, e[1]) {
				in = false
			}
		case "last_affected":
			if older(e[1], v) {
				in = false
			}
		case "limit":
			if !older(v, e[1]) {
				return false
			}
		}
	}
	return in
}

// rawAffects reports whether Kubernetes patch release p is affected by r.
func rawAffects(r rawRecord, p string) bool {
	for _, a := range r.affected {
		if mv, ok := asKubernetes(a.module, p); ok && holds(a.events, mv) {
			return true
		}
	}
	return false
}

// rawFixes are r's fixed versions as Kubernetes releases, oldest first.
func rawFixes(r rawRecord) []string {
	var out []string
	for _, a := range r.affected {
		if _, ok := asKubernetes(a.module, "1.0.0"); !ok {
			continue
		}
		for _, e := range a.events {
			if e[0] != "fixed" {
				continue
			}
			f := e[1]
			if rawStaging[a.module] {
				rest, _ := strings.CutPrefix(f, "0.")
				if strings.HasPrefix(rest, "0.") {
					continue // a pseudo-version: no release
				}
				f = "1." + rest
			}
			f, _, _ = strings.Cut(f, "-") // a fix at a pre-release is first held by its release
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return older(out[i], out[j]) })
	return out
}

// rawPatches are the patch releases of each minor 1.24–1.36 in the patch
// list: the first and the latest, pre-releases left out.
func rawPatches(t *testing.T) map[int][2]int {
	t.Helper()
	b, err := os.ReadFile(sharedtest.Path(t, "data", "lifecycle", "kubernetes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Versions map[string]any `json:"versions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[int][2]int{}
	for name := range doc.Versions {
		parts := strings.Split(name, ".")
		if len(parts) != 3 || parts[0] != "1" || strings.Contains(name, "-") {
			continue
		}
		minor, _ := strconv.Atoi(parts[1])
		p, err := strconv.Atoi(parts[2])
		if err != nil || minor < 24 || minor > 36 {
			continue
		}
		cur, ok := out[minor]
		if !ok {
			cur = [2]int{p, p}
		}
		out[minor] = [2]int{min(cur[0], p), max(cur[1], p)}
	}
	if len(out) != 13 {
		t.Fatalf("the patch list gives %d of the minors 1.24–1.36", len(out))
	}
	return out
}

func snapshotEngine(t *testing.T) *engine.Engine {
	t.Helper()
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(storetest.SnapshotDB(t).Knowledge(), engine.WithClock(newestSourceDay(snap)))
}

// TestCVEsOfEveryMinorAgainstTheRecords asks cves V of the built-in
// snapshot for the first and the latest patch of every minor 1.24–1.36:
// the records listed are exactly those whose Kubernetes ranges (the
// staging modules' read as v0.N.P) hold V, never another product's, each
// with the first patch of its line that fixes it, or the fixes of other
// lines, or none.
func TestCVEsOfEveryMinorAgainstTheRecords(t *testing.T) {
	recs := readRawRecords(t)
	e := snapshotEngine(t)
	checked, listed := 0, 0
	for minor, ends := range rawPatches(t) {
		for _, p := range []int{ends[0], ends[1]} {
			v := fmt.Sprintf("1.%d.%d", minor, p)
			a := ask(t, e, "cves "+v)
			if a.Kind != knowledge.KindCVEs || a.CVEs == nil || a.CVEs.Upgrade {
				t.Fatalf("cves %s: %s %q", v, a.Kind, a.Text)
			}
			var want []string
			byID := map[string]rawRecord{}
			for _, r := range recs {
				byID[r.id] = r
				if rawAffects(r, v) {
					want = append(want, r.id)
				}
			}
			var got []string
			for _, it := range a.CVEs.List {
				got = append(got, it.ID)
				r := byID[it.ID]
				if (it.Withdrawn != "") != r.withdrawn {
					t.Errorf("cves %s: %s withdrawn %q, the record says %v", v, it.ID, it.Withdrawn, r.withdrawn)
				}
				// The first fix of V's line after V, else the others.
				var line, later []string
				for _, f := range rawFixes(r) {
					if older(v, f) {
						later = append(later, f)
						if strings.HasPrefix(f, fmt.Sprintf("1.%d.", minor)) {
							line = append(line, f)
						}
					}
				}
				switch {
				case len(line) > 0 && it.FixedIn != line[0]:
					t.Errorf("cves %s: %s fixed_in %q, want %s", v, it.ID, it.FixedIn, line[0])
				case len(line) == 0 && it.FixedIn != "":
					t.Errorf("cves %s: %s fixed_in %q, but no fix of its line comes after", v, it.ID, it.FixedIn)
				case len(rawFixes(r)) == 0 && !it.NoFix:
					t.Errorf("cves %s: %s names no fix, yet no_fix is not set", v, it.ID)
				case len(line) == 0 && len(rawFixes(r)) > 0 && !slices.Equal(it.FixedElsewhere, later):
					t.Errorf("cves %s: %s fixed_elsewhere %v, want %v", v, it.ID, it.FixedElsewhere, later)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("cves %s lists %v; the records' ranges hold it for %v", v, got, want)
			}
			checked++
			listed += len(got)
		}
	}
	if checked != 26 || listed == 0 {
		t.Fatalf("checked %d releases, %d records listed in all", checked, listed)
	}
	t.Logf("checked cves V for %d patch releases, %d records listed in all", checked, listed)
}

// TestCVEYesNoAtThePatchBeforeAndAtEachFix asks, for every fix of a
// Kubernetes record in 1.24–1.36, whether the patch before it and the fix
// itself are affected: yes, then no, as the records say; and cve ID gives
// every fixing version.
func TestCVEYesNoAtThePatchBeforeAndAtEachFix(t *testing.T) {
	recs := readRawRecords(t)
	e := snapshotEngine(t)
	pairs := 0
	for _, r := range recs {
		fixes := rawFixes(r)
		a := ask(t, e, "cve "+r.id)
		if a.Kind != knowledge.KindCVE || a.CVE == nil {
			t.Fatalf("cve %s: %s %q", r.id, a.Kind, a.Text)
		}
		kube := false
		for _, af := range r.affected {
			_, ok := asKubernetes(af.module, "1.0.0")
			kube = kube || ok
		}
		if kube && !slices.Equal(a.CVE.FixedIn, fixes) && !(len(fixes) == 0 && len(a.CVE.FixedIn) == 0) {
			t.Errorf("cve %s: fixed_in %v, the records name %v", r.id, a.CVE.FixedIn, fixes)
		}
		if !kube && a.CVE.Product == "" {
			t.Errorf("cve %s: a record of another product does not say which", r.id)
		}
		for _, f := range fixes {
			parts := strings.Split(f, ".")
			minor, _ := strconv.Atoi(parts[1])
			p, err := strconv.Atoi(parts[2])
			if err != nil || minor < 24 || minor > 36 || p == 0 {
				continue
			}
			before := fmt.Sprintf("1.%d.%d", minor, p-1)
			for _, c := range []struct {
				v    string
				want string
			}{{before, "yes"}, {f, "no"}} {
				wantRaw := rawAffects(r, c.v)
				if (c.want == "yes") != wantRaw {
					t.Fatalf("%s at %s: the records themselves say affected=%v", r.id, c.v, wantRaw)
				}
				for _, name := range []string{r.id} {
					got := ask(t, e, "is "+c.v+" affected by "+name)
					if got.Verdict != c.want || !strings.HasPrefix(got.Text, strings.ToUpper(c.want[:1])+c.want[1:]) {
						t.Errorf("is %s affected by %s: verdict %q, text %q; want %s", c.v, name, got.Verdict, got.Text, c.want)
					}
				}
			}
			pairs++
		}
	}
	if pairs < 20 {
		t.Fatalf("only %d fixes in 1.24–1.36 checked", pairs)
	}
	t.Logf("checked %d fixes, yes at the patch before and no at the fix", pairs)
}

// TestUpgradeCVEsAgainstTheRecords asks upgrade A.x B.y of the built-in
// snapshot from the first patch of a minor to the latest of one three
// minors on, 1.24–1.36: fixed holds exactly the records whose ranges hold
// the start and not the end, still open those that hold the end, and the
// text's "leaves N open" counts only the records not withdrawn (a
// withdrawn record is no open vulnerability, as cves V counts).
func TestUpgradeCVEsAgainstTheRecords(t *testing.T) {
	recs := readRawRecords(t)
	e := snapshotEngine(t)
	patches := rawPatches(t)
	checked := 0
	for minor := 24; minor+3 <= 36; minor++ {
		from := fmt.Sprintf("1.%d.%d", minor, patches[minor][0])
		to := fmt.Sprintf("1.%d.%d", minor+3, patches[minor+3][1])
		a := ask(t, e, "upgrade "+from+" "+to)
		if a.CVEs == nil || !a.CVEs.Upgrade {
			t.Fatalf("upgrade %s %s: no vulnerabilities in %q", from, to, a.Text)
		}
		var wantFixed, wantOpen []string
		open := 0
		for _, r := range recs {
			switch inFrom, inTo := rawAffects(r, from), rawAffects(r, to); {
			case inFrom && !inTo:
				wantFixed = append(wantFixed, r.id)
			case inTo:
				wantOpen = append(wantOpen, r.id)
				if !r.withdrawn {
					open++
				}
			}
		}
		var gotFixed, gotOpen []string
		for _, it := range a.CVEs.Fixed {
			gotFixed = append(gotFixed, it.ID)
		}
		for _, it := range a.CVEs.StillOpen {
			gotOpen = append(gotOpen, it.ID)
		}
		for _, l := range [][]string{wantFixed, wantOpen, gotFixed, gotOpen} {
			slices.Sort(l)
		}
		if !slices.Equal(gotFixed, wantFixed) || !slices.Equal(gotOpen, wantOpen) {
			t.Errorf("upgrade %s %s: fixed %v, still open %v; the records say %v and %v", from, to, gotFixed, gotOpen, wantFixed, wantOpen)
		}
		if want := fmt.Sprintf(" and leaves %d open", open); !strings.Contains(a.Text, want) {
			t.Errorf("upgrade %s %s: text %q does not say%s (withdrawn records apart)", from, to, a.Text, want)
		}
		if open != len(wantOpen) && !strings.Contains(a.Text, "withdrew") {
			t.Errorf("upgrade %s %s: %d withdrawn records still cover %s, the text does not say so: %q", from, to, len(wantOpen)-open, to, a.Text)
		}
		checked++
	}
	t.Logf("checked %d upgrades against the records", checked)
}

// TestOneLatestPatchEverywhere: the latest patch latest names for each
// supported release (1.36.6 by its k8s.io/api tag, though the patch list
// stops at 1.36.4) is the one cves takes and upgrade counts at: answers
// never pick different sources.
func TestOneLatestPatchEverywhere(t *testing.T) {
	sharedtest.Path(t, "data", "cves")
	e := snapshotEngine(t)
	l := ask(t, e, "latest")
	if len(l.Facts) == 0 {
		t.Fatalf("latest names no release: %q", l.Text)
	}
	for _, f := range l.Facts {
		patch, _, _ := strings.Cut(f.Value, " ")
		if c := ask(t, e, "cves "+patch); c.Kind != knowledge.KindCVEs {
			t.Errorf("latest names %s, and cves %s says %q", patch, patch, c.Text)
		}
		v := knowledge.MustVersion(f.Name)
		prev := knowledge.MustVersion(fmt.Sprintf("1.%d", v.Minor-1))
		if u := ask(t, e, "upgrade "+prev.String()+" "+f.Name); !strings.Contains(u.Text, " to "+patch+" ") {
			t.Errorf("latest names %s; upgrade %s %s counts elsewhere: %q", patch, prev, f.Name, u.Text)
		}
		if p := ask(t, e, f.Name+" patches"); !strings.Contains(p.Text, " is "+patch+" ") {
			t.Errorf("latest names %s; %s patches says %q", patch, f.Name, p.Text)
		}
	}
}
