// Package earlier reads the archive of an earlier crawl, so that a new
// crawl can ask the server whether each page has changed since, and take
// the body of an unchanged one from the earlier archive.
//
// The archive is one or more files, each a WACZ package, a .warc.gz or a
// .warc, written by this crawler or by any writer of WARC 1.0 or 1.1,
// such as wget. It is read through an index, not held in memory: a
// package's own CDXJ index, or one built in a pass over a WARC file,
// which keeps per URL only where its latest answer and its latest 200
// lie, and when they were recorded: about 180 bytes for a URL of 62
// bytes, the URL included (BenchmarkIndex measures it). A record's head
// is read when the URL is looked up, and its body only when it is asked
// for, so a 10 GB archive costs the memory of its index, not its size.
//
// # Which capture
//
// A URL's capture is its latest answer, by WARC-Date (ties go to the
// later file as given to Open, then to the record later in its file; a
// WACZ package's index dates to the second), if that answer is
// usable: a response record of an HTTP 200 not marked WARC-Truncated, or
// a revisit record that refers, by WARC-Refers-To-Target-URI and
// WARC-Refers-To-Date or WARC-Refers-To, to the latest such response to
// its URI among the files opened. A later answer of any other kind, such
// as a 404, or a revisit of a response not among them, leaves the URL
// with no capture: the new crawl then fetches it whole, as it would
// without an earlier archive. The capture of a revisit names the response
// that holds its payload, and takes its validators from the revisit's
// HTTP head if it has one, as a revisit of an identical payload does.
package earlier

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strings"
	"time"

	"tse-crawler/internal/coding"
	"tse-crawler/internal/warc"
)

// An Archive is the index of the archive of an earlier crawl. It is safe
// for concurrent use by many goroutines: once open, it is only read.
type Archive struct {
	files []*os.File
	parts []part
	index map[string]entry
	// refers holds, while the index is built, what the latest answer to
	// a URL refers to, if it is a revisit read from a WARC file.
	refers   map[string]*refersTo
	len      int
	warnings []string
}

// A part is a WARC file of the archive: a file given to [Open], or one in
// a WACZ package, read where the package stores it.
type part struct {
	archive string // the path given to Open
	r       io.ReaderAt
	size    int64
	// coarse says that the times of its records in the index are those of
	// a CDXJ index, to the second, and that what the index says of a
	// record is checked when the record is read.
	coarse bool
}

// A kind is what an answer is to the index.
type kind uint8

const (
	none    kind = iota
	ok           // a response of an HTTP 200
	revisit      // a revisit record
	other        // any other answer, such as a 404
)

// A ref is where a record lies, and when it was recorded.
type ref struct {
	when int64 // WARC-Date in Unix nanoseconds
	off  int64 // where the record (or its gzip member) begins in its part
	part int32
	kind kind
}

// after reports whether r was recorded after s: later, or at the same
// time but later in its file, or in a later one.
func (r ref) after(s ref) bool {
	if r.when != s.when {
		return r.when > s.when
	}
	if r.part != s.part {
		return r.part > s.part
	}
	return r.off > s.off
}

// An entry is what the index holds of a URL.
type entry struct {
	latest ref // its latest answer
	// ok is its latest 200 response while the index is built, then the
	// response that holds its capture's payload, if it has a capture.
	ok ref
}

// refersTo is what a revisit record names of the record it revisits.
type refersTo struct {
	uri, date, id string
}

// Open opens the files of an earlier crawl, each a WACZ package, a
// .warc.gz or a .warc, told apart by their content, not their names, and
// indexes them. A WARC file cut short by a crash, whose last record is
// torn, is read up to that record, and [Archive.Warnings] says so.
// Indexing a large archive takes a while: it stops when ctx ends, with
// the context's cause.
func Open(ctx context.Context, paths ...string) (*Archive, error) {
	a := &Archive{index: make(map[string]entry), refers: make(map[string]*refersTo)}
	for _, p := range paths {
		if err := a.add(ctx, p); err != nil {
			a.Close()
			return nil, err
		}
	}
	if err := a.resolve(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Close closes the files of the archive.
func (a *Archive) Close() error {
	var errs []error
	for _, f := range a.files {
		errs = append(errs, f.Close())
	}
	a.files = nil
	return errors.Join(errs...)
}

// Len returns how many URLs have a capture that [Archive.Lookup] can
// give. It may count a few that Lookup, reading the records, finds
// unusable: a WACZ package's index does not say that a response was cut
// short, nor which record ID a revisit names.
func (a *Archive) Len() int {
	return a.len
}

// Warnings returns what was wrong with the archive but did not keep it
// from being read, such as a torn last record, each a sentence for the
// user that names the file.
func (a *Archive) Warnings() []string {
	return a.warnings
}

// A Capture is the earlier archive's latest usable 200 answer to a URL.
type Capture struct {
	// URI is the WARC-Target-URI of the record that holds the payload,
	// without the angle brackets that WARC 1.0 writers put around it.
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

	at ref // where the payload record is
}

// Lookup returns the capture of the URL, by its exact WARC-Target-URI,
// and whether it has one. It returns an error only when the record's
// head cannot be read, or is damaged.
func (a *Archive) Lookup(url string) (Capture, bool, error) {
	e := a.index[url]
	if e.ok.kind != ok {
		return Capture{}, false, nil
	}
	var c Capture
	var status int
	var truncated bool
	err := a.record(e.ok, func(rec warc.Record, block io.Reader) error {
		c = Capture{
			URI:           targetURI(rec.Get("WARC-Target-URI")),
			Date:          rec.Get("WARC-Date"),
			RecordID:      rec.Get("WARC-Record-ID"),
			PayloadDigest: rec.Get("WARC-Payload-Digest"),
			Archive:       a.parts[e.ok.part].archive,
			at:            e.ok,
		}
		truncated = rec.Get("WARC-Truncated") != "" || rec.Get("WARC-Type") != "response"
		resp, err := readHead(block)
		if err != nil {
			return nil // not an HTTP response: status stays 0
		}
		status = resp.StatusCode
		c.ETag, c.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
		return nil
	})
	if err != nil {
		return Capture{}, false, err
	}
	// An index of a WACZ package says less than the record itself, and
	// a damaged one may point at another URL's record.
	if status != http.StatusOK || truncated || c.URI != url {
		return Capture{}, false, nil
	}
	if e.latest == e.ok {
		return c, true, nil
	}
	var refers refersTo
	var head *http.Response
	err = a.record(e.latest, func(rec warc.Record, block io.Reader) error {
		refers = refersTo{targetURI(rec.Get("WARC-Refers-To-Target-URI")), rec.Get("WARC-Refers-To-Date"), rec.Get("WARC-Refers-To")}
		head, _ = readHead(block) // a revisit of a 304 has no block
		return nil
	})
	if err != nil {
		return Capture{}, false, err
	}
	if !refers.match(c.RecordID, c.Date) || head != nil && head.StatusCode != http.StatusOK && head.StatusCode != http.StatusNotModified {
		return Capture{}, false, nil
	}
	if head != nil {
		c.ETag, c.LastModified = head.Header.Get("ETag"), head.Header.Get("Last-Modified")
	}
	return c, true, nil
}

// match reports whether a record of the given ID and WARC-Date is the one
// that r refers to, as far as r says.
func (r refersTo) match(id, date string) bool {
	if r.id != "" && id != "" {
		return r.id == id
	}
	if r.date == "" {
		return true // the latest 200 of its URI, which it was taken for
	}
	t1, err1 := parseDate(r.date)
	t2, err2 := parseDate(date)
	return err1 == nil && err2 == nil && t1 == t2
}

// Response returns the HTTP response that c recorded: its status code,
// its header, and at most max bytes of its body, with its transfer coding
// and its content coding (gzip, deflate or identity; any other is an
// error) removed. A body longer than max is cut to max bytes without an
// error: the caller takes a body of max bytes as too big. The header no
// longer names a transfer coding, nor, if the body was decoded, its
// Content-Encoding and Content-Length, as net/http's client leaves the
// header of a body it decoded.
func (a *Archive) Response(c Capture, max int64) (code int, h http.Header, body []byte, err error) {
	if c.at.kind != ok || int(c.at.part) >= len(a.parts) {
		return 0, nil, nil, errors.New("reading an earlier capture: the capture is not one that Lookup gave")
	}
	err = a.record(c.at, func(rec warc.Record, block io.Reader) error {
		resp, err := readHead(block)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		code, h = resp.StatusCode, resp.Header
		r, err := decode(resp.Body, resp.Header.Values("Content-Encoding"))
		if err != nil {
			return err
		}
		if r != resp.Body {
			// As net/http's client says of a body it decoded.
			h.Del("Content-Encoding")
			h.Del("Content-Length")
		}
		body, err = io.ReadAll(io.LimitReader(r, max))
		if err != nil {
			return fmt.Errorf("body: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, nil, nil, fmt.Errorf("reading the earlier capture of %s in %s: %w", c.URI, c.Archive, err)
	}
	return code, h, body, nil
}

// errStop ends a reading of one record.
var errStop = errors.New("one record read")

// record calls fn with the record at r, and its block.
func (a *Archive) record(r ref, fn func(rec warc.Record, block io.Reader) error) error {
	p := a.parts[r.part]
	if r.off >= p.size {
		return fmt.Errorf("%s: no record at byte %d, past the end of its WARC data", p.archive, r.off)
	}
	var fnErr error
	err := warc.ReadAny(io.NewSectionReader(p.r, r.off, p.size-r.off), p.size-r.off, func(rec warc.Record, block io.Reader) error {
		if fnErr = fn(rec, block); fnErr != nil {
			return fnErr
		}
		return errStop
	})
	switch {
	case err == errStop:
		return nil
	case fnErr != nil:
		return fnErr
	case err == nil:
		err = errors.New("no record")
	}
	var re *warc.RecordError
	if errors.As(err, &re) {
		err = fmt.Errorf("at byte %d: %w", r.off+re.Offset, re.Err)
	}
	return fmt.Errorf("reading the earlier archive %s: %w; is it the file that was opened?", p.archive, err)
}

// headMax is the most of an HTTP response's head that is read, as
// net/http's client reads no more than about a MiB of one: an archive
// could hold a head of gigabytes, which http.ReadResponse would keep.
const headMax = 1 << 20

// errHeadTooLong ends the reading of a head longer than headMax.
var errHeadTooLong = fmt.Errorf("HTTP response head longer than %d bytes", headMax)

// A headLimit reads at most left bytes, then fails with errHeadTooLong,
// until left is raised for the body.
type headLimit struct {
	r    io.Reader
	left int64
}

func (h *headLimit) Read(p []byte) (int, error) {
	if h.left <= 0 {
		return 0, errHeadTooLong
	}
	if int64(len(p)) > h.left {
		p = p[:h.left]
	}
	n, err := h.r.Read(p)
	h.left -= int64(n)
	return n, err
}

// readHead reads the head of the HTTP response in a record's block, as a
// GET's, within headMax bytes; its body is then read without that limit.
func readHead(block io.Reader) (*http.Response, error) {
	lim := &headLimit{r: block, left: headMax}
	resp, err := http.ReadResponse(bufio.NewReader(lim), nil)
	if err != nil {
		if lim.left <= 0 {
			err = errHeadTooLong
		}
		return nil, fmt.Errorf("HTTP response: %w", err)
	}
	lim.left = math.MaxInt64
	return resp, nil
}

// decode removes the content codings of a body, last applied first.
func decode(body io.Reader, codings []string) (io.Reader, error) {
	var list []string
	for _, v := range codings {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				list = append(list, c)
			}
		}
	}
	for i := len(list) - 1; i >= 0; i-- {
		var err error
		body, err = coding.Reader(body, list[i])
		if _, ok := errors.AsType[*coding.UnsupportedError](err); ok {
			return nil, fmt.Errorf("body has content coding %q, which this crawler cannot decode", list[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return body, nil
}

// targetURI returns a WARC-Target-URI without the angle brackets that
// WARC 1.0 writers, such as wget, put around it.
func targetURI(v string) string {
	if len(v) >= 2 && v[0] == '<' && v[len(v)-1] == '>' {
		return v[1 : len(v)-1]
	}
	return v
}

// parseDate parses a WARC-Date: WARC 1.0 gives seconds, WARC 1.1 may give
// fractions of them.
func parseDate(v string) (int64, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, fmt.Errorf("WARC-Date %q: %w", v, err)
	}
	return t.UnixNano(), nil
}

// status returns the status code on the status line of an HTTP response
// that begins a block, or 0 if it begins with no such line.
func status(line []byte) int {
	if !bytes.HasPrefix(line, []byte("HTTP/")) {
		return 0
	}
	_, rest, _ := bytes.Cut(line, []byte{' '})
	code, _, _ := bytes.Cut(rest, []byte{' '})
	code = bytes.TrimRight(code, "\r\n")
	if len(code) != 3 {
		return 0
	}
	n := 0
	for _, c := range code {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}
