package kepyaml

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// doc is a minimal kep.yaml in the folder keps/sig-node/123-thing.
const testPath = "keps/sig-node/123-thing/kep.yaml"

func doc(extra string) string {
	return "title: A thing\nkep-number: 123\nowning-sig: sig-node\n" + extra
}

func v(s string) knowledge.Version { return knowledge.MustVersion(s) }

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		name, path, yaml string
		want             int
		notes            int
		errKind          string
	}{
		{"integer", testPath, "kep-number: 123", 123, 0, ""},
		{"quoted", testPath, `kep-number: "123"`, 123, 0, ""},
		{"zero padded is decimal, not octal", "keps/sig-x/0123-thing/kep.yaml", "kep-number: 0123", 123, 0, ""},
		{"KEP- prefix", testPath, "kep-number: KEP-123", 123, 0, ""},
		{"disagrees with folder: folder wins", testPath, "kep-number: 999", 123, 1, ""},
		{"missing: folder", testPath, "stage: beta", 123, 1, ""},
		{"not a number: folder", testPath, "kep-number: NNNN", 123, 1, ""},
		{"a list: folder", testPath, "kep-number: [1, 2]", 123, 1, ""},
		{"zero with a numbered folder", testPath, "kep-number: 0", 123, 1, ""},
		{"no folder", "kep.yaml", "kep-number: 77", 77, 0, ""},
		{"folder 0000 with a number", "keps/sig-x/0000-thing/kep.yaml", "kep-number: 55", 55, 0, ""},
		{"template", "keps/NNNN-kep-template/kep.yaml", "kep-number: NNNN", 0, 0, KindNoNumber},
		{"placeholder 0000", "keps/sig-x/0000-forum/kep.yaml", "kep-number: 0000", 0, 0, KindPlaceholder},
		{"placeholder 0 quoted", "keps/sig-x/0000-forum/kep.yaml", `kep-number: "0"`, 0, 0, KindPlaceholder},
		{"missing and no folder number", "keps/sig-x/forum/kep.yaml", "stage: beta", 0, 0, KindNoNumber},
		{"too long", "kep.yaml", "kep-number: 123456789", 0, 0, KindNoNumber},
		{"negative", "kep.yaml", "kep-number: -5", 0, 0, KindNoNumber},
		{"hex", "kep.yaml", "kep-number: 0x10", 0, 0, KindNoNumber},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFile(tc.path, []byte("title: T\n"+tc.yaml+"\n"))
			if tc.errKind != "" {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Kind != tc.errKind || pe.Path != tc.path {
					t.Fatalf("err = %v; want a %q error for %s", err, tc.errKind, tc.path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.KEP.Number != tc.want || len(f.Notes) != tc.notes {
				t.Errorf("number %d with notes %v; want %d with %d notes", f.KEP.Number, f.Notes, tc.want, tc.notes)
			}
		})
	}
}

func TestParseStage(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  knowledge.Stage
		noted bool
	}{
		{"alpha", knowledge.StageAlpha, false},
		{`"beta"`, knowledge.StageBeta, false},
		{"Stable", knowledge.StageStable, false},
		{"GA", knowledge.StageStable, false},
		{"deprecated", knowledge.StageDeprecated, false},
		{"removed", knowledge.StageRemoved, false},
		{"disabled", knowledge.StageDeprecated, true},
		{"alpha (deprecated)", knowledge.StageDeprecated, true},
		{"beta (removed)", knowledge.StageRemoved, true},
		{"alpha|beta|stable", knowledge.StageNone, true},
		{"stable-ish", knowledge.StageStable, true},
		{"gamma", knowledge.StageNone, true},
		{"[alpha]", knowledge.StageNone, true},
		{"", knowledge.StageNone, false},
		{"null", knowledge.StageNone, false},
	} {
		f, err := ParseFile(testPath, []byte(doc("stage: "+tc.in)))
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if f.KEP.Stage != tc.want || (len(f.Notes) > 0) != tc.noted {
			t.Errorf("stage %q = %v, notes %v; want %v, noted %v", tc.in, f.KEP.Stage, f.Notes, tc.want, tc.noted)
		}
	}
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]string{
		"implemented":         "implemented",
		"Implementable":       "implementable",
		"imlpemented":         "implemented",
		"implemented (alpha)": "implemented",
		"provisional|implementable|implemented|deferred|rejected|withdrawn|replaced": "",
		"superseded": "superseded",
		"":           "",
		"[a, b]":     "",
	} {
		f, err := ParseFile(testPath, []byte(doc("status: "+in)))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if f.KEP.Status != want {
			t.Errorf("status %q = %q; want %q", in, f.KEP.Status, want)
		}
	}
}

func TestParseMilestones(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       map[string]knowledge.Version
		stats      MilestoneStats
	}{
		{"quoted with v", `{alpha: "v1.29"}`, map[string]knowledge.Version{"alpha": v("1.29")}, MilestoneStats{Read: 1}},
		{"unquoted with v", "{alpha: v1.29}", map[string]knowledge.Version{"alpha": v("1.29")}, MilestoneStats{Read: 1}},
		{"quoted without v", `{beta: "1.29"}`, map[string]knowledge.Version{"beta": v("1.29")}, MilestoneStats{Read: 1}},
		{"unquoted float keeps 1.30", "{beta: 1.30}", map[string]knowledge.Version{"beta": v("1.30")}, MilestoneStats{Read: 1}},
		{"patch", `{stable: "v1.29.3"}`, map[string]knowledge.Version{"stable": v("1.29")}, MilestoneStats{Read: 1}},
		{"all three block style", "\n  alpha: \"v1.31\"\n  beta: \"v1.34\"\n  stable: \"v1.36\"",
			map[string]knowledge.Version{"alpha": v("1.31"), "beta": v("1.34"), "stable": v("1.36")}, MilestoneStats{Read: 3}},
		{"placeholders", `{alpha: TBD, beta: "never", stable: x.y, deprecated: '0.0', removed: TODO}`, nil, MilestoneStats{Placeholder: 5}},
		{"empty and null", `{alpha: "", beta: , stable: null}`, nil, MilestoneStats{Empty: 3}},
		{"two versions: earliest", `{alpha: "v1.37, v1.21"}`, map[string]knowledge.Version{"alpha": v("1.21")}, MilestoneStats{Multiple: 1}},
		{"two versions as a list", `{alpha: ["v1.37", "v1.21"]}`, map[string]knowledge.Version{"alpha": v("1.21")}, MilestoneStats{Multiple: 1}},
		{"extra words", `{beta: "v1.30 (tentative)"}`, map[string]knowledge.Version{"beta": v("1.30")}, MilestoneStats{ExtraText: 1}},
		{"unparseable", `{stable: "soon"}`, nil, MilestoneStats{Unparseable: 1}},
		{"mapping value", `{stable: {when: later}}`, nil, MilestoneStats{Unparseable: 1}},
		{"disabled is not a stage", `{deprecated: "v1.29", disabled: "v1.33"}`, map[string]knowledge.Version{"deprecated": v("1.29")}, MilestoneStats{Read: 1, NotAStage: 1}},
		{"GA key", `{GA: "v1.30"}`, map[string]knowledge.Version{"stable": v("1.30")}, MilestoneStats{Read: 1}},
		{"not a mapping", `"v1.29"`, nil, MilestoneStats{Unparseable: 1}},
		{"null", "", nil, MilestoneStats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFile(testPath, []byte(doc("milestone: "+tc.yaml+"\n")))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, f.KEP.Milestones); d != "" {
				t.Errorf("milestones (-want +got):\n%s", d)
			}
			if f.MilestoneStats != tc.stats {
				t.Errorf("stats %+v; want %+v", f.MilestoneStats, tc.stats)
			}
		})
	}
}

func TestParseLatestMilestone(t *testing.T) {
	for in, want := range map[string]string{`"v1.36"`: "1.36", "v1.23": "1.23", `"1.9"`: "1.9", `"0.0"`: "", `'0.0'`: "", "TBD": "", "": ""} {
		f, err := ParseFile(testPath, []byte(doc("latest-milestone: "+in)))
		if err != nil {
			t.Fatal(err)
		}
		if f.LatestMilestone.String() != want {
			t.Errorf("latest-milestone %s = %q; want %q", in, f.LatestMilestone, want)
		}
	}
}

func TestParseGates(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
		notes      int
	}{
		{"usual", "\n  - name: ImageVolume\n    components: [kubelet]\n  - name: \"Other\"", []string{"ImageVolume", "Other"}, 0},
		{"null list", " null", nil, 0},
		{"empty list", " []", nil, 0},
		{"null name", "\n  - name:\n    components:", nil, 1},
		{"n/a", "\n  - name: \"n/a\"", nil, 1},
		{"pattern", "\n  - name: CSIMigration{vendor}", nil, 1},
		{"kubectl env gate", "\n  - name: KUBECTL_KUBERC", []string{"KUBECTL_KUBERC"}, 0},
		{"repeat in another case", "\n  - name: Foo\n  - name: foo", []string{"Foo"}, 0},
		{"single mapping", "\n  name: Foo\n  components: [kubelet]", []string{"Foo"}, 1},
		{"bare names", " [Foo, Bar]", []string{"Foo", "Bar"}, 1},
		{"text", " Foo", nil, 1},
		{"comment after name", "\n  - name: ExecEnvVar # needed too", []string{"ExecEnvVar"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFile(testPath, []byte(doc("feature-gates:"+tc.yaml+"\n")))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, f.KEP.FeatureGates); d != "" || len(f.Notes) != tc.notes {
				t.Errorf("gates (-want +got):\n%s\nnotes %v; want %d", d, f.Notes, tc.notes)
			}
		})
	}
}

// TestParseWholeFile reads a file with every odd form at once: keys outside
// the schema, yes for true, quoted sig, folded title, an anchor and alias.
func TestParseWholeFile(t *testing.T) {
	src := `title: >
  Run   things
  well
kep-number: "123"
id: extra-key
name: 123-thing
authors: {nested: [1, 2, {deep: true}]}
owning-sig: "sig-node"
status: implementable
stage: beta
latest-milestone: v1.30
milestone:
  alpha: &first "v1.28"
  beta: v1.30
  stable: *first
feature-gates:
  - name: RunThings
    components: [kubelet]
disable-supported: yes
metrics: null
`
	got, err := ParseKEP(testPath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := knowledge.KEP{
		Number: 123, Title: "Run things well", SIG: "sig-node", Status: "implementable", Stage: knowledge.StageBeta,
		Milestones:   map[string]knowledge.Version{"alpha": v("1.28"), "beta": v("1.30"), "stable": v("1.28")},
		FeatureGates: []string{"RunThings"}, Path: "keps/sig-node/123-thing", Source: SourceID,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("KEP (-want +got):\n%s", d)
	}
}

func TestParseTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  Spaced   out  ":           "Spaced out",
		"[a, b]":                     "",
		`""`:                         "",
		strings.Repeat("long ", 100): strings.TrimSpace(clip(strings.TrimSpace(strings.Repeat("long ", 100)), maxTitleRunes)),
	} {
		f, err := ParseFile(testPath, []byte("kep-number: 123\ntitle: "+in+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if f.KEP.Title != want {
			t.Errorf("title %q = %q; want %q", in, f.KEP.Title, want)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, src, kind, says string
	}{
		{"empty", "", KindNotKEP, "empty"},
		{"only a comment", "# nothing here\n", KindNotKEP, "empty"},
		{"a list", "- a\n- b\n", KindNotKEP, "a list"},
		{"text", "just words", KindNotKEP, "text"},
		{"broken YAML", "title: [unclosed\n", KindNotYAML, "line"},
		{"tab indent", "milestone:\n\talpha: v1.2\n", KindNotYAML, "line"},
		{"duplicate key", "title: a\ntitle: b\nkep-number: 1\n", KindNotYAML, "already defined"},
		{"too large", "title: " + strings.Repeat("x", 300<<10), KindTooLarge, "over the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseKEP(testPath, []byte(tc.src))
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Kind != tc.kind || !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(err.Error(), testPath) {
				t.Errorf("err = %v; want a %q error naming the file and saying %q", err, tc.kind, tc.says)
			}
		})
	}
}
