package main

import (
	"context"
	"flag"
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
// exist; a new database starts from the built-in snapshot, and note (when
// not nil) is told so (see store.OpenSeeded).
func openKnowledge(ctx context.Context, path string, note func(string)) (*store.DB, error) {
	return store.OpenSeeded(ctx, path, store.Options{Timeout: lockTimeout}, snapshot.Load, note)
}
