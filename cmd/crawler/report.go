package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/progress"
	"tse-crawler/internal/stats"
)

// statusLine starts the live status line if stderr is a terminal and the
// log is not going to it, and returns nil otherwise, as for the buffers of
// tests.
func statusLine(stdout, stderr io.Writer, quiet bool) *progress.Line {
	so, ok1 := stdout.(*os.File)
	se, ok2 := stderr.(*os.File)
	if !ok1 || !ok2 || !progress.Wanted(so, se, quiet) {
		return nil
	}
	return progress.Start(se, 250*time.Millisecond, time.Now)
}

// report gathers a crawl's figures.
func report(res crawler.Result, fetcher *pagefetch.Fetcher, elapsed time.Duration) *stats.Report {
	r := new(stats.Report)
	r.Pages.Fetched, r.Pages.Saved, r.Pages.Replayed = res.Fetched, res.Saved, res.Replayed
	r.Pages.Failed, r.Pages.FailedBy, r.Pages.Redirects = res.Failed, res.FailedBy, res.Redirects
	if r.Pages.FailedBy == nil {
		r.Pages.FailedBy = map[string]int{} // {} rather than null, for scripts
	}
	r.URLs.Found, r.URLs.Added, r.URLs.External = res.Found, res.Added, res.External
	r.URLs.Duplicate, r.URLs.Disallowed = res.Duplicate, res.Disallowed
	r.Requests, r.BytesSaved, r.Elapsed = fetcher.Requests(), res.Bytes, stats.Duration(elapsed)
	p := fetcher.Pacer.Pauses()
	r.Pauses, r.MeanPause, r.ShortestPause = p.Count, stats.Duration(p.Mean()), stats.Duration(p.Shortest)
	r.DeepestDepth = res.Deepest
	return r
}

// writeStats prints the report on stderr (-stats) and writes it as JSON
// (-stats-json).
func writeStats(cfg *config, r *stats.Report, stderr io.Writer) error {
	if cfg.stats {
		if err := r.WriteText(stderr); err != nil {
			return err
		}
	}
	if cfg.statsJSON != "" {
		b, err := r.JSON()
		if err != nil {
			return err
		}
		if err := os.WriteFile(cfg.statsJSON, b, 0o644); err != nil {
			return fmt.Errorf("-stats-json: %w", err)
		}
	}
	return nil
}
