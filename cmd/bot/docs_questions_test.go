package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// markedTable returns the rows of the table that follows the line
// starting with mark in text, each as its cells (the header and the rule
// left out; \| inside a cell is a |).
func markedTable(t *testing.T, text, mark string) [][]string {
	t.Helper()
	_, after, ok := strings.Cut(text, mark)
	if !ok {
		t.Fatalf("no %q mark", mark)
	}
	var rows [][]string
	for i, line := range strings.Split(after, "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			if i == 0 {
				continue
			}
			break
		}
		if i < 2 {
			continue // header and rule
		}
		line = strings.ReplaceAll(strings.Trim(line, "| "), `\|`, "\x00")
		var cells []string
		for _, c := range strings.Split(line, " | ") {
			cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("no table after %q", mark)
	}
	return rows
}

// spans returns the code spans of a table cell.
func spans(cell string) []string {
	var out []string
	for _, s := range codeSpanRe.FindAllString(cell, -1) {
		out = append(out, strings.Trim(s, "`"))
	}
	return out
}

// askAll answers questions one a line, as `bot ask --json -` does, over
// the built-in snapshot.
func askAll(t *testing.T, qs []string) []knowledge.Answer {
	t.Helper()
	code, out, errs := run(t, strings.Join(qs, "\n")+"\n", nil, "ask", "--db", scanDB(t), "--json", "-")
	if code != exitOK {
		t.Fatalf("bot ask --json - exits %d\n%s", code, errs)
	}
	var answers []knowledge.Answer
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var a knowledge.Answer
		if err := dec.Decode(&a); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(qs) {
		t.Fatalf("%d answers to %d questions", len(answers), len(qs))
	}
	return answers
}

// TestDocsPhrasings: every phrase of docs/questions.md's "typed in chat"
// table is read as the question its row names, on the built-in snapshot
// that a fresh clone answers from.
func TestDocsPhrasings(t *testing.T) {
	rows := markedTable(t, readPage(t, "docs/questions.md"), "<!-- phrasings:")
	var qs, want []string
	for _, r := range rows {
		as := spans(r[1])
		if len(as) != 1 {
			t.Errorf("row %q: name one question it is read as", r)
			continue
		}
		for _, p := range spans(r[0]) {
			qs, want = append(qs, p), append(want, as[0])
		}
	}
	if len(qs) < 25 {
		t.Fatalf("only %d phrasings in docs/questions.md", len(qs))
	}
	for i, a := range askAll(t, qs) {
		got := a.UnderstoodAs
		if got == "" {
			got = a.Query
		}
		if got != want[i] || a.Kind == knowledge.KindError {
			t.Errorf("%q is read as %q (%s: %s); docs/questions.md says %q", qs[i], got, a.Kind, a.Title, want[i])
		}
	}
}

// TestDocsGrammar: docs/questions.md's grammar table has a row for every
// form `help` lists, and no other, and every example of every `help
// TOPIC` is in it; each example there parses (a pasted link is read by
// the chat reader instead, and answered).
func TestDocsGrammar(t *testing.T) {
	rows := markedTable(t, readPage(t, "docs/questions.md"), "<!-- grammar:")
	help, err := knowledge.HelpAnswer("")
	if err != nil {
		t.Fatal(err)
	}
	var usages []string
	for _, f := range help.Facts {
		usages = append(usages, f.Name)
	}
	var documented, examples []string
	for _, r := range rows {
		u := spans(r[0])
		if len(u) != 1 {
			t.Errorf("row %q: its first cell is one form, as help writes it", r)
			continue
		}
		documented = append(documented, u[0])
		examples = append(examples, spans(r[1])...)
	}
	for _, u := range usages {
		if !slices.Contains(documented, u) {
			t.Errorf("help lists %q; the grammar table does not", u)
		}
	}
	for _, d := range documented {
		if !slices.Contains(usages, d) {
			t.Errorf("the grammar table lists %q; help does not", d)
		}
	}
	for _, topic := range knowledge.HelpTopics() {
		a, err := knowledge.HelpAnswer(topic)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Facts {
			if f.Name == "Example" && !slices.Contains(examples, f.Value) {
				t.Errorf("help %s gives the example %q; the grammar table does not", topic, f.Value)
			}
		}
	}
	var links []string
	for _, ex := range examples {
		if _, err := question.Parse(ex); err != nil {
			if strings.Contains(ex, "/") && !strings.HasPrefix(ex, "api") {
				links = append(links, ex)
				continue
			}
			t.Errorf("%q does not parse: %v", ex, err)
		}
	}
	for i, a := range askAll(t, links) {
		if a.Kind == knowledge.KindError {
			t.Errorf("%q is not answered: %s", links[i], a.Text)
		}
	}
	if len(examples) < 80 {
		t.Errorf("only %d examples in the grammar table", len(examples))
	}
}
