// Package job runs one crawl from start to end, as a command line asks
// for it: it checks the crawl's Settings, claims its page directory, which
// keeps any other crawler out, opens the files the crawl writes besides
// its pages, begins the crawl in its page directory or resumes it,
// builds the fetcher and the crawler, runs them, writes the link graph,
// closes the page directory as the crawl's outcome requires, and reports
// the statistics. It writes the crawl's log, notes and warnings on the
// run's Console, but leaves the words for each outcome, and the exit
// statuses, to the command: its errors are typed, for the command to tell
// apart.
package job

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"tse-crawler/internal/crawler"
	"tse-crawler/internal/linkcheck"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/sitefolder"
	"tse-crawler/internal/stats"
)

// A Job is one crawl: Begin begins it, Run runs it to its end, and Stats
// then reports it. A Job is not safe for concurrent use.
type Job struct {
	cfg    *Settings
	params func() pagedir.Params // names the crawl for its journal
	con    *Console
	proxy  func(*http.Request) (*url.URL, error)
	// fetchProxy is proxy, for the crawl's requests: it warns of a short
	// pause through a proxy.
	fetchProxy func(*http.Request) (*url.URL, error)
	out        *outputs
	begun      // what Begin found in the page directory

	// Set by Run, for Stats.
	began   time.Time
	c       *crawler.Crawler
	fetcher *pagefetch.Fetcher
	// The figures of a crawl that ended, gathered and written to the
	// -stats-json file before its marker is emptied, and what writing
	// them gave.
	report    *stats.Report
	reportErr error

	// A link check's: its checker, and what it found once Run ran it.
	checker *linkcheck.Checker
	checked *linkcheck.Report
	// checkedErr is the error of writing the report on stdout.
	checkedErr error
	// tmpDir is the page directory this run made for a link check given
	// no directory, or "". Run removes it as it ends, or Close if Run did
	// not; tmpErr is what removing it gave.
	tmpDir     string
	tmpRemoved bool
	tmpErr     error
	// folder is the folder a check of one reads, or nil.
	folder *sitefolder.Folder
}

// An Outcome is what came of a crawl that Run ran.
type Outcome struct {
	crawler.Result
	// Err is why the crawl stopped before its end, or nil: an error
	// wrapping crawler.ErrSeedFailed for a crawl whose seed failed, which
	// ended too, or one that leaves the crawl to be resumed (the cause of
	// the context for a signal, crawler.ErrOutage, crawler.ErrDiverged,
	// pagefetch.ErrNotLoopback, a page that could not be saved).
	Err error
}

// Run crawls, closes the WARC file, writes the link graph, a -warc
// package, which replaces the WARC file it is made from, and a link
// check's report on stdout, sums up on the console the pages that failed
// under -q and a crawl that -max-pages ended, and closes the page
// directory as the outcome requires: a crawl that ended, or whose seed
// failed, empties its marker; any other keeps it, to be resumed. Its error is that of emptying the marker, for a crawl that
// did not stop short.
func (j *Job) Run(ctx context.Context) (Outcome, error) {
	var err error
	cfg, con, out := j.cfg, j.con, j.out
	j.began = time.Now()
	// A link check's report is what stdout is for: the log is not.
	quiet := cfg.Quiet || cfg.Check
	con.startLine(quiet)
	c, fetcher := newCrawler(cfg, j.dir, j.fetchProxy, con)
	fetcher.Since = out.since
	j.serveFolder(fetcher)
	con.show(c, fetcher.Scheduler, quiet)
	c.History = j.history()
	c.Sink = &pagedir.Recorder{Dir: j.dir, Archive: out.archive}
	if cfg.Check {
		j.checker = &linkcheck.Checker{Web: fetcher, Scheduler: fetcher.Scheduler, Scope: checkScope{cfg.crawlScope()}, External: cfg.CheckExternal, Cache: out.cache}
		c.Sink, c.Refs = j.checker.Sink(c.Sink), true
	}
	var res crawler.Result
	var from []string
	c.Seeds, from, err = j.moreSeeds(ctx, fetcher)
	if j.checker != nil {
		// A seed found in a sitemap is a link from it.
		for i, f := range from {
			if sm, line, col, ok := splitFrom(f); ok {
				j.checker.Listed(sm, line, col, c.Seeds[i])
			}
		}
	}
	if err == nil {
		res, err = c.Crawl(ctx, cfg.Seed)
	}
	if err == nil && j.checker != nil {
		j.checked, err = j.check(ctx)
		j.nameFiles(j.checked)
	}
	err = out.closeArchive(err)
	if err == nil {
		err = out.writeGraph(c.Graph)
	}
	if err == nil || errors.Is(err, crawler.ErrSeedFailed) {
		if werr := j.writeWACZ(); werr != nil {
			err = werr
		}
	}
	con.endCrawl()

	// Before the command's words, so that the command that resumes the
	// crawl stays last. A seed that failed is the command's to tell.
	if c.QuietFailures && res.Failed > 0 && !errors.Is(err, crawler.ErrSeedFailed) && !cfg.Check {
		fmt.Fprintf(con, "crawler: %s\n", failureSummary(res))
	}
	if res.MaxPagesReached && err == nil {
		fmt.Fprintf(con, "crawler: %s\n", limitSummary(cfg.MaxPages, res))
	}
	j.c, j.fetcher = c, fetcher
	if err == nil || errors.Is(err, crawler.ErrSeedFailed) {
		// Written before the marker is emptied, as the graph is: a crawl
		// killed between the two is resumed, and writes them again,
		// where one killed after would leave the file empty for good.
		j.report = report(res, c, fetcher, cfg.mode, time.Since(j.began))
		if j.checked != nil {
			j.report.Broken = brokenLinks(j.checked.Broken)
			j.report.NotChecked = brokenLinks(j.checked.NotChecked)
			j.report.Unread = j.checked.Unread
		}
		j.reportErr = writeJSON(j.report, out.stats)
		if j.checked != nil {
			// Before the marker is emptied too: a check killed after it
			// cannot be resumed, and would never give its report.
			j.checkedErr = j.checked.WriteText(con.stdout)
		}
	}
	ferr := j.finish(err)
	if ferr == nil && (err == nil || errors.Is(err, crawler.ErrSeedFailed)) && cfg.wacz() {
		// The package holds it now, and the crawl is done.
		os.Remove(cfg.warcFile())
	}
	// Now, rather than when the job is closed, so that what the command
	// says of the directory is true when it says it: the pages of a
	// check given no directory are of no more use, whatever the outcome,
	// as such a check is run again, never resumed.
	j.removeOwnDir()
	return Outcome{res, err}, ferr
}

// check runs the link check, once the crawl is done. Its cache is read
// then, for what other checks learned meanwhile, and written as the check
// learns, and once more as it ends, stopped or not, for what a write the
// check's end cut short did not write.
func (j *Job) check(ctx context.Context) (*linkcheck.Report, error) {
	cache := j.out.cache
	if cache == nil {
		return j.checker.Run(ctx)
	}
	if err := cache.Load(ctx); err != nil {
		return nil, fmt.Errorf("-check-cache: %w", err)
	}
	r, err := j.checker.Run(ctx)
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cacheFlushWait)
	defer cancel()
	if ferr := cache.Flush(fctx); ferr != nil {
		j.con.Warn(ferr.Error())
	}
	return r, err
}

// cacheFlushWait is how long a check, done or stopped, waits to write its
// cache while another crawler writes it, which takes an instant: a
// crawler stopped while it holds the lock is not waited for.
const cacheFlushWait = 10 * time.Second

// Stats gathers the figures of the crawl, which came to res once Run has
// run it, and writes them where the settings ask: as text on the console
// (-stats), and as JSON to the -stats-json file. It returns them, for the
// line that sums the crawl up, and the error of writing them.
func (j *Job) Stats(res crawler.Result) (*stats.Report, error) {
	if j.report != nil {
		err := j.reportErr
		if j.cfg.Stats {
			if terr := j.report.WriteText(j.con); err == nil {
				err = terr
			}
		}
		return j.report, err
	}
	r := report(res, j.c, j.fetcher, j.cfg.mode, time.Since(j.began))
	if j.cfg.Stats || j.out.stats != nil {
		return r, writeStats(j.cfg, r, j.out.stats, j.con)
	}
	return r, nil
}

// Close closes the files of -stats-json and -graph if they were never
// written, and removes them if the job made them: a run that ends before
// its crawl leaves no empty file behind. It releases the WARC file's lock.
func (j *Job) Close() {
	j.out.stats.discard()
	j.out.graph.discard()
	j.out.unlock()
	j.out.closeSince()
	j.closeFolder()
	j.removeOwnDir()
}

// removeOwnDir removes the page directory the job made, if it did, and
// had not removed it yet.
func (j *Job) removeOwnDir() {
	if j.tmpDir == "" || j.tmpRemoved {
		return
	}
	j.tmpRemoved = true
	j.tmpErr = os.RemoveAll(j.tmpDir) // made by this run, for its pages alone
}

// OwnDir says whether the page directory is one the job made, for a link
// check given none, and, once Run has removed it, what removing it gave.
func (j *Job) OwnDir() (bool, error) { return j.tmpDir != "", j.tmpErr }

// Checked returns what a link check found, once Run has run it and
// written its report on stdout, or nil; and the error of writing it.
func (j *Job) Checked() (*linkcheck.Report, error) { return j.checked, j.checkedErr }

// brokenLinks are the broken links a link check found, or those it did
// not check, as -stats-json gives them.
func brokenLinks(bs []linkcheck.BrokenLink) []stats.BrokenLink {
	broken := make([]stats.BrokenLink, len(bs))
	for i, b := range bs {
		from := make([]stats.Referrer, len(b.From))
		pages := make(map[string]bool)
		var first []string // for -stats, which names three pages
		for k, f := range b.From {
			from[k] = stats.Referrer{Page: f.Page, Line: f.Line, Column: f.Column, URL: f.URL}
			if !pages[f.Page] && len(first) < 3 {
				first = append(first, f.Page)
			}
			pages[f.Page] = true
		}
		broken[i] = stats.BrokenLink{URL: b.URL, Status: b.Status, Kind: b.Kind, Pages: len(pages), From: first, Referrers: from, RetryAfter: b.RetryAfter}
	}
	return broken
}

// OutageHint says what most likely cut the crawl off from a host, as ue
// tells, and what to do about it, and once what to run the crawl again:
// "the network is back", or what stands for it. pageURL is the page it
// was fetching.
func (j *Job) OutageHint(ue *pagefetch.UnreachableError, pageURL string) (hint, once string) {
	return outageHint(ue, pageURL, j.proxy)
}

// newCrawler builds the crawler and its collaborators from the command
// line.
func newCrawler(cfg *Settings, dir *pagedir.Dir, proxy func(*http.Request) (*url.URL, error), con *Console) (*crawler.Crawler, *pagefetch.Fetcher) {
	fetcher := &pagefetch.Fetcher{
		Client: pagefetch.NewClient(pagefetch.ClientOptions{
			Proxy:        proxy,
			LoopbackOnly: cfg.Delay < time.Second,
			Timeout:      cfg.Timeout,
			Capture:      cfg.WARC != "",
		}),
		Scheduler: pagefetch.NewScheduler(cfg.Delay, nil, cfg.Parallel),
		UserAgent: cfg.UserAgent,
		Robots:    cfg.Robots,
		Retries:   cfg.Retries,
		MaxSize:   cfg.MaxSize,
		Warn:      con.Warn,
		Record:    cfg.WARC != "",
		// html mode's keys are WHATWG serializations, sent as they are.
		WHATWG: cfg.mode == "html",
		// A body too large to grow in memory waits beside the pages, the
		// one place a crawl writes besides its output files.
		Scratch: dir.Scratch,
	}
	if cfg.WARC != "" {
		// Large responses wait for their records beside the file they
		// go to, rather than in memory or in a small /tmp.
		fetcher.Spool = func() (*os.File, error) { return spoolFile(cfg.warcFile()) }
	}
	c := &crawler.Crawler{
		Web:       fetcher,
		Scheduler: fetcher.Scheduler,
		Scanner:   cfg.scanner,
		Scope:     cfg.crawlScope(),
		Bag:       cfg.frontier,
		MaxDepth:  cfg.MaxDepth,
		MaxPages:  cfg.MaxPages,
		Errors:    con,

		AheadMemory: cfg.AheadMemory,
	}
	if cfg.WARC != "" && cfg.Requisites != "none" {
		c.Requisites, c.MaxRequisites = true, cfg.MaxRequisites
	}
	// -stats and -stats-json list the broken links, which takes the graph.
	if cfg.Graph != "" || cfg.Stats || cfg.StatsJSON != "" {
		c.Graph = linkgraph.New(cfg.Graph != "")
	}
	return c, fetcher
}
