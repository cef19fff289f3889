package question

import (
	"github.com/kepbot/kepbot/knowledge"
)

// The attribute a question asks of a KEP, a feature gate or a release:
// "which SIG owns KEP 1287?" asks KEP-1287's SIG, "1.33 的代号是什么" the
// theme of 1.33. The question is the card (kep 1287, 1.33), and its answer
// should put that attribute first (reply.focus).
const (
	focusSIG    = knowledge.FocusSIG
	focusOwner  = knowledge.FocusOwner
	focusGates  = knowledge.FocusGates
	focusStatus = knowledge.FocusStatus
	focusTheme  = knowledge.FocusTheme
	focusDate   = knowledge.FocusDate
)

// many is two attributes asked at once: the whole card answers them.
const many knowledge.Focus = "many"

// cue is what one word says of the attribute asked.
type cue uint8

const (
	cueSIG    cue = 1 << iota // sig, group: the SIG
	cueWho                    // who, 谁: a person, or the SIG that owns it
	cueOwn                    // owns, responsible, 负责: the owner, with sig or who the SIG
	cueStatus                 // status, stage, planned, eta
	cueWhen                   // when, 什么时候: of a KEP with a stage, its status; of a release, its day
	cueTheme                  // theme, code name, called
	cueDate                   // released, date, come out
)

// focusCues maps a word (lower case; a phrase by its first word) to what
// it says of the attribute asked.
var focusCues = map[string]cue{
	"sig": cueSIG, "sigs": cueSIG, "哪个组": cueSIG,
	"who": cueWho, "whom": cueWho, "whos": cueWho, "whose": cueWho, "ask": cueWho, "contact": cueWho,
	"谁": cueWho, "谁管": cueWho, "找谁": cueWho, "问谁": cueWho, "找谁问": cueWho,
	"owns": cueOwn, "own": cueOwn, "owner": cueOwn, "owned": cueOwn, "responsible": cueOwn, "maintains": cueOwn,
	"maintainer": cueOwn, "maintainers": cueOwn, "belong": cueOwn, "belongs": cueOwn, "负责": cueOwn,
	"维护": cueOwn, "属于": cueOwn, "在做": cueOwn, "归哪个": cueOwn,
	"status": cueStatus, "state": cueStatus, "stage": cueStatus, "progress": cueStatus, "eta": cueStatus,
	"planned": cueStatus, "plan": cueStatus, "planning": cueStatus, "target": cueStatus, "targeted": cueStatus,
	"targeting": cueStatus, "expected": cueStatus, "scheduled": cueStatus, "状态": cueStatus, "阶段": cueStatus,
	"进展": cueStatus, "情况": cueStatus, "计划": cueStatus, "预计": cueStatus, "打算": cueStatus,
	"哪个版本": cueStatus, "哪一版": cueStatus,
	"when": cueWhen, "什么时候": cueWhen, "何时": cueWhen, "几时": cueWhen, "啥时候": cueWhen,
	"theme": cueTheme, "codename": cueTheme, "code": cueTheme, "called": cueTheme, "name": cueTheme, "named": cueTheme,
	"主题": cueTheme, "代号": cueTheme, "叫什么": cueTheme, "名字": cueTheme,
	"released": cueDate, "date": cueDate, "day": cueDate, "out": cueDate, "日期": cueDate, "哪天": cueDate,
	"发版": cueDate, "发布时间": cueDate, "发布日期": cueDate,
}

// focus returns the one attribute q, read from r, asks: of a KEP's card or
// a gate, its SIG, owner, feature gates or status; of a release's card, its
// theme or day. "" when q asks for the whole answer, another question, or
// two attributes at once ("the sig and status of KEP 2400").
func (r *reading) focus(q knowledge.Question) knowledge.Focus {
	var kep, release bool
	switch q.Kind {
	case knowledge.AskKEP:
		kep = q.Stage == knowledge.StageNone // a yes/no question answers itself first
	case knowledge.AskGate:
		kep = true
	case knowledge.AskRelease:
		release = true
	}
	if !kep && !release {
		return ""
	}
	var cues cue
	gates, kepWords := false, false
	for _, t := range r.toks {
		if t.inWord {
			continue
		}
		cues |= focusCues[t.text]
		gates = gates || (t.sense.role == roleIntent && t.sense.intent == intentGate)
		kepWords = kepWords || t.sense.role == roleKEP
	}
	found := knowledge.FocusNone
	add := func(f knowledge.Focus) bool {
		if found != "" && found != f {
			found = many
			return false
		}
		found = f
		return true
	}
	if kep {
		switch {
		case cues&cueSIG != 0:
			add(focusSIG)
		case cues&cueWho != 0:
			add(focusOwner)
		case cues&cueOwn != 0 && !kepWords: // which KEP owns the gate: the KEP itself
			add(focusOwner)
		}
		if gates && q.Kind == knowledge.AskKEP {
			add(focusGates)
		}
		if cues&cueStatus != 0 || (cues&cueWhen != 0 || r.wh) && (len(r.stages) > 0 || r.weak != knowledge.StageNone) {
			add(focusStatus)
		}
	} else {
		if cues&cueTheme != 0 {
			add(focusTheme)
		}
		if cues&cueDate != 0 || cues&cueWhen != 0 && found == "" && r.intents&^(intentNew|intentReleases) == 0 {
			add(focusDate)
		}
	}
	if found == many {
		return ""
	}
	return found
}
