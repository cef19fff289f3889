// Package console is the terminal adapter: a chat at a prompt, the plain
// text view of an Answer that `bot ask` prints, the asker of both (which
// explains on stderr what failed on kepbot's side), and `bot ask -`'s
// answers to one question a line. The chat takes the manifests pasted
// after `scan VERSION` as one message (manifest.go).
//
// It imports knowledge, knowledge/manifest, knowledge/question. It may
// import the knowledge packages and internal/ plumbing; never another
// adapter, the store or knowledge/sources (internal/importrules enforces
// it).
package console
