package crawler

import (
	"sync"
)

// A scribe hands the crawl's records to its Sink on a goroutine of its
// own, in the order it is given them, so that the crawl's next request
// does not wait for the disk. Writing a page to the page cache costs as
// much as fetching it on loopback, so overlapping the two matters. At
// most one record waits while another is stored.
type scribe struct {
	sink Sink

	jobs chan Record
	done chan struct{}

	mu    sync.Mutex
	err   error // the first failure; no record is stored after it
	saved int   // the last docID saved
}

func startScribe(c *Crawler) *scribe {
	s := &scribe{
		sink: c.Sink,
		jobs: make(chan Record, 1),
		done: make(chan struct{}),
	}
	go s.run()
	return s
}

func (s *scribe) run() {
	defer close(s.done)
	for rec := range s.jobs {
		if s.failure() != nil {
			s.drop(rec) // drain: nothing more is stored after a failure
			continue
		}
		if err := s.sink.Record(rec); err != nil {
			s.fail(err)
			continue
		}
		if rec.HTML != nil {
			s.mu.Lock()
			s.saved = rec.DocID
			s.mu.Unlock()
		}
	}
}

// drop lets go of a record that will not be stored.
func (s *scribe) drop(rec Record) { discard(rec.Recording) }

func (s *scribe) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// failure returns the first error a record met, if any.
func (s *scribe) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// put queues a record. It returns the first error any record has met, so
// that the crawl stops at once; the record is then dropped.
func (s *scribe) put(rec Record) error {
	if err := s.failure(); err != nil {
		s.drop(rec)
		return err
	}
	s.jobs <- rec
	return nil
}

// finish waits until every record is stored, and returns the first error
// and the last docID saved.
func (s *scribe) finish() (saved int, err error) {
	close(s.jobs)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved, s.err
}
