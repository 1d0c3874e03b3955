package linkcheck

import (
	"tse-crawler/internal/crawler"
	"tse-crawler/internal/pagefetch"
)

// Sink returns a sink that tells c of each page the crawl decides, and
// of each an earlier run decided, as the crawl replays it, then hands the
// page on to next.
func (c *Checker) Sink(next crawler.Sink) crawler.Sink {
	return sink{c, next}
}

type sink struct {
	c    *Checker
	next crawler.Sink
}

func (s sink) Record(p *pagefetch.Page) error {
	s.c.record(p)
	return s.next.Record(p)
}

// Replayed implements [crawler.Replayer].
func (s sink) Replayed(p *pagefetch.Page) { s.c.record(p) }

// record tells c of what came of one page.
func (c *Checker) record(p *pagefetch.Page) {
	switch p.Kind {
	case pagefetch.Saved:
		c.Saved(p.URL, p.Read)
	case pagefetch.Failed:
		c.Failed(p.URL, p.Status)
	case pagefetch.Redirected:
		c.Redirected(p.URL, p.Target, p.Status)
	case pagefetch.Disallowed:
		c.Disallowed(p.URL)
	}
}
