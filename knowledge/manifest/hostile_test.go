package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// after is a valid document that follows each hostile one: it must
// still be read.
const after = "\n---\napiVersion: v1\nkind: After\nmetadata:\n  name: ok\n"

// billionLaughs is nine levels of nine aliases (9^9 once expanded),
// named where the reader looks: as metadata, and merged into it.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString("a: &a {name: lol}\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		fmt.Fprintf(&b, "%c: &%c {<<: [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]}\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  <<: [*i, *i, *i]\n  namespace: *i\n")
	return b.String()
}

// seqLaughs is the classic bomb, of lists, under a key nobody reads.
func seqLaughs() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	b.WriteString("metadata: *i\n")
	return b.String()
}

func blockNest(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: A\n")
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

func seqNest(n int) string {
	return "apiVersion: v1\nkind: A\nx:\n" + strings.Repeat("- ", n) + "x\n"
}

func manyKeys(n int) string {
	var b strings.Builder
	b.Grow(n * 12)
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide\ndata:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  k%d: v\n", i)
	}
	return b.String()
}

func manyFlowKeys(n int, sep string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\ndata: {")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString("," + sep)
		}
		fmt.Fprintf(&b, "k%d: v", i)
	}
	b.WriteString("}\n")
	return b.String()
}

// repeatReader gives n copies of s without holding them.
type repeatReader struct {
	s   string
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.s[r.off:])
	r.off += k
	if r.off == len(r.s) {
		r.off = 0
		r.n--
	}
	return k, nil
}

type hostile struct {
	name   string
	in     func() io.Reader
	lim    Limits
	err    error  // the stream error wanted, if any
	says   string // what the first problem says ("" for none)
	after  bool   // the document after must be read
	alloc  uint64 // at most this many bytes allocated
	within time.Duration
}

func str(s string) func() io.Reader {
	return func() io.Reader { return strings.NewReader(s) }
}

func hostiles() []hostile {
	const mb = 1 << 20
	return []hostile{
		{name: "billion laughs, merged into metadata", in: str(billionLaughs() + after), says: "alias bomb", after: true, alloc: 4 * mb, within: 2 * time.Second},
		{name: "billion laughs, lists", in: str(seqLaughs() + after), after: true, alloc: 4 * mb, within: 2 * time.Second},
		{name: "[ nested 10^6 deep", in: str("x: " + strings.Repeat("[", 1_000_000) + after), says: "levels deep", after: true, alloc: 8 * mb, within: 5 * time.Second},
		{name: "[ nested 10^6 deep at the top", in: str(strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + after), says: "levels deep", after: true, alloc: 8 * mb, within: 5 * time.Second},
		{name: "{ nested 10^6 deep, JSON", in: str(strings.Repeat(`{"a":`, 1_000_000) + after), lim: Limits{MaxDocumentBytes: 8 * mb}, says: "levels deep", after: true, alloc: 24 * mb, within: 5 * time.Second},
		{name: "block nesting 2,500 deep", in: str(blockNest(2500) + after), says: "levels deep", after: true, alloc: 16 * mb, within: 5 * time.Second},
		{name: "list nesting 10^5 deep", in: str(seqNest(100_000) + after), says: "levels deep", after: true, alloc: 4 * mb, within: 5 * time.Second},
		{name: "10^6 keys, over the document limit", in: str(manyKeys(1_000_000) + after), says: "larger than the 4 MiB limit", after: true, alloc: 16 * mb, within: 5 * time.Second},
		{name: "10^6 keys, limit raised", in: str(manyKeys(1_000_000) + after), lim: Limits{MaxDocumentBytes: 32 * mb}, after: true, alloc: 48 * mb, within: 5 * time.Second},
		{name: "10^6 flow keys on one line", in: str(manyFlowKeys(1_000_000, " ") + after), lim: Limits{MaxDocumentBytes: 32 * mb}, after: true, alloc: 80 * mb, within: 5 * time.Second},
		{name: "300,000 flow keys over lines", in: str(manyFlowKeys(300_000, "\n  ") + after), says: "slow YAML reader", after: true, alloc: 16 * mb, within: 5 * time.Second},
		{name: "100 MB stream", in: func() io.Reader {
			return &repeatReader{s: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  x: " + strings.Repeat("a", 100_000) + "\n---\n", n: 1000}
		}, alloc: 24 * mb, within: 10 * time.Second},
		{name: "100 MB line", in: func() io.Reader {
			return io.MultiReader(strings.NewReader("apiVersion: v1\nkind: A\ndata: "), &repeatReader{s: strings.Repeat("b", 1<<20), n: 100}, strings.NewReader(after))
		}, says: "larger than the 4 MiB limit", after: true, alloc: 24 * mb, within: 10 * time.Second},
		{name: "100 MB over the limit", in: func() io.Reader { return &repeatReader{s: "apiVersion: v1\nkind: A\n---\n", n: 4_000_000} }, lim: Limits{MaxBytes: 10 * mb, MaxDocuments: 1 << 30, MaxObjects: 1 << 30}, err: ErrTooLarge, alloc: 128 * mb, within: 10 * time.Second},
		{name: "NUL bytes", in: str("apiVersion: v1\nkind: A\n---\n\x00\x01\x02binary"), err: ErrBinary, alloc: mb, within: time.Second},
		{name: "invalid UTF-8", in: str("apiVersion: v1\nkind: A\nname: \xc3\x28\xff\xfe" + after), says: "UTF-8", after: true, alloc: mb, within: time.Second},
		{name: "control characters", in: str("apiVersion: v1\nkind: A\nname: \x1b[31m" + after), says: "control character", after: true, alloc: mb, within: time.Second},
		{name: "many small broken documents", in: str(strings.Repeat("a: b: c\n---\n", 5000) + after), says: "\": \"", after: true, alloc: 64 * mb, within: 10 * time.Second},
		{name: "anchors at the node cap", in: str("apiVersion: v1\nkind: A\ns: &s x\nl: [" + strings.Repeat("*s, ", 100_000) + "]" + after), after: true, alloc: 160 * mb, within: 10 * time.Second},
		{name: "anchors over the node cap", in: str("apiVersion: v1\nkind: A\ns: &s x\nl: [" + strings.Repeat("*s,\n ", 300_000) + "]" + after), says: "slow YAML reader", after: true, alloc: 16 * mb, within: 10 * time.Second},
	}
}

// TestHostile checks each hostile input is refused with a clear problem
// or error, or read harmlessly, within a bounded allocation (and no hang),
// and that the document after it is still read.
func TestHostile(t *testing.T) {
	for _, tc := range hostiles() {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			r, err := Read(in, tc.lim)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > tc.alloc {
				t.Errorf("allocated %.1f MB; want at most %.1f MB", float64(alloc)/(1<<20), float64(tc.alloc)/(1<<20))
			}
			// within is what the input takes on a quiet machine, for the
			// log; only a hang (ten times it) fails: CI runs with -race
			// beside other work, and speed is measured in BenchmarkHostile.
			if took > 10*tc.within {
				t.Errorf("took %v; a hang guard of %v (ten times the %v it takes on a quiet machine)", took, 10*tc.within, tc.within)
			}
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Errorf("err = %v; want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if r == nil {
				t.Fatal("no Result")
			}
			if tc.says != "" && (len(r.Problems) == 0 || !strings.Contains(r.Problems[0].Message, tc.says)) {
				t.Errorf("problems = %+v; want the first to say %q", r.Problems, tc.says)
			}
			if tc.says == "" && tc.err == nil && len(r.Problems) > 0 {
				t.Errorf("problems = %+v; want none", r.Problems)
			}
			if tc.after {
				if n := len(r.Objects); n == 0 || r.Objects[n-1].Kind != "After" {
					t.Errorf("the document after was not read: %d objects", n)
				}
			}
			t.Logf("%v, %.1f MB allocated, %d documents, %d objects, %d problems", took, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), r.Documents, len(r.Objects), len(r.Problems))
		})
	}
}

// TestStreamingMemory reads a 100 MB stream and checks the heap in use
// stays near the document limit while it does: the stream is never
// held.
func TestStreamingMemory(t *testing.T) {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  x: " + strings.Repeat("a", 100_000) + "\n---\n"
	src := &sampler{r: &repeatReader{s: doc, n: 1000}}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	r, err := Read(src, Limits{})
	if err != nil || len(r.Objects) != 1000 {
		t.Fatalf("err %v, %d objects", err, len(r.Objects))
	}
	if grew := src.peak - base; src.peak > base && grew > 16<<20 {
		t.Errorf("the heap grew by %.1f MB while reading 100 MB; want under 16 MB", float64(grew)/(1<<20))
	}
}

// sampler reads through r and samples the heap every 8 MB.
type sampler struct {
	r     io.Reader
	n     int
	peak  uint64
	since int
}

func (s *sampler) Read(p []byte) (int, error) {
	k, err := s.r.Read(p)
	s.since += k
	if s.since >= 8<<20 {
		s.since = 0
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.peak = max(s.peak, ms.HeapAlloc)
	}
	return k, err
}

// TestFastPathAllocations checks the fast path allocates only for what
// it keeps: a document of 16 lines costs a few small allocations.
func TestFastPathAllocations(t *testing.T) {
	file := benchFile(1)
	s := newStream(DefaultLimits())
	if err := s.read(bytes.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		s := newStream(DefaultLimits())
		_ = s.read(bytes.NewReader(file))
	})
	// Per document: name, namespace, template; plus the Result's growth.
	if per := allocs / 100; per > 4 {
		t.Errorf("%.1f allocations per document; want at most 4", per)
	}
}

// BenchmarkHostile reads each hostile input: the time each takes is
// measured here, not asserted in TestHostile.
func BenchmarkHostile(b *testing.B) {
	for _, tc := range hostiles() {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(tc.in(), tc.lim); err != nil && tc.err == nil {
					b.Fatal(err)
				}
			}
		})
	}
}
