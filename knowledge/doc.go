// Package knowledge is kepbot's core: the nouns (Version, Stage, KEP, Release,
// Notice, Source, Question), the platform-neutral Answer, Compile that
// joins a Corpus into Knowledge, and the interfaces a store and an
// answerer implement.
//
// Beside the standard library it uses only its own knowledge/internal
// helpers. Parsers live in subpackages and return its values: the source
// parsers return a Corpus, Compile joins it into Knowledge, and a store
// saves that; package question reads the text people type as a Question,
// and package engine (knowledge/engine) answers it from a KnowledgeStore.
//
// It imports knowledge/internal/lazyre, knowledge/internal/prose,
// knowledge/internal/semver. It may import only the standard library and
// knowledge/internal/... (internal/importrules enforces it).
package knowledge
