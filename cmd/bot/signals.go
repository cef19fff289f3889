package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.sig.String() }

// interruptContext returns a context cancelled by the first SIGINT or
// SIGTERM, with that signal as its cause, and a stop that lets signals
// go back to their default action (so a second Ctrl-C ends the process).
func interruptContext(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(interrupted{sig: s})
			signal.Stop(ch)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(context.Canceled)
	}
}

// interruptedCode is the exit code of a command stopped by a signal, as a
// shell gives it (128 + the signal's number: 130 for SIGINT, 143 for
// SIGTERM); ok is false when ctx was not cancelled by one.
func interruptedCode(ctx context.Context) (code int, ok bool) {
	var i interrupted
	if !errors.As(context.Cause(ctx), &i) {
		return 0, false
	}
	if s, isSys := i.sig.(syscall.Signal); isSys {
		return 128 + int(s), true
	}
	return 130, true
}
