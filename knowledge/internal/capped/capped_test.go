package capped

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

func TestCapped(t *testing.T) {
	if b, err := Read(strings.NewReader("12345"), 5); err != nil || string(b) != "12345" {
		t.Errorf("Read at the limit: %q %v", b, err)
	}
	if _, err := Read(strings.NewReader("123456"), 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read over the limit: %v; want ErrTooLarge", err)
	}
	fsys := fstest.MapFS{"a": {Data: []byte("abc")}, "d": {Mode: os.ModeDir}}
	if b, err := ReadFile(fsys, "a", 3); err != nil || string(b) != "abc" {
		t.Errorf("ReadFile: %q %v", b, err)
	}
	if _, err := ReadFile(fsys, "a", 2); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the limit: %v", err)
	}
	if _, err := ReadFile(fsys, "d", 10); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile of a folder: %v", err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if _, err := ReadPath(fifo, 10); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadPath of a named pipe: %v; want it refused before opening (which would wait)", err)
	}
}
