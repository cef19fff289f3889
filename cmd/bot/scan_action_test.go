package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// action is what a test reads of action.yml.
type action struct {
	Inputs map[string]struct {
		Default  string `yaml:"default"`
		Required bool   `yaml:"required"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

var actionExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// runAction runs the composite action's steps as GitHub's runner would on
// Linux: each run step as `bash --noprofile --norc -eo pipefail`, its env
// with ${{ inputs.* }}, ${{ steps.*.outputs.* }} and ${{ github.* }}
// filled in, its outputs read from $GITHUB_OUTPUT, an `if` of the form
// "steps.X.outputs.Y != 'v'" (or ==) evaluated; a `uses` step (setup-go)
// is not run: the bot is already on PATH, so the action skips it too. It
// returns the step that failed ("" when none), the scan step's outputs
// and what the steps printed.
func runAction(t *testing.T, a action, dir string, inputs map[string]string, path string) (failed string, outputs map[string]string, log string) {
	t.Helper()
	in := map[string]string{}
	for k, v := range a.Inputs {
		in[k] = v.Default
	}
	for k, v := range inputs {
		in[k] = v
	}
	steps := map[string]map[string]string{}
	eval := func(expr string) string {
		switch {
		case strings.HasPrefix(expr, "inputs."):
			return in[strings.TrimPrefix(expr, "inputs.")]
		case strings.HasPrefix(expr, "steps."):
			f := strings.Split(expr, ".") // steps.ID.outputs.NAME
			if len(f) == 4 {
				return steps[f[1]][f[3]]
			}
		case strings.HasPrefix(expr, "github."):
			return ""
		}
		t.Fatalf("the test cannot evaluate ${{ %s }}", expr)
		return ""
	}
	fill := func(s string) string {
		return actionExpr.ReplaceAllStringFunc(s, func(m string) string { return eval(actionExpr.FindStringSubmatch(m)[1]) })
	}
	var out strings.Builder
	for _, st := range a.Runs.Steps {
		if st.If != "" {
			cond := actionExpr.FindStringSubmatch(st.If)
			if cond == nil {
				t.Fatalf("step %q: if %q is not an expression", st.Name, st.If)
			}
			op, neg := "==", false
			if strings.Contains(cond[1], "!=") {
				op, neg = "!=", true
			}
			l, r, _ := strings.Cut(cond[1], op)
			eq := eval(strings.TrimSpace(l)) == strings.Trim(strings.TrimSpace(r), "'")
			if eq == neg {
				continue
			}
		}
		if st.Uses != "" {
			t.Errorf("step %q (%s) would run: the bot on PATH should make the action skip it", st.Name, st.Uses)
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q: shell %q; the action's run steps are bash", st.Name, st.Shell)
		}
		ghOut := filepath.Join(t.TempDir(), "output")
		if err := os.WriteFile(ghOut, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.Run)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path, "GITHUB_OUTPUT="+ghOut, "GITHUB_PATH="+filepath.Join(t.TempDir(), "path"))
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+fill(v))
		}
		b, err := cmd.CombinedOutput()
		out.Write(b)
		if st.ID != "" {
			steps[st.ID] = readOutputs(t, ghOut)
		}
		if err != nil {
			return st.Name, steps["scan"], out.String()
		}
	}
	return "", steps["scan"], out.String()
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			m[k] = v
		}
	}
	return m
}

// TestActionSteps runs action.yml's steps as a script, with the bot on
// PATH: a removal fails the step with exit 5 and leaves a SARIF report;
// deprecations alone pass with fail-on removed and fail with fail-on
// deprecated; fail-on never passes on a removal; input that cannot be read
// fails; a wrong fail-on is said.
func TestActionSteps(t *testing.T) {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(raw, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || !a.Inputs["to"].Required {
		t.Fatalf("action.yml: runs.using %q, to required %v; want a composite action that needs to", a.Runs.Using, a.Inputs["to"].Required)
	}
	path := botOnPath(t) + string(os.PathListSeparator) + os.Getenv("PATH")
	db := scanDB(t)
	t.Setenv("BOT_DB", db)
	flow := strings.Replace(flowBeta3, "v1beta3", "v1beta3", 1)
	for _, tc := range []struct {
		name   string
		files  map[string]string
		inputs map[string]string
		fails  bool
		code   string
		says   string
	}{
		{"removed", map[string]string{"k8s/cron.yaml": cronBeta, "k8s/web.yaml": deployment}, map[string]string{"to": "1.25", "paths": "k8s"}, true, "5", "::error::kepbot: bot scan exited 5"},
		{"deprecated, fail-on removed", map[string]string{"k8s/flow.yaml": flow}, map[string]string{"to": "1.30", "paths": "k8s"}, false, "4", "::warning::kepbot: deprecated"},
		{"deprecated, fail-on deprecated", map[string]string{"k8s/flow.yaml": flow}, map[string]string{"to": "1.30", "paths": "k8s", "fail-on": "deprecated"}, true, "4", "exited 4"},
		{"removed, fail-on never", map[string]string{"k8s/cron.yaml": cronBeta}, map[string]string{"to": "1.25", "paths": "k8s", "fail-on": "never"}, false, "5", ""},
		{"two paths on lines, one unreadable", map[string]string{"a/web.yaml": deployment, "b/broken.yaml": "kind: [unclosed\n"}, map[string]string{"to": "1.36", "paths": "a\nb\n"}, true, "3", "exited 3"},
		{"a wrong fail-on", map[string]string{"k8s/web.yaml": deployment}, map[string]string{"to": "1.36", "paths": "k8s", "fail-on": "sometimes"}, true, "", "fail-on is \"sometimes\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			failed, outs, log := runAction(t, a, dir, tc.inputs, path)
			if (failed != "") != tc.fails || outs["exit-code"] != tc.code || !strings.Contains(log, tc.says) {
				t.Fatalf("failed step %q, outputs %v; want failing %v with exit-code %q saying %q\n%s", failed, outs, tc.fails, tc.code, tc.says, log)
			}
			if tc.code == "" {
				return
			}
			report, err := os.ReadFile(filepath.Join(dir, outs["report"]))
			if err != nil {
				t.Fatal(err)
			}
			var sarif struct {
				Version string `json:"version"`
				Runs    []struct {
					Results []struct {
						RuleID string `json:"ruleId"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(report, &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 {
				t.Fatalf("the report is not SARIF 2.1.0 (%v):\n%.300s", err, report)
			}
			if tc.code != "0" && len(sarif.Runs[0].Results) == 0 {
				t.Errorf("exit %s with no result in the SARIF report", tc.code)
			}
		})
	}
}

// TestPreCommitHook runs .pre-commit-hooks.yaml's kepbot-scan hook as
// pre-commit does: its entry, the args a user gives, then the changed
// files its files pattern picks (a chart's Chart.yaml and templates among
// them, passed over).
func TestPreCommitHook(t *testing.T) {
	raw, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID       string `yaml:"id"`
		Entry    string `yaml:"entry"`
		Language string `yaml:"language"`
		Files    string `yaml:"files"`
	}
	if err := yaml.Unmarshal(raw, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].ID != "kepbot-scan" || hooks[0].Language != "golang" {
		t.Fatalf("hooks %+v; want kepbot-scan in golang", hooks)
	}
	h := hooks[0]
	pick := regexp.MustCompile(h.Files)
	changed := []string{"k8s/cron.yaml", "k8s/flow.yaml", "README.md", "chart/Chart.yaml", "chart/templates/ingress.yaml", "data.json"}
	dir := writeFiles(t, map[string]string{
		"k8s/cron.yaml": cronBeta, "k8s/flow.yaml": flowBeta3, "README.md": "# not a manifest\n", "data.json": "{\"a\": 1}\n",
		"chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\n", "chart/templates/ingress.yaml": "apiVersion: {{ .Values.api }}\nkind: Ingress\n",
	})
	var files []string
	for _, f := range changed {
		if pick.MatchString(f) {
			files = append(files, f)
		}
	}
	if strings.Join(files, " ") != "k8s/cron.yaml k8s/flow.yaml chart/Chart.yaml chart/templates/ingress.yaml data.json" {
		t.Fatalf("the files pattern picks %v", files)
	}
	path := botOnPath(t) + string(os.PathListSeparator) + os.Getenv("PATH")
	db := scanDB(t)
	for _, tc := range []struct {
		args  []string
		files []string
		code  int
	}{
		{[]string{"--to", "1.25"}, files, 5},
		{[]string{"--to", "1.30"}, files[1:], 4},
		{[]string{"--to", "1.30", "--fail-on", "removed"}, files[1:], 0},
	} {
		argv := append(append(strings.Fields(h.Entry), tc.args...), tc.files...)
		bin, err := lookPathIn(argv[0], path)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path, "BOT_DB="+db)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(string(out), "Passed over") {
			t.Errorf("%v: exit %d; want %d, the chart passed over\n%s", argv, code, tc.code, out)
		}
	}
}

// lookPathIn finds command name in the folders of path.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
