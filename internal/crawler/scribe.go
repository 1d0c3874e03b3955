package crawler

import (
	"io"
	"sync"

	"tse-crawler/internal/journal"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/warc"
)

// A scribe saves pages and journals outcomes on a goroutine of its own,
// in the order it is given them, so that the crawl's next request does not
// wait for the disk. Writing a page to the page cache costs as much as
// fetching it on loopback, so overlapping the two matters.
//
// Each page is saved before its journal line is written, one job at a
// time, so a crash leaves at most one page saved but not journaled, which
// a resumed crawl adopts and scans from its bytes. A page whose line keeps
// a charset, which its bytes alone would not give the scan, is journaled
// first, for package pagedir to drop the line if the page never made it to
// disk. At most one job waits while another is written.
type scribe struct {
	save    func(id int, url string, depth int, html []byte) error
	journal func(journal.Entry) error // may be nil
	recycle func([]byte)              // may be nil
	archive *warc.Writer              // may be nil

	jobs chan scribeJob
	done chan struct{}

	robotsDone map[string]bool // the origins whose robots.txt is in the WARC file

	mu    sync.Mutex
	err   error // the first failure; no job is written after it
	saved int   // the last docID saved
}

// A scribeJob is one outcome to write: the page's HTML first if it is
// saved and not on disk yet, then its journal line.
type scribeJob struct {
	entry journal.Entry
	depth int
	html  []byte               // nil if there is nothing to save
	rec   *pagefetch.Recording // nil if the fetch recorded nothing, or the page was not fetched
}

func startScribe(c *Crawler) *scribe {
	s := &scribe{
		save:    c.Save,
		journal: c.Journal,
		recycle: c.Recycle,
		archive: c.Archive,
		jobs:    make(chan scribeJob, 1),
		done:    make(chan struct{}),
	}
	go s.run()
	return s
}

func (s *scribe) run() {
	defer close(s.done)
	for j := range s.jobs {
		if s.failure() != nil {
			s.give(j.html) // drain: nothing more is written after a failure
			continue
		}
		if s.archive != nil {
			// Before the page, so that a page on disk has its records in
			// the file: a resumed crawl adopts a page saved but not
			// journaled, and would not record it again.
			size, err := s.write(j.rec)
			if err != nil {
				s.give(j.html)
				s.fail(err)
				continue
			}
			j.entry.WARC = size
		}
		early := j.entry.Charset != "" && s.journal != nil
		if early {
			if err := s.journal(j.entry); err != nil {
				s.give(j.html)
				s.fail(err)
				continue
			}
		}
		if j.html != nil {
			err := s.save(j.entry.DocID, j.entry.URL, j.depth, j.html)
			s.give(j.html)
			if err != nil {
				s.fail(err)
				continue
			}
			s.mu.Lock()
			s.saved = j.entry.DocID
			s.mu.Unlock()
		}
		if s.journal != nil && !early {
			if err := s.journal(j.entry); err != nil {
				s.fail(err)
			}
		}
	}
}

// write writes the records of rec, if any, with those of its robots.txt
// if no page of its origin has yet, and returns the file's size after
// them.
func (s *scribe) write(rec *pagefetch.Recording) (int64, error) {
	if rec == nil {
		return s.archive.Size(), nil
	}
	if rec.RobotsOrigin != "" && !s.robotsDone[rec.RobotsOrigin] {
		if s.robotsDone == nil {
			s.robotsDone = make(map[string]bool)
		}
		s.robotsDone[rec.RobotsOrigin] = true
		for _, x := range rec.Robots {
			if err := s.archive.WriteExchange(x); err != nil {
				return 0, err
			}
		}
	}
	own := rec.Exchanges
	for i, x := range own {
		err := s.archive.WriteExchange(x)
		if err != nil {
			closeAll(own[i:])
			return 0, err
		}
		closeAll(own[i : i+1])
	}
	return s.archive.Size(), nil
}

// closeAll frees the responses of xs, which may be spooled to files, once
// they are written or will not be.
func closeAll(xs []warc.Exchange) {
	for _, x := range xs {
		if c, ok := x.Response.(io.Closer); ok {
			c.Close()
		}
	}
}

func (s *scribe) give(html []byte) {
	if html != nil && s.recycle != nil {
		s.recycle(html)
	}
}

func (s *scribe) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// failure returns the first error a job met, if any.
func (s *scribe) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// put queues a job. It returns the first error any job has met, so that the
// crawl stops at once; the job is then dropped.
func (s *scribe) put(j scribeJob) error {
	if err := s.failure(); err != nil {
		s.give(j.html)
		return err
	}
	s.jobs <- j
	return nil
}

// finish waits until every job is written, and returns the first error and
// the last docID saved.
func (s *scribe) finish() (saved int, err error) {
	close(s.jobs)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved, s.err
}
