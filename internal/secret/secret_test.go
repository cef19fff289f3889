package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSecretNeverPrints(t *testing.T) {
	const raw = "xoxb-1234-secret-abcdef"
	s := New(raw)
	holder := struct {
		Token Secret `json:"token" yaml:"token"`
		Name  string `json:"name" yaml:"name"`
	}{s, "n"}

	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10s", "%T"} {
		outs = append(outs, fmt.Sprintf(verb, s), fmt.Sprintf(verb, holder), fmt.Sprintf(verb, &holder))
	}
	outs = append(outs, fmt.Sprint(s), fmt.Sprintln(s, holder), s.String(), s.GoString())
	j, err := json.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, string(j))
	y, err := yaml.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, string(y))
	tx, _ := s.MarshalText()
	outs = append(outs, string(tx))
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "token", s, "holder", holder)
	outs = append(outs, buf.String())

	for _, o := range outs {
		if strings.Contains(o, "-secret-") || strings.Contains(o, "1234") {
			t.Errorf("secret printed: %s", o)
		}
	}
	if !strings.Contains(string(j), Redacted) {
		t.Errorf("json = %s, want %s", j, Redacted)
	}
	if s.Value() != raw {
		t.Errorf("Value() = %q", s.Value())
	}
}

func TestZeroSecret(t *testing.T) {
	var s Secret
	if !s.IsZero() || s.String() != "" {
		t.Errorf("zero secret: IsZero=%v String=%q", s.IsZero(), s.String())
	}
}
