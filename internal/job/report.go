package job

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"time"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/stats"
)

// report gathers the figures of c's crawl, which ended with res: the
// crawler's counts of pages, URLs and requisites, as they are, its broken
// links, the fetcher's and the pacer's figures, and the mode links were
// read in.
func report(res crawler.Result, c *crawler.Crawler, fetcher *pagefetch.Fetcher, mode string, elapsed time.Duration) *stats.Report {
	p := fetcher.Scheduler.Pauses()
	requests, pauses := fetcher.Scheduler.HostRequests(), fetcher.Scheduler.HostPauses()
	var hosts []stats.Host
	for _, name := range slices.Sorted(maps.Keys(requests)) {
		hp := pauses[name]
		hosts = append(hosts, stats.Host{Name: name, Requests: requests[name], Pauses: hp.Count, MeanPause: stats.Duration(hp.Mean())})
	}
	r := &stats.Report{
		Pages:         res.Pages,
		URLs:          res.URLs,
		Requests:      fetcher.Scheduler.Requests(),
		BytesSaved:    res.Bytes,
		Elapsed:       stats.Duration(elapsed),
		Pauses:        p.Count,
		MeanPause:     stats.Duration(p.Mean()),
		ShortestPause: stats.Duration(p.Shortest),
		DeepestDepth:  res.Deepest,
		Links:         mode,
		Hosts:         hosts,
		AheadPeak:     res.AheadPeak,

		MaxPagesReached: res.MaxPagesReached,
		Waiting:         res.Pending,
	}
	if c.Requisites {
		r.Requisites = &res.Requisites
	}
	if c.Graph != nil {
		r.Broken = c.Graph.Broken()
	}
	return r
}

// limitSummary says that a crawl ended at -max-pages most, and how many
// pages it left waiting.
func limitSummary(most int, res crawler.Result) string {
	pages := "pages"
	if res.Saved == 1 {
		pages = "page"
	}
	return fmt.Sprintf("-max-pages %d reached: %d %s saved, %d waiting", most, res.Saved, pages, res.Pending)
}

// failureSummary sums up the pages of a crawl that could not be fetched,
// by reason, in one line: what -q prints instead of a line for each.
func failureSummary(res crawler.Result) string {
	pages := "pages"
	if res.Failed == 1 {
		pages = "page"
	}
	return fmt.Sprintf("%d %s could not be fetched: %s", res.Failed, pages, stats.Reasons(res.FailedBy))
}

// writeStats prints the report on stderr (-stats) and writes it as JSON to
// the -stats-json file, if there is one.
func writeStats(cfg *Settings, r *stats.Report, out *outFile, stderr io.Writer) error {
	if cfg.Stats {
		if err := r.WriteText(stderr); err != nil {
			return err
		}
	}
	return writeJSON(r, out)
}

// writeJSON writes the report as JSON to the -stats-json file, if there
// is one.
func writeJSON(r *stats.Report, out *outFile) error {
	if out == nil {
		return nil
	}
	b, err := r.JSON()
	if err != nil {
		return err
	}
	if err := out.write(b); err != nil {
		return fmt.Errorf("-stats-json: %w", err)
	}
	return nil
}

// An outFile is a file the crawler writes once it is done, opened at the
// start so that a path it cannot write is found before the crawl.
type outFile struct {
	f       *os.File
	created bool // by us, so it may be removed if nothing is written
	done    bool
}

// createOut opens path for writing, creating it if it does not exist,
// without changing what it holds.
func createOut(path string) (*outFile, error) {
	created := false
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		created = err == nil
	}
	if err != nil {
		return nil, err
	}
	return &outFile{f: f, created: created}, nil
}

// write replaces the file with one that holds b.
func (o *outFile) write(b []byte) error {
	return o.writeFrom(func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// writeFrom replaces the file with one that holds what write writes:
// written beside it under a temporary name and renamed over it, so that a
// script reading the file never sees half of it, and a disk that fills up
// leaves the file as it was.
func (o *outFile) writeFrom(write func(io.Writer) error) error {
	o.done = true
	var mode *fs.FileMode // the umask's, as the file had if we made it
	if fi, err := o.f.Stat(); err == nil {
		perm := fi.Mode().Perm() // or the user's own
		mode = &perm
	}
	o.f.Close()
	return replaceFile(o.f.Name(), replacement, mode, write)
}

// discard closes a file that was never written, and removes it if it is
// ours: a run that ends before its crawl leaves no empty file behind. A
// nil outFile, for no file, has nothing to discard.
func (o *outFile) discard() {
	if o == nil || o.done {
		return
	}
	o.f.Close()
	if o.created {
		os.Remove(o.f.Name())
	}
}
