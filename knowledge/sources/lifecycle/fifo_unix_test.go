//go:build unix

package lifecycle

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// TestReadDirNamedPipe: a SOURCE.md that is a named pipe is passed over,
// not opened (which would wait for a writer for ever).
func TestReadDirNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "product.md"), []byte(tinyProduct), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, provenance.FileName), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	type result struct {
		lifecycles int
		asOf       string
		err        error
	}
	done := make(chan result, 1)
	go func() {
		c, _, err := ReadDir(os.DirFS(dir), provenance.Stamp{Date: "2030-08-01"})
		r := result{err: err}
		if c != nil && len(c.Sources) == 1 {
			r.lifecycles, r.asOf = len(c.Lifecycles), c.Sources[0].AsOf
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r.err != nil || r.lifecycles != 2 || r.asOf != "2030-08-01" {
			t.Errorf("got %+v; want the lifecycles, stamped by the date given", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadDir waits on the named pipe SOURCE.md")
	}
}
