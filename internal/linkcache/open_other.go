//go:build !unix

package linkcache

// On these systems there is no flag to refuse a symbolic link as a file
// is opened: New and openFile check with Lstat, and the file is only
// ever replaced by a rename, which replaces a link rather than follow it.
const (
	oNoFollow = 0
	oNonblock = 0
)
