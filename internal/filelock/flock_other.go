//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package filelock

import (
	"errors"
	"fmt"
	"os"
)

// On these systems (Windows, Solaris, AIX, Plan 9 and others) there is no
// flock in golang.org/x/sys: a crawl goes on without a lock, and a second
// crawler is not kept out.

// Lock returns an error wrapping errors.ErrUnsupported.
func Lock(fd int, name string) error {
	return fmt.Errorf("locking %s: %w", name, errors.ErrUnsupported)
}

// LockFile is Lock for an *os.File.
func LockFile(f *os.File, name string) error { return Lock(0, name) }

// Keep keeps nothing: there is no lock to keep.
func Keep(f *os.File) (release func(), err error) { return func() {}, nil }

// Probe finds nothing: no lock is ever taken.
func Probe(path, name string) error { return nil }
