package warc

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"
)

// A header is the named fields of a WARC record, in the order written,
// less Content-Length, which encode adds.
type header [][2]string

// A record is a WARC record to write: its header, and its block, the
// bytes of m from start to end in src.
type record struct {
	h   header
	src Source
	m   message
}

// encode writes a whole record to out, in the form of the WARC 1.1
// standard, section 4:
//
//	"WARC/1.1" CRLF
//	*( field-name ":" SP field-value CRLF )
//	CRLF
//	block CRLF CRLF
//
// compressed as one gzip member if the file is a .warc.gz. w.mu is held.
func (w *Writer) encode(out io.Writer, r record) error {
	n := 64
	for _, f := range r.h {
		n += len(f[0]) + len(f[1]) + 4
	}
	head := make([]byte, 0, n)
	head = append(head, version...)
	for _, f := range r.h {
		head = append(head, f[0]...)
		head = append(head, ": "...)
		head = append(head, f[1]...)
		head = append(head, "\r\n"...)
	}
	head = append(head, "Content-Length: "...)
	head = strconv.AppendInt(head, r.m.end-r.m.start, 10)
	head = append(head, "\r\n\r\n"...)
	if w.gzip {
		// A gzip.Writer holds about a megabyte of state, so it is reused.
		if w.zw == nil {
			// Level 6: the records of a crawl of the Python 3.11
			// documentation to depth 2 (55 MB, a gzip member each) make
			// 9.0 MB in 0.49 s, where the default level, 5, makes 9.2 MB
			// in 0.48 s, level 1 10.7 MB in 0.31 s, level 8 8.7 MB in
			// 0.91 s and level 9 8.6 MB in 2.2 s, more than the rest of
			// the crawl; compress/gzip's default makes 8.7 MB in 1.2 s.
			// wget's file of the same pages is 8.6 MB, at zlib's level 9.
			w.zw, _ = gzip.NewWriterLevel(out, 6)
		} else {
			w.zw.Reset(out)
		}
		out = w.zw
	}
	if _, err := out.Write(head); err != nil {
		return err
	}
	block := io.NewSectionReader(r.src, r.m.start, r.m.end-r.m.start)
	buf := w.buf()
	defer w.bufs.Put(buf)
	if n, err := io.CopyBuffer(out, block, *buf); err != nil {
		return err
	} else if n != block.Size() {
		return fmt.Errorf("the response held %d bytes where %d were expected", r.m.start+n, r.m.end)
	}
	if _, err := io.WriteString(out, "\r\n\r\n"); err != nil {
		return err
	}
	if w.gzip {
		return w.zw.Close()
	}
	return nil
}

// sha1Sum returns the SHA-1 digest of b.
func sha1Sum(b []byte) []byte {
	sum := sha1.Sum(b)
	return sum[:]
}

func labelled(sum []byte) string {
	return "sha1:" + base32.StdEncoding.EncodeToString(sum)
}

// newID returns a new WARC-Record-ID: a random (version 4) UUID as a URN,
// in angle brackets.
func newID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails, as of Go 1.24
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// formatDate formats t for WARC-Date: UTC, to the microsecond, as WARC 1.1
// allows and warcio writes.
func formatDate(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

// filename returns the name of the file at path for WARC-Filename, or ""
// if it cannot be written as the field's value.
func filename(path string) string {
	name := filepath.Base(path)
	if !isText(name) {
		return ""
	}
	return name
}
