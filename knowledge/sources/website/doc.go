// Package website reads the official English documents of kubernetes.io
// (the Markdown sources of kubernetes/website, Hugo front matter included)
// into a knowledge.Corpus:
//
//   - a release announcement ("Kubernetes v1.31: Elli") gives the release's
//     facts (version, date, theme, enhancement counts), a Mention per
//     highlighted or listed feature with the stage its heading or section
//     states, and its deprecations, removals and upgrade actions as Notices;
//   - a post about a coming release (deprecations and removals, mid-cycle,
//     sneak peek) gives Notices of that release, and Mentions without a stage
//     for the features it previews;
//   - the deprecated API migration guide gives one removal Notice per API
//     group/version, with the kinds it served and its replacement.
//
// The type of a document is read from its content (front matter, title,
// headings), not its file name. Parse never writes to a store.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/lazyre, knowledge/sources/markdown. It may import the
// knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package website
