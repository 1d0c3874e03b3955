// Package earlier reads the archive of an earlier crawl, so that a new
// crawl can ask the server whether each page has changed since, and take
// the body of an unchanged one from the earlier archive.
//
// The archive is one or more files, each a WACZ package, a .warc.gz or a
// .warc, written by this crawler or by any writer of WARC 1.0 or 1.1,
// such as wget. It is read through an index, not held in memory: a
// package's own CDXJ index, or one built in a pass over a WARC file,
// which keeps per URL only where its latest usable capture lies and a
// few short fields. A record's head is read when the URL is looked up,
// and its body only when asked for.
package earlier

import (
	"errors"
	"net/http"
)

// errNotYet stands for what is not written yet.
var errNotYet = errors.New("not yet")

// An Archive is the index of the archive of an earlier crawl. It is safe
// for concurrent use by many goroutines.
type Archive struct{}

// Open opens the files of an earlier crawl, each a WACZ package, a
// .warc.gz or a .warc, told apart by their content, not their names, and
// indexes them.
func Open(paths ...string) (*Archive, error) {
	return nil, errNotYet
}

// Close closes the files of the archive.
func (a *Archive) Close() error {
	return errNotYet
}

// Len returns how many URLs have a capture that [Archive.Lookup] can
// give.
func (a *Archive) Len() int {
	return 0
}

// A Capture is the earlier archive's latest usable 200 answer to a URL.
type Capture struct {
	// URI is the WARC-Target-URI of the record that holds the payload.
	URI string
	// Date is its WARC-Date, exactly as written.
	Date string
	// RecordID is its WARC-Record-ID, or "" if it is not known.
	RecordID string
	// PayloadDigest is its WARC-Payload-Digest as written (such as
	// "sha1:" and base 32), or "" if it has none.
	PayloadDigest string
	// ETag and LastModified are the validators in the HTTP head of the
	// latest answer.
	ETag         string
	LastModified string
	// Archive is the path, as given to [Open], of the file that holds
	// the payload record: for a WACZ package, the package itself.
	Archive string
}

// Lookup returns the capture of the URL, by its exact WARC-Target-URI,
// and whether it has one. It returns an error only when the record's
// head cannot be read, or is damaged.
func (a *Archive) Lookup(url string) (Capture, bool, error) {
	return Capture{}, false, errNotYet
}

// Response returns the HTTP response that c recorded: its status code,
// its header, and at most max bytes of its body, with its transfer coding
// and its content coding (gzip, deflate or identity; any other is an
// error) removed. A body longer than max is cut to max bytes without an
// error: the caller takes a body of max bytes as too big.
func (a *Archive) Response(c Capture, max int64) (code int, h http.Header, body []byte, err error) {
	return 0, nil, nil, errNotYet
}
