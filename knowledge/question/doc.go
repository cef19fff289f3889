// Package question is how text becomes a knowledge.Question: the grammar
// kepbot documents (kep 4639, 1.29 ga, upgrade 1.29 1.32, is kep 753 ga,
// …), its "did you mean", and the reader of questions as people type them
// in chat, in English and Chinese.
//
// # Where it sits
//
// The nouns a question is made of (Version, Stage, NoticeKind, Error) and
// the Question itself live in package knowledge, beside the engine that
// answers them, because the engine, the cache and the store all speak of
// them. This package imports knowledge and returns its values, as the
// source parsers (releasenote, kepyaml, website) return a Corpus; knowledge
// never imports it. So the engine does not read text: every adapter
// (Slack, Discord, the terminal, `bot ask`) reads it with one Reader and
// then calls knowledge.Answerer.Answer with the Question. One grammar, one
// reader, every platform. The reader knows the names of features through a
// KEPSource, which *engine.Engine is (Engine.KEPs: its catalog, so the
// names follow the knowledge as it is replaced).
//
// Subscribe filters (sig:, from:, schedule:, format:) are checked by
// knowledge/digest's ParseFilter, so this package imports that one too
// (knowledge/digest imports neither this package nor anything beyond
// knowledge). The filters' order, which Canonical writes, stays in
// knowledge as FilterKeys.
//
// Question.Canonical, which writes a question as the grammar reads it, is a
// method of the noun and stays in knowledge; Parse reads every canonical
// form back to the same question, and the tests hold it to that. Help (the
// usage lines error messages end with) is an answer the engine gives, so
// its table stays in knowledge too; this package reads it through
// knowledge.Usage and knowledge.HelpTopic.
//
// # Reading
//
// Reader.Read tries the grammar first (Parse: parse.go, parse_args.go,
// normalize.go), exactly as fast and as strict as before. Only text the
// grammar cannot read is read as chat:
//
//   - clean.go takes out the noise: mentions, @everyone, URLs, emoji, code
//     and markdown marks, punctuation, contractions; a link to a KEP, a
//     SIG's KEPs or a pull request becomes the words it names (links.go),
//     and traditional Chinese becomes simplified (chinese.go);
//   - tokens.go cuts it into words, Chinese into the lexicon's words
//     (longest first), and finds the lexicon's phrases (end of life);
//   - words.go and lexicon.go are that lexicon: question words, stages and
//     what can be asked, in English and Chinese;
//   - free.go gathers what the words say (releases, KEPs, stages, intents,
//     a yes/no question, unknown words), putting misspellings right against
//     closed lists only (distance.go);
//   - free_decide.go and free_feature.go decide the question; a feature
//     named in words is found by vocab.go and vocab_match.go (names,
//     documents' names, feature gates, aliases in names.go), the KEP whose
//     names hold the words clearly best answering, the others that share
//     some of them its runners-up;
//   - free_api.go reads an API's lifecycle; free_scan.go says how to ask
//     what only a scan answers (it needs the manifests); pr.go reads pull
//     requests (pr N);
//   - focus.go finds the one attribute asked of a KEP or a release ("which
//     SIG owns KEP 1287"), for the answer to put first;
//   - arguments.go reads a misspelt gate or SIG of the grammar as the one
//     name near it, and offers the API kinds near a misspelt one;
//   - replies.go says what was understood when the reader is not sure.
//
// It never guesses: any word it does not know, a name several KEPs share,
// a "not", a subscription without saying to what, or text that asks
// nothing kepbot answers make Read fail with what it understood and the
// closest questions, which adapters offer as buttons.
//
// It imports knowledge, knowledge/digest, knowledge/internal/flat,
// knowledge/internal/lazyre, knowledge/internal/prose.
package question
