package warc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// A Record is a record that [Read] or [ReadAny] read back from a WARC
// file.
type Record struct {
	// Offset is where the record begins in the file: in a .warc.gz, where
	// its gzip member does. The records of a file lie end to end, so each
	// ends where the next begins, and the last where the file ends.
	Offset int64
	// Fields are its named fields, in order, Content-Length among them.
	Fields [][2]string
}

// Get returns the value of the first field named name, in any case, or "".
func (r Record) Get(name string) string {
	for _, f := range r.Fields {
		if strings.EqualFold(f[0], name) {
			return f[1]
		}
	}
	return ""
}

// Read reads the WARC file at path, as [Create] and [Reopen] write it,
// record by record, and calls fn with each record and a reader of its
// block, which fn need not read to its end and must not keep. A file that
// holds anything but whole records, one to a gzip member in a .warc.gz,
// is a [*NotWARCError]. Read returns the first error of fn.
func Read(path string, fn func(rec Record, block io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading WARC file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reading WARC file: %w", err)
	}
	err = read(f, fi.Size(), isGzip(path), false, fn)
	switch e := err.(type) {
	case *ioError:
		return fmt.Errorf("reading WARC file: %w", e.err)
	case *RecordError:
		cause := e.Err
		if e.Torn {
			cause = fmt.Errorf("the file ends in a torn record: %w", e.Err)
		}
		return &NotWARCError{Path: path, Offset: e.Offset, Err: cause}
	}
	return err
}

// ErrMemberOfMany says that a gzip member holds more than one record. A
// .warc.gz compressed as one stream, as gzip compresses a whole .warc,
// is one member that holds them all, and no record after the first can
// be read where it lies without reading every one before it.
var ErrMemberOfMany = errors.New("gzip member holds more than one record")

// A RecordError is returned by [ReadAny] when what it reads holds, at
// Offset, something other than a whole WARC record.
type RecordError struct {
	Offset int64 // where the record, or its gzip member, begins
	// Torn says that the data ends inside the record, as a writer killed
	// while it wrote a record leaves it; such a record is always the last.
	Torn bool
	Err  error
}

func (e *RecordError) Error() string {
	if e.Torn {
		return fmt.Sprintf("the record at byte %d is cut short by the end of the file: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("at byte %d: %v", e.Offset, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// ReadAny reads the WARC records in r, from byte 0 to size, as [Read]
// reads a file, but those of any writer of WARC 1.0 or 1.1, such as wget:
// WARC/1.0 records as well as WARC/1.1 ones, in plain data, or in gzip
// members of one record each if the data begins as gzip does, whatever
// its name. Anything else where a record should begin is a
// [*RecordError], reported once fn has had every record before it: Torn
// if the data ends inside it, which fn may have been given already, and
// [ErrMemberOfMany] for gzip data compressed as one stream. ReadAny
// returns the first error of fn.
func ReadAny(r io.ReaderAt, size int64, fn func(rec Record, block io.Reader) error) error {
	var magic [len(gzipMagic)]byte
	n, _ := r.ReadAt(magic[:], 0) // a failure is found again below
	err := read(r, size, string(magic[:n]) == gzipMagic, true, fn)
	if e, ok := err.(*ioError); ok {
		return fmt.Errorf("reading WARC data: %w", e.err)
	}
	return err
}

// read reads the records in r, from byte 0 to size, as gzip members if gz
// is set, and WARC/1.0 records as well with v10, and calls fn with each.
// It returns the first error of fn, an [*ioError] if r fails, or a
// [*RecordError].
func read(r io.ReaderAt, size int64, gz, v10 bool, fn func(rec Record, block io.Reader) error) error {
	next := nextPlain
	if gz {
		next = nextMember
	}
	rr := &readerAt{r: r}
	sr := io.NewSectionReader(rr, 0, size)
	s := &scanner{sr: sr, br: bufio.NewReader(sr), v10: v10}
	var start int64
	var fnErr error
	s.keep = func(fields header, block io.Reader) error {
		fnErr = fn(Record{Offset: start, Fields: fields}, block)
		return fnErr
	}
	for {
		start = s.pos()
		if _, err := s.br.Peek(1); err == io.EOF {
			return nil
		}
		_, torn, err := next(s)
		switch {
		case rr.err != nil:
			return &ioError{rr.err}
		case fnErr != nil:
			return fnErr
		case err != nil:
			return &RecordError{Offset: start, Torn: torn, Err: err}
		}
	}
}
