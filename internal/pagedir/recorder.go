package pagedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/crawler"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/warc"
)

// A Recorder stores what a crawl decides, as its sink ([crawler.Sink]):
// for each record, the exchanges recorded for it in the WARC file, if
// there is one, then the page, if it is new, then its journal line.
//
// The order is what makes a resume exact whatever stops the crawl. A page
// on disk has its records in the file, since a resumed crawl adopts a page
// saved but not journaled, and would not record it again. A page is saved
// before its line, so a crash leaves at most one page saved but not
// journaled, which a resumed crawl adopts and scans from its bytes; but a
// page whose line keeps a charset, which its bytes alone would not give
// the scan, is journaled first, for [Dir.Begin] to drop the line if the
// page never made it to disk. Each line keeps the WARC file's size once
// its records are in, to which a resumed crawl cuts the file back.
type Recorder struct {
	Dir     *Dir
	Archive *warc.Writer // nil for a crawl without a WARC file

	robots map[string]bool // the origins whose robots.txt is in the WARC file
}

// Record stores p.
func (r *Recorder) Record(p *pagefetch.Page) error {
	e := Line{Page: p}
	if r.Archive != nil {
		size, err := r.archive(p.Recording)
		if err != nil {
			return err
		}
		e.WARC = size
	} else {
		p.Close()
	}
	early := p.Kind == pagefetch.Saved && p.Charset != ""
	if early {
		if err := r.Dir.Record(e); err != nil {
			return err
		}
	}
	if p.Kind == pagefetch.Saved && p.Body != nil {
		if err := r.Dir.Save(p.DocID, p.URL, p.Depth, p.Body); err != nil {
			return err
		}
	}
	if early {
		return nil
	}
	return r.Dir.Record(e)
}

// archive writes the records of rec, if any, with those of its robots.txt
// if no page of its origin has yet, and returns the file's size after
// them. It closes the responses of rec's own exchanges.
func (r *Recorder) archive(rec *pagefetch.Recording) (int64, error) {
	if rec == nil {
		return r.Archive.Size(), nil
	}
	own := rec.Exchanges
	if origin := rec.RobotsOrigin; origin != "" && !r.robots[origin] {
		if r.robots == nil {
			r.robots = make(map[string]bool)
		}
		r.robots[origin] = true
		for _, x := range rec.Robots {
			if err := r.Archive.WriteExchange(x); err != nil {
				closeAll(own)
				return 0, err
			}
		}
	}
	for i, x := range own {
		err := r.Archive.WriteExchange(x)
		if err != nil {
			closeAll(own[i:])
			return 0, err
		}
		closeAll(own[i : i+1])
	}
	return r.Archive.Size(), nil
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

// A History gives a crawl that resumes what its earlier runs decided
// ([crawler.History]): the outcomes its journal replays, each saved page
// read back from the directory and checked against the page the crawl
// takes, then the page a killed run saved without journaling it, if there
// is one, which the crawl adopts. Either kind of page that is not the
// crawl's next is an error wrapping [crawler.ErrDiverged].
type History struct {
	dir        *Dir
	entries    []Line // still to replay
	requisites []*pagefetch.Page
	adopting   bool // a killed run may have saved the next page without journaling it
}

// History returns the history of the crawl r replays, whose pages are in d.
func (r *Replay) History(d *Dir) *History {
	h := &History{dir: d, entries: r.Entries, adopting: true}
	for _, e := range r.Requisites {
		h.requisites = append(h.requisites, e.Page)
	}
	return h
}

// Recall implements [crawler.History].
func (h *History) Recall(page bag.Item, saved int) (rec *pagefetch.Page, told, ok bool, err error) {
	next := saved + 1
	if len(h.entries) > 0 {
		e := h.entries[0]
		h.entries = h.entries[1:]
		if e.URL != page.URL {
			return rec, false, false, fmt.Errorf("%w: the journal has %s where this crawl has %s", crawler.ErrDiverged, e.URL, page.URL)
		}
		rec = e.Page
		if e.Kind == pagefetch.Saved {
			if e.DocID != next {
				return rec, false, false, fmt.Errorf("%w: the journal saved %s as page %d, where this crawl is at page %d", crawler.ErrDiverged, e.URL, e.DocID, next)
			}
			if rec.Body, err = h.load(page, next); err != nil && !errors.Is(err, crawler.ErrDiverged) {
				err = fmt.Errorf("%w: reading page %d: %v", crawler.ErrDiverged, next, err)
			}
			if err != nil {
				return rec, false, false, err
			}
		}
		return rec, true, true, nil
	}
	if !h.adopting {
		return rec, false, false, nil
	}
	html, err := h.load(page, next)
	if errors.Is(err, fs.ErrNotExist) {
		h.adopting = false // pages are saved in order: there is no later one
		return rec, false, false, nil
	}
	if err != nil {
		return rec, false, false, err
	}
	return &pagefetch.Page{Kind: pagefetch.Saved, URL: page.URL, Depth: page.Depth, DocID: next, Body: html}, false, true, nil
}

// load reads page id back, which must be page.
func (h *History) load(page bag.Item, id int) ([]byte, error) {
	url, depth, html, err := h.dir.Load(id)
	if err != nil {
		return nil, err
	}
	if url != page.URL || depth != page.Depth {
		return nil, fmt.Errorf("%w: page %d is depth %d %s, where this crawl has depth %d %s", crawler.ErrDiverged, id, depth, url, page.Depth, page.URL)
	}
	return html, nil
}

// Rest implements [crawler.History].
func (h *History) Rest() error {
	if len(h.entries) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the journal goes on after the crawl ends, at %s", crawler.ErrDiverged, h.entries[0].URL)
}

// Requisites implements [crawler.History].
func (h *History) Requisites() []*pagefetch.Page { return h.requisites }
