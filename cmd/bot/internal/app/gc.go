package app

import (
	"runtime/debug"
)

// Garbage collection for serve. kepbot keeps a small, steady live heap
// (the knowledge's catalog and the question reader's vocabulary: under
// 5 MB over the built-in snapshot, BenchmarkServeLiveHeap) and allocates
// mostly short-lived request buffers in net/http. Go's default (GOGC=100) collects every time
// the heap grows by the live heap again, so each request pays for marking
// the whole catalog about once per few thousand requests: measured under
// callgrind, 95k instructions a cached slash command against 81k with the
// collector off. serve therefore lets the heap grow to five times the live
// heap (GOGC=400: 86k), under a soft memory limit that makes the collector
// work harder before the process grows past it. Under load on one core
// 400 gives the slash command's p99 no worse than 1000 or 2000, and
// better than 100 (issue 15).
const (
	serveGCPercent   = 400
	serveMemoryLimit = 512 << 20 // bytes; a soft limit, not a cap
)

// TuneGC applies serve's defaults, each only when the operator did not set
// it: GOGC and GOMEMLIMIT in the environment win. It returns what it set,
// for the log.
func TuneGC(getenv func(string) string) (gcPercent int, memLimit int64) {
	gcPercent, memLimit = -2, -1 // "left as the environment set them"
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
		gcPercent = serveGCPercent
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
		memLimit = serveMemoryLimit
	}
	return gcPercent, memLimit
}
