package store

import (
	"context"
	"fmt"
	"os"

	"github.com/kepbot/kepbot/knowledge"
)

// OpenSeeded opens the database at path (as Open), creating it when it
// does not exist; a database without knowledge is given seed's (the
// built-in snapshot). note, when not nil, is told in one line when that
// happened, so a mistyped path is not answered from the snapshot without
// a word.
func OpenSeeded(ctx context.Context, path string, opts Options, seed func() (*knowledge.Knowledge, error), note func(string)) (*DB, error) {
	_, statErr := os.Stat(path)
	existed := statErr == nil
	db, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	kb := db.Knowledge()
	empty, err := kb.IsEmpty(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if empty {
		k, err := seed()
		if err != nil {
			db.Close()
			return nil, err
		}
		if err := kb.ReplaceKnowledge(ctx, k); err != nil {
			db.Close()
			return nil, fmt.Errorf("load the built-in snapshot into %s: %w", path, err)
		}
		if note != nil {
			what := "created a new database at " + path
			if existed {
				what = path + " held no knowledge"
			}
			note(what + "; answers come from the built-in snapshot (facts only) until you run bot ingest or bot sync.")
		}
	}
	return db, nil
}
