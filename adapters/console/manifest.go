package console

import (
	"context"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/knowledge/question"
)

// ManifestHint is what the chat says after `scan VERSION`: how the
// manifests that follow end. A blank line ends them, as Enter ends a
// message in chat; YAML that has blank lines goes between ``` lines, as in
// a Slack or Discord code block, and ends at the closing ```. End of input
// (Ctrl-D) ends them too.
const ManifestHint = "Paste the manifests, then an empty line.\n(YAML that has empty lines goes between ``` lines, as in Slack and Discord.)"

// maxManifestBytes is about as much of a pasted manifest as is kept:
// chat's limit (manifest.ChatLimits), and a line more, so that the reader
// says it is too large.
var maxManifestBytes = int(manifest.ChatLimits().MaxBytes)

// pastedScan is a scan question and the manifests pasted after it, as
// one message of a chat platform holds them.
type pastedScan struct {
	text    string
	tooLong bool // a line over MaxLineBytes was left out
	eof     bool // input ended: the chat ends after the answer
	err     error
}

// awaitsManifest reports whether line is a scan question of the grammar
// that leaves its manifests to the lines after it: `scan 1.36`, `scan
// 1.32 1.36`, `scan 1.32 to 1.36`, `@kepbot scan 1.36`, or one that opens
// a code block (scan 1.36 ```yaml). A line that is not a scan the grammar
// reads (`scan my manifests`) is answered at once, as in chat.
func awaitsManifest(line string) bool {
	head, m, ok := question.SplitScan(line)
	if !ok || (strings.TrimSpace(string(m)) != "" && strings.Count(line, "```")%2 == 0) {
		return false
	}
	q, err := question.Parse(head)
	return err == nil && q.Kind == knowledge.AskScan
}

// readManifest reads the lines after a scan question until a blank line,
// the closing ``` of a code block, or end of input, and returns the whole
// as one message. Lines keep their indentation; the lines after
// maxManifestBytes are read and left out.
func readManifest(ctx context.Context, lines <-chan lineOrErr, head string) pastedScan {
	var b strings.Builder
	b.WriteString(head)
	fenced := strings.Count(head, "```")%2 == 1
	p := pastedScan{}
	for {
		var l lineOrErr
		select {
		case <-ctx.Done():
			p.err = ctx.Err()
			return p
		case l = <-lines:
		}
		if l.err != nil {
			p.eof = true
			break
		}
		if l.tooLong {
			p.tooLong = true
			continue
		}
		trimmed := strings.TrimSpace(l.text)
		if !fenced && trimmed == "" {
			break
		}
		if b.Len() <= maxManifestBytes {
			b.WriteString("\n")
			b.WriteString(l.text)
		}
		if strings.HasPrefix(trimmed, "```") {
			if fenced {
				break // the closing fence
			}
			fenced = true
		}
	}
	p.text = b.String()
	return p
}

// tooLongNote is said when a pasted manifest had a line over MaxLineBytes.
func tooLongNote() string {
	return fmt.Sprintf("A line of that manifest was over %d KB and was left out; scan such files with `bot scan --to VERSION FILE`.", MaxLineBytes>>10)
}
