// Package provenance reads where a folder of source documents came from:
// a SOURCE.md beside them that names the repository commit they were
// copied at and that commit's date. kepbot takes every "as of" from what a
// source says (a commit date, a release date), never from the clock or
// from file modification times, so a folder copied on any day, on any
// machine, gives the same knowledge.
//
// The forms read are those of kubernetes/* snapshots: a folder's commit
// on a line "Snapshot commit: `64765b4b…`" and its date on one saying
// "Commit date: 2026-07-24T23:57:50+00:00" (or both on one line, "…,
// commit date 2026-08-13T11:53:39+00:00"), or a sentence saying it was
// copied "at commit a752ea54… (2026-08-21)"; and one file's commit and date
// on a list line naming it, "`kubernetes.md`: … at commit `a70eca33…`
// (2026-08-22T08:52:34+00:00)".
//
// The last form stamps one file; the others the whole folder.
//
// It imports knowledge/internal/lazyre. It may import the knowledge root
// and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package provenance
