package question

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// decide turns a reading into the question it asks, or into an error
// saying what was understood and offering the closest questions when the
// reading is not sure: an unknown word, a feature name several KEPs match,
// a negation, two KEPs at once. v may be nil: no feature names are known.
func (r *reading) decide(v *Vocabulary) (knowledge.Question, *knowledge.Error) {
	var k knowledge.Question
	if !r.intents.has(intentSubscribe | intentDigests) {
		r.intents &^= intentStop // "when does support stop": no digests to stop
	}
	switch {
	case r.negated:
		return k, r.unsure("I can't answer a question with a not in it yet.", r.positive(v))
	case r.intents.has(intentSubscriptions) && !r.intents.has(intentSubscribe|intentUnsubscribe):
		k.Kind = knowledge.AskSubscriptions
		return r.only(k)
	case r.intents.has(intentUnsubscribe) || r.intents.has(intentDigests) && r.intents.has(intentStop):
		k.Kind = knowledge.AskUnsubscribe
		if r.intents.has(intentCVE) {
			k.Words = "cves"
		}
		return r.only(k)
	case r.intents.has(intentSubscribe):
		return r.subscribe(k)
	case r.intents.has(intentSearch):
		if len(r.content) == 0 {
			return k, r.unsure("What should I search for?", nil)
		}
		k.Kind, k.Words = knowledge.AskSearch, strings.ToLower(strings.Join(r.words(), " "))
		return k, nil
	case r.intents.has(intentHelp) && len(r.versions)+len(r.keps)+len(r.content) == 0:
		k.Kind = knowledge.AskHelp
		return k, nil
	case r.laterPatch != nil && len(r.versions) == 1 && len(r.keps) == 0 && (r.intents.has(intentUpgrade) || r.to):
		return r.patchUpgrade(k)
	case len(r.vulnIDs) > 0 || r.intents.has(intentCVE) && len(r.versions) < 2 && len(r.keps) == 0:
		return r.cve(k)
	case len(r.prs) > 0:
		return r.pullRequest(k)
	case r.intents.has(intentScan) && len(r.keps) == 0,
		r.intents.has(intentBreak|intentMine) && len(r.versions) == 1 && len(r.keps) == 0,
		r.intents.has(intentMine) && len(r.versions) == 2:
		return k, r.scanHowTo() // what breaks if I go to 1.36: only the manifests tell
	case len(r.keps) > 1:
		var alts []string
		for _, n := range r.keps[:min(len(r.keps), maxChoices)] {
			alts = append(alts, "kep "+strconv.Itoa(n))
		}
		return k, r.unsure("Ask about one KEP at a time.", alts)
	case len(r.keps) == 1:
		return r.kep(k, r.keps[0], v)
	case r.sig != "":
		return r.sigQuestion(k, v)
	case len(r.versions) > 2:
		return k, r.unsure("Give at most two releases: the one you run and the one you go to.", nil)
	case len(r.versions) == 2:
		return r.twoReleases(k)
	case len(r.content) > 0:
		return r.feature(k, v)
	case len(r.versions) == 1:
		return r.release(k, r.versions[0])
	}
	return r.noRelease(k)
}

// only returns q when nothing else was asked beside it: no unknown word.
func (r *reading) only(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	if len(r.content) > 0 {
		return q, r.notAll(q)
	}
	return q, nil
}

// subscribe reads "subscribe this channel to deprecations [of sig X]
// [from 1.29]": the SIG and the release become filters. A subscription
// changes what a channel gets, so it is read only when the text names
// what to subscribe to (deprecations, digests), never from "subscribe".
func (r *reading) subscribe(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	q.Kind = knowledge.AskSubscribe
	st := r.stage()
	if r.intents.has(intentCVE) && st == knowledge.StageNone {
		q.Words = "cves" // subscribe this channel to CVE digests
		if len(r.versions) == 1 {
			q.Filters = map[string]string{"from": r.versions[0].String()}
		}
		return r.only(q)
	}
	if (st != knowledge.StageNone && st != knowledge.StageDeprecated && st != knowledge.StageRemoved) ||
		(st == knowledge.StageNone && !r.intents.has(intentDigests)) {
		return q, r.unsure("I can subscribe a channel to deprecation digests or CVE digests.", []string{"subscribe deprecations", "subscribe cves"})
	}
	if r.sig != "" || len(r.versions) == 1 {
		q.Filters = map[string]string{}
		if r.sig != "" {
			q.Filters["sig"] = r.sig
		}
		if len(r.versions) == 1 {
			q.Filters["from"] = r.versions[0].String()
		}
		if _, err := digest.ParseFilter(q.Filters); err != nil {
			return q, r.unsure(knowledge.ErrorMessage(err), []string{"subscribe deprecations"})
		}
	}
	return r.only(q)
}

// kep reads a question about one KEP by number: its card, or with a stage
// and a yes/no word, whether it is at that stage (in the release given).
func (r *reading) kep(q knowledge.Question, n int, v *Vocabulary) (knowledge.Question, *knowledge.Error) {
	q.Kind, q.KEP = knowledge.AskKEP, n
	if st := r.stage(); st != knowledge.StageNone && len(r.versions) <= 1 && (r.yesNo || len(r.versions) == 1 || !r.wh) {
		q.Stage = st
		if len(r.versions) == 1 {
			q.Version = r.versions[0]
		}
	}
	if len(r.content) > 0 {
		f := v.resolve(r.words())
		if !f.sure || f.best[0].Number != n {
			return q, r.notAll(q)
		}
	}
	return q, nil
}

// sigQuestion reads a question about a SIG's KEPs, in one release or all.
func (r *reading) sigQuestion(q knowledge.Question, v *Vocabulary) (knowledge.Question, *knowledge.Error) {
	q.Kind, q.Words = knowledge.AskSIG, r.sig
	if v != nil && len(v.sigs) > 0 && !v.sigs[r.sig] {
		name, ok, near := v.nearSIG(r.sig)
		if !ok {
			return q, r.unsure("I know no SIG named "+knowledge.Echo(r.sig)+".", prefixAll("sig ", near))
		}
		q.Words = name // sig storgae: storage, the one SIG near it
	}
	if !knowledge.IsSIGName(r.sig) || len(r.versions) > 1 {
		return q, r.unsure("Give one SIG name and at most one release, e.g. sig node 1.30.", nil)
	}
	if len(r.versions) == 1 {
		q.Version = r.versions[0]
	}
	return r.only(q)
}

// twoReleases reads an upgrade (upgrade, from… to…, before upgrading) or
// a comparison between two releases, older first.
func (r *reading) twoReleases(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	from, to := r.versions[0], r.versions[1]
	reversed := to.Less(from)
	if reversed {
		from, to = to, from
	}
	q.Version, q.To = from, to
	q.Patch, q.ToPatch = r.patches[from], r.patches[to]
	q.Kind = knowledge.AskDiff
	if r.intents.has(intentUpgrade|intentAction) || (r.to && !r.intents.has(intentDiff)) {
		q.Kind = knowledge.AskUpgrade // upgrade, before…, from 1.29 to 1.31
		if reversed {
			return q, r.unsure(to.String()+" is newer than "+from.String()+": I answer upgrades, from the release you run to a newer one.", []string{q.Canonical()})
		}
	}
	// An upgrade or a comparison lists what was deprecated and removed
	// (APIs too) and what breaks: those words ask nothing more of it.
	st := r.stage()
	if (st != knowledge.StageNone && st != knowledge.StageDeprecated && st != knowledge.StageRemoved) ||
		r.intents&^(intentUpgrade|intentAction|intentDiff|intentNew|intentBreak|intentCVE) != 0 {
		return q, r.notAll(q)
	}
	return r.only(q)
}

// release reads a question about one release: what reached a stage in it,
// what it deprecated or removed, its upgrade notes, support dates, patches,
// or the release itself.
func (r *reading) release(q knowledge.Question, v knowledge.Version) (knowledge.Question, *knowledge.Error) {
	q.Version = v
	st, asked := r.stage(), r.intents
	switch {
	case asked.has(intentAction) || (asked.has(intentUpgrade) && st == knowledge.StageNone):
		q.Kind, q.Notice = knowledge.AskNotices, knowledge.NoticeUpgrade
	case asked.has(intentSupported) || (asked.has(intentEOL) && r.yesNo):
		q.Kind = knowledge.AskSupported // is 1.31 supported, is 1.29 end of life?
	case asked.has(intentEOL):
		q.Kind = knowledge.AskLifecycle
	case asked.has(intentPatches | intentLatest):
		q.Kind = knowledge.AskPatches
	case len(r.stages) == 2 && !r.stages[0].IsGraduation() && !r.stages[1].IsGraduation(),
		asked.has(intentNotes) && st == knowledge.StageNone:
		q.Kind = knowledge.AskNotices // deprecated or removed, release notes: every notice
	case st == knowledge.StageDeprecated:
		q.Kind, q.Notice = knowledge.AskNotices, knowledge.NoticeDeprecation
	case st == knowledge.StageRemoved:
		q.Kind, q.Notice = knowledge.AskNotices, knowledge.NoticeRemoval
	case st != knowledge.StageNone:
		q.Kind, q.Stage = knowledge.AskReleaseStage, st
	case len(r.stages) > 1:
		return q, r.unsure("Ask about one stage at a time.", r.stageChoices(v))
	case asked&^(intentNew|intentReleases|intentNotes) != 0:
		q.Kind = knowledge.AskRelease
		return q, r.notAll(q)
	default:
		q.Kind = knowledge.AskRelease
	}
	return r.only(q)
}

// noRelease reads what needs no release nor name: supported, latest,
// releases, help; a stage alone asks which release.
func (r *reading) noRelease(q knowledge.Question) (knowledge.Question, *knowledge.Error) {
	asked := r.intents
	switch {
	case asked.has(intentSupported):
		q.Kind = knowledge.AskSupported
	case asked.has(intentLatest | intentPatches):
		q.Kind = knowledge.AskLatest
	case asked.has(intentReleases):
		q.Kind = knowledge.AskReleases
	case asked.has(intentHelp):
		q.Kind = knowledge.AskHelp
	case asked.has(intentEOL):
		return q, r.unsure("Which release? Ask e.g. 1.31 eol, or supported for every release in support.", []string{"supported"})
	case r.stage() != knowledge.StageNone || len(r.stages) > 0 || asked.has(intentNew|intentAction|intentUpgrade|intentDiff|intentBreak):
		return q, r.unsure("Which release? Ask e.g. 1.33 ga, 1.33 deprecations or upgrade 1.32 1.33; releases lists them.", []string{"releases"})
	case len(r.numbers) > 0:
		var alts []string
		for _, n := range r.numbers[:min(len(r.numbers), maxChoices)] {
			alts = append(alts, "kep "+strconv.Itoa(n))
		}
		return q, r.unsure("Is that a KEP number? Ask kep and the number.", alts)
	default:
		return q, r.offTopic()
	}
	return q, nil
}
