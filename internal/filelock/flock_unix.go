//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes the lock of the file open as fd, exclusive, for as long as
// that open file stays open: until every descriptor of it, fd and any
// duplicate, is closed. It does not wait. If another open file of the
// same file holds the lock, in this process or another, it returns a
// *BusyError naming the file as name, and the process that holds it where
// the system tells. Where the file system has no such locks, its error
// wraps errors.ErrUnsupported.
func Lock(fd int, name string) error {
	return lock(fd, name, unix.LOCK_EX)
}

// LockFile is Lock for an *os.File.
func LockFile(f *os.File, name string) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("locking %s: %w", name, err)
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) { lerr = Lock(int(fd), name) }); err != nil {
		return fmt.Errorf("locking %s: %w", name, err)
	}
	return lerr
}

// Keep keeps the lock of f, which f holds, past f's closing, until the
// function it returns is called: it holds a duplicate of f's descriptor,
// which shares the lock, and release closes it.
func Keep(f *os.File) (release func(), err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("keeping the lock of %s: %w", f.Name(), err)
	}
	dup := -1
	var derr error
	if err := rc.Control(func(fd uintptr) { dup, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return nil, fmt.Errorf("keeping the lock of %s: %w", f.Name(), err)
	}
	if derr != nil {
		return nil, fmt.Errorf("keeping the lock of %s: %w", f.Name(), derr)
	}
	return func() { unix.Close(dup) }, nil
}

// Probe returns a *BusyError if another crawler holds the lock of the
// regular file at path, and nil if none does, or if there is no such
// file: the caller that opens it finds out why. It takes the lock only
// for an instant, shared, so that two probes never refuse each other. It
// never follows a symbolic link, nor blocks on a FIFO.
func Probe(path, name string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var lerr error
	rc.Control(func(fd uintptr) { lerr = lock(int(fd), name, unix.LOCK_SH) })
	if _, ok := errors.AsType[*BusyError](lerr); ok {
		return lerr
	}
	return nil
}

// lock takes the lock of fd, how being LOCK_EX or LOCK_SH, without
// waiting.
func lock(fd int, name string, how int) error {
	for {
		err := unix.Flock(fd, how|unix.LOCK_NB)
		switch err {
		case nil:
			return nil
		case unix.EINTR:
			continue
		case unix.EWOULDBLOCK:
			return &BusyError{Name: name, PID: holder(fd)}
		case unix.ENOLCK, unix.EOPNOTSUPP, unix.EINVAL, unix.ENOSYS, unix.EBADF:
			// NFS emulates flock with a lock of its own, which needs a
			// file open for writing, and some FUSE file systems have
			// none.
			return fmt.Errorf("locking %s: %w (%w)", name, errors.ErrUnsupported, err)
		}
		return fmt.Errorf("locking %s: %w", name, err)
	}
}
