package pagedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"tse-crawler/internal/warc"
)

// ResumeWARC opens the WARC file at path of a crawl in a directory opened
// to resume, once [Dir.Begin] has decided: r is what Begin returned. The
// file is cut back to where the records of the last page the journal holds
// end, so that a page fetched again is recorded once. A page saved but not
// journaled, which the crawl adopts without fetching it again, had its
// records written before it was saved, so the file then keeps every whole
// exchange. A crawl that begins afresh (r is nil) journaled nothing: the
// file, if it is there, holds only records of pages never committed, and
// is emptied, or made if it is missing.
//
// It returns a [*MissingWARCError], having made nothing, if pages were
// saved or journaled, or requisites recorded, but the file is gone; and otherwise package warc's
// errors, a [*warc.NotWARCError] for a file that is not the crawl's.
func (d *Dir) ResumeWARC(path string, r *Replay, info warc.Info) (*warc.Writer, error) {
	switch {
	case r == nil:
		return warc.ReopenAt(path, 0, info)
	case (len(r.Entries) > 0 || len(r.Requisites) > 0 || r.Pages > 0) && missing(path):
		// Made before the crawl began, so it was deleted or moved since:
		// a new file would lack the records of the pages already saved.
		return nil, &MissingWARCError{Path: path, Dir: d.path, Pages: r.Pages}
	case r.Pages > r.Saved:
		return warc.Reopen(path, info)
	}
	return warc.ReopenAt(path, r.warcSize(), info)
}

// warcSize returns the size of the crawl's WARC file once the records of
// the pages and requisites journaled are in it: the largest size the
// journal gives.
func (r *Replay) warcSize() int64 {
	var size int64
	for _, e := range r.Entries {
		size = max(size, e.WARC)
	}
	for _, e := range r.Requisites {
		size = max(size, e.WARC)
	}
	return size
}

// missing reports whether nothing at all is at path, not even a link.
func missing(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// A MissingWARCError is returned by [Dir.ResumeWARC] for a crawl whose
// WARC file is gone, though pages were saved with their records in it.
type MissingWARCError struct {
	Path  string // the WARC file
	Dir   string // the page directory, as given to Open
	Pages int    // how many pages it holds
}

func (e *MissingWARCError) Error() string {
	return fmt.Sprintf("WARC file %s is missing, and the %d pages saved in %s have their records in it: put it back to resume the crawl, or start a new crawl in an empty directory", e.Path, e.Pages, e.Dir)
}
