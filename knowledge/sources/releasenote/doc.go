// Package releasenote reads Kubernetes release notes written in Markdown
// (the Chinese DaoCloud posts kepbot ships with, each in its own house style)
// into a knowledge.Corpus: the release's facts (version, date, theme,
// enhancement counts), one Mention per KEP and stage the note states, and
// its deprecations, removals and upgrade notes as Notices.
//
// It reads sections by what their headings announce ("GA 和稳定的功能",
// "🔥 推广试用 (Beta)", "升级注意事项", "🗑️ 不顶用了" ...), items by how they
// are written (a heading with its body, a list entry, a paragraph), KEP
// numbers from text and from links (the link wins where they disagree), and
// stages from headings, sections and the words of the body. It never writes
// to a store.
//
// It imports knowledge, knowledge/internal/lazyre,
// knowledge/sources/markdown. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package releasenote
