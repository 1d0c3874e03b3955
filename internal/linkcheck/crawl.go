package linkcheck

import (
	"tse-crawler/internal/bag"
	"tse-crawler/internal/crawler"
)

// Sink returns a sink that tells c of each page the crawl decides, then
// hands the record on to next.
func (c *Checker) Sink(next crawler.Sink) crawler.Sink {
	return sink{c, next}
}

type sink struct {
	c    *Checker
	next crawler.Sink
}

func (s sink) Record(rec crawler.Record) error {
	// A page saved by an earlier run that recorded nothing comes back
	// without its HTML: the history told c of it already.
	if rec.Kind != crawler.Saved || rec.HTML != nil {
		s.c.record(rec)
	}
	return s.next.Record(rec)
}

// record tells c of what came of one page.
func (c *Checker) record(rec crawler.Record) {
	switch rec.Kind {
	case crawler.Saved:
		c.Saved(rec.URL, rec.HTML, rec.Charset)
	case crawler.Failed:
		c.Failed(rec.URL, rec.Status)
	case crawler.Redirected:
		c.Redirected(rec.URL, rec.Target, rec.Status)
	case crawler.Disallowed:
		c.Disallowed(rec.URL)
	}
}

// History returns a history that tells c of each page the runs before
// decided, as the crawl recalls it, so that a check that resumes checks
// their pages too. It returns nil for a nil h.
func (c *Checker) History(h crawler.History) crawler.History {
	if h == nil {
		return nil
	}
	return history{h, c}
}

type history struct {
	crawler.History
	c *Checker
}

func (h history) Recall(page bag.Item, saved int) (crawler.Record, bool, bool, error) {
	rec, told, ok, err := h.History.Recall(page, saved)
	if ok && err == nil {
		h.c.record(rec)
	}
	return rec, told, ok, err
}
