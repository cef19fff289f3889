package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for another process to let go of
// the database file when Options.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// Errors Open wraps, so that callers can tell the cases apart with
// errors.Is. The messages of the errors Open returns say what to do.
var (
	// ErrLocked means another process holds the database file open.
	ErrLocked = errors.New("database file is locked by another process")
	// ErrNotDatabase means the file is not a kepbot database.
	ErrNotDatabase = errors.New("not a kepbot database")
	// ErrNewerSchema means a newer kepbot wrote the database.
	ErrNewerSchema = errors.New("database schema is newer than this kepbot")
	// ErrNeedsUpgrade means a database opened read-only needs its schema
	// set up or upgraded first.
	ErrNeedsUpgrade = errors.New("database needs a schema upgrade")
)

// errStopIteration ends a bbolt ForEach early.
var errStopIteration = errors.New("stop iteration")

// Options tune Open.
type Options struct {
	// Timeout is how long to wait for the file lock; zero or less means
	// DefaultTimeout. bbolt itself would wait forever.
	Timeout time.Duration
	// ReadOnly opens the file for reading alone, under a shared lock that
	// other readers share (bot scan in parallel CI jobs); it creates
	// nothing, and a database that needs its schema set up or upgraded
	// is an error that says which command writes it.
	ReadOnly bool
}

// DB is one open kepbot database file.
type DB struct {
	path      string
	bolt      *bolt.DB
	knowledge *KnowledgeStore
}

// OpenError is what Open returns when it cannot use the file: the path and
// a message that says what was wrong and what would work. errors.Is finds
// both the kind (ErrLocked, ErrNotDatabase, ErrNewerSchema) and the cause.
type OpenError struct {
	Path    string
	Message string
	Kind    error
	Err     error
}

// Error returns "open PATH: MESSAGE".
func (e *OpenError) Error() string { return "open " + e.Path + ": " + e.Message }

// Unwrap returns the kind and the underlying error.
func (e *OpenError) Unwrap() []error { return []error{e.Kind, e.Err} }

// Open opens the kepbot database at path, creating the file and its parent
// folders if they do not exist, and a new database's buckets.
//
// It fails with *OpenError when another process (another kepbot, such as
// `bot serve`) holds the file for longer than opts.Timeout, when the file is
// not a kepbot database, or when a newer kepbot wrote it.
func Open(path string, opts Options) (*DB, error) {
	if path == "" {
		return nil, errors.New("open: no database path given; use --db with a path such as ./kepbot.db")
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if dir := filepath.Dir(path); dir != "" && !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("open %s: create its folder: %w", path, err)
		}
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly})
	if err != nil {
		return nil, openFailure(path, timeout, err)
	}
	db := &DB{path: path, bolt: bdb}
	if err := db.prepare(); err != nil {
		_ = bdb.Close()
		var p *schemaProblem
		if errors.As(err, &p) {
			return nil, &OpenError{Path: path, Message: p.msg, Kind: p.kind, Err: err}
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.knowledge = &KnowledgeStore{db: db, now: time.Now}
	return db, nil
}

// openFailure explains why bbolt could not open path.
func openFailure(path string, timeout time.Duration, err error) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return &OpenError{Path: path, Kind: ErrLocked, Err: err, Message: fmt.Sprintf(
			"another kepbot (such as `bot serve`) has this database open and did not let go of it within %s; "+
				"stop that kepbot, or use --db with another path", timeout)}
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return &OpenError{Path: path, Kind: ErrNotDatabase, Err: err, Message: fmt.Sprintf(
			"this file is not a kepbot database (bbolt says %q); "+
				"use --db with the path of a kepbot database, or a path that does not exist yet to start a new one", err)}
	}
	return fmt.Errorf("open %s: %w", path, err)
}

// prepare checks the schema, creates what a new database lacks and
// upgrades an older schema in place. It writes only when there is
// something to create or upgrade.
func (db *DB) prepare() error {
	var version int
	var setup bool
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		version, err = readSchema(tx)
		setup = err == nil && needsSetup(tx, version)
		return err
	})
	if err != nil || !setup {
		return err
	}
	if db.bolt.IsReadOnly() {
		return &schemaProblem{kind: ErrNeedsUpgrade, msg: "this database was written by an older kepbot and needs its schema upgraded, which a read-only open cannot do; run bot ask --db PATH releases once to upgrade it"}
	}
	return db.bolt.Update(func(tx *bolt.Tx) error { return setupSchema(tx, version) })
}

// Path returns the file the database was opened from.
func (db *DB) Path() string { return db.path }

// Knowledge returns the store of what kepbot knows about releases and KEPs.
func (db *DB) Knowledge() *KnowledgeStore { return db.knowledge }

// Close closes the file and lets go of its lock. Any method called after
// Close fails.
func (db *DB) Close() error {
	if err := db.bolt.Close(); err != nil {
		return fmt.Errorf("close %s: %w", db.path, err)
	}
	return nil
}
