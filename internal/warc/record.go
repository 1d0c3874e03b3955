package warc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/klauspost/compress/gzip"
)

// A header is the named fields of a WARC record, in the order written,
// less Content-Length, which encode adds.
type header [][2]string

// encode adds a whole record to e, in the form of the WARC 1.1 standard,
// section 4:
//
//	"WARC/1.1" CRLF
//	*( field-name ":" SP field-value CRLF )
//	CRLF
//	block CRLF CRLF
//
// compressed as one gzip member if the file is a .warc.gz. In a plain
// file the block is written from its own memory, which e then holds.
func (w *Writer) encode(e *Encoded, h header, block []byte) {
	n := 64
	for _, f := range h {
		n += len(f[0]) + len(f[1]) + 4
	}
	head := make([]byte, 0, n)
	head = append(head, version...)
	for _, f := range h {
		head = append(head, f[0]...)
		head = append(head, ": "...)
		head = append(head, f[1]...)
		head = append(head, "\r\n"...)
	}
	head = append(head, "Content-Length: "...)
	head = strconv.AppendInt(head, int64(len(block)), 10)
	head = append(head, "\r\n\r\n"...)
	if !w.gzip {
		e.parts = append(e.parts, head, block, []byte("\r\n\r\n"))
		return
	}
	buf := w.buf()
	z := bytes.NewBuffer(*buf)
	// A gzip.Writer holds about a megabyte of state, so they are reused.
	zw, _ := w.zpool.Get().(*gzip.Writer)
	if zw == nil {
		// The fastest level: on the playground's pages, level 5 takes
		// 1.7 times as long, longer than fetching and saving a page,
		// for a file a tenth smaller.
		zw, _ = gzip.NewWriterLevel(z, gzip.BestSpeed)
	} else {
		zw.Reset(z)
	}
	// Writing to a bytes.Buffer cannot fail.
	zw.Write(head)
	zw.Write(block)
	zw.Write([]byte("\r\n\r\n"))
	zw.Close()
	w.zpool.Put(zw)
	*buf = z.Bytes()
	e.parts = append(e.parts, *buf)
	e.bufs = append(e.bufs, buf)
}

// digest returns the labelled SHA-1 digest of b, in base 32, the form
// every WARC tool writes and checks: "sha1:" and 32 characters.
func digest(b []byte) string {
	sum := sha1.Sum(b)
	return labelled(sum[:])
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
