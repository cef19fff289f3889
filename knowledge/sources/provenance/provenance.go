package provenance

import (
	"bytes"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"time"
)

// FileName is the name of the file that says where a folder came from.
const FileName = "SOURCE.md"

// MaxSize is the largest SOURCE.md read; the real ones are a few KiB.
const MaxSize = 64 << 10

// Stamp is a commit and its date, the date as 2006-01-02 (UTC). Either may
// be empty when the document does not say.
type Stamp struct {
	Commit string `json:"commit,omitempty"`
	Date   string `json:"date,omitempty"`
}

// IsZero reports whether s says nothing.
func (s Stamp) IsZero() bool { return s == Stamp{} }

// Provenance is what a SOURCE.md says: a stamp for the whole folder, and
// stamps for single files named in it.
type Provenance struct {
	Stamp
	Files map[string]Stamp // by file base name
}

// For returns the stamp of the file named base: its own when the document
// names it, else the folder's.
func (p Provenance) For(base string) Stamp {
	if s, ok := p.Files[base]; ok {
		return s
	}
	return p.Stamp
}

var (
	snapshotCommit = lazyre.New("(?i)snapshot commit:\\s*`?([0-9a-f]{7,40})`?")
	commitDate     = lazyre.New(`(?i)commit date[:\s]\s*(\d{4}-\d{2}-\d{2}(?:T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?)`)
	// folderAt is a folder copied "at commit a752ea54… (2026-08-21)" in a
	// sentence rather than a list item naming one file.
	folderAt  = lazyre.New("(?i)\\bat commit\\s+`?([0-9a-f]{7,40})`?\\s*\\((\\d{4}-\\d{2}-\\d{2}(?:T[0-9:.]+(?:Z|[+-]\\d{2}:?\\d{2})?)?)\\)")
	fileStamp = lazyre.New("^\\s*[-*]\\s*`([^`/]+)`:.*?\\bcommit\\s+`([0-9a-f]{7,40})`(?:\\s*\\((\\d{4}-\\d{2}-\\d{2}(?:T[0-9:.]+(?:Z|[+-]\\d{2}:?\\d{2})?)?)\\))?")
)

// Parse reads a SOURCE.md. It never fails: what it cannot find stays empty.
func Parse(data []byte) Provenance {
	if len(data) > MaxSize {
		data = data[:MaxSize]
	}
	var p Provenance
	for _, line := range items(string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))) {
		if m := fileStamp().FindStringSubmatch(line); m != nil {
			if p.Files == nil {
				p.Files = map[string]Stamp{}
			}
			p.Files[m[1]] = Stamp{Commit: m[2], Date: day(m[3])}
			continue
		}
		if m := snapshotCommit().FindStringSubmatch(line); m != nil && p.Commit == "" {
			p.Commit = m[1]
		}
		if m := commitDate().FindStringSubmatch(line); m != nil && p.Date == "" {
			p.Date = day(m[1])
		}
		if m := folderAt().FindStringSubmatch(line); m != nil && p.Commit == "" && p.Date == "" {
			p.Commit, p.Date = m[1], day(m[2])
		}
	}
	return p
}

// items splits text into lines, joining each list item with the indented
// lines that continue it, so a stamp wrapped over two lines reads as one.
func items(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		cont := strings.HasPrefix(line, "  ") && !isItem(line)
		if cont && len(out) > 0 && isItem(out[len(out)-1]) {
			out[len(out)-1] += " " + strings.TrimSpace(line)
			continue
		}
		out = append(out, line)
	}
	return out
}

func isItem(line string) bool {
	t := strings.TrimLeft(line, " ")
	return strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ")
}

// day turns an RFC 3339 time or a bare date into the UTC day; "" when it
// is neither.
func day(s string) string {
	if s == "" {
		return ""
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.Format(time.DateOnly)
	}
	return ""
}
