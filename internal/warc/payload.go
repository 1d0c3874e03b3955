package warc

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"io"
	"net/http"
	"slices"
)

// A payload is what the framing of a raw HTTP message says of its entity
// body: the payload of a WARC request or response record.
type payload struct {
	// parts, one after the other, are the entity body, with the chunked
	// transfer coding removed and any content coding kept, or as much of
	// it as the message holds. They are the message's own memory, so
	// that no body is copied only to be digested.
	parts [][]byte
	// known is false when the message has no well-defined entity body: its
	// head is torn or malformed, its chunked coding is malformed, or it has
	// a transfer coding other than chunked.
	known bool
	// truncated is set when the message ends before its framing says it
	// should, in its head, its body or its trailer.
	truncated bool
}

// responsePayload finds the payload of a raw HTTP response to a request
// made with the given method, skipping interim 1xx responses as an HTTP
// client does.
//
// The head is read by net/http, so that the framing is the one the
// crawler's client saw: a saved page's body is then its record's payload
// whenever the client did not decode a content coding. The body is taken
// by hand, since net/http reports a torn trailer and a malformed one with
// the same kind of error, and a torn trailer leaves the payload whole.
func responsePayload(raw []byte, method string) payload {
	req := &http.Request{Method: method}
	for {
		n, resp, err := readHead(raw, func(br *bufio.Reader) (*http.Response, error) {
			return http.ReadResponse(br, req)
		})
		if err != nil {
			return payload{truncated: torn(raw, err)}
		}
		raw = raw[n:]
		if resp.StatusCode/100 == 1 && resp.StatusCode != http.StatusSwitchingProtocols {
			continue
		}
		return bodyPayload(raw, resp.Body, resp.TransferEncoding, resp.ContentLength)
	}
}

// requestPayload finds the payload of a raw HTTP request, and returns its
// method too, which says whether the response can have a body.
func requestPayload(raw []byte) (payload, string) {
	n, req, err := readHead(raw, func(br *bufio.Reader) (*http.Request, error) {
		return http.ReadRequest(br)
	})
	if err != nil {
		return payload{truncated: torn(raw, err)}, ""
	}
	return bodyPayload(raw[n:], req.Body, req.TransferEncoding, req.ContentLength), req.Method
}

// readHead reads the head of the message at the start of raw with read,
// and returns its length in bytes.
func readHead[T any](raw []byte, read func(*bufio.Reader) (T, error)) (int, T, error) {
	r := bytes.NewReader(raw)
	br := bufio.NewReader(r)
	m, err := read(br)
	// net/http reads no further than the head before the body is read.
	return len(raw) - r.Len() - br.Buffered(), m, err
}

// bodyPayload takes the payload from rest, the bytes after a message's
// head, as the head's framing says: body is the message's body as net/http
// set it, which is http.NoBody when the message can have none.
func bodyPayload(rest []byte, body io.ReadCloser, te []string, length int64) payload {
	switch {
	case body == http.NoBody:
		return payload{known: true}
	case slices.Equal(te, []string{"chunked"}):
		return dechunk(rest)
	case len(te) > 0:
		// net/http refuses any other transfer coding, so this cannot
		// happen; if it did, the payload would still be coded.
		return payload{}
	case length >= 0 && int64(len(rest)) < length:
		return payload{parts: [][]byte{rest}, known: true, truncated: true}
	case length >= 0:
		return payload{parts: [][]byte{rest[:length]}, known: true}
	default:
		// Delimited by the end of the connection, which cannot be told
		// from a cut.
		return payload{parts: [][]byte{rest}, known: true}
	}
}

// torn reports whether the head of raw, which net/http could not read,
// is cut short. net/http says so of a cut between lines, but a cut inside
// a line can leave a malformed one.
func torn(raw []byte, err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		!bytes.Contains(raw, []byte("\n\r\n")) && !bytes.Contains(raw, []byte("\n\n"))
}

// dechunk removes the chunked transfer coding (RFC 9112, section 7.1)
// from b, a message body. It keeps to the rules of net/http's client, so
// that it agrees with it on every body both take as well formed: each
// chunk-size line and each chunk's data ends in CRLF, never a bare LF; no
// CR comes before a line's end; whitespace after the size and any chunk
// extension are ignored; and a size has at most 16 hex digits. Trailer
// fields are skipped. A body that ends too soon gives the data before the
// cut, and is truncated.
func dechunk(b []byte) payload {
	var parts [][]byte
	for {
		line, rest, ok := chunkLine(b)
		switch {
		case !ok:
			return payload{}
		case rest == nil:
			return payload{parts: parts, known: true, truncated: true}
		}
		size, ok := chunkSize(line)
		if !ok {
			return payload{}
		}
		b = rest
		if size == 0 {
			return payload{parts: parts, known: true, truncated: !skipTrailer(b)}
		}
		if size > uint64(len(b)) {
			return payload{parts: append(parts, b), known: true, truncated: true}
		}
		parts = append(parts, b[:size])
		b = b[size:]
		switch {
		case len(b) >= 2 && b[0] == '\r' && b[1] == '\n':
			b = b[2:]
		case len(b) == 0 || len(b) == 1 && b[0] == '\r':
			return payload{parts: parts, known: true, truncated: true}
		default:
			return payload{}
		}
	}
}

// size returns the length of the payload, or as much of it as there is.
func (p payload) size() int {
	n := 0
	for _, b := range p.parts {
		n += len(b)
	}
	return n
}

// digest returns the payload's labelled digest, as [digest] does.
func (p payload) digest() string {
	h := sha1.New()
	for _, b := range p.parts {
		h.Write(b)
	}
	return labelled(h.Sum(nil))
}

// chunkLine splits off the chunk-size line at the start of b, without its
// CRLF. It returns a nil rest if b ends before the line does, and ok false
// if the line is malformed.
func chunkLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		// A CR anywhere but last can never become a line's end.
		if j := bytes.IndexByte(b, '\r'); j >= 0 && j != len(b)-1 {
			return nil, nil, false
		}
		return nil, nil, true
	}
	if i == 0 || bytes.IndexByte(b[:i], '\r') != i-1 {
		return nil, nil, false // a bare LF, or a CR inside the line
	}
	return b[:i-1], b[i+1:], true
}

// chunkSize parses a chunk-size line, ignoring the whitespace after the
// size and any chunk extension.
func chunkSize(line []byte) (uint64, bool) {
	line = bytes.TrimRight(line, " \t")
	line, _, _ = bytes.Cut(line, []byte(";"))
	if len(line) == 0 || len(line) > 16 {
		return 0, false
	}
	var n uint64
	for _, c := range line {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | uint64(d)
	}
	return n, true
}

// skipTrailer reports whether b, what follows the last chunk, holds the
// whole trailer section: field lines up to an empty line.
func skipTrailer(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false
		}
		if i == 0 || i == 1 && b[0] == '\r' {
			return true
		}
		b = b[i+1:]
	}
}
