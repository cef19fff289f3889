package safetartest

import (
	"archive/tar"
	"compress/gzip"
	"io"
)

// Stream runs gen in a goroutine writing a tar.gz into a pipe and returns
// the reading end and a stop function, which closes the reader and waits
// for the generator to end.
func Stream(gen func(tw *tar.Writer) error) (io.ReadCloser, func()) {
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		zw, _ := gzip.NewWriterLevel(pw, gzip.BestSpeed)
		tw := tar.NewWriter(zw)
		err := gen(tw)
		if err == nil {
			err = tw.Close()
		}
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr, func() { pr.Close(); <-done }
}

// Zeros is an endless reader of zero bytes.
type Zeros struct{}

func (Zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
