package manifest

import (
	"fmt"
	"strings"
)

// maxDocProblems caps the Problems one document adds (a List of a
// million broken items is one line of trouble, not a million).
const maxDocProblems = 10

// outcome is what one document adds to the Result.
type outcome struct {
	objects   []Object
	problems  []Problem
	omitted   int  // problems past maxDocProblems
	notObject bool // parsed, but holds no object
	failed    bool // could not be parsed at all
}

func (o *outcome) reset() {
	o.objects = o.objects[:0]
	o.problems = o.problems[:0]
	o.omitted = 0
	o.notObject, o.failed = false, false
}

func (o *outcome) problem(doc, line int, msg string) {
	if len(o.problems) == maxDocProblems {
		o.omitted++
		return
	}
	o.problems = append(o.problems, Problem{Document: doc, Line: line, Message: msg})
}

// has reports whether id was a key of the candidate's own.
func (c *cand) has(id fieldID) bool { return c.seen&(1<<id) != 0 }

// decide turns the extraction of document doc, whose first line is
// stream line start, into objects and problems.
func decide(e *extraction, doc, start int, tmpl string, o *outcome) {
	o.reset()
	at := func(l int) int { return start + l - 1 }
	if e.failed {
		o.failed = true
		o.problem(doc, at(e.errLine), e.errMsg)
		return
	}
	switch e.shape {
	case shapeOther:
		o.notObject = true
	case shapeMapping:
		r := &e.root
		if !r.has(fAPIVersion) && !r.has(fKind) {
			o.notObject = true
			return
		}
		if msg, l := check(r, "the object"); msg != "" {
			o.problem(doc, at(l), msg)
			return
		}
		kind := r.f[1].val
		if r.items == itemsAbsent || (kind != "List" && !strings.HasSuffix(kind, "List")) {
			o.objects = append(o.objects, object(r, doc, 0, at, tmpl, "", ""))
			return
		}
		switch r.items {
		case itemsNull:
			return
		case itemsOther:
			o.problem(doc, at(r.itemsLine), "the items of the list are not a list")
			return
		}
		// A typed list (DeploymentList) may leave apiVersion and kind out
		// of its items, as the API server does: they are the list's.
		av, ik := "", ""
		if kind != "List" {
			av, ik = r.f[0].val, strings.TrimSuffix(kind, "List")
		}
		items(e.items, doc, at, tmpl, av, ik, o)
	case shapeSequence:
		any := false
		for i := range e.items {
			if it := &e.items[i]; it.has(fAPIVersion) || it.has(fKind) {
				any = true
				break
			}
		}
		if !any {
			o.notObject = true
			return
		}
		items(e.items, doc, at, tmpl, "", "", o)
	}
}

// items adds the objects (and problems) of a list's items.
func items(list []cand, doc int, at func(int) int, tmpl, av, kind string, o *outcome) {
	for i := range list {
		it := &list[i]
		if !it.notMapping && it.dup == fNone && it.has(fAPIVersion) && it.has(fKind) &&
			it.f[0].st == text && it.f[0].val != "" && it.f[1].st == text && it.f[1].val != "" {
			o.objects = append(o.objects, object(it, doc, i+1, at, tmpl, "", ""))
			continue
		}
		who := fmt.Sprintf("item %d of the list", i+1)
		switch {
		case it.notMapping:
			o.problem(doc, at(it.line), who+" is not an object")
			continue
		case !it.has(fAPIVersion) && !it.has(fKind):
			if kind == "" {
				o.problem(doc, at(it.line), who+" has no apiVersion and no kind")
				continue
			}
			if it.dup != fNone {
				o.problem(doc, at(it.dupLine), fmt.Sprintf("%s has two %s keys", who, keyName[it.dup]))
				continue
			}
			o.objects = append(o.objects, object(it, doc, i+1, at, tmpl, av, kind))
			continue
		}
		if msg, l := check(it, who); msg != "" {
			o.problem(doc, at(l), msg)
			continue
		}
		o.objects = append(o.objects, object(it, doc, i+1, at, tmpl, "", ""))
	}
	if o.omitted > 0 {
		last := &o.problems[len(o.problems)-1]
		o.problems = append(o.problems, Problem{Document: doc, Line: last.Line,
			Message: fmt.Sprintf("%d more items of this document have problems", o.omitted)})
	}
}

// check says why candidate c (named who in the message) is not a usable
// object, and where; "" when it is one.
func check(c *cand, who string) (string, int) {
	if c.dup != fNone {
		return fmt.Sprintf("%s has two %s keys", who, keyName[c.dup]), c.dupLine
	}
	av, k := &c.f[0], &c.f[1]
	switch {
	case !c.has(fAPIVersion):
		return who + " has a kind but no apiVersion", k.line
	case !c.has(fKind):
		return who + " has an apiVersion but no kind", av.line
	case av.st != text:
		return "the apiVersion of " + who + " is not text", av.line
	case av.val == "":
		return "the apiVersion of " + who + " is empty", av.line
	case k.st != text:
		return "the kind of " + who + " is not text", k.line
	case k.val == "":
		return "the kind of " + who + " is empty", k.line
	}
	return "", 0
}

// object makes the Object of candidate c; av and kind, when set, are
// the list's and stand in for the item's own.
func object(c *cand, doc, item int, at func(int) int, tmpl, av, kind string) Object {
	o := Object{Document: doc, Item: item, Template: tmpl}
	if av != "" {
		o.APIVersion, o.Kind, o.Line = av, kind, at(c.line)
	} else {
		o.APIVersion, o.Kind, o.Line = c.f[0].val, c.f[1].val, at(c.f[0].line)
	}
	if c.f[2].st == text {
		o.Name = c.f[2].val
	}
	if c.f[3].st == text {
		o.Namespace = c.f[3].val
	}
	return o
}
