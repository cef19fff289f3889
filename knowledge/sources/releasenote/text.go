package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what a Mention or Notice keeps of the document's words.
const (
	maxTextRunes  = 600 // Text: the heading and the first paragraphs of its body
	maxTitleRunes = 80  // Title: the feature's name as the note gives it
)

var (
	reImage    = lazyre.New(`!\[([^\]]*)\]\([^)]*\)`)
	reLink     = lazyre.New(`\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
	reAutoLink = lazyre.New(`<(https?://[^>\s]+)>`)
	reHTMLTag  = lazyre.New(`<[^>]{1,300}>`)
	// reCondition opens a condition: "如果 X，则 Y" is kept whole in a title.
	reCondition = lazyre.New(`^(?:如果|若|假如|当|If\s|When\s)`)
	// reContext is a clause that sets the scene rather than names the
	// feature: "在 Kubernetes v1.29 中", "当 ... 时", "如果 ...".
	reContext = lazyre.New(`^(?:(?:在|从|自|当|随着|由于|In|When|As|Since)\s.*|(?:在|从|自|当|随着|由于).*)(?:中|时|后|下|里|前|起|开始|以来|之后|之前)$|^(?:如果|若|假如|If)`)
)

// inline turns Markdown inline syntax into text for reading: images go,
// links keep their text, emphasis markers and HTML tags go, inline code keeps
// its backticks. Spaces are collapsed.
func inline(s string) string {
	if strings.Contains(s, "![") {
		s = reImage().ReplaceAllString(s, "")
	}
	if strings.Contains(s, "](") {
		s = reLink().ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "<") {
		s = reAutoLink().ReplaceAllString(s, "$1")
		s = reHTMLTag().ReplaceAllString(s, "")
	}
	if strings.Contains(s, "**") || strings.Contains(s, "__") {
		s = emphasis.Replace(s)
	}
	return collapseSpaces(s)
}

var emphasis = strings.NewReplacer("**", "", "__", "")

// collapseSpaces turns runs of spaces, tabs, no-break and ideographic
// spaces into one space and trims the ends.
func collapseSpaces(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\u00a0' || r == '\u3000' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// clip cuts s to at most n runes, preferring the end of a sentence.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n]
	for i := len(rs) - 1; i > n/2; i-- {
		switch rs[i] {
		case '。', '！', '？', '；', '\n':
			return strings.TrimSpace(string(rs[:i+1]))
		}
	}
	return strings.TrimSpace(string(rs)) + "…"
}

// titleOf picks the words that name the feature an entry describes: its
// first clause that is not scene-setting ("在 v1.29 中"), not left hanging
// ("其中 需要重点关注的") and not a few characters long, without a bracket
// the clause cut open. It falls back to the first clause.
func titleOf(s string) string {
	parts := strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune("，。；！？,;!?", r)
	})
	pick := ""
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if i == 0 {
			pick = p
		}
		if utf8.RuneCountInString(p) < 4 || strings.HasSuffix(p, "的") || reContext().MatchString(p) {
			if reCondition().MatchString(p) && i+1 < len(parts) {
				pick = p + "，" + strings.TrimSpace(parts[i+1]) // "如果 X，则 Y" says it whole
				break
			}
			continue
		}
		pick = p
		break
	}
	for _, open := range []string{"（", "("} {
		close := map[string]string{"（": "）", "(": ")"}[open]
		if i := strings.LastIndex(pick, open); i > 0 && !strings.Contains(pick[i:], close) {
			pick = strings.TrimSpace(pick[:i])
		}
	}
	return clip(pick, maxTitleRunes)
}

// clauses splits text at Chinese and Western clause punctuation.
func clauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case '，', '。', '；', '！', '？', ',', ';', '!', '?', '\n', '：':
			return true
		}
		return false
	})
}

// firstClause is s up to its first clause punctuation.
func firstClause(s string) string {
	if cs := clauses(s); len(cs) > 0 {
		return strings.TrimSpace(cs[0])
	}
	return ""
}

// trimDecor trims emoji, symbols and punctuation from both ends of s,
// keeping letters, digits and closing brackets that belong to the words.
func trimDecor(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ')' || r == '）' || r == '`')
	})
}

// isHan reports whether r is a Han character.
func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// lang guesses the language of a document: "zh" when Han characters are a
// good share of its letters, "en" otherwise.
func lang(s string) string {
	han, letters := 0, 0
	for _, r := range s {
		if isHan(r) {
			han++
			letters++
		} else if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters > 0 && han*5 >= letters {
		return "zh"
	}
	return "en"
}
