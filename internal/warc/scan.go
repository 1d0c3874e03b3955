package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// errShort says that the input ended before the record did.
var errShort = errors.New("record ends too soon")

// version begins every record a Writer writes.
const version = "WARC/1.1\r\n"

// version10 begins a record of WARC 1.0, which wget writes, and which
// [ReadAny] reads as well.
const version10 = "WARC/1.0\r\n"

// gzipMagic begins every gzip member: ID1, ID2 and CM, the method
// (deflate), of RFC 1952.
const gzipMagic = "\x1f\x8b\x08"

// maxLine bounds a line of a record's header. Far longer than any line a
// Writer writes, it keeps a damaged file from filling the memory.
const maxLine = 1 << 20

// scan reads the WARC file r, of the given size, record by record, and
// returns where to cut it so that it ends after its last whole exchange:
// at the end of the last whole record, or at the start of that record if
// it is a request, whose response would follow it. Anything after it must
// be the start of a record that a crash cut short. If it is not, scan
// returns an error and the offset of what it could not read; if reading
// r fails, it returns an [*ioError].
func scan(r io.ReaderAt, size int64, gz bool) (int64, error) {
	next := nextPlain
	if gz {
		next = nextMember
	}
	// Reading through gzip and bufio can hide a failure to read the file
	// behind another error, so it is kept aside.
	rr := &readerAt{r: r}
	sr := io.NewSectionReader(rr, 0, size)
	s := &scanner{sr: sr, br: bufio.NewReader(sr)}
	var last struct {
		start, end int64
		typ        string
	}
	for {
		start := s.pos()
		if _, err := s.br.Peek(1); err == io.EOF {
			break
		}
		typ, torn, err := next(s)
		if rr.err != nil {
			return start, &ioError{rr.err}
		}
		if torn {
			break
		}
		if err != nil {
			return start, err
		}
		last.start, last.end, last.typ = start, s.pos(), typ
	}
	if last.typ == "request" {
		return last.start, nil
	}
	return last.end, nil
}

// A scanner reads records from a file.
type scanner struct {
	sr *io.SectionReader
	// br reads sr. It is an io.ByteReader, so gzip reads from it no
	// further than the end of a member.
	br *bufio.Reader
	z  *gzip.Reader
	zb *bufio.Reader // reads z
	// keep, if not nil, is given the fields and the block of each record
	// read, which is otherwise skipped.
	keep func(fields header, block io.Reader) error
	// v10 takes WARC/1.0 records as well as WARC/1.1 ones.
	v10 bool
}

// pos returns the offset in the file of what br reads next.
func (s *scanner) pos() int64 {
	off, _ := s.sr.Seek(0, io.SeekCurrent) // cannot fail
	return off - int64(s.br.Buffered())
}

// nextPlain reads a record from a plain WARC file, and returns its type.
// It reports torn a record that the end of the file cuts short.
func nextPlain(s *scanner) (typ string, torn bool, err error) {
	typ, err = readRecord(s.br, s.keep, s.v10)
	return typ, err == errShort, err
}

// nextMember reads a gzip member, which must hold one whole record, and
// returns the record's type. It reports torn a member that the end of the
// file cuts short: a member that ends, and whose checksum is right, holds
// exactly what a Writer wrote, so a record cut short inside it is damage.
func nextMember(s *scanner) (typ string, torn bool, err error) {
	// A cut may leave as little as one byte of the member.
	if b, _ := s.br.Peek(3); !bytes.HasPrefix([]byte(gzipMagic), b) {
		return "", false, fmt.Errorf("no gzip member begins here: %q", b)
	}
	if s.z == nil {
		s.z, err = gzip.NewReader(s.br)
	} else {
		err = s.z.Reset(s.br)
	}
	if err != nil {
		return "", err == io.ErrUnexpectedEOF, err
	}
	s.z.Multistream(false)
	if s.zb == nil {
		s.zb = bufio.NewReader(s.z)
	} else {
		s.zb.Reset(s.z)
	}
	typ, err = readRecord(s.zb, s.keep, s.v10)
	if err == nil {
		if _, err = s.zb.ReadByte(); err == nil {
			err = ErrMemberOfMany
		} else if err == io.EOF {
			err = nil
		}
	}
	// gzip reports a member cut short, whether in its compressed data or
	// in its trailer, as io.ErrUnexpectedEOF, and its own end as io.EOF,
	// which readRecord turns into errShort.
	return typ, errors.Is(err, io.ErrUnexpectedEOF), err
}

// readRecord reads a record from br and returns its type, giving its
// fields and block to keep if keep is not nil. It takes a WARC/1.1 record,
// or with v10 a WARC/1.0 one too. It returns errShort if br ends before
// the record does, the error of br itself if br fails, and that of keep if
// keep fails.
func readRecord(br *bufio.Reader, keep func(header, io.Reader) error, v10 bool) (string, error) {
	// A cut may leave as little as one byte of the record.
	b, err := br.Peek(len(version))
	switch {
	case bytes.HasPrefix([]byte(version), b):
	case !v10:
		return "", fmt.Errorf("no WARC/1.1 record begins here: %q", b)
	case !bytes.HasPrefix([]byte(version10), b):
		return "", fmt.Errorf("no WARC/1.0 or WARC/1.1 record begins here: %q", b)
	}
	if err != nil {
		return "", eof(err)
	}
	br.Discard(len(version))
	var typ string
	var fields header
	length := int64(-1)
	for head := 0; ; {
		line, err := readLine(br)
		if err != nil {
			return "", err
		}
		if line == "" {
			break
		}
		// Each line is bounded, but a record of millions of them would
		// be held whole.
		if head += len(line) + 2; head > maxLine {
			return "", fmt.Errorf("record header longer than %d bytes", maxLine)
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !isToken(name) {
			return "", fmt.Errorf("header line %q is not a named field", line)
		}
		value = strings.Trim(value, " \t")
		if keep != nil {
			fields = append(fields, [2]string{name, value})
		}
		switch {
		case strings.EqualFold(name, "WARC-Type"):
			typ = value
		case strings.EqualFold(name, "Content-Length"):
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || length >= 0 || strings.TrimLeft(value, "0123456789") != "" {
				return "", fmt.Errorf("content length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return "", errors.New("record has no Content-Length")
	}
	if keep != nil {
		block := &io.LimitedReader{R: br, N: length}
		if err := keep(fields, block); err != nil {
			return "", err
		}
		length = block.N
	}
	for length > 0 {
		n := int(min(length, 1<<30))
		n, err := br.Discard(n)
		length -= int64(n)
		if err != nil {
			return "", eof(err)
		}
	}
	end, err := br.Peek(4)
	if !bytes.HasPrefix([]byte("\r\n\r\n"), end) {
		return "", fmt.Errorf("block is followed by %q, not two CRLFs", end)
	}
	if err != nil {
		return "", eof(err)
	}
	br.Discard(4)
	return typ, nil
}

// readLine reads a line that ends in CRLF, and returns it without them.
func readLine(br *bufio.Reader) (string, error) {
	var line []byte
	for {
		b, err := br.ReadSlice('\n')
		line = append(line, b...)
		if len(line) > maxLine {
			return "", errors.New("header line too long")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return "", eof(err)
		}
		if !bytes.HasSuffix(line, []byte("\r\n")) {
			return "", fmt.Errorf("header line %q does not end in CRLF", line)
		}
		return string(line[:len(line)-2]), nil
	}
}

// eof turns the end of the input into errShort.
func eof(err error) error {
	if err == io.EOF {
		return errShort
	}
	return err
}

// A readerAt keeps the first error of r other than the end of the file.
type readerAt struct {
	r   io.ReaderAt
	err error
}

func (r *readerAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.r.ReadAt(p, off)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}

// An ioError is a failure to read the file, not something wrong in it.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }
