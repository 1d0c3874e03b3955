//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package pagedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"tse-crawler/internal/filelock"
)

// RemoveAbandoned removes the page directories in parent that crawls made
// for themselves, named prefix then digits as os.MkdirTemp names them,
// and left behind when they were killed before they could remove them.
// It removes only what is provably such a directory: a directory, not a
// link to one, of this user, holding the marker, whose lock is free, so
// that no crawler runs in it, and nothing but what a crawl writes, each a
// regular file: the marker, pages and temporary files. Anything else is
// left as it is, and so is whatever cannot be removed: removing is a
// courtesy, and its failures are no one's business.
//
// The lock is held while the directory is emptied. A directory without a
// marker is left too, as a crawl makes its marker only once it holds the
// lock: one without may be one a crawl has just made and not yet locked.
func RemoveAbandoned(parent, prefix string) {
	p, err := openRoot(parent)
	if err != nil {
		return
	}
	defer p.close()
	entries, err := p.readDir()
	if err != nil {
		return
	}
	for _, e := range entries {
		digits, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && digits != "" && strings.Trim(digits, "0123456789") == "" && e.IsDir() {
			p.removeAbandoned(e.Name())
		}
	}
}

// removeAbandoned removes the directory name, if it is an abandoned page
// directory (see RemoveAbandoned).
func (p *root) removeAbandoned(name string) {
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(p.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return
	}
	d := &root{fd: fd, path: filepath.Join(p.path, name)}
	defer d.close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || int(st.Uid) != os.Geteuid() {
		return
	}
	if mode, err := d.lstat(Marker); err != nil || !mode.IsRegular() {
		return
	}
	if filelock.Lock(fd, "pageDirectory "+d.path) != nil {
		return // in use, or no way to tell
	}
	entries, err := d.readDir()
	if err != nil {
		return
	}
	for _, e := range entries {
		_, page := DocID(e.Name())
		if !e.Type().IsRegular() || !page && e.Name() != Marker && !strings.HasPrefix(e.Name(), tempPrefix) {
			return
		}
	}
	for _, e := range entries {
		if err := d.remove(e.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
	// Only if the name still stands for the directory just emptied.
	var now unix.Stat_t
	if unix.Fstatat(p.fd, name, &now, unix.AT_SYMLINK_NOFOLLOW) == nil && now.Dev == st.Dev && now.Ino == st.Ino {
		unix.Unlinkat(p.fd, name, unix.AT_REMOVEDIR)
	}
}
