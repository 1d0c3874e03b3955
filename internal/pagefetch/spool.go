package pagefetch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// spoolMemory is how much of a response a spool keeps in memory. Past it,
// the rest goes to a file, so that a page of 50 MiB is held in memory once,
// as the page the crawler saves, and not a second time as it came, for
// its WARC record, until the record is written.
const spoolMemory = 1 << 20

// A spool holds the bytes of one response as they are read, for its WARC
// record: in memory up to spoolMemory bytes, then in a file that open
// makes, which has no name. It is a warc.Source, and Close frees it.
type spool struct {
	open func() (*os.File, error) // nil keeps everything in memory
	// pool, if set, lends the memory, and takes it back on Close: most
	// responses a crawl records are alike in size, and each would
	// otherwise grow a buffer of its own.
	pool *sync.Pool
	mem  []byte
	f    *os.File
	size int64
	err  error // the first failure to write the file; nothing more is kept after it
}

// write appends b: to memory while it fits, then to the file. Once the
// file cannot be written, the rest is dropped, and failed reports why.
func (s *spool) write(b []byte) {
	if s.err != nil {
		return
	}
	if s.f == nil && (s.open == nil || len(s.mem)+len(b) <= spoolMemory) {
		if s.mem == nil && s.pool != nil {
			if m, ok := s.pool.Get().(*[]byte); ok {
				s.mem = (*m)[:0]
			}
		}
		s.mem = append(s.mem, b...)
		s.size += int64(len(b))
		return
	}
	if s.f == nil {
		if s.f, s.err = s.open(); s.err != nil {
			s.err = fmt.Errorf("spooling a response: %w", s.err)
			return
		}
	}
	if _, err := s.f.WriteAt(b, s.size-int64(len(s.mem))); err != nil {
		s.err = fmt.Errorf("spooling a response: %w", err)
		return
	}
	s.size += int64(len(b))
}

// reset empties the spool, for a request that the transport sends again
// on another connection.
func (s *spool) reset() {
	s.mem, s.size, s.err = s.mem[:0], 0, nil
	if s.f != nil {
		s.f.Truncate(0)
	}
}

// failed returns the first error writing the spool's file, if any.
func (s *spool) failed() error { return s.err }

// Size returns how many bytes the spool holds.
func (s *spool) Size() int64 { return s.size }

// ReadAt reads what the spool holds at off, as io.ReaderAt does.
func (s *spool) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("spool: negative offset")
	}
	n := 0
	if off < int64(len(s.mem)) {
		n = copy(p, s.mem[off:])
	}
	if n < len(p) && s.f != nil && off+int64(n) < s.size {
		want := p[n:min(int64(len(p)), s.size-off)]
		m, err := s.f.ReadAt(want, off+int64(n)-int64(len(s.mem)))
		n += m
		if err != nil && !errors.Is(err, io.EOF) {
			return n, err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Close frees the spool: its file, and its memory, which goes back to be
// reused.
func (s *spool) Close() error {
	var err error
	if s.f != nil {
		err = s.f.Close()
		s.f = nil
	}
	if s.pool != nil && s.mem != nil && cap(s.mem) <= 2*spoolMemory {
		m := s.mem[:0]
		s.pool.Put(&m)
	}
	s.mem, s.size = nil, 0
	return err
}
