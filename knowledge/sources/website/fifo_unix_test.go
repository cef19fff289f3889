//go:build unix

package website

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// TestParseDirNamedPipe: a .md that is a named pipe is skipped with its
// reason, not opened (which would wait for a writer for ever).
func TestParseDirNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan []knowledge.Skip, 1)
	go func() {
		c, err := ParseDir(dir)
		if err != nil {
			t.Errorf("ParseDir: %v", err)
			done <- nil
			return
		}
		done <- c.Skipped
	}()
	select {
	case sk := <-done:
		if len(sk) != 1 || !strings.Contains(sk[0].Reason, "not a regular file") {
			t.Errorf("skipped %+v; want pipe.md, not a regular file", sk)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ParseDir waits on the named pipe pipe.md")
	}
}
