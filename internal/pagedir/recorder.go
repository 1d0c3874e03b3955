package pagedir

import (
	"io"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/journal"
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

// Record stores rec.
func (r *Recorder) Record(rec crawler.Record) error {
	e := journal.Entry{Kind: kinds[rec.Kind], URL: rec.URL, DocID: rec.DocID, Target: rec.Target, Charset: rec.Charset, Needs: rec.Needs, Status: rec.Status}
	if r.Archive != nil {
		size, err := r.archive(rec.Recording)
		if err != nil {
			return err
		}
		e.WARC = size
	}
	early := e.Charset != ""
	if early {
		if err := r.Dir.Record(e); err != nil {
			return err
		}
	}
	if rec.HTML != nil {
		if err := r.Dir.Save(rec.DocID, rec.URL, rec.Depth, rec.HTML); err != nil {
			return err
		}
	}
	if early {
		return nil
	}
	return r.Dir.Record(e)
}

// kinds are the journal's kinds of the crawler's.
var kinds = map[crawler.Kind]journal.Kind{
	crawler.Saved:      journal.Saved,
	crawler.Failed:     journal.Failed,
	crawler.Disallowed: journal.Disallowed,
	crawler.Redirected: journal.Redirected,
	crawler.Requisite:  journal.Requisite,
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

// Records returns the entries of a journal as the crawler's records, for
// a crawl that resumes.
func Records(entries []journal.Entry) []crawler.Record {
	recs := make([]crawler.Record, len(entries))
	for i, e := range entries {
		recs[i] = crawler.Record{Kind: kindOf(e.Kind), URL: e.URL, DocID: e.DocID, Target: e.Target, Charset: e.Charset, Needs: e.Needs, Status: e.Status}
	}
	return recs
}

func kindOf(k journal.Kind) crawler.Kind {
	for ck, jk := range kinds {
		if jk == k {
			return ck
		}
	}
	return 0
}
