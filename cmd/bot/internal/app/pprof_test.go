package app

import (
	"context"
	"testing"
)

// TestPprofLoopbackOnly: --pprof is taken only on this machine.
func TestPprofLoopbackOnly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, "0.0.0.0:0": false, ":0": false, "example.com:6060": false} {
		if _, err := StartPprof(ctx, addr); (err == nil) != ok {
			t.Errorf("StartPprof(%q): %v, want accepted %v", addr, err, ok)
		}
	}
}
