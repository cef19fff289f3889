// Package lazyre compiles a source parser's regular expressions the first
// time they are used, not when the program starts. The parsers hold some
// 150 of them; compiled at start they cost every command about 19 ms
// (`bot ask` included, which never parses a source) and keep 0.7 MB of
// small, pointer-rich objects that every garbage collection of serve
// marks, whether or not serve ever ingests.
package lazyre

import (
	"regexp"
	"sync"
)

// all holds every expression New and List were given, for CompileAll.
var (
	mu  sync.Mutex
	all []func()
)

// New returns a function that compiles expr on its first call, panicking
// as regexp.MustCompile does if expr is not a valid expression, and
// returns the same *regexp.Regexp on every call, from any goroutine.
func New(expr string) func() *regexp.Regexp {
	f := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
	register(func() { f() })
	return f
}

// List is New for a list of expressions, compiled together.
func List(exprs ...string) func() []*regexp.Regexp {
	f := sync.OnceValue(func() []*regexp.Regexp {
		out := make([]*regexp.Regexp, len(exprs))
		for i, e := range exprs {
			out[i] = regexp.MustCompile(e)
		}
		return out
	})
	register(func() { f() })
	return f
}

func register(compile func()) {
	mu.Lock()
	defer mu.Unlock()
	all = append(all, compile)
}

// CompileAll compiles every expression of the packages linked in, so that
// a test finds an invalid one without having to reach the code that uses
// it. It panics as regexp.MustCompile does, and returns how many it
// compiled.
func CompileAll() int {
	mu.Lock()
	fs := append([]func(){}, all...)
	mu.Unlock()
	for _, f := range fs {
		f()
	}
	return len(fs)
}
