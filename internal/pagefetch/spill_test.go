package pagefetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tse-crawler/internal/pagefetch"
)

// spillAt is how large a buffer grows before a body spills, in these
// tests.
const spillAt = 4096

// A scratchDir makes the fetcher's scratch files in a directory of its
// own, and keeps them, so that a test can check that each was closed and
// the directory left empty.
type scratchDir struct {
	dir string
	// open makes a file to hand out; os.Create if nil.
	open func(name string) (*os.File, error)

	mu    sync.Mutex
	files []*os.File
}

func newScratchDir(t *testing.T) *scratchDir { return &scratchDir{dir: t.TempDir()} }

// scratch is a Fetcher's Scratch: a file whose name is removed at once.
func (s *scratchDir) scratch() (*os.File, error) {
	open := s.open
	if open == nil {
		open = os.Create
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := filepath.Join(s.dir, fmt.Sprint("spill-", len(s.files)))
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	s.files = append(s.files, f)
	if err := os.Remove(name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// check fails the test unless every file handed out is closed and the
// directory is empty, and returns how many files were handed out.
func (s *scratchDir) check(t *testing.T) int {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.files {
		if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("scratch file %d is still open after the fetch", i)
		}
	}
	if names, err := os.ReadDir(s.dir); err != nil || len(names) != 0 {
		t.Errorf("the scratch directory holds %v (%v), want nothing", names, err)
	}
	return len(s.files)
}

// spillBody returns a page of n bytes, no two KiB alike.
func spillBody(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>11)
	}
	return b
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// serveBody returns a client whose every answer is a 200 with body, of
// type text/html, coded as coding says, with its Content-Length unless
// length is false.
func serveBody(body []byte, coding string, length bool) *http.Client {
	return noRedirects(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		res := okResponse(r, string(body))
		if coding != "" {
			res.Header.Set("Content-Encoding", coding)
		}
		if !length {
			res.ContentLength = -1
		}
		return res, nil
	}))
}

// TestSpill: a body whose length is not known beforehand, one that
// inflates or one with no Content-Length, is read exact whatever its size
// against the buffer's; once larger than the buffer, it goes through a
// scratch file and comes back in an array of exactly its size; the limit
// applies to its decoded bytes, at exactly -max-size and one past it; and
// no scratch file is left, open or named, whatever the outcome.
func TestSpill(t *testing.T) {
	for _, size := range []int{100, spillAt - 1, spillAt, spillAt + 1, 2*spillAt + 1, 5*spillAt + 123, 300_000} {
		page := spillBody(size)
		for _, how := range []struct {
			name   string
			coding string
			body   []byte
			length bool
		}{
			{"gzip", "gzip", gzipped(page), true},
			{"gzip, no length", "gzip", gzipped(page), false},
			{"no length", "", page, false},
		} {
			for _, limit := range []struct {
				name string
				max  int64
				ok   bool
			}{
				{"no limit", 0, true},
				{"at the limit", int64(size), true},
				{"one past the limit", int64(size) - 1, false},
			} {
				t.Run(fmt.Sprintf("%d bytes, %s, %s", size, how.name, limit.name), func(t *testing.T) {
					sd := newScratchDir(t)
					f := &pagefetch.Fetcher{
						Client:    serveBody(how.body, how.coding, how.length),
						Scheduler: pagefetch.NewScheduler(0, nil, 1),
						UserAgent: userAgent,
						MaxSize:   limit.max,
						Scratch:   sd.scratch,
					}
					f.SetSpillAt(spillAt)
					got, err := f.Fetch(t.Context(), "http://h/p.html")
					spilled := sd.check(t)
					if !limit.ok {
						if pagefetch.Reason(err) != "too large" {
							t.Fatalf("Fetch = %d bytes, %v; want it too large", len(got), err)
						}
						return
					}
					if err != nil || !bytes.Equal(got, page) {
						t.Fatalf("Fetch = %d bytes, %v; want the %d bytes served", len(got), err, size)
					}
					switch {
					case size >= 2*spillAt && (spilled != 1 || cap(got) != size):
						t.Errorf("%d scratch files, the body in an array of %d bytes; want one file, and an array of exactly its %d bytes", spilled, cap(got), size)
					case size < spillAt/2 && spilled != 0:
						t.Errorf("%d scratch files for a body of %d bytes, want none", spilled, size)
					}
				})
			}
		}
	}
}

// TestSpillWithoutFile: a body that cannot spill, because no scratch file
// can be made or written, is read in memory, whole.
func TestSpillWithoutFile(t *testing.T) {
	page := spillBody(5*spillAt + 123)
	for _, tt := range []struct {
		name string
		open func(name string) (*os.File, error)
	}{
		{"no file", func(string) (*os.File, error) { return nil, errors.New("no space left on device") }},
		{"a file that cannot be written", func(name string) (*os.File, error) {
			if err := os.WriteFile(name, nil, 0o600); err != nil {
				return nil, err
			}
			return os.Open(name) // for reading only
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sd := newScratchDir(t)
			sd.open = tt.open
			f := &pagefetch.Fetcher{
				Client:    serveBody(gzipped(page), "gzip", true),
				Scheduler: pagefetch.NewScheduler(0, nil, 1),
				UserAgent: userAgent,
				Scratch:   sd.scratch,
			}
			f.SetSpillAt(spillAt)
			got, err := f.Fetch(t.Context(), "http://h/p.html")
			if err != nil || !bytes.Equal(got, page) {
				t.Errorf("Fetch = %d bytes, %v; want the %d bytes served", len(got), err, len(page))
			}
			sd.check(t)
		})
	}
}

// A stalledBody gives its bytes, then blocks until it is closed, as a
// server that stops sending does.
type stalledBody struct {
	r      io.Reader
	closed chan struct{}
	once   sync.Once
}

func (b *stalledBody) Read(p []byte) (int, error) {
	if n, err := b.r.Read(p); err != io.EOF {
		return n, err
	}
	<-b.closed
	return 0, errors.New("read on a closed body")
}

func (b *stalledBody) Close() error {
	b.once.Do(func() { close(b.closed) })
	return nil
}

// TestSpillEnds checks in fake time that a body that has spilled still
// ends exactly at the timeout, or at the interruption, when its server
// stops sending, and at a coding that breaks off; each time its scratch
// file is closed.
func TestSpillEnds(t *testing.T) {
	errStop := errors.New("interrupt signal received")
	const timeout = 200 * time.Millisecond
	page := spillBody(5 * spillAt)
	stalled := func(r *http.Request) (*http.Response, error) {
		res := okResponse(r, "")
		res.Body = &stalledBody{r: bytes.NewReader(page), closed: make(chan struct{})}
		res.ContentLength = -1
		return res, nil
	}
	broken := func(r *http.Request) (*http.Response, error) {
		z := gzipped(page)
		res := okResponse(r, string(z[:len(z)-10])) // its end and its checksum lost
		res.Header.Set("Content-Encoding", "gzip")
		return res, nil
	}
	tests := []struct {
		name      string
		rt        roundTripFunc
		timeout   time.Duration
		interrupt bool
		check     func(error) bool
		took      time.Duration
	}{
		{"timeout", stalled, timeout, false, isTimeout, timeout},
		{"interrupted", stalled, 0, true, func(err error) bool { return errors.Is(err, errStop) }, 300 * time.Millisecond},
		{"gzip cut short", broken, timeout, false, func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sd := newScratchDir(t)
				f := &pagefetch.Fetcher{
					Client:    &http.Client{Transport: tt.rt, Timeout: tt.timeout},
					Scheduler: pagefetch.NewScheduler(0, nil, 1),
					UserAgent: userAgent,
					Scratch:   sd.scratch,
				}
				f.SetSpillAt(spillAt)
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				if tt.interrupt {
					time.AfterFunc(300*time.Millisecond, func() { cancel(errStop) })
				}
				start := time.Now()
				got, err := f.Fetch(ctx, "http://h/p.html")
				if !tt.check(err) {
					t.Errorf("Fetch = %d bytes, %v; want another error", len(got), err)
				}
				if took := time.Since(start); took != tt.took {
					t.Errorf("Fetch took %v, want %v", took, tt.took)
				}
				if n := sd.check(t); n != 1 {
					t.Errorf("%d scratch files, want the body to have spilled to one", n)
				}
			})
		})
	}
}
