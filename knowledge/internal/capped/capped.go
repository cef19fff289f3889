package capped

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge is what Read, ReadFile and ReadPath wrap when the input
// holds more than the limit; callers say it in their own words.
var ErrTooLarge = errors.New("too large")

// Read reads r to its end, but no more than max bytes: one byte more is
// ErrTooLarge, and nothing past it is read.
func Read(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	return data, nil
}

// ReadFile reads the regular file name of fsys, of at most max bytes. It
// asks what name is before opening it: opening a named pipe would wait
// for a writer.
func ReadFile(fsys fs.FS, name string, max int64) ([]byte, error) {
	if st, err := fs.Stat(fsys, name); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, max)
}

// ReadPath is ReadFile for a path of the operating system's.
func ReadPath(path string, max int64) ([]byte, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, max)
}
