package main

import (
	"context"
	"fmt"

	"github.com/kepbot/kepbot/internal/refresh"
)

// askServe is `bot sync` while another kepbot holds the database.
func askServe(_ context.Context, io stdio, db string, _ refresh.Options, _ string) int {
	fmt.Fprintf(io.err, "bot sync: another kepbot (such as `bot serve`) has %s open; stop it, or use --db with another path.\n", db)
	return exitFailure
}
