package secret

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFile: a secret file is read trimmed; an empty or oversized one
// is refused without its content in the error.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if s, err := ReadFile(write("ok", "  tok-value \n")); err != nil || s.Value() != "tok-value" {
		t.Errorf("ReadFile = %q, %v", s.Value(), err)
	}
	if _, err := ReadFile(write("empty", " \n")); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("an empty file: %v", err)
	}
	big := strings.Repeat("tok-value", maxFileBytes/8)
	if _, err := ReadFile(write("big", big)); err == nil || strings.Contains(err.Error(), "tok-value") || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("an oversized file: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was read")
	}
}
