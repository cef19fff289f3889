// Package manifest reads Kubernetes manifests (multi-document YAML,
// JSON, `kubectl get -o yaml|json` lists, `helm template` output) into
// the few facts `bot scan` needs: each object's apiVersion, kind,
// metadata.name and metadata.namespace, with the document, list item
// and line they are at. Another package joins them with the API table.
//
// # Safety
//
// Nothing else from a manifest is kept: not data, not annotations (the
// last-applied-configuration annotation holds an older copy of the
// object, with an older apiVersion, and is never read), not even the
// text of a YAML error, which can quote the document. Problems are this
// package's own fixed sentences. A name or namespace that is not a
// string is left empty, never written out.
//
// Read streams: it reads a line at a time into the current document,
// reads each document when it ends and drops it, so memory is bounded
// by the document limit (and the Result), not by the stream. Limits cap
// the stream, the documents and objects in it, the size of a document
// and its nesting. An alias bomb, deep nesting, binary input or a huge
// line costs bounded time and memory and gives a Problem (or, for the
// stream as a whole, an error); the documents around it are still read.
//
// # Two paths
//
// Most manifests are plain block-style YAML, and a hand-written scanner
// (fast.go) reads those in one pass over the lines without building a
// tree: a stack of open mappings and sequences, the keys above read on
// the way, every line checked against the subset of YAML it knows.
// Strict JSON has a fast reader of its own (json.go). Whatever the fast
// readers do not handle with certainty goes, one document at a time, to
// the slow path (slow.go): go.yaml.in/yaml/v3 parses the document into a
// yaml.Node tree and the same keys are read from it, with aliases and
// merge keys followed on a budget. Its nesting and size are checked
// before the library sees it, and a panic in the library is recovered.
// Both paths end in the same decision (objects.go), and a differential
// test runs both on thousands of documents and checks they agree.
//
// The fast YAML path reads: block mappings and sequences (a sequence
// may sit at its key's column; "- key: v" entries; "- - x"; a dash
// alone with its value on the lines below), keys plain or quoted (no
// escapes, at most 1000 bytes), comments and blank lines, and values on
// the key's line that are plain scalars, single- or double-quoted
// scalars closed on that line, flow collections opened and closed on
// that line, or literal and folded block scalars (| and > with - or +).
//
// These take the slow path:
//   - anchors (&), aliases (*), tags (!) and merge keys (<<), anywhere;
//   - plain scalars over several lines, quoted scalars over several
//     lines, flow collections over several lines (other than strict
//     JSON), and a scalar on the line after its key;
//   - complex keys ("? "), keys starting with an indicator (- ? : [ {
//     and the like), quoted keys with escapes, keys over 1000 bytes;
//   - % directives, anything after "---" on its line ("--- !!map",
//     "--- |"), and a scalar as the top of a document;
//   - tabs, except in a block scalar's content after its indentation;
//   - a lone CR, NEL (U+0085), LS (U+2028), PS (U+2029) or a byte order
//     mark inside a line, which YAML counts as line breaks or special;
//   - block scalars with an indentation indicator (|2), and block
//     scalars as the value of apiVersion, kind, metadata, items, name or
//     namespace;
//   - \x, \u and \U escapes (and unknown ones) in double-quoted
//     scalars, and any escape in a value of those six keys;
//   - in flow collections: plain scalars holding : # ? [ or {, empty
//     entries and trailing commas, pairs without a space after the ':';
//     and plain values starting with @ ` % , ] } ? or :;
//   - a List's items written as a non-empty flow list, or an item
//     written as a flow mapping;
//   - nesting deeper than Limits.MaxDepth (which the slow path then
//     refuses);
//   - anything the fast path finds broken (bad indentation, a list item
//     among keys, ": " inside a value, text after a closing quote or
//     bracket, a quote or bracket not closed on its line), so that the
//     library's parser decides, and the Problem names its error.
//
// A document whose first character is { or [ is JSON to the fast path:
// strict RFC 8259, less what YAML reads otherwise or not at all (the \/
// escape and UTF-16 surrogate escapes, which YAML refuses), escapes in
// keys or in the values read, a key whose ':' is on another line or more
// than 1000 bytes on, and tabs after the top value. Those, and JSON that
// is not strict (comments, trailing commas, YAML flow style), take the
// slow path. JSON values written one after the other without "---"
// (as from a loop of `kubectl get -o json`) are separate documents.
//
// # What counts as what
//
// A mapping with apiVersion and kind is an object; a document with
// neither (a values file, plain text) is counted in NotObjects; one with
// only one of them, with two of either, or with one that is not text, is
// a Problem. A kind of List, or one ending in List (DeploymentList), with
// an items key is a list: each item is an object with Item set, and the
// items of a typed list may leave out apiVersion and kind, which are
// then the list's. A document whose top is a sequence is read like a
// List's items when any of them has apiVersion or kind. A helm template
// "# Source: chart/templates/x.yaml" comment names the template of the
// document whose content follows it (helm writes it right after "---";
// some tools write it before). `kubectl version` output (see kubectl.go)
// sets Result.ServerVersion and is neither an object nor a problem.
//
// It imports knowledge, knowledge/internal/limit, knowledge/manifest/gates.
package manifest
