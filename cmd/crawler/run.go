package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/crawler"
	"tse-crawler/internal/linkgraph"
	"tse-crawler/internal/pace"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/stats"
	"tse-crawler/internal/warc"
)

// Exit codes. Each kind of bad input has its own, so scripts can tell them
// apart; a crawl stopped by a signal exits 128 plus the signal's number.
const (
	exitOK        = 0
	exitFailure   = 1 // the crawl could not go on: a page could not be saved, or a rule was broken
	exitUsage     = 2 // wrong number of arguments, or a bad flag
	exitSeedURL   = 3 // seedURL cannot be normalized, is not internal, or is excluded
	exitPageDir   = 4 // pageDirectory is missing, not a directory, not writable, or holds pages
	exitMaxDepth  = 5 // maxDepth is not an integer from 0 to 10
	exitSeedFetch = 6 // no page was saved: the seed could not be fetched, was disallowed, or redirected away
	exitResume    = 7 // -resume was given for a crawl it does not match
	exitOutage    = 8 // the network, the DNS or the proxy is down: the crawl stopped, to be resumed
)

// A stopSignal is the cause given to the crawl's context by the signal
// that stopped it.
type stopSignal struct{ sig syscall.Signal }

func (s stopSignal) Error() string { return s.sig.String() }

// run is the crawler with everything that belongs to the process passed
// in, so that tests can call it: args is the whole command line, the
// command's name as typed first. It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	con := newConsole(stdout, stderr)
	defer con.flush()
	argv0, args := commandName(args)
	cfg, code := parseCommandLine(argv0, args, stdout, con)
	if cfg == nil {
		return code
	}
	proxy, err := proxyFunc(getenv, cfg.warc != "")
	if err != nil {
		fmt.Fprintf(con, "crawler: %v\n", err)
		return exitUsage
	}
	if msg := httpsProxyWarning(cfg, getenv); msg != "" {
		fmt.Fprintf(con, "crawler: warning: %s\n", msg)
	}
	out, err := openOutputs(cfg)
	if err != nil {
		fmt.Fprintf(con, "crawler: %v\n", err)
		return exitUsage
	}
	defer out.stats.discard() // unless the statistics were written
	defer out.graph.discard() // unless the graph was written
	dir, replay, code := beginCrawl(cfg, out, con)
	if dir == nil {
		return code
	}

	began := time.Now()
	con.startLine(cfg.quiet)
	c, fetcher := newCrawler(cfg, dir, proxy, con)
	con.show(c, fetcher.Pacer, cfg.quiet)
	if replay != nil {
		c.Replay, c.Load, c.Recorded = replay.Entries, dir.Load, replay.Requisites
		fmt.Fprintf(con, "crawler: resuming the crawl in %s: replaying what came of its first %d pages, %d of them saved\n", cfg.dir, len(replay.Entries), replay.Saved)
	}
	c.Archive = out.archive
	res, err := c.Crawl(ctx, cfg.seed)
	err = out.closeArchive(err)
	if err == nil {
		err = out.writeGraph(c.Graph)
	}
	con.endCrawl()

	// Before finish's words, so that the command that resumes the crawl
	// stays last. A seed that failed is finish's to tell.
	if c.QuietFailures && res.Failed > 0 && !errors.Is(err, crawler.ErrSeedFailed) {
		fmt.Fprintf(con, "crawler: %s\n", failureSummary(res))
	}
	if res.MaxPagesReached && err == nil {
		fmt.Fprintf(con, "crawler: %s\n", limitSummary(cfg.maxPages, res))
	}
	code = finish(dir, cfg, resumeCommand(argv0, cfg, getenv), res, err, proxy, con)
	r := report(res, c, fetcher, cfg.mode, time.Since(began))
	return sumUp(cfg, r, out, code, err == nil, con)
}

// sumUp writes the crawl's statistics, if asked for, and on a terminal
// the line that sums up a crawl that finished, as wget does; redirected,
// stderr stays as it was, and -q silent. It returns the exit status: code,
// which finish gave, or worse if the statistics cannot be written.
func sumUp(cfg *config, r *stats.Report, out *outputs, code int, finished bool, con *console) int {
	if cfg.stats || out.stats != nil {
		if err := writeStats(cfg, r, out.stats, con); err != nil {
			fmt.Fprintf(con, "crawler: %v\n", err)
			code = max(code, exitFailure)
		}
	}
	if code == exitOK && finished && !cfg.quiet && con.onTerminal() {
		fmt.Fprintf(con, "crawler: %s\n", r.Summary(cfg.dir))
	}
	return code
}

// commandName splits the command line into the command's name, as typed,
// and its arguments.
func commandName(args []string) (string, []string) {
	switch {
	case len(args) == 0:
		return "crawler", nil
	case args[0] == "": // as exec can leave it
		return "crawler", args[1:]
	}
	return args[0], args[1:]
}

// parseCommandLine parses the command's arguments, and answers -version
// and -h. It returns the crawl they ask for, or nil and the exit status,
// having said why there is none, and given the command that does what the
// user most likely meant, with argv0 as the command's name, if there is
// one.
func parseCommandLine(argv0 string, args []string, stdout, stderr io.Writer) (*config, int) {
	if wantsVersion(args) {
		fmt.Fprintln(stdout, buildinfo.String("crawler"))
		return nil, exitOK
	}
	cfg, err := parseArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, help())
		return nil, exitOK
	}
	if err != nil {
		if fe, ok := errors.AsType[*fixableError](err); ok {
			fmt.Fprintf(stderr, "crawler: %v\nTo crawl it, run: %s %s\n", err, shellQuote(argv0, strings.Contains(argv0, "=")), shellJoin(fe.fix))
		} else {
			fmt.Fprintf(stderr, "crawler: %v\nRun 'crawler -h' for usage.\n", err)
		}
		if ue, ok := errors.AsType[*usageError](err); ok {
			return nil, ue.code
		}
		return nil, exitUsage
	}
	return cfg, exitOK
}

// The outputs are the files a crawl writes besides its pages. They are
// opened before the page directory, so that a path that cannot be written
// is found before the crawl, with nothing written in the directory.
type outputs struct {
	stats *outFile // -stats-json, or nil
	graph *outFile // -graph, or nil
	// archive is -warc: a new crawl's, made by openOutputs, or one that
	// resumes, opened by beginCrawl once the page directory says where
	// the file is cut back.
	archive *warc.Writer
}

// openOutputs checks that the files of -stats-json, -graph and -warc lie
// outside the page directory and opens them, but for a crawl that resumes,
// whose WARC file waits for the page directory. Its errors are usage
// errors.
func openOutputs(cfg *config) (*outputs, error) {
	if err := outsideDir(cfg.dir, map[string]string{"stats-json": cfg.statsJSON, "graph": cfg.graph, "warc": cfg.warc}); err != nil {
		return nil, err
	}
	out := new(outputs)
	if cfg.statsJSON != "" {
		f, err := createOut(cfg.statsJSON)
		if err != nil {
			return nil, fmt.Errorf("-stats-json: %w: give a file in a directory you can write to", err)
		}
		out.stats = f
	}
	if cfg.graph != "" {
		f, err := openGraph(cfg)
		if err != nil {
			out.stats.discard()
			return nil, err
		}
		out.graph = f
	}
	// A new crawl's WARC file is made before the page directory is
	// marked, so that a name already taken, or a directory that cannot be
	// written, is told with nothing written in either.
	if cfg.warc != "" && !cfg.resume {
		err := checkNewWARC(cfg.warc)
		if err == nil {
			out.archive, err = warc.Create(cfg.warc, cfg.warcInfo())
		}
		if err != nil {
			out.stats.discard()
			out.graph.discard()
			return nil, warcError(err)
		}
	}
	return out, nil
}

// openGraph opens the -graph file: a new one, unless the crawl resumes,
// whose graph may be there already, made by the run before.
func openGraph(cfg *config) (*outFile, error) {
	if !cfg.resume {
		if _, err := os.Lstat(cfg.graph); err == nil {
			return nil, fmt.Errorf("-graph %s exists: give the name of a new file (a crawl never writes over a file it did not make), or -resume to finish the crawl that made it", cfg.graph)
		}
	}
	f, err := createOut(cfg.graph)
	if err != nil {
		return nil, fmt.Errorf("-graph: %w: give a file in a directory you can write to", err)
	}
	return f, nil
}

// writeGraph writes the link graph, if there is a -graph file, once the
// crawl is done: before the page directory is marked finished, so that a
// crawl killed before the file is whole can still be resumed to write it.
func (out *outputs) writeGraph(g *linkgraph.Graph) error {
	if out.graph == nil {
		return nil
	}
	if err := out.graph.writeFrom(g.WriteCSV); err != nil {
		return fmt.Errorf("-graph: %w", err)
	}
	return nil
}

// unmake removes the WARC file openOutputs made, for a crawl that could
// not begin: it is this run's, and holds nothing of a crawl.
func (out *outputs) unmake(cfg *config) {
	if out.archive != nil && !cfg.resume {
		out.archive.Close()
		os.Remove(cfg.warc)
	}
}

// closeArchive closes the WARC file, if there is one, once the crawl has
// ended with err, and returns err, or if it is nil the error of closing.
func (out *outputs) closeArchive(err error) error {
	if out.archive != nil {
		if cerr := out.archive.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// beginCrawl opens the page directory and begins the crawl in it, which
// for a crawl that resumes opens its WARC file as the directory decides.
// If the crawl cannot begin, it says why, removes the WARC file a new
// crawl made, and returns a nil Dir and the exit status.
func beginCrawl(cfg *config, out *outputs, stderr io.Writer) (*pagedir.Dir, *pagedir.Replay, int) {
	dir, err := pagedir.Open(cfg.dir, cfg.resume)
	if err != nil {
		out.unmake(cfg)
		return nil, nil, refused(err, stderr)
	}
	adopted := false
	if p, ok := dir.Recorded(); ok {
		if adopted, err = cfg.adopt(p); err != nil {
			dir.Close()
			fmt.Fprintf(stderr, "crawler: %v (read as links were when this crawl began)\n", err)
			return nil, nil, err.(*usageError).code
		}
	}
	replay, err := dir.Begin(cfg.params())
	if err != nil {
		dir.Close()
		out.unmake(cfg)
		return nil, nil, refused(err, stderr)
	}
	if cfg.warc != "" && cfg.resume {
		if out.archive, err = dir.ResumeWARC(cfg.warc, replay, cfg.warcInfo()); err != nil {
			dir.Close()
			return nil, nil, warcRefused(err, stderr)
		}
	}
	if note := cfg.modeNote(adopted); note != "" && !cfg.quiet {
		fmt.Fprintf(stderr, "crawler: %s\n", note)
	}
	return dir, replay, exitOK
}

// modeNote says how links are read when -links auto chose it for a crawl
// other than the CS50 reference's, whose log and stderr stay the
// reference's; adopted is whether the mode is the one the crawl resumed
// began in.
func (cfg *config) modeNote(adopted bool) string {
	switch {
	case cfg.links != "auto":
		return ""
	case adopted && cfg.mode == "reference":
		return "links are read as the CS50 reference does (-links reference), as when this crawl began"
	case adopted:
		return "links are read as a browser does (-links html), as when this crawl began"
	case cfg.mode == "html":
		return "links are read as a browser does (-links html), as in any crawl with -scope; -links reference reads them as the CS50 reference does"
	}
	return ""
}

// warcInfo describes the crawl for the warcinfo record that begins each
// run's part of its WARC file: the software, the robots policy, the
// options that shape the crawl, the seed and maxDepth.
func (cfg *config) warcInfo() warc.Info {
	robots := "ignore"
	if cfg.robots {
		robots = "obey"
	}
	info := warc.Info{Software: "tse-crawler/" + buildinfo.Version, Fields: [][2]string{{"robots", robots}}}
	for _, o := range cfg.params().Options {
		info.Fields = append(info.Fields, [2]string{o[0], o[1]})
	}
	info.Fields = append(info.Fields, [2]string{"seed", cfg.seed}, [2]string{"maxDepth", strconv.Itoa(cfg.maxDepth)})
	return info
}

// checkNewWARC finds what would make [warc.Create] refuse path, as far as
// it can be known before the file is made: a name already taken, even by a
// dangling symbolic link, or a directory that is not there.
func checkNewWARC(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return &warc.ExistsError{Path: path}
	}
	if d := filepath.Dir(path); !isDir(d) {
		return fmt.Errorf("%s, where WARC file %s would go, is not a directory: create it first (mkdir -p %s), or give a file in a directory that exists", d, path, d)
	}
	return nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// warcError adds to an error opening the WARC file the flag and what to
// do about it.
func warcError(err error) error {
	advice := ""
	switch {
	case isType[*warc.ExistsError](err):
		advice = ": give the name of a new file (a crawl never writes into a file it did not make), or -resume to finish the crawl that wrote it"
	case errors.Is(err, fs.ErrNotExist):
		advice = ": give a file in a directory that exists"
	case errors.Is(err, fs.ErrPermission):
		advice = ": give a file in a directory you can write to"
	}
	return fmt.Errorf("-warc: %w%s", err, advice)
}

// warcRefused tells why the WARC file of a crawl that resumes cannot be
// opened, and returns the exit status: a file that is not the crawl's, or
// is gone, does not match the crawl.
func warcRefused(err error, stderr io.Writer) int {
	fmt.Fprintf(stderr, "crawler: %v\n", warcError(err))
	if isType[*warc.NotWARCError](err) || isType[*pagedir.MissingWARCError](err) {
		return exitResume
	}
	return exitUsage
}

// isType reports whether err's tree holds an error of type E.
func isType[E error](err error) bool {
	_, ok := errors.AsType[E](err)
	return ok
}

// refused tells why the crawl cannot begin in its page directory, with
// the advice about flags that package pagedir leaves to the command, and
// returns the exit status. A finished crawl is no failure: there is simply
// nothing left to do.
func refused(err error, stderr io.Writer) int {
	if _, ok := errors.AsType[*pagedir.FinishedError](err); ok {
		fmt.Fprintf(stderr, "crawler: %v\n", err)
		return exitOK
	}
	if _, ok := errors.AsType[*pagedir.HoldsPagesError](err); ok {
		fmt.Fprintf(stderr, "crawler: %v: use an empty directory, or -resume to finish the crawl in it\n", err)
		return exitPageDir
	}
	if _, ok := errors.AsType[*pagedir.MismatchError](err); ok {
		fmt.Fprintf(stderr, "crawler: cannot resume: %v: resume it with the seedURL, maxDepth and flags it was started with, or start a new crawl in an empty directory\n", err)
		return exitResume
	}
	if pe, ok := errors.AsType[*pagedir.PagesError](err); ok {
		fmt.Fprintf(stderr, "crawler: cannot resume the crawl in %s: %v\n", pe.Dir, pe.Err)
		return exitResume
	}
	if _, ok := errors.AsType[*pagedir.NotJournalError](err); ok {
		fmt.Fprintf(stderr, "crawler: cannot resume: %v\n", err)
		return exitResume
	}
	fmt.Fprintf(stderr, "crawler: %v\n", err)
	return exitPageDir
}

// newCrawler builds the crawler and its collaborators from the command
// line.
func newCrawler(cfg *config, dir *pagedir.Dir, proxy func(*http.Request) (*url.URL, error), stderr io.Writer) (*crawler.Crawler, *pagefetch.Fetcher) {
	fetcher := &pagefetch.Fetcher{
		Client: pagefetch.NewClient(pagefetch.ClientOptions{
			Proxy:        proxy,
			LoopbackOnly: cfg.delay < time.Second,
			Timeout:      cfg.timeout,
			Capture:      cfg.warc != "",
		}),
		Pacer:     pace.New(cfg.delay, nil),
		UserAgent: cfg.userAgent,
		Robots:    cfg.robots,
		Retries:   cfg.retries,
		MaxSize:   cfg.maxSize,
		Warn:      func(msg string) { fmt.Fprintf(stderr, "crawler: warning: %s\n", msg) },
		Record:    cfg.warc != "",
		// html mode's keys are WHATWG serializations, sent as they are.
		WHATWG: cfg.mode == "html",
	}
	if cfg.warc != "" {
		// Large responses wait for their records beside the file they
		// go to, rather than in memory or in a small /tmp.
		fetcher.SpoolDir = filepath.Dir(cfg.warc)
	}
	c := &crawler.Crawler{
		Fetch:     fetcher.FetchPage,
		Save:      dir.Save,
		Scanner:   cfg.scanner,
		Normalize: cfg.normalizer(),
		Internal:  cfg.scope.Contains,
		Exclude:   cfg.excluder(),
		Bag:       cfg.frontier,
		MaxDepth:  cfg.maxDepth,
		MaxPages:  cfg.maxPages,
		Errors:    stderr,
		Journal:   dir.Record,
		Recycle:   fetcher.Recycle,
		Reach:     fetcher.Reach,

		Parallel:    cfg.parallel,
		AheadMemory: cfg.aheadMemory,
		Next:        fetcher.Pacer.Next,
	}
	if cfg.warc != "" && cfg.requisites != "none" {
		c.FetchRequisite, c.Requisites, c.StyleRequisites = fetcher.FetchRequisite, pagescan.Requisites, pagescan.StyleRequisites
		c.RequisiteScope = cfg.requisiteScope()
		// html mode reads a page's links and requisites in one pass of
		// the tokenizer; the reference scanner, which is none, reads the
		// links apart.
		if rs, ok := cfg.scanner.(pagescan.RequisiteScanner); ok {
			c.ScanRequisites = rs.ScanRequisites
		}
	}
	// -stats and -stats-json list the broken links, which takes the graph.
	if cfg.graph != "" || cfg.stats || cfg.statsJSON != "" {
		c.Graph = linkgraph.New(cfg.graph != "")
	}
	return c, fetcher
}

// finish closes the page directory as the crawl's outcome requires, tells
// the user what happened, and how to go on with resume, the command that
// finishes the crawl, and returns the exit status.
func finish(dir *pagedir.Dir, cfg *config, resume string, res crawler.Result, err error, proxy func(*http.Request) (*url.URL, error), stderr io.Writer) int {
	if err == nil || errors.Is(err, crawler.ErrSeedFailed) {
		// Done, one way or the other: the marker goes back to empty.
		if ferr := dir.Finish(); ferr != nil {
			fmt.Fprintf(stderr, "crawler: %v\n", ferr)
			return exitFailure
		}
		if err != nil {
			fmt.Fprintf(stderr, "crawler: %v\n", err)
			if cfg.timeout < time.Second {
				// Too short to tell a server that is down from one that
				// is far away; 1ns never even tries to connect.
				fmt.Fprintf(stderr, "crawler: is -timeout %v too short? Give a server at least a second, such as -timeout 10s.\n", cfg.timeout)
			}
			return exitSeedFetch
		}
		return exitOK
	}
	dir.Close() // keep the journal, to resume from
	resume = "To finish the crawl, run: " + resume
	var sig stopSignal
	switch {
	case errors.As(err, &sig):
		fmt.Fprintf(stderr, "crawler: stopped by %v after saving %d pages in %s", signalName(sig.sig), res.Saved, cfg.dir)
		if res.Last != "" {
			fmt.Fprintf(stderr, " (the last, page %d, is %s)", res.Saved, res.Last)
		}
		if res.Current != "" {
			fmt.Fprintf(stderr, "; it was at %s, with %d more pages waiting", res.Current, res.Pending-1)
		}
		fmt.Fprintf(stderr, ".\n%s\n", resume)
		return 128 + int(sig.sig)
	case errors.Is(err, crawler.ErrOutage):
		fmt.Fprintf(stderr, "crawler: %v\n", err)
		fmt.Fprintf(stderr, "crawler: stopped before the next request, with %d pages saved in %s; no page was marked FAILED for this.\n", res.Saved, cfg.dir)
		var ue *pagefetch.UnreachableError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "%s\n", outageHint(ue, res.Current, proxy))
		}
		once := "the network is back"
		if isType[*pagefetch.ProxyRefusedError](err) {
			once = "the proxy lets the crawl through"
		}
		fmt.Fprintf(stderr, "Once %s, %s\n", once, strings.TrimPrefix(resume, "To finish the crawl, "))
		return exitOutage
	case errors.Is(err, crawler.ErrDiverged):
		fmt.Fprintf(stderr, "crawler: cannot resume: %v: resume with the flags the crawl was started with, or start a new crawl in an empty directory\n", err)
		return exitResume
	case errors.Is(err, pagefetch.ErrNotLoopback):
		fmt.Fprintf(stderr, "crawler: %v: -delay %v is below 1s, which is allowed only when every connection is to a loopback address; use -delay 1s or more for a real server", err, cfg.delay)
		if cfg.warc != "" && cfg.requisites == "all" {
			// A page's stylesheet or font on a CDN is the likely cause.
			fmt.Fprint(stderr, ", or -requisites scope to fetch only the requisites inside the crawl's scope")
		}
		fmt.Fprintln(stderr)
		return exitFailure
	}
	fmt.Fprintf(stderr, "crawler: %v\nThe %d pages saved are whole. Once the problem is fixed: %s\n", err, res.Saved, strings.TrimPrefix(resume, "To finish the crawl, "))
	return exitFailure
}

// signalName is how the summary names the signal that stopped the crawl.
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "an interrupt (SIGINT)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// proxyVars are the environment variables proxyFunc reads, in the order a
// resume command sets them.
var proxyVars = []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"}

// resumeCommand returns the command that finishes the crawl cfg describes,
// as a line to paste into a POSIX shell in the directory the crawl was
// started from: the proxy variables that are set, so that it fetches
// through the same proxy, then the command's name as it was typed (a name
// found on PATH stays a bare name), then resumeArgs.
func resumeCommand(argv0 string, cfg *config, getenv func(string) string) string {
	var words []string
	for _, name := range proxyVars {
		if v := getenv(name); v != "" {
			words = append(words, name+"="+shellQuote(v, false))
		}
	}
	// Unquoted, a name such as "a=b/crawler" would be one more assignment.
	words = append(words, shellQuote(argv0, strings.Contains(argv0, "=")), shellJoin(resumeArgs(cfg)))
	return strings.Join(words, " ")
}

// shellJoin joins args into a line a POSIX shell reads back as args,
// quoting only the words that need it.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a, false)
	}
	return strings.Join(quoted, " ")
}

// shellQuote returns s as one word of a POSIX shell: as it is if no
// character in it means anything to the shell and always is false, else
// in single quotes. A leading "=" is quoted too, which zsh would expand.
func shellQuote(s string, always bool) string {
	if !always && s != "" && s[0] != '=' && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// outageHint says what most likely cut the crawl off from a host, and what
// to do about it. pageURL is the page it was fetching.
func outageHint(ue *pagefetch.UnreachableError, pageURL string, proxy func(*http.Request) (*url.URL, error)) string {
	// The variable that names the proxy for the page's scheme.
	envName, scheme := "HTTP_PROXY", "http"
	if strings.HasPrefix(pageURL, "https:") {
		envName, scheme = "HTTPS_PROXY", "https"
	}
	if pr, ok := errors.AsType[*pagefetch.ProxyRefusedError](ue); ok {
		if pr.Code == http.StatusProxyAuthRequired {
			return fmt.Sprintf("The proxy asks for credentials (%s): give them in %s, as http://user:password@host:port.", pr.Status, envName)
		}
		return fmt.Sprintf("The proxy answered %s: it is the proxy's refusal, not the site's. Give %s a proxy that opens tunnels to https sites, or unset it to reach them directly; the playground's proxy serves http only.", pr.Status, envName)
	}
	if req, err := http.NewRequest(http.MethodGet, pageURL, nil); err == nil {
		if p, err := proxy(req); err == nil && p != nil {
			return fmt.Sprintf("Is the proxy %s, which %s names, running? Every %s request goes through it.", p.Redacted(), envName, scheme)
		}
	}
	name, _, err := net.SplitHostPort(ue.Host)
	if err != nil {
		name = ue.Host
	}
	switch {
	case ue.DNS() && "http://"+name+"/tse/" == scope.CS50Prefix:
		return fmt.Sprintf("Is this machine offline? The name %s could not be looked up. To crawl the offline copy of the CS50 site instead, serve it with the playground and set HTTP_PROXY (README: \"Crawling the offline playground\").", name)
	case ue.DNS():
		return fmt.Sprintf("Is this machine offline, or is the name %s misspelled? It could not be looked up.", name)
	}
	return fmt.Sprintf("Is %s down, or this machine offline? If this machine reaches the web through a proxy, set %s.", ue.Host, envName)
}
