//go:build !unix

package warc

import "io/fs"

// On these systems (Windows, Plan 9, js and wasip1) there is no flag to
// refuse a symbolic link as a file is opened: Create's exclusive create
// refuses one anyway, and Reopen checks with Lstat before it opens.
const (
	oNoFollow = 0
	oNonblock = 0
)

// links returns 1: these systems do not say how many names a file has.
func links(fs.FileInfo) uint64 { return 1 }
