package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
)

// defaultDB is where the database lives when neither --db nor $BOT_DB says.
const defaultDB = "./data/kepbot.db"

// lockTimeout is how long to wait for another process to let go of the file.
const lockTimeout = 2 * time.Second

// dbFlag adds --db to fs and returns a function resolving the path:
// --db, else $BOT_DB, else ./data/kepbot.db.
func dbFlag(fs *flag.FlagSet, getenv func(string) string) func() string {
	p := fs.String("db", "", "the bbolt database `PATH` (default $BOT_DB, else "+defaultDB+")")
	return func() string {
		if *p != "" {
			return *p
		}
		if e := getenv("BOT_DB"); e != "" {
			return e
		}
		return defaultDB
	}
}

// openKnowledge opens the database at path, creating it when it does not
// exist; a new database starts from the built-in snapshot. note, when
// not nil, is told in one line when that happened, so a mistyped path is
// not answered from the snapshot without a word.
func openKnowledge(ctx context.Context, path string, note func(string)) (*store.DB, error) {
	existed := fileExists(path)
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
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
		k, err := snapshot.Load()
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

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
