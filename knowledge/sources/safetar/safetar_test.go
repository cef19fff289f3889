package safetar

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/safetar/safetartest"
)

// entry is one tar entry to write in a test archive.
type entry struct {
	name string
	typ  byte
	body string
	link string
}

func archive(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Typeflag: typ, Linkname: e.link, Mode: 0o644, ModTime: time.Unix(1700000000, 0)}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"top/keps/sig-node/1-a/kep.yaml", "top/keps/sig-node/1-a/kep.yaml", true},
		{"top/", "top", true},
		{"./top/a", "top/a", true},
		{"top//a", "top/a", true},
		{"../x", "", false},
		{"../../x", "", false},
		{"top/../../x", "", false},
		{"top/keps/../x", "", false}, // stays inside, but ".." is refused outright
		{"/etc/passwd", "", false},
		{"//etc/passwd", "", false},
		{`C:\x`, "", false},
		{"C:/x", "", false},
		{`top\..\x`, "", false},
		{"", "", false},
		{"/", "", false},
		{".", "", false},
		{"a\x00b", "", false},
		{strings.Repeat("a/", 40) + "x", "", false},
		{strings.Repeat("a", 2000), "", false},
	} {
		got, err := CheckName(tc.in, Limits{})
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CheckName(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrUnsafePath) {
			t.Errorf("CheckName(%q) error %v does not wrap ErrUnsafePath", tc.in, err)
		}
	}
}

func TestWalkKinds(t *testing.T) {
	data := archive(t,
		entry{name: "top/", typ: tar.TypeDir},
		entry{name: "top/a.txt", body: "hello"},
		entry{name: "top/link", typ: tar.TypeSymlink, link: "/etc"},
		entry{name: "top/hard", typ: tar.TypeLink, link: "/etc/passwd"},
		entry{name: "top/dev", typ: tar.TypeChar},
		entry{name: "top/fifo", typ: tar.TypeFifo},
	)
	var got []string
	err := Walk(bytes.NewReader(data), Limits{}, func(e *Entry) error {
		switch e.Kind {
		case File:
			b, err := e.ReadAll()
			if err != nil {
				return err
			}
			got = append(got, "file "+e.Name+" "+string(b))
		case Dir:
			got = append(got, "dir "+e.Name)
		default:
			if _, err := e.ReadAll(); err == nil {
				t.Errorf("ReadAll of %s (%s) did not fail", e.Name, TypeName(e.Type))
			}
			got = append(got, TypeName(e.Type)+" "+e.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "dir top|file top/a.txt hello|symbolic link top/link|hard link top/hard|character device top/dev|FIFO top/fifo"
	if strings.Join(got, "|") != want {
		t.Errorf("walk = %q\nwant %q", strings.Join(got, "|"), want)
	}
}

func TestWalkRefusesUnsafeNames(t *testing.T) {
	for _, name := range []string{"../x", "/etc/passwd", "top/../../x", `C:\x`, "top/../x"} {
		data := archive(t, entry{name: "top/ok.txt", body: "ok"}, entry{name: name, body: "evil"})
		err := Walk(bytes.NewReader(data), Limits{}, func(*Entry) error { return nil })
		if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "relative") {
			t.Errorf("%q: err = %v; want an unsafe-path error", name, err)
		}
	}
}

func TestReadAllFileLimit(t *testing.T) {
	data := archive(t, entry{name: "big", body: strings.Repeat("x", 2000)}, entry{name: "small", body: "ok"})
	var got []string
	err := Walk(bytes.NewReader(data), Limits{MaxFileBytes: 1000}, func(e *Entry) error {
		_, err := e.ReadAll()
		var le *LimitError
		if errors.As(err, &le) {
			got = append(got, e.Name+": "+le.Error())
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "big: big is over the limit of 1000 file bytes" {
		t.Errorf("got %q", got)
	}
}

func TestWalkStopsManyEntries(t *testing.T) {
	r, stop := safetartest.Stream(func(tw *tar.Writer) error {
		for i := 0; i < 1_000_000; i++ {
			if err := tw.WriteHeader(&tar.Header{Name: "top/e", Typeflag: tar.TypeReg, Mode: 0o644}); err != nil {
				return err
			}
		}
		return nil
	})
	defer stop()
	seen := 0
	err := Walk(r, Limits{}, func(*Entry) error { seen++; return nil })
	var le *LimitError
	if !errors.As(err, &le) || le.What != "entries" {
		t.Fatalf("err = %v; want the entries limit", err)
	}
	if seen != DefaultMaxEntries {
		t.Errorf("visited %d entries; want exactly %d", seen, DefaultMaxEntries)
	}
}

// TestWalkStopsGzipBomb streams 10 GB of zeros made on the fly: the walk
// must stop at the decompressed limit without holding the data.
func TestWalkStopsGzipBomb(t *testing.T) {
	const limit = 64 << 20
	r, stop := safetartest.Stream(func(tw *tar.Writer) error {
		if err := tw.WriteHeader(&tar.Header{Name: "top/zeros.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: 10 << 30}); err != nil {
			return err
		}
		_, err := io.CopyN(tw, safetartest.Zeros{}, 10<<30)
		return err
	})
	defer stop()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := Walk(r, Limits{MaxTotalBytes: limit}, func(e *Entry) error { return nil })
	runtime.ReadMemStats(&after)
	var le *LimitError
	if !errors.As(err, &le) || le.What != "decompressed bytes" || le.Limit != limit {
		t.Fatalf("err = %v; want the decompressed-bytes limit", err)
	}
	if !strings.Contains(err.Error(), "bomb") {
		t.Errorf("message %q does not say what was wrong", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > limit/4 {
		t.Errorf("allocated %d bytes while refusing the bomb; want far less than the %d-byte limit", alloc, limit)
	}
}

func TestWalkStopsDeclaredHugeFile(t *testing.T) {
	r, stop := safetartest.Stream(func(tw *tar.Writer) error {
		if err := tw.WriteHeader(&tar.Header{Name: "top/kep.yaml", Typeflag: tar.TypeReg, Mode: 0o644, Size: 10 << 30}); err != nil {
			return err
		}
		_, err := io.CopyN(tw, safetartest.Zeros{}, 10<<30)
		return err
	})
	defer stop()
	var fileErr error
	err := Walk(r, Limits{MaxTotalBytes: 8 << 20}, func(e *Entry) error {
		_, fileErr = e.ReadAll()
		return nil
	})
	var le *LimitError
	if !errors.As(fileErr, &le) || le.Name != "top/kep.yaml" {
		t.Errorf("ReadAll = %v; want the file limit, refused by the declared size", fileErr)
	}
	if !errors.As(err, &le) || le.What != "decompressed bytes" {
		t.Errorf("walk = %v; want the decompressed limit while skipping the data", err)
	}
}

func TestWalkStopsCompressedBytes(t *testing.T) {
	noise := make([]byte, 2<<20)
	if _, err := rand.Read(noise); err != nil {
		t.Fatal(err)
	}
	data := archive(t, entry{name: "top/noise.bin", body: string(noise)})
	err := Walk(bytes.NewReader(data), Limits{MaxCompressedBytes: 1 << 20}, func(*Entry) error { return nil })
	var le *LimitError
	if !errors.As(err, &le) || le.What != "compressed bytes" {
		t.Fatalf("err = %v; want the compressed-bytes limit", err)
	}
}

func TestWalkBrokenStreams(t *testing.T) {
	good := archive(t, entry{name: "top/a.txt", body: strings.Repeat("a", 10000)})
	for name, data := range map[string][]byte{
		"not gzip":  []byte("PK\x03\x04 this is a zip"),
		"empty":     nil,
		"truncated": good[:len(good)/2],
		"gzip of text": func() []byte {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write([]byte(strings.Repeat("not a tar header ", 100)))
			zw.Close()
			return b.Bytes()
		}(),
	} {
		err := Walk(bytes.NewReader(data), Limits{}, func(e *Entry) error {
			_, err := e.ReadAll()
			return err
		})
		if err == nil {
			t.Errorf("%s: walk did not fail", name)
		}
	}
}

func TestWalkStopsOnVisitError(t *testing.T) {
	data := archive(t, entry{name: "a", body: "1"}, entry{name: "b", body: "2"})
	stop := errors.New("enough")
	n := 0
	err := Walk(bytes.NewReader(data), Limits{}, func(*Entry) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err = %v after %d entries; want the visit error after 1", err, n)
	}
}
