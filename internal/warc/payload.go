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

// A Source is bytes that can be read from any offset: a *bytes.Reader, an
// *io.SectionReader, or a file that a large response was spooled to, so
// that a record is written without the response being held in memory.
type Source interface {
	io.ReaderAt
	Size() int64
}

// A message is where, in what was read for a request, its final response
// lies, and what the response's framing says of its entity body: the
// payload of the record.
type message struct {
	// start and end bound the final response, from its status line to
	// the end of its message as its framing says: the interim 1xx
	// responses before it and anything the server sent after it are left
	// out of the record.
	start, end int64
	// The entity body, with the chunked transfer coding removed and any
	// content coding kept, or as much of it as there is: the bytes from
	// bodyStart to bodyEnd, or, for a chunked body, which is not in one
	// piece, its digest and size. A chunked body has a digest once framed
	// by frameBody.
	bodyStart, bodyEnd int64
	chunked            []byte
	chunkedSize        int64
	// known is false when the message has no well-defined entity body:
	// its head is torn or malformed, its chunked coding is malformed, or
	// it has a transfer coding other than chunked. It then runs to the
	// end of what was read.
	known bool
	// truncated is set when the message ends before its framing says it
	// should, in its head, its body or its trailer.
	truncated bool
	// code is a response's status, and headEnd where its head ends; 0 if
	// the head could not be read.
	code    int
	headEnd int64
}

// payloadSize returns the size of the entity body, or of as much of it as
// there is.
func (m message) payloadSize() int64 {
	if m.chunked != nil {
		return m.chunkedSize
	}
	return m.bodyEnd - m.bodyStart
}

// frameResponse finds the final response in src, what was read for a
// request made with the given method, skipping interim 1xx responses as
// an HTTP client does.
//
// Heads are read by net/http, so that the framing is the one the
// crawler's client saw: a saved page's body is then its record's payload
// whenever the client did not decode a content coding. The chunked coding
// is taken by hand, since net/http reports a torn trailer and a malformed
// one with the same kind of error, and a torn trailer leaves the payload
// whole.
func frameResponse(src Source, method string) message {
	req := &http.Request{Method: method}
	var off int64
	for {
		n, resp, err := readHead(src, off, func(br *bufio.Reader) (*http.Response, error) {
			return http.ReadResponse(br, req)
		})
		if err != nil {
			return message{start: off, end: src.Size(), truncated: torn(src, off, err)}
		}
		if resp.StatusCode/100 == 1 && resp.StatusCode != http.StatusSwitchingProtocols {
			off += n
			continue
		}
		m := frameBody(src, off+n, resp.Body, resp.TransferEncoding, resp.ContentLength)
		m.start, m.code, m.headEnd = off, resp.StatusCode, off+n
		return m
	}
}

// frameRequest finds the request in src. It returns the method too, which
// says whether the response can have a body.
func frameRequest(src Source) (message, string) {
	n, req, err := readHead(src, 0, func(br *bufio.Reader) (*http.Request, error) {
		return http.ReadRequest(br)
	})
	if err != nil {
		return message{end: src.Size(), truncated: torn(src, 0, err)}, ""
	}
	return frameBody(src, n, req.Body, req.TransferEncoding, req.ContentLength), req.Method
}

// readHead reads the head of the message at off in src with read, and
// returns its length in bytes.
func readHead[T any](src Source, off int64, read func(*bufio.Reader) (T, error)) (int64, T, error) {
	sr := io.NewSectionReader(src, off, src.Size()-off)
	br := bufio.NewReader(sr)
	m, err := read(br)
	// net/http reads no further than the head before the body is read.
	pos, _ := sr.Seek(0, io.SeekCurrent)
	return pos - int64(br.Buffered()), m, err
}

// frameBody frames the body of a message whose head ends at off, as the
// head says: body is the message's body as net/http set it, which is
// http.NoBody when the message can have none.
func frameBody(src Source, off int64, body io.ReadCloser, te []string, length int64) message {
	size := src.Size()
	m := message{end: size, bodyStart: off, bodyEnd: size, known: true}
	switch {
	case body == http.NoBody:
		m.end, m.bodyEnd = off, off
	case slices.Equal(te, []string{"chunked"}):
		h := sha1.New()
		m := dechunk(src, off, h)
		if m.known {
			m.chunked = h.Sum(nil)
		}
		return m
	case len(te) > 0:
		// net/http refuses any other transfer coding, so this cannot
		// happen; if it did, the payload would still be coded.
		return message{end: size}
	case length >= 0 && size-off < length:
		m.truncated = true
	case length >= 0:
		m.end, m.bodyEnd = off+length, off+length
	}
	// Otherwise the body is delimited by the end of the connection, which
	// cannot be told from a cut.
	return m
}

// torn reports whether the head at off in src, which net/http could not
// read, is cut short. net/http says so of a cut between lines, but a cut
// inside a line can leave a malformed one: the head is torn unless an
// empty line follows.
func torn(src Source, off int64, err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	r := bufio.NewReader(io.NewSectionReader(src, off, src.Size()-off))
	var last2 [2]byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return true
		}
		if c == '\n' && (last2[1] == '\n' || last2 == [2]byte{'\n', '\r'}) {
			return false
		}
		last2 = [2]byte{last2[1], c}
	}
}

// maxChunkLine bounds a chunk-size line, extensions and all. net/http
// refuses one longer than 4 kB; a longer one is taken as malformed rather
// than gathered in memory without end.
const maxChunkLine = 64 << 10

// dechunk removes the chunked transfer coding (RFC 9112, section 7.1)
// from the body at off in src, writing the data to data, and finds where
// the message ends. It keeps to the rules of net/http's client, so that it
// agrees with it on every body both take as well formed: each chunk-size
// line and each chunk's data ends in CRLF, never a bare LF; no CR comes
// before a line's end; whitespace after the size and any chunk extension
// are ignored; and a size has at most 16 hex digits. Trailer fields are
// skipped. A body that ends too soon gives the data before the cut, and
// is truncated; a malformed one has no payload, and runs to the end of
// src.
func dechunk(src Source, off int64, data io.Writer) message {
	size := src.Size()
	r := &chunkReader{br: bufio.NewReaderSize(io.NewSectionReader(src, off, size-off), 32<<10), pos: off}
	cut := func() message {
		return message{end: size, chunkedSize: r.data, known: true, truncated: true}
	}
	for {
		line, ok, whole := r.line()
		switch {
		case !ok:
			return message{end: size}
		case !whole:
			return cut()
		}
		n, ok := chunkSize(line)
		if !ok {
			return message{end: size}
		}
		if n == 0 {
			if !r.trailer() {
				return cut()
			}
			return message{end: r.pos, chunkedSize: r.data, known: true}
		}
		if r.copyN(data, n) < n {
			return cut()
		}
		switch crlf := r.peek(2); {
		case len(crlf) == 2 && crlf[0] == '\r' && crlf[1] == '\n':
			r.discard(2)
		case len(crlf) == 0 || len(crlf) == 1 && crlf[0] == '\r':
			return cut()
		default:
			return message{end: size}
		}
	}
}

// A chunkReader reads a chunked body, counting where it is in its
// source.
type chunkReader struct {
	br   *bufio.Reader
	pos  int64 // of the next byte in the source
	data int64 // chunk data read
	buf  []byte
}

// line reads a chunk-size line and returns it without its CRLF. It
// reports ok false if the line is malformed, and whole false if the body
// ends before the line does.
func (r *chunkReader) line() (line []byte, ok, whole bool) {
	r.buf = r.buf[:0]
	for {
		b, err := r.br.ReadSlice('\n')
		r.pos += int64(len(b))
		r.buf = append(r.buf, b...)
		if len(r.buf) > maxChunkLine {
			return nil, false, false
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = r.buf
		if err != nil {
			// A CR anywhere but last can never become a line's end.
			if i := bytes.IndexByte(line, '\r'); i >= 0 && i != len(line)-1 {
				return nil, false, false
			}
			return nil, true, false
		}
		i := len(line) - 1 // the LF
		if i == 0 || bytes.IndexByte(line, '\r') != i-1 {
			return nil, false, false // a bare LF, or a CR inside the line
		}
		return line[:i-1], true, true
	}
}

// trailer skips the trailer section, field lines up to an empty line, and
// reports whether it is whole.
func (r *chunkReader) trailer() bool {
	for start := true; ; {
		b, err := r.br.ReadSlice('\n')
		r.pos += int64(len(b))
		if errors.Is(err, bufio.ErrBufferFull) {
			start = false
			continue
		}
		if err != nil {
			return false
		}
		if start && (len(b) == 1 || len(b) == 2 && b[0] == '\r') {
			return true
		}
		start = true
	}
}

// copyN copies up to n bytes of chunk data to w, and returns how many
// there were.
func (r *chunkReader) copyN(w io.Writer, n uint64) uint64 {
	copied, _ := io.CopyN(w, r.br, int64(min(n, 1<<62)))
	r.pos += copied
	r.data += copied
	return uint64(copied)
}

func (r *chunkReader) peek(n int) []byte {
	b, _ := r.br.Peek(n)
	return b
}

func (r *chunkReader) discard(n int) {
	m, _ := r.br.Discard(n)
	r.pos += int64(m)
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
