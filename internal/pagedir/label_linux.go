package pagedir

import (
	"os"

	"golang.org/x/sys/unix"
)

// labelAttr is the extended attribute of the marker that holds the label.
const labelAttr = "user.tse-crawler.crawl"

// setLabel stores data with the marker, in an extended attribute, which
// diff -r and the indexer never see and which outlives the journal, where
// the file system allows; where it does not, a finished crawl is simply
// finished, whatever crawl resumes it. The attribute is set on the open
// marker, not by its name, so it cannot land on another file.
func (d *Dir) setLabel(data []byte) {
	withFd(d.marker, func(fd int) error {
		return unix.Fsetxattr(fd, labelAttr, data, 0)
	})
}

// label returns what setLabel stored, if anything. The directory must be
// open: the label is read from the open marker.
func (d *Dir) label() ([]byte, bool) {
	var buf []byte
	err := withFd(d.marker, func(fd int) error {
		n, err := unix.Fgetxattr(fd, labelAttr, nil)
		if err != nil || n <= 0 {
			return unix.ENODATA
		}
		buf = make([]byte, n)
		n, err = unix.Fgetxattr(fd, labelAttr, buf)
		buf = buf[:max(n, 0)]
		return err
	})
	if err != nil {
		return nil, false
	}
	return buf, true
}

// withFd calls fn with f's descriptor, which stays open until fn returns.
func withFd(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}
