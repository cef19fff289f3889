// Package question is how text becomes a knowledge.Question: the grammar
// kepbot documents (kep 4639, 1.29 ga, upgrade 1.29 1.32, …), its "did you
// mean", and the reader of questions as people type them in chat.
//
// # Where it sits
//
// The nouns a question is made of (Version, Stage, NoticeKind, Error) and
// the Question itself live in package knowledge, beside the engine that
// answers them, because the engine, the cache and the store all speak of
// them. This package imports knowledge and returns its values, as the
// source parsers (releasenote, kepyaml, website) do: knowledge never
// imports it. So the engine cannot parse text: every adapter (Slack,
// Discord, the terminal, `bot ask`) reads the text with this package, then
// calls knowledge.Answerer.Answer with the Question. One grammar, one
// reader, every platform.
//
// Question.Canonical, which writes a question back as the grammar reads it,
// is a method of the noun and stays in knowledge; Parse reads every
// canonical form back to the same question, and the tests hold it to that.
// Help (the usage lines error messages end with) is an answer the engine
// gives, so its table stays in knowledge too; this package reads it through
// knowledge.Usage and knowledge.HelpTopic.
package question
