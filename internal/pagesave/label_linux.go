package pagesave

import (
	"path/filepath"
	"syscall"
)

// labelAttr is the extended attribute of the marker that holds the label.
const labelAttr = "user.tse-crawler.crawl"

// SetLabel stores data with the marker, in an extended attribute, which
// diff -r and the indexer never see and which outlives the journal. It
// reports whether the file system allowed it.
func (d *Dir) SetLabel(data []byte) bool {
	return syscall.Setxattr(filepath.Join(d.path, Marker), labelAttr, data, 0) == nil
}

// Label returns what SetLabel stored, if anything.
func (d *Dir) Label() ([]byte, bool) {
	name := filepath.Join(d.path, Marker)
	n, err := syscall.Getxattr(name, labelAttr, nil)
	if err != nil || n <= 0 {
		return nil, false
	}
	buf := make([]byte, n)
	n, err = syscall.Getxattr(name, labelAttr, buf)
	if err != nil {
		return nil, false
	}
	return buf[:n], true
}
