package lazyre

import (
	"regexp"
	"sync"
)

// all holds every expression New and List were given, for CompileAll.
var (
	mu  sync.Mutex
	all []*lazy
)

// lazy is one list of expressions, compiled on first use.
type lazy struct {
	once  sync.Once
	exprs []string
	res   []*regexp.Regexp
}

func (l *lazy) compile() []*regexp.Regexp {
	l.once.Do(func() {
		res := make([]*regexp.Regexp, len(l.exprs))
		for i, e := range l.exprs {
			res[i] = regexp.MustCompile(e)
		}
		l.res = res
	})
	return l.res
}

func (l *lazy) first() *regexp.Regexp { return l.compile()[0] }

// New returns a function that compiles expr on its first call, panicking
// as regexp.MustCompile does if expr is not a valid expression, and
// returns the same *regexp.Regexp on every call, from any goroutine.
func New(expr string) func() *regexp.Regexp { return register(expr).first }

// List is New for a list of expressions, compiled together.
func List(exprs ...string) func() []*regexp.Regexp { return register(exprs...).compile }

func register(exprs ...string) *lazy {
	l := &lazy{exprs: exprs}
	mu.Lock()
	defer mu.Unlock()
	all = append(all, l)
	return l
}

// CompileAll compiles every expression of the packages linked in, so that
// a test finds an invalid one without having to reach the code that uses
// it. It panics as regexp.MustCompile does, and returns how many lists it
// compiled (an expression of New is a list of one).
func CompileAll() int {
	mu.Lock()
	ls := append([]*lazy{}, all...)
	mu.Unlock()
	for _, l := range ls {
		l.compile()
	}
	return len(ls)
}
