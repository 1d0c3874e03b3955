//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package pagedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"

	"tse-crawler/internal/filelock"
)

// A root is an open directory, in which every name is looked up relative to
// the directory itself (openat and its kin), so that a directory renamed or
// swapped for another while the crawl runs cannot redirect a write. No
// operation follows a symbolic link at the name it is given.
//
// It is not an os.Root: Root.OpenFile follows a symbolic link that stays
// inside the directory, even when given O_NOFOLLOW, and with O_CREATE
// creates the target of a dangling one.
type root struct {
	fd   int    // -1 once closed, so that a late call fails instead of using a reused descriptor
	path string // for messages only
}

func openRoot(path string) (*root, error) {
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &root{fd: fd, path: path}, nil
}

// lock takes the directory's lock, held until the directory is closed. It
// is the directory's own, not the marker's, so it is taken before the
// marker is made, and stays with the directory whatever happens to the
// names in it. A file system without flock leaves the directory unlocked,
// as every directory was before there was a lock, rather than refuse to
// crawl there.
func (r *root) lock() error {
	err := filelock.Lock(r.fd, "pageDirectory "+r.path)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

func (r *root) close() error {
	if r.fd < 0 {
		return os.ErrClosed
	}
	err := unix.Close(r.fd)
	r.fd = -1
	return err
}

// openFile opens name in the directory. It fails if name is a symbolic
// link, and it does not block on a FIFO; the caller checks, on the open
// file, that it is what it expects.
func (r *root) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	flag |= unix.O_NOFOLLOW | unix.O_NOCTTY | unix.O_CLOEXEC
	// An exclusive create makes a new regular file, which cannot block, so
	// the hot path of Save saves the two fcntl calls of undoing O_NONBLOCK.
	exclusive := flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL
	if !exclusive {
		flag |= unix.O_NONBLOCK
	}
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(r.fd, name, flag, uint32(perm))
	})
	if err == nil && !exclusive {
		err = unix.SetNonblock(fd, false)
		if err != nil {
			unix.Close(fd)
		}
	}
	full := filepath.Join(r.path, name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: full, Err: err}
	}
	return os.NewFile(uintptr(fd), full), nil
}

// readDir lists the directory. It reads a new descriptor of it, as a
// directory's read offset is shared by every read of one descriptor.
func (r *root) readDir() ([]fs.DirEntry, error) {
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(r.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: r.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), r.path)
	defer f.Close()
	return f.ReadDir(-1)
}

// lstat returns the type of name, without following a link.
func (r *root) lstat(name string) (fs.FileMode, error) {
	var st unix.Stat_t
	_, err := ignoringEINTR(func() (struct{}, error) {
		return struct{}{}, unix.Fstatat(r.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	})
	if err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: filepath.Join(r.path, name), Err: err}
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFREG:
		return 0, nil
	case unix.S_IFDIR:
		return fs.ModeDir, nil
	case unix.S_IFLNK:
		return fs.ModeSymlink, nil
	case unix.S_IFIFO:
		return fs.ModeNamedPipe, nil
	case unix.S_IFSOCK:
		return fs.ModeSocket, nil
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case unix.S_IFBLK:
		return fs.ModeDevice, nil
	}
	return fs.ModeIrregular, nil
}

// link gives the file oldname the name newname too. Neither is followed
// if it is a link, and it fails if newname exists.
func (r *root) link(oldname, newname string) error {
	_, err := ignoringEINTR(func() (struct{}, error) {
		return struct{}{}, unix.Linkat(r.fd, oldname, r.fd, newname, 0)
	})
	if err != nil {
		return &os.LinkError{Op: "link", Old: filepath.Join(r.path, oldname), New: filepath.Join(r.path, newname), Err: err}
	}
	return nil
}

func (r *root) rename(oldname, newname string) error {
	_, err := ignoringEINTR(func() (struct{}, error) {
		return struct{}{}, unix.Renameat(r.fd, oldname, r.fd, newname)
	})
	if err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(r.path, oldname), New: filepath.Join(r.path, newname), Err: err}
	}
	return nil
}

// remove removes name, which is a link itself if it is one; it never
// removes a directory.
func (r *root) remove(name string) error {
	_, err := ignoringEINTR(func() (struct{}, error) {
		return struct{}{}, unix.Unlinkat(r.fd, name, 0)
	})
	if err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(r.path, name), Err: err}
	}
	return nil
}

// links returns how many names the file fi has.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// ignoringEINTR calls f again while a signal interrupts it, as package os
// does around its own system calls: some file systems (FUSE, network
// mounts) return EINTR even for calls the kernel would restart.
func ignoringEINTR[T any](f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err != unix.EINTR {
			return v, err
		}
	}
}
