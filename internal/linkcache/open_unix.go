//go:build unix

package linkcache

import "syscall"

const (
	// oNoFollow makes opening a symbolic link fail, so that the cache is
	// never read or locked through one.
	oNoFollow = syscall.O_NOFOLLOW
	// oNonblock keeps opening a FIFO that took the file's place from
	// blocking; a regular file ignores it.
	oNonblock = syscall.O_NONBLOCK
)
