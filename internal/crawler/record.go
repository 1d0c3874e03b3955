package crawler

import "tse-crawler/internal/pagefetch"

// A Sink stores what a crawl decides: the pages, and whichever of the
// crawl's outcomes its outputs keep (a journal, a WARC file, a link
// check). The crawl hands it one [pagefetch.Page] at a time, in the order
// it decides them, from a goroutine of its own, behind the crawl: a Sink
// need not be safe for concurrent use. A page to save has its DocID and
// its Body; one an earlier run saved has no Body. Each is a page taken
// from the bag, with its Depth, or a requisite recorded (of Kind
// pagefetch.Requisite). An error stops the crawl; no page is handed over
// after it, and the Sink closes the recordings of those it was handed.
type Sink interface {
	Record(*pagefetch.Page) error
}

// A Replayer is a Sink that is told, too, of each page an earlier run
// recorded, as the crawl replays it, with what reading it found: an
// output that the runs before did not leave on disk, such as a link
// check's, takes them up again. The crawl tells it in order with the
// pages it records, from the same goroutine.
type Replayer interface {
	Sink
	Replayed(*pagefetch.Page)
}
