package main

import (
	"context"
	"testing"
)

// TestLoopbackOnly: the admin file's URL and --pprof are taken only on
// this machine.
func TestLoopbackOnly(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://127.0.0.1:8080/admin": true, "http://[::1]:8080/x": true, "http://localhost:1/": true,
		"https://127.0.0.1/": false, "http://10.0.0.1/": false, "http://example.com/": false, "http://127.0.0.1.example.com/": false,
	} {
		if _, err := urlOnLoopback(raw); (err == nil) != ok {
			t.Errorf("urlOnLoopback(%q): %v, want accepted %v", raw, err, ok)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, "0.0.0.0:0": false, ":0": false, "example.com:6060": false} {
		if _, err := startPprof(ctx, addr); (err == nil) != ok {
			t.Errorf("startPprof(%q): %v, want accepted %v", addr, err, ok)
		}
	}
}
