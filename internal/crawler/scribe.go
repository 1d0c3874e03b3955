package crawler

import (
	"sync"

	"tse-crawler/internal/pagefetch"
)

// A scribe hands the crawl's pages to its Sink on a goroutine of its own,
// in the order it is given them, so that the crawl's next request does
// not wait for the disk. Writing a page to the page cache costs as much
// as fetching it on loopback, so overlapping the two matters. At most one
// page waits while another is stored.
type scribe struct {
	sink Sink

	jobs chan job
	done chan struct{}

	mu    sync.Mutex
	err   error // the first failure; nothing is stored after it
	saved int   // the last docID saved
}

func startScribe(c *Crawler) *scribe {
	s := &scribe{
		sink: c.Sink,
		jobs: make(chan job, 1),
		done: make(chan struct{}),
	}
	go s.run()
	return s
}

// A job is a page for the scribe: one to record, or one an earlier run
// recorded, replayed.
type job struct {
	p        *pagefetch.Page
	replayed bool
}

func (s *scribe) run() {
	defer close(s.done)
	for j := range s.jobs {
		p := j.p
		if s.failure() != nil {
			p.Close() // drain: nothing more is stored after a failure
			continue
		}
		if j.replayed {
			if r, ok := s.sink.(Replayer); ok {
				r.Replayed(p)
			}
			continue
		}
		if err := s.sink.Record(p); err != nil {
			s.fail(err)
			continue
		}
		if p.Kind == pagefetch.Saved && p.Body != nil {
			s.mu.Lock()
			s.saved = p.DocID
			s.mu.Unlock()
		}
	}
}

func (s *scribe) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// failure returns the first error a page met, if any.
func (s *scribe) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// put queues a page. It returns the first error any page has met, so that
// the crawl stops at once; the page is then dropped.
func (s *scribe) put(p *pagefetch.Page) error {
	if err := s.failure(); err != nil {
		p.Close()
		return err
	}
	s.jobs <- job{p: p}
	return nil
}

// replayed tells the sink, if it is a [Replayer], of a page an earlier run
// recorded, behind the crawl.
func (s *scribe) replayed(p *pagefetch.Page) {
	if _, ok := s.sink.(Replayer); ok && s.failure() == nil {
		s.jobs <- job{p: p, replayed: true}
	}
}

// finish waits until every page is stored, and returns the first error
// and the last docID saved.
func (s *scribe) finish() (saved int, err error) {
	close(s.jobs)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved, s.err
}
