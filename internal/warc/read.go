package warc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// A Record is a record that [Read] read back from a WARC file.
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
	next := nextPlain
	if isGzip(path) {
		next = nextMember
	}
	rr := &readerAt{r: f}
	sr := io.NewSectionReader(rr, 0, fi.Size())
	s := &scanner{sr: sr, br: bufio.NewReader(sr)}
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
			return fmt.Errorf("reading WARC file: %w", rr.err)
		case fnErr != nil:
			return fnErr
		case torn:
			return &NotWARCError{Path: path, Offset: start, Err: fmt.Errorf("the file ends in a torn record: %w", err)}
		case err != nil:
			return &NotWARCError{Path: path, Offset: start, Err: err}
		}
	}
}
