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

// digestCommand is `bot digest preview`.
func digestCommand() command {
	return command{
		name:        "digest",
		summary:     "print the digest a channel would get now, without sending it",
		usage:       "preview --channel ID [FLAGS]",
		interleaved: true,
		args:        completeArgs{words: []string{"preview"}},
		about: "Opens the database, so run it while bot serve is stopped (bbolt lets one process hold the file). " +
			"Nothing is queued, sent or marked as sent.",
		examples: []example{
			{"bot digest preview --channel C0123456789", "what that Slack channel would get now"},
			{"bot digest preview --channel 1234567890 --platform discord --json", "a Discord channel's, as JSON"},
		},
		exits: []exit{
			{exitOK, "printed, or nothing new to send"},
			{exitNotFound, "no subscription for that channel (or no database)"},
			{exitBadInput, "no preview or --channel, a bad flag, or a channel ID two platforms share without --platform"},
			{exitFailure, "the database could not be opened or read"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			var f digestFlags
			f.db = dbFlag(fs, io.getenv)
			fs.StringVar(&f.channel, "channel", "", "the channel `ID` (C0123, 1234567890), or platform/workspace/channel")
			fs.StringVar(&f.platform, "platform", "", "the `PLATFORM`, slack or discord, when two platforms have a channel with that ID")
			fs.BoolVar(&f.json, "json", false, "print the digest's answer as JSON")
			return func(ctx context.Context, args []string) int { return runDigest(ctx, io, f, args) }
		},
	}
}

// digestFlags are bot digest's flags.
type digestFlags struct {
	db                func() string
	channel, platform string
	json              bool
}

// runDigest runs `bot digest preview --channel ID`: it prints the digest
// the channel's subscription would get now, without queueing or sending
// it. digestCommand lists its exit codes. The database must not be held
// by a running `bot serve`.
func runDigest(ctx context.Context, io stdio, f digestFlags, args []string) int {
	if len(args) == 0 || args[0] != "preview" {
		fmt.Fprintln(io.err, "bot digest: say what to do, like `bot digest preview --channel C0123`: preview prints the digest a channel would get now, without sending it.")
		return exitBadInput
	}
	if f.channel == "" || len(args) > 1 {
		fmt.Fprintln(io.err, "bot digest preview: give one channel with --channel, like `bot digest preview --channel C0123`.")
		return exitBadInput
	}
	path := f.db()
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
	p, err := tr.PreviewChannel(ctx, f.channel, f.platform)
	var amb *delivery.AmbiguousChannelError
	switch {
	case errors.Is(err, delivery.ErrNoChannel):
		fmt.Fprintf(io.err, "bot digest preview: no subscription for channel %q; subscribe it with `subscribe deprecations` in that channel.\n", f.channel)
		return exitNotFound
	case errors.As(err, &amb):
		fmt.Fprintf(io.err, "bot digest preview: %d subscriptions have channel %q (%s); say which with --platform or --channel platform/workspace/channel.\n",
			len(amb.IDs), f.channel, strings.Join(amb.IDs, ", "))
		return exitBadInput
	case err != nil:
		fmt.Fprintf(io.err, "bot digest preview: %v\n", err)
		return exitFailure
	}
	if !p.New {
		fmt.Fprintf(io.out, "Nothing new for %s (%s): its next digest would be empty.\n", p.Ref.ID(), p.State())
		return exitOK
	}
	if !f.json {
		fmt.Fprintf(io.out, "Preview of the digest for %s (%s); not sent.\n\n", p.Ref.ID(), p.State())
	}
	if err := console.WriteAnswer(io.out, digest.RenderDigest(&p.Digest, p.Sub.Filter.Format), f.json); err != nil {
		fmt.Fprintf(io.err, "bot digest preview: %v\n", err)
		return exitFailure
	}
	return exitOK
}
