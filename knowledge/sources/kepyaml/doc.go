// Package kepyaml reads the kep.yaml files of kubernetes/enhancements, from
// a checkout folder or a GitHub .tar.gz streamed without extracting it, and
// returns them as a *knowledge.Corpus.
//
// It records what each file says and nothing more: a milestone is the
// release a stage is planned for, not proof the stage was reached (Compile
// decides that from the KEP's stage). Odd values are read by fixed rules
// (see ParseFile) and every fix-up or dropped value is a Note in the Report.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/lazyre, knowledge/internal/limit,
// knowledge/sources/provenance. It may import
// the knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package kepyaml
