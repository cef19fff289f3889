// Package markdown reads a Markdown document into its front matter and a
// flat list of blocks, each with the 1-based line it starts on. The
// release-note, website and sig-release readers share it, so that one
// CommonMark parser (github.com/yuin/goldmark, with the GFM table extension)
// decides what is a heading, a list item or a code block, and each reader
// only decides what the blocks mean.
//
// Blocks keep their Markdown: inline syntax (links with their targets, code
// spans, emphasis) is left for the reader, which knows what it wants of it.
// Only block syntax is removed: heading markers, list markers, blockquote
// markers and the indentation of continuation lines.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package markdown
