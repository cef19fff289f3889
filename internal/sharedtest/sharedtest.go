package sharedtest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the absolute path of the shared folder beside the repository
// (or $KEPBOT_SHARED). When it is missing the test is skipped with a clear
// message, or fails when CI is set: CI must always test against the sources.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the shared source documents are missing (%v); CI needs ../shared beside the repository", err)
		}
		t.Skipf("skipping: the shared source documents are missing (%v); put ../shared beside the repository or set KEPBOT_SHARED", err)
	}
	return dir
}

// Path returns Root joined with elem.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Root(t)}, elem...)...)
}

// Find returns the absolute path of the shared folder, or an error when it
// is missing; unlike Root it neither skips nor fails, for a test that
// decides alone what to do without it.
func Find() (string, error) { return find() }

func find() (string, error) {
	if d := os.Getenv("KEPBOT_SHARED"); d != "" {
		return stat(d)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", os.ErrNotExist
	}
	// internal/sharedtest/sharedtest.go -> repository root -> ../shared
	repo := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	return stat(filepath.Join(repo, "..", "shared"))
}

func stat(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, "seeds")); err != nil {
		return "", err
	}
	return abs, nil
}
