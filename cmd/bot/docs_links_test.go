package main

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocsLinksResolve: every link of the README, CONTRIBUTING.md,
// deploy/README.md and docs/*.md resolves. A relative link names a file or
// folder of the repository, and its #anchor a heading of that page (as
// GitHub makes anchors); any other link is a well-formed https URL. No
// link is fetched.
func TestDocsLinksResolve(t *testing.T) {
	checked := 0
	anchors := map[string]map[string]bool{}
	for _, page := range docPages(t) {
		_, prose := parsePage(page, readPage(t, page))
		for _, l := range pageLinks(prose) {
			checked++
			if err := checkLink(page, l, anchors); err != nil {
				t.Errorf("%s: link %q: %v", page, l, err)
			}
		}
	}
	if checked < 80 {
		t.Errorf("checked only %d links", checked)
	}
}

var (
	// inlineLinkRe is [text](target) or ![alt](target), the target up to
	// a space or the closing parenthesis.
	inlineLinkRe = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// autoLinkRe is <https://…>.
	autoLinkRe = regexp.MustCompile(`<(https?://[^>\s]+)>`)
	// refLinkRe is a reference definition: [name]: target.
	refLinkRe = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s+(\S+)`)
)

// pageLinks returns the targets of a page's links, outside code.
func pageLinks(prose []string) []string {
	text := codeSpanRe.ReplaceAllString(strings.Join(prose, "\n"), "")
	var out []string
	for _, re := range []*regexp.Regexp{inlineLinkRe, autoLinkRe, refLinkRe} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// checkLink checks one link target of page; anchors caches each page's.
func checkLink(page, target string, anchors map[string]map[string]bool) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		u, err := url.Parse(target)
		switch {
		case err != nil:
			return err
		case u.Scheme != "https":
			return fmt.Errorf("use https")
		case !strings.Contains(u.Host, ".") || strings.ContainsAny(target, " <>\""):
			return fmt.Errorf("not a well-formed URL")
		}
		return nil
	}
	file, anchor, _ := strings.Cut(target, "#")
	dest := page
	if file != "" {
		dest = path.Clean(path.Join(path.Dir(page), file))
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return fmt.Errorf("it leaves the repository")
		}
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(dest))); err != nil {
			return fmt.Errorf("no %s in the repository", dest)
		}
	}
	if anchor == "" {
		return nil
	}
	if !strings.HasSuffix(dest, ".md") {
		return fmt.Errorf("an anchor into %s, which is not a Markdown page", dest)
	}
	if anchors[dest] == nil {
		raw, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(dest)))
		if err != nil {
			return err
		}
		anchors[dest] = headingAnchors(dest, string(raw))
	}
	if !anchors[dest][anchor] {
		return fmt.Errorf("%s has no heading whose anchor is #%s", dest, anchor)
	}
	return nil
}

// headingAnchors returns the anchors GitHub gives a page's headings: the
// heading's text in lower case, code marks and punctuation other than -
// and _ taken out, spaces made -, and -1, -2 … after a repeated one.
func headingAnchors(page, text string) map[string]bool {
	_, prose := parsePage(page, text)
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose {
		h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		h = inlineLinkRe.ReplaceAllStringFunc(h, func(l string) string { // [text](url) → text
			return l[strings.Index(l, "[")+1 : strings.Index(l, "]")]
		})
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestHeadingAnchors: anchors are GitHub's for the kinds of headings the
// docs have.
func TestHeadingAnchors(t *testing.T) {
	got := headingAnchors("x.md", "# Scan: what breaks on the way to a release\n## 2. The intents (only for `!k8s` typed in channels)\n"+
		"## The sources, and `../shared`\n## Notes\n## Notes\n## `bot ask`\n```sh\n# not a heading\n```\n## Dates — and more\n")
	for _, want := range []string{"scan-what-breaks-on-the-way-to-a-release", "2-the-intents-only-for-k8s-typed-in-channels",
		"the-sources-and-shared", "notes", "notes-1", "bot-ask", "dates--and-more"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment in a code block became a heading")
	}
}
