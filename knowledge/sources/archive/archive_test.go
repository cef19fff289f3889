package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/safetar"
	"github.com/kepbot/kepbot/knowledge/sources/safetar/safetartest"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

func enhancements(t testing.TB) string {
	t.Helper()
	return sharedtest.Path(t, "data", "enhancements")
}

func loadShared(t testing.TB) *kepyaml.Result {
	t.Helper()
	res, err := kepyaml.LoadDir(enhancements(t), kepyaml.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// commitTime is the date of the snapshot commit in ../shared, which git
// archive stamps on every entry of GitHub's tarballs.
var commitTime = time.Date(2026, 7, 24, 23, 57, 50, 0, time.UTC)

// tarGzOfDir packs dir as GitHub does (see upstreamtest.PackDir).
func tarGzOfDir(t testing.TB, dir, top string) []byte { return upstreamtest.PackDir(t, dir, top) }

// TestReadTarGzMatchesReadDir packs the shared folder, with and without a
// top folder, and expects the corpus and report ReadDir gives.
func TestReadTarGzMatchesReadDir(t *testing.T) {
	want := loadShared(t)
	for _, top := range []string{"kubernetes-enhancements-64765b4", ""} {
		got, err := ReadTarGz(bytes.NewReader(tarGzOfDir(t, enhancements(t), top)), kepyaml.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Corpus.Sources[0].Path != top {
			t.Errorf("source path %q; want the top folder %q", got.Corpus.Sources[0].Path, top)
		}
		got.Corpus.Sources[0].Path = want.Corpus.Sources[0].Path
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("top %q: tarball differs from the folder (-dir +tar):\n%s", top, d)
		}
	}
}

// member is one entry of a hand-made archive.
type member struct {
	name, body, link string
	typ              byte
	size             int64 // declared size when not len(body)
}

func tarGz(t testing.TB, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		hdr := &tar.Header{Name: m.name, Typeflag: m.typ, Linkname: m.link, Mode: 0o644, ModTime: time.Date(2026, 7, 24, 23, 57, 50, 0, time.UTC)}
		if hdr.Typeflag == 0 {
			hdr.Typeflag = tar.TypeReg
		}
		if hdr.Typeflag == tar.TypeReg {
			hdr.Size = int64(len(m.body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, m.body); err != nil {
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

// good is a valid KEP every hostile archive also carries.
var good = member{name: "top/keps/sig-node/10-good/kep.yaml", body: "title: Good\nkep-number: 10\nowning-sig: sig-node\nstage: beta\n"}

func TestReadTarGzRefusesWholeArchive(t *testing.T) {
	for _, tc := range []struct {
		name    string
		members []member
		says    string
	}{
		{"parent path", []member{good, {name: "../x", body: "evil"}}, `"../x": holds a ".." element`},
		{"deep parent path", []member{good, {name: "top/keps/../../../etc/cron.d/x", body: "evil"}}, `holds a ".." element`},
		{"absolute path", []member{good, {name: "/etc/passwd", body: "evil"}}, `"/etc/passwd": absolute`},
		{"windows path", []member{good, {name: `C:\x`, body: "evil"}}, "backslash"},
		{"no kep.yaml", []member{{name: "top/README.md", body: "hi"}}, "found no keps/**/kep.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTarGz(bytes.NewReader(tarGz(t, tc.members...)), kepyaml.Limits{})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v; want one saying %s", err, tc.says)
			}
		})
	}
}

func TestReadTarGzSkipsEntries(t *testing.T) {
	members := []member{
		good,
		{name: "top/keps/sig-node/11-link/kep.yaml", typ: tar.TypeSymlink, link: "/etc/passwd"},
		{name: "top/keps/sig-node/12-hard/kep.yaml", typ: tar.TypeLink, link: "/etc/shadow"},
		{name: "top/keps/sig-node/13-dev/kep.yaml", typ: tar.TypeChar},
		{name: "top/keps/evil", typ: tar.TypeSymlink, link: "/"}, // a link, then a file "through" it:
		{name: "top/keps/evil/14-through/kep.yaml", body: "title: Through\nkep-number: 14\nowning-sig: sig-x\n"},
		{name: "top/keps/sig-node/15-big/kep.yaml", body: "title: Big\n" + strings.Repeat("# padding\n", 30_000)},
		{name: "top/keps/sig-node/16-laughs/kep.yaml", body: billionLaughs("lol")},
		{name: "top/pkg/testdata/kep.yaml", body: doc("")},
		{name: "top/keps/sig-node/10-good/README.md", body: "not read"},
	}
	res, err := ReadTarGz(bytes.NewReader(tarGz(t, members...)), kepyaml.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var nums []int
	for _, k := range res.Corpus.KEPs {
		nums = append(nums, k.Number)
	}
	// KEP-14 is read from the archive's own bytes: nothing is ever resolved on disk.
	if d := cmp.Diff([]int{10, 14}, nums); d != "" {
		t.Errorf("KEPs (-want +got):\n%s", d)
	}
	got := map[string]string{}
	for _, s := range res.Corpus.Skipped {
		got[s.Path] = s.Reason
	}
	want := map[string]string{
		"keps/sig-node/11-link/kep.yaml":   kepyaml.KindLink + ": a symbolic link to /etc/passwd; only regular files are read and links are never followed",
		"keps/sig-node/12-hard/kep.yaml":   kepyaml.KindLink + ": a hard link to /etc/shadow; only regular files are read and links are never followed",
		"keps/sig-node/13-dev/kep.yaml":    kepyaml.KindLink + ": a character device; only regular files are read and links are never followed",
		"keps/evil":                        kepyaml.KindLink + ": a symbolic link to /; only regular files are read and links are never followed",
		"keps/sig-node/15-big/kep.yaml":    kepyaml.KindTooLarge + ": 300011 bytes declared, over the limit of 262144; not read",
		"keps/sig-node/16-laughs/kep.yaml": kepyaml.KindBomb + ": its aliases expand to more than 50000 YAML nodes (a billion-laughs alias bomb?); a real kep.yaml has a few hundred",
		"pkg/testdata/kep.yaml":            kepyaml.KindOutside + ": only keps/**/kep.yaml are KEPs; this one is elsewhere (a test fixture?)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("skips (-want +got):\n%s", d)
	}
	// A hand-made archive: no git archive header, so its entry times are
	// file times and its date is unknown.
	if src := res.Corpus.Sources[0]; res.Report.Files != 8 || src.AsOf != "" || src.Commit != "" || src.Path != "top" {
		t.Errorf("files %d, source %+v; want 8 files, no date, no commit, path top", res.Report.Files, src)
	}
}

func TestReadTarGzStopsMillionEntries(t *testing.T) {
	r, stop := safetartest.Stream(func(tw *tar.Writer) error {
		for i := 0; i < 1_000_000; i++ {
			if err := tw.WriteHeader(&tar.Header{Name: "top/keps/e", Typeflag: tar.TypeReg, Mode: 0o644}); err != nil {
				return err
			}
		}
		return nil
	})
	defer stop()
	_, err := ReadTarGz(r, kepyaml.Limits{})
	var le *safetar.LimitError
	if !errors.As(err, &le) || le.What != "entries" || !strings.Contains(err.Error(), "over the limit of 100000 entries") {
		t.Fatalf("err = %v; want the entries limit", err)
	}
}

// TestReadTarGzStopsGzipBomb streams 10 GB of zeros made on the fly, as an
// ordinary file and as a kep.yaml, under the default limits: each stops at
// the decompressed limit with memory far below it.
func TestReadTarGzStopsGzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 512 MiB")
	}
	for _, name := range []string{"top/zeros.bin", "top/keps/sig-x/1-zeros/kep.yaml"} {
		r, stop := safetartest.Stream(func(tw *tar.Writer) error {
			if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: 10 << 30}); err != nil {
				return err
			}
			_, err := io.CopyN(tw, safetartest.Zeros{}, 10<<30)
			return err
		})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadTarGz(r, kepyaml.Limits{})
		runtime.ReadMemStats(&after)
		stop()
		var le *safetar.LimitError
		if !errors.As(err, &le) || le.What != "decompressed bytes" || le.Limit != kepyaml.DefaultLimits().MaxTotalBytes {
			t.Errorf("%s: err = %v; want the decompressed-bytes limit", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s: allocated %d MB refusing the bomb", name, alloc>>20)
		}
	}
}

func TestReadTarGzOtherLimits(t *testing.T) {
	data := tarGzOfDir(t, enhancements(t), "top")
	for _, tc := range []struct {
		name string
		lim  kepyaml.Limits
		what string
	}{
		{"compressed", kepyaml.Limits{MaxCompressedBytes: 10_000}, "compressed bytes"},
		{"decompressed", kepyaml.Limits{MaxTotalBytes: 100_000}, "decompressed bytes"},
		{"entries", kepyaml.Limits{MaxEntries: 50}, "entries"},
	} {
		_, err := ReadTarGz(bytes.NewReader(data), tc.lim)
		var le *safetar.LimitError
		if !errors.As(err, &le) || le.What != tc.what {
			t.Errorf("%s: err = %v; want the %s limit", tc.name, err, tc.what)
		}
	}
	for name, bad := range map[string][]byte{"not gzip": []byte("kep.yaml"), "truncated": data[:len(data)/3], "empty": nil} {
		if _, err := ReadTarGz(bytes.NewReader(bad), kepyaml.Limits{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func BenchmarkReadTarGz(b *testing.B) {
	data := tarGzOfDir(b, enhancements(b), "kubernetes-enhancements-64765b4")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadTarGz(bytes.NewReader(data), kepyaml.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadTarGzStamp: the commit and its date come from what the archive
// says of itself, never from its entries' times alone.
func TestReadTarGzStamp(t *testing.T) {
	const sha = "64765b4b02389318f2113119dd9e491479f978a0"
	kep := "title: A\nkep-number: 10\nowning-sig: sig-node\n"
	later := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name       string
		global     map[string]string
		top        string
		mtime      time.Time
		wantCommit string
		wantAsOf   string
	}{
		{"git archive: header commit, stamped date", map[string]string{"comment": sha}, "kubernetes-enhancements-64765b4", commitTime, sha, "2026-07-24"},
		{"no header: the folder names the commit, the date is unknown", nil, "kubernetes-enhancements-64765b4", later, "64765b4", ""},
		{"no header, no commit folder", nil, "enhancements", later, "", ""},
		{"a header comment that is no commit", map[string]string{"comment": "made by hand"}, "x", later, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			tw := tar.NewWriter(zw)
			if tt.global != nil {
				if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: tt.global}); err != nil {
					t.Fatal(err)
				}
			}
			name := tt.top + "/keps/sig-node/10-a/kep.yaml"
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(kep)), ModTime: tt.mtime}); err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(tw, kep); err != nil {
				t.Fatal(err)
			}
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			res, err := ReadTarGz(&buf, kepyaml.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			src := res.Corpus.Sources[0]
			if src.Commit != tt.wantCommit || src.AsOf != tt.wantAsOf {
				t.Errorf("commit %q as of %q, want %q and %q", src.Commit, src.AsOf, tt.wantCommit, tt.wantAsOf)
			}
		})
	}
}

// billionLaughs is a kep.yaml whose aliases expand a billion times.
func billionLaughs(key string) string {
	var b strings.Builder
	b.WriteString("title: laughs\nkep-number: 123\n")
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	fmt.Fprintf(&b, "%s: *i\n", key)
	return b.String()
}

func doc(extra string) string {
	return "title: A thing\nkep-number: 123\nowning-sig: sig-node\n" + extra
}
