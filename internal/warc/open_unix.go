//go:build unix

package warc

import (
	"io/fs"
	"syscall"
)

const (
	// oNoFollow makes opening a symbolic link fail, so that no write goes
	// through one.
	oNoFollow = syscall.O_NOFOLLOW
	// oNonblock keeps opening a FIFO that took a file's place from
	// blocking; a regular file ignores it.
	oNonblock = syscall.O_NONBLOCK
)

// links returns how many names the file fi has.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
