//go:build unix

package relnotes

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// TestReadReleaseNamedPipes: a release page or SOURCE.md that is a named
// pipe is passed over, not opened (which would wait for a writer for ever).
func TestReadReleaseNamedPipes(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, NotesFile)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, NotesFile), []byte(tinyNotes), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{PageFile, provenance.FileName} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	done := make(chan int, 1)
	go func() {
		c, _, err := ReadRelease(os.DirFS(dir), v140, provenance.Stamp{Date: "2030-01-02"})
		if err != nil {
			t.Errorf("ReadRelease: %v", err)
			done <- -1
			return
		}
		done <- len(c.Changes)
	}()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("%d entries read, want the notes' one", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadRelease waits on a named pipe")
	}
}
