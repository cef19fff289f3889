package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

// leakMark stands for a value people paste by accident: a password in a
// Secret. It must never reach a Result, whether its document is read,
// broken, or odd.
const leakMark = "hunter2-Kx9vQ"

func TestSecretsNeverLeak(t *testing.T) {
	docs := []string{
		// valid, fast path
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: " + leakMark + "\nstringData:\n  token: \"" + leakMark + "\"\n  other: '" + leakMark + "'\n  cert: |\n    " + leakMark + "\n",
		// valid, slow path (anchors)
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  a: &p " + leakMark + "\n  b: *p\n",
		// valid JSON
		`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "data": {"password": "` + leakMark + `"}}`,
		// broken: unclosed quote, bad indentation, tab, value with ": ",
		// unknown anchor named like the secret, bad escape, unclosed flow
		"apiVersion: v1\nkind: Secret\nstringData:\n  password: \"" + leakMark + "\n",
		"apiVersion: v1\nkind: Secret\nstringData:\n  password: " + leakMark + "\n bad: indent\n",
		"apiVersion: v1\nkind: Secret\nstringData:\n\tpassword: " + leakMark + "\n",
		"apiVersion: v1\nkind: Secret\nstringData:\n  password: " + leakMark + ": x\n",
		"apiVersion: v1\nkind: Secret\nstringData:\n  password: *" + leakMark + "\n",
		"apiVersion: v1\nkind: Secret\nstringData:\n  password: \"\\q" + leakMark + "\"\n",
		"apiVersion: v1\nkind: Secret\nstringData: {password: [" + leakMark + "\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"data\": {\"password\": \"" + leakMark + "\"\n",
		"apiVersion: v1\nkind: Secret\n" + leakMark + "\n",
		// keys that are read, holding something that is not a string
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {password: " + leakMark + "}\n  namespace: [" + leakMark + "]\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name:\n    password: " + leakMark + "\n  namespace:\n  - " + leakMark + "\n",
		"apiVersion: {v: " + leakMark + "}\nkind: Secret\n",
		"apiVersion: v1\nkind: [" + leakMark + "]\n",
		`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": {"p": "` + leakMark + `"}, "namespace": ["` + leakMark + `"]}}`,
		"apiVersion: v1\nkind: List\nitems:\n- " + leakMark + "\n- {apiVersion: v1, kind: Secret, data: {p: " + leakMark + "}}\n",
		// not an object at all
		"password: " + leakMark + "\n",
		leakMark + "\n",
		// a control character, and bytes that are not UTF-8, next to it
		"apiVersion: v1\nkind: Secret\ndata:\n  p: " + leakMark + "\x01\n",
		"apiVersion: v1\nkind: Secret\ndata:\n  p: " + leakMark + "\xff\n",
		// kubectl version output with the secret around
		"Client Version: v1.29.1\nServer Version: v1.28.3\npassword: " + leakMark + "\n",
	}
	for i, d := range docs {
		for _, stream := range []string{d, "---\n" + d + "\n---\napiVersion: v1\nkind: Next\n", strings.ReplaceAll(d, "\n", "\r\n")} {
			r, err := Read(strings.NewReader(stream), Limits{})
			if err != nil {
				t.Fatalf("doc %d: %v", i, err)
			}
			out, _ := json.Marshal(r)
			if strings.Contains(string(out), leakMark) || strings.Contains(string(out), "hunter2") {
				t.Errorf("doc %d: the secret is in the result: %s", i, out)
			}
			checkResult(t, []byte(stream), r)
		}
	}
}

// TestProblemMessagesAreFixed checks every message the YAML library can
// give is turned into one of this package's sentences.
func TestProblemMessagesAreFixed(t *testing.T) {
	line, msg := yamlProblem(errorString("yaml: unknown anchor '"+leakMark+"' referenced"), []byte("a: 1\nb: *"+leakMark+"\n"))
	if line != 2 || strings.Contains(msg, leakMark) {
		t.Errorf("unknown anchor: line %d, %q", line, msg)
	}
	_, msg = yamlProblem(errorString("yaml: line 3: something new about '"+leakMark+"'"), nil)
	if msg != msgInvalid {
		t.Errorf("unknown error: %q; want the generic sentence", msg)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
