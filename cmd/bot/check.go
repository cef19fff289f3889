package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"

	"github.com/kepbot/kepbot/knowledge"
)

// checkKinds is the order `bot check` lists disagreements in, with headings.
var checkKinds = []struct {
	kind  knowledge.DisagreementKind
	title string
}{
	{knowledge.DisagreeName, "A note's KEP number points at a KEP of another name"},
	{knowledge.DisagreeRelease, "A note puts a stage in another release than kep.yaml"},
	{knowledge.DisagreeStageTwice, "Listed at one stage in two releases"},
	{knowledge.DisagreeGATwice, "Listed as GA in two releases (made by an older kepbot; ingest again)"},
}

// runCheck lists every disagreement between the sources in the database, by
// kind. It exits 0 whether or not it finds any: disagreements are facts
// about the documents, not failures.
func runCheck(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	asJSON := fs.Bool("json", false, "print the disagreements as JSON")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	db, err := openKnowledge(ctx, dbPath(), func(n string) { fmt.Fprintf(io.err, "bot check: note: %s\n", n) })
	if err != nil {
		fmt.Fprintf(io.err, "bot check: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	kb := db.Knowledge()
	keps, err := kb.ListKEPs(ctx)
	if err != nil {
		fmt.Fprintf(io.err, "bot check: %v\n", err)
		return exitFailure
	}
	byKind := map[knowledge.DisagreementKind][]knowledge.Disagreement{}
	all := []knowledge.Disagreement{}
	for _, kp := range keps {
		for _, d := range kp.Disagreements {
			byKind[d.Kind] = append(byKind[d.Kind], d)
			all = append(all, d)
		}
	}
	if *asJSON {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintf(io.out, "%s\n", b)
		return exitOK
	}
	fmt.Fprintf(io.out, "%d disagreement(s) among the sources of %s (kep.yaml is trusted for stages and names).\n", len(all), dbPath())
	for _, k := range checkKinds {
		ds := byKind[k.kind]
		if len(ds) == 0 {
			continue
		}
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].KEP < ds[j].KEP })
		fmt.Fprintf(io.out, "\n%s (%s, %d):\n", k.title, k.kind, len(ds))
		for _, d := range ds {
			fmt.Fprintf(io.out, "  KEP-%d: %s; %s.\n", d.KEP, d.Claim, d.Trusted)
		}
	}
	return exitOK
}
