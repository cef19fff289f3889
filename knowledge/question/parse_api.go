package question

import (
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// The API forms of the grammar: api KIND|GROUP/VERSION [KIND] [in
// VERSION], and scan [FROM] TO followed by manifests.

// parseAPI reads what follows "api": a kind, a group/version, or both,
// and optionally the release asked about ("in 1.24", or just "1.24").
func parseAPI(args []string) (knowledge.Question, error) {
	var words []string
	var at knowledge.Version
	for i := 0; i < len(args); i++ {
		a := args[i]
		low := strings.ToLower(a)
		if low == "in" && i+1 < len(args) && looksVersion(strings.ToLower(args[i+1])) {
			continue
		}
		if looksVersion(low) && !knowledge.IsAPIVersionName(low) {
			v, err := knowledge.ParseVersion(a)
			if err != nil || !at.IsZero() {
				return knowledge.Question{}, knowledge.BadInput("api", "%q is not a release like 1.24.", knowledge.Echo(a))
			}
			at = v
			continue
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return knowledge.Question{}, knowledge.BadInput("api", "Which API? Name a kind or a group/version.")
	}
	if len(words) > 2 {
		return knowledge.Question{}, knowledge.BadInput("api", "Name one kind, one group/version, or a group/version and a kind.")
	}
	for i, w := range words {
		if strings.Contains(w, "/") || knowledge.IsAPIVersionName(strings.ToLower(w)) {
			if i != 0 {
				return knowledge.Question{}, knowledge.BadInput("api", "Give the group/version first, then the kind.")
			}
			if _, _, ok := knowledge.ParseAPIVersion(w); !ok {
				return knowledge.Question{}, knowledge.BadInput("api", "%q is not written like an apiVersion (batch/v1beta1, or v1 for the core group).", knowledge.Echo(w))
			}
			continue
		}
		if !isKindName(w) {
			return knowledge.Question{}, knowledge.BadInput("api", "%q is not an API kind; kinds are one word of letters and digits, like CronJob.", knowledge.Echo(w))
		}
	}
	if len(words) == 2 && !(strings.Contains(words[0], "/") || knowledge.IsAPIVersionName(strings.ToLower(words[0]))) {
		return knowledge.Question{}, knowledge.BadInput("api", "Name one kind, or a group/version and a kind.")
	}
	return knowledge.Question{Kind: knowledge.AskAPI, Words: strings.Join(words, " "), Version: at}, nil
}

// isKindName reports whether s can be an API kind: letters and digits,
// starting with a letter, at most 100 bytes.
func isKindName(s string) bool {
	if s == "" || len(s) > 100 || !unicode.IsLetter(rune(s[0])) {
		return false
	}
	for _, r := range s {
		if r >= 0x80 || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// parseScan reads what follows "scan": the release gone to, or the one
// run now and the one gone to.
func parseScan(args []string) (knowledge.Question, error) {
	var vs []knowledge.Version
	for _, a := range args {
		switch strings.ToLower(strings.TrimLeft(a, "-")) {
		case "to", ">", "→", "from":
			continue
		case "cluster", "my", "kubeconfig", "context", "集群":
			var vs []knowledge.Version
			for _, b := range args {
				if v, err := knowledge.ParseVersion(b); err == nil {
					vs = append(vs, v)
				}
			}
			return knowledge.Question{}, clusterScan(vs)
		}
		v, err := knowledge.ParseVersion(a)
		if err != nil {
			return knowledge.Question{}, knowledge.BadInput("scan", "%q is not a release like 1.36.", knowledge.Echo(a))
		}
		vs = append(vs, v)
	}
	switch len(vs) {
	case 1:
		return knowledge.Question{Kind: knowledge.AskScan, To: vs[0]}, nil
	case 2:
		if !vs[0].Less(vs[1]) {
			fix := "scan " + vs[1].String() + " " + vs[0].String()
			if vs[0] == vs[1] {
				return knowledge.Question{}, knowledge.BadInput("scan", "Those are the same release; give the one you run, then the one you go to.")
			}
			return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT,
				Message:     vs[1].String() + " is older than " + vs[0].String() + ": give the release you run first, then the one you go to: " + fix + ".",
				Suggestions: []string{fix}}
		}
		return knowledge.Question{Kind: knowledge.AskScan, Version: vs[0], To: vs[1]}, nil
	}
	return knowledge.Question{}, knowledge.BadInput("scan", "Which release do you go to?")
}

// SplitScan splits a scan question from the manifests that follow it in
// the same message: the question is its first line (up to a code fence),
// the manifests the rest, taken out of their code fences (```yaml … ```;
// several blocks are joined as documents of one stream). A mention of the
// bot before the question is passed over. ok is false when text does not
// start with "scan".
func SplitScan(text string) (head string, manifest []byte, ok bool) {
	rest := strings.TrimLeft(text, " \t\r\n")
	rest = skipMention(rest)
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "scan") || (len(rest) > 4 && !isBreak(rest[4])) {
		return "", nil, false
	}
	end := len(rest)
	if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
		end = i
	}
	if i := strings.Index(rest, "```"); i >= 0 && i < end {
		end = i
	}
	head = strings.TrimSpace(rest[:end])
	return head, unfence(rest[end:]), true
}

// skipMention passes over a leading mention: <@U123>, <@!123>, @kepbot.
func skipMention(s string) string {
	switch {
	case strings.HasPrefix(s, "<@"):
		if i := strings.IndexByte(s, '>'); i > 0 && i < 64 {
			return strings.TrimLeft(s[i+1:], " \t")
		}
	case strings.HasPrefix(s, "@"):
		if i := strings.IndexAny(s, " \t\r\n"); i > 0 && i < 64 {
			return strings.TrimLeft(s[i:], " \t")
		}
	}
	return s
}

func isBreak(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == '`' }

// languageTag reports whether s names a code block's language (yaml,
// json, ""): a word of letters, digits and + - _ . #.
func languageTag(s string) bool {
	if len(s) > 20 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+-_.#", r)) {
			return false
		}
	}
	return true
}

// unfence returns the contents of the code blocks in s, joined as
// documents of one YAML stream, or s itself when it holds none.
func unfence(s string) []byte {
	if !strings.Contains(s, "```") {
		return []byte(strings.TrimLeft(s, "\r\n"))
	}
	var blocks []string
	for {
		i := strings.Index(s, "```")
		if i < 0 {
			break
		}
		body := s[i+3:]
		// What follows a fence on its line is the block's language (```yaml)
		// when it is one word, else content: Slack writes ```apiVersion: v1.
		if nl := strings.IndexByte(body, '\n'); nl >= 0 && languageTag(strings.TrimRight(body[:nl], "\r")) {
			body = body[nl+1:]
		}
		j := strings.Index(body, "```")
		if j < 0 {
			blocks = append(blocks, body) // an unclosed block runs to the end
			break
		}
		blocks = append(blocks, body[:j])
		s = body[j+3:]
	}
	return []byte(strings.Join(blocks, "\n---\n"))
}

// JoinManifests joins the manifests that followed a scan question in its
// message and those of a file attached to it, as documents of one stream.
func JoinManifests(inline, file []byte) []byte {
	if len(strings.TrimSpace(string(inline))) == 0 {
		return file
	}
	if len(file) == 0 {
		return inline
	}
	return append(append(append([]byte(nil), inline...), "\n---\n"...), file...)
}
