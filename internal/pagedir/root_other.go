//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package pagedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// A root is an open directory, in which every name is looked up. On these
// systems (Windows, Solaris, AIX, Plan 9 and others, where golang.org/x/sys
// lacks linkat or openat) it is an os.Root, which follows a symbolic link
// that stays inside the directory, so openFile checks for a link before it
// opens: weaker than root_openat.go, where the open itself refuses a link.
type root struct {
	r    *os.Root
	path string // for messages only
}

func openRoot(path string) (*root, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &root{r: r, path: path}, nil
}

func (r *root) close() error { return r.r.Close() }

// lock does nothing: these systems have no flock (package filelock), so
// a second crawler is not kept out.
func (r *root) lock() error { return nil }

var errSymlink = errors.New("is a symbolic link")

// openFile opens name in the directory. It fails if name is a symbolic
// link; the caller checks, on the open file, that it is what it expects.
func (r *root) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if mode, err := r.lstat(name); err == nil && mode&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(r.path, name), Err: errSymlink}
	}
	return r.r.OpenFile(name, flag, perm)
}

func (r *root) readDir() ([]fs.DirEntry, error) { return fs.ReadDir(r.r.FS(), ".") }

// lstat returns the type of name, without following a link.
func (r *root) lstat(name string) (fs.FileMode, error) {
	fi, err := r.r.Lstat(name)
	if err != nil {
		return 0, err
	}
	return fi.Mode().Type(), nil
}

func (r *root) link(oldname, newname string) error   { return r.r.Link(oldname, newname) }
func (r *root) rename(oldname, newname string) error { return r.r.Rename(oldname, newname) }
func (r *root) remove(name string) error             { return r.r.Remove(name) }

// links returns how many names the file fi has, which this system does
// not tell: one, as far as the crawler can know.
func links(fi fs.FileInfo) uint64 { return 1 }

// RemoveAbandoned removes nothing: without a lock, a page directory left
// by a crawl that was killed cannot be told from one a crawl is using.
func RemoveAbandoned(parent, prefix string) {}
