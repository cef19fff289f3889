package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/store"
)

// runDigest runs `bot digest preview --channel ID`: it prints the digest
// the channel's subscription would get now, without queueing or sending
// it. Exit: 0 printed (or nothing new), 1 no such subscription, 2 bad
// flags, 3 the database failed. The database must not be held by a
// running `bot serve`.
func runDigest(ctx context.Context, io stdio, args []string) int {
	if len(args) == 0 || args[0] != "preview" {
		fmt.Fprintln(io.err, "bot digest: say what to do, like `bot digest preview --channel C0123`: preview prints the digest a channel would get now, without sending it.")
		return exitBadInput
	}
	fs := flag.NewFlagSet("digest preview", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	channel := fs.String("channel", "", "the channel `ID` (C0123, 1234567890), or platform/workspace/channel")
	platform := fs.String("platform", "", "slack or discord, when two platforms have a channel with that ID")
	asJSON := fs.Bool("json", false, "print the digest's answer as JSON")
	rest, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return exitBadInput
	}
	if *channel == "" || len(rest) > 0 {
		fmt.Fprintln(io.err, "bot digest preview: give one channel with --channel, like `bot digest preview --channel C0123`.")
		return exitBadInput
	}
	path := dbPath()
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(io.err, "bot digest preview: there is no database at %s, so no channel is subscribed; give its path with --db.\n", path)
		return exitNotFound
	}
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		fmt.Fprintf(io.err, "bot digest preview: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	tr := delivery.NewTrigger(delivery.TriggerConfig{Knowledge: db.Knowledge(), Subscriptions: db.Subscriptions(),
		Ledger: db.Subscriptions(), Outbox: db.Outbox()})
	p, err := tr.PreviewChannel(ctx, *channel, *platform)
	var amb *delivery.AmbiguousChannelError
	switch {
	case errors.Is(err, delivery.ErrNoChannel):
		fmt.Fprintf(io.err, "bot digest preview: no subscription for channel %q; subscribe it with `subscribe deprecations` in that channel.\n", *channel)
		return exitNotFound
	case errors.As(err, &amb):
		fmt.Fprintf(io.err, "bot digest preview: %d subscriptions have channel %q (%s); say which with --platform or --channel platform/workspace/channel.\n",
			len(amb.IDs), *channel, strings.Join(amb.IDs, ", "))
		return exitBadInput
	case err != nil:
		fmt.Fprintf(io.err, "bot digest preview: %v\n", err)
		return exitFailure
	}
	if !p.New {
		fmt.Fprintf(io.out, "Nothing new for %s (%s): its next digest would be empty.\n", p.Ref.ID(), p.State())
		return exitOK
	}
	if !*asJSON {
		fmt.Fprintf(io.out, "Preview of the digest for %s (%s); not sent.\n\n", p.Ref.ID(), p.State())
	}
	if err := console.WriteAnswer(io.out, digest.RenderDigest(&p.Digest, p.Sub.Filter.Format), *asJSON); err != nil {
		fmt.Fprintf(io.err, "bot digest preview: %v\n", err)
		return exitFailure
	}
	return exitOK
}
