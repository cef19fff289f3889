package question

import (
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// role is what a word of the lexicon does in a question typed in chat.
type role uint8

const (
	roleNone     role = iota // not in the lexicon: a word of a feature's name, or unknown
	roleFiller               // carries no meaning here: what, the, please, went, kubernetes, 的
	roleYesNo                // makes a yes/no question: is, does, 吗, 是否 (at the start, in English)
	roleStage                // a stage: ga, stable, beta, 弃用
	roleIntent               // what is asked: end of life, patches, upgrade, help
	roleGreeting             // hello, 你好
	roleThanks               // thanks, 谢谢
	roleNegation             // not, 不: a question kepbot cannot answer as asked
	roleKEP                  // kep, enhancement: the number that follows is a KEP's
	rolePR                   // pr, pull request: the number that follows is a pull request's
)

// intent is what a question asks, besides stages.
type intent uint32

const (
	intentNew           intent = 1 << iota // what's new in a release: the release
	intentEOL                              // end of life, support dates
	intentSupported                        // (still) supported
	intentLatest                           // latest, newest
	intentPatches                          // patch releases
	intentAction                           // action required, before upgrading
	intentUpgrade                          // upgrade A to B
	intentDiff                             // between A and B, vs, compare
	intentGate                             // feature gate
	intentSIG                              // sig
	intentSearch                           // search, find
	intentHelp                             // help, what can you do
	intentReleases                         // every release
	intentSubscribe                        // subscribe (to deprecations)
	intentUnsubscribe                      // unsubscribe, stop digests
	intentSubscriptions                    // this channel's subscriptions
	intentStop                             // stop, cancel: with digests, unsubscribe
	intentDigests                          // digests, notifications: what a subscription sends
	intentNotes                            // release notes: every notice of a release
	intentScan                             // scan, manifests, yaml: a scan, which needs the manifests
	intentMine                             // my cluster, my deployments, helm charts: with a release, a scan
	intentBreak                            // what breaks: with one release, a scan; with two, an upgrade
	intentCVE                              // vulnerabilities, CVEs, 漏洞: of a release, or one by its ID
)

// has reports whether set holds i.
func (set intent) has(i intent) bool { return set&i != 0 }

// sense is the meaning of one lexicon entry.
type sense struct {
	role   role
	stage  knowledge.Stage // roleStage
	weak   bool            // roleStage: "graduated" means GA unless beta or alpha is said too
	intent intent          // roleIntent
}

// maxPhrase is the most words a lexicon phrase has.
const maxPhrase = 4

var (
	filler   = sense{role: roleFiller}
	yesNo    = sense{role: roleYesNo}
	greeting = sense{role: roleGreeting}
	thanks   = sense{role: roleThanks}
	negation = sense{role: roleNegation}
	kepWord  = sense{role: roleKEP}
	prWord   = sense{role: rolePR}
)

func stage(s knowledge.Stage) sense     { return sense{role: roleStage, stage: s} }
func weakStage(s knowledge.Stage) sense { return sense{role: roleStage, stage: s, weak: true} }
func asks(i intent) sense               { return sense{role: roleIntent, intent: i} }

// lexicon maps a word or a phrase (words joined by single spaces, lower
// case) to its sense, English and Chinese together. It is built once from
// englishWords and chineseWords, which must not share a key.
var lexicon = buildLexicon()

// chineseMaxRunes is the longest Chinese word of the lexicon, for
// segmenting text without spaces.
var chineseMaxRunes int

func buildLexicon() map[string]sense {
	m := make(map[string]sense, len(englishWords)+len(chineseWords))
	for w, s := range englishWords {
		m[w] = s
	}
	for w, s := range chineseWords {
		if _, dup := m[w]; dup {
			panic("question: lexicon word twice: " + w)
		}
		m[w] = s
		chineseMaxRunes = max(chineseMaxRunes, len([]rune(w)))
	}
	return m
}

// typoWords are the lexicon's words a misspelling may be corrected to: the
// English words of stages and intents of four letters or more (and a few
// question words), sorted. Fillers are left out but for those: a word that
// is not in the lexicon is more likely part of a feature's name than a
// misspelt "the".
var typoWords = buildTypoWords()

// typoNears are typoWords with their letters, for closeTo.
var typoNears = nears(typoWords)

func buildTypoWords() []string {
	var out []string
	for w, s := range englishWords {
		if strings.Contains(w, " ") || len(w) < 2 || (len(w) < 3 && s.role != roleStage) {
			continue
		}
		switch {
		case s.role == roleIntent && s.intent&(intentScan|intentMine|intentBreak) != 0:
			continue // manifests, helm, breaks: no misspelling is read as them
		case s.role == roleStage || s.role == roleIntent || s.role == roleKEP:
		case s.role == roleFiller && typoFillers[w]:
		case s.role == roleYesNo && len(w) >= 3:
		default:
			continue
		}
		out = append(out, w)
	}
	// the words of phrases of stages and intents: "life" of "end of life"
	for w, s := range englishWords {
		if !strings.Contains(w, " ") || (s.role != roleStage && s.role != roleIntent) {
			continue
		}
		for _, p := range strings.Fields(w) {
			if len(p) >= 4 && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	sortStrings(out)
	return out
}

// typoFillers are the fillers worth correcting: misspelt, they would
// otherwise stay unknown and make a plain question look unreadable.
var typoFillers = map[string]bool{
	"what": true, "which": true, "when": true, "does": true, "release": true, "released": true,
	"version": true, "kubernetes": true, "features": true, "feature": true, "about": true,
	"status": true, "please": true, "still": true, "went": true, "there": true, "were": true,
	"the": true, "and": true, "for": true, "how": true, "who": true, "tell": true,
	"show": true, "list": true,
}
