// Package coding removes the content codings of HTTP bodies (RFC 9110,
// 8.4) that the crawler reads: gzip, and deflate in either of the forms
// servers send, for a body fetched and for one an earlier archive holds.
package coding

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
)

// An UnsupportedError is a content coding that Reader cannot remove.
type UnsupportedError struct{ Coding string }

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("unsupported Content-Encoding %q", e.Coding)
}

// Reader returns body with the content coding named coding, lower-cased,
// removed: "" and "identity" leave it as it is; "gzip" and "x-gzip" are
// gzip; "deflate" is zlib data, as the standard says, or raw deflate
// data, as some servers send and browsers take. Any other coding is an
// [*UnsupportedError].
func Reader(body io.Reader, coding string) (io.Reader, error) {
	switch coding {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, fmt.Errorf("reading the gzip body: %w", err)
		}
		return zr, nil
	case "deflate":
		br := bufio.NewReader(body)
		if head, err := br.Peek(2); err == nil && zlibHeader(head) {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, fmt.Errorf("reading the deflate body: %w", err)
			}
			return zr, nil
		}
		return flate.NewReader(br), nil
	}
	return nil, &UnsupportedError{coding}
}

// zlibHeader reports whether two bytes start a zlib stream (RFC 1950).
func zlibHeader(b []byte) bool {
	return b[0]&0x0f == 8 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0
}
