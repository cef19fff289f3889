package kepyaml

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// fuzzSeeds are the messy forms the table tests cover, whole.
var fuzzSeeds = []string{
	doc("stage: alpha\nmilestone:\n  alpha: \"v1.29\"\n  beta: v1.30\n  stable: \"1.31\"\nfeature-gates:\n  - name: Foo\n"),
	"title: T\nkep-number: \"0000\"\nstatus: provisional|implementable\nstage: alpha|beta|stable\n",
	"title: T\nkep-number: NNNN\nlatest-milestone: '0.0'\nmilestone: {alpha: TBD, beta: never, stable: x.y}\n",
	"title: T\nkep-number: 1884\nmilestone:\n  alpha: \"v1.21, v1.37\"\n  disabled: v1.33\nfeature-gates: null\n",
	"title: T\nkep-number: 5\nfeature-gates:\n  - name:\n  - name: \"n/a\"\n  - name: A{b}\ndisable-supported: yes\nid: x\n",
	"title: &t T\nkep-number: 6\nstage: *t\nmilestone: {alpha: [v1.2, *t]}\n",
	"- a\n- b\n",
	"",
	"kep-number: 7\ntitle: [x]\nowning-sig: {a: b}\nstatus: [y]\nstage: {z: 1}\n",
	billionLaughs("lol"),
	flowNest(70),
}

// FuzzParseKEP checks that no input panics, every failure is a
// *ParseError, and every success holds only values the rules allow.
func FuzzParseKEP(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(testPath, []byte(s))
		f.Add("keps/sig-x/0000-thing/kep.yaml", []byte(s))
	}
	f.Fuzz(func(t *testing.T, path string, data []byte) {
		got, err := ParseFile(path, data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Kind == "" || pe.Msg == "" {
				t.Fatalf("error %v (%T) is not a *ParseError with a kind and a message", err, err)
			}
			return
		}
		k := got.KEP
		if k.Number <= 0 || k.Number > 9_999_999 || k.Source != SourceID {
			t.Errorf("number %d, source %q", k.Number, k.Source)
		}
		if k.Stage < knowledge.StageNone || k.Stage > knowledge.StageRemoved {
			t.Errorf("stage %d out of range", k.Stage)
		}
		if utf8.RuneCountInString(k.Title) > maxTitleRunes+1 || len(got.Notes) > maxNotes+1 || len(k.FeatureGates) > maxGates {
			t.Errorf("title %d runes, %d notes, %d gates: over the caps", utf8.RuneCountInString(k.Title), len(got.Notes), len(k.FeatureGates))
		}
		for name, v := range k.Milestones {
			if st, err := knowledge.ParseStage(name); err != nil || st.String() != name || v.IsZero() {
				t.Errorf("milestone %q = %v", name, v)
			}
		}
		for i, g := range k.FeatureGates {
			if !isGateName(g) || containsFold(k.FeatureGates[:i], g) {
				t.Errorf("gate %q is not an identifier or repeats", g)
			}
		}
		if strings.ContainsAny(k.Title, "\n\t") {
			t.Errorf("title %q keeps line breaks", k.Title)
		}
		again, err := ParseFile(path, data)
		if err != nil || !cmp.Equal(got, again) {
			t.Errorf("a second parse differs: %v", err)
		}
	})
}
