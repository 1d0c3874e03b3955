package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/crawler"
	"tse-crawler/internal/filelock"
	"tse-crawler/internal/job"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/shellword"
	"tse-crawler/internal/warc"
)

// Exit codes. Each kind of bad input has its own, so scripts can tell them
// apart; a crawl stopped by a signal exits 128 plus the signal's number.
const (
	exitOK        = 0
	exitFailure   = 1  // the crawl could not go on: a page could not be saved, or a rule was broken
	exitUsage     = 2  // wrong number of arguments, or a bad flag
	exitSeedURL   = 3  // seedURL cannot be normalized, is not internal, or is excluded
	exitPageDir   = 4  // pageDirectory is missing, not a directory, not writable, or holds pages
	exitMaxDepth  = 5  // maxDepth is not an integer from 0 to 10
	exitSeedFetch = 6  // no page was saved: the seed could not be fetched, was disallowed, or redirected away
	exitResume    = 7  // -resume was given for a crawl it does not match
	exitOutage    = 8  // the network, the DNS or the proxy is down: the crawl stopped, to be resumed
	exitBroken    = 9  // -check found a broken link
	exitBusy      = 10 // another crawler is using pageDirectory or the -warc file
)

// A stopSignal is the cause given to the crawl's context by the signal
// that stopped it.
type stopSignal struct{ sig syscall.Signal }

func (s stopSignal) Error() string { return s.sig.String() }

// run is the crawler with everything that belongs to the process passed
// in, so that tests can call it: args is the whole command line, the
// command's name as typed first. It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	con := job.NewConsole(stdout, stderr)
	defer con.Flush()
	argv0, args := commandName(args)
	cfg, code := parseCommandLine(argv0, args, stdout, con)
	if cfg == nil {
		return code
	}
	j, err := job.Begin(ctx, &cfg.Settings, cfg.params, getenv, con)
	if err != nil {
		return refused(err, con)
	}
	defer j.Close() // unless the statistics and the graph were written
	o, ferr := j.Run(ctx)
	res, err := o.Result, o.Err
	next := sequel{command: resumeCommand(argv0, cfg, getenv)}
	if own, rmErr := j.OwnDir(); own {
		// A check given no directory kept its pages in one of its own,
		// gone now: it finishes by starting again.
		next = sequel{command: shellword.Join(append([]string{argv0}, args...)), again: true}
		if rmErr != nil {
			fmt.Fprintf(con, "crawler: warning: could not remove %s, the temporary directory this check kept its pages in: %v; remove it yourself\n", cfg.Dir, rmErr)
		}
		next.removed = rmErr == nil
	}
	code = finish(cfg, j, next, res, err, ferr, con)
	code = sumUp(cfg, j, res, code, err == nil, con)
	if r, err := j.Checked(); r != nil && code == exitOK {
		if err != nil {
			fmt.Fprintf(con, "crawler: writing the report: %v\n", err)
			return exitFailure
		}
		if len(r.Broken) > 0 {
			return exitBroken
		}
	}
	return code
}

// sumUp writes the crawl's statistics, if asked for, and on a terminal
// the line that sums up a crawl that finished, as wget does; redirected,
// stderr stays as it was, and -q silent. It returns the exit status: code,
// which finish gave, or worse if the statistics cannot be written.
func sumUp(cfg *config, j *job.Job, res crawler.Result, code int, finished bool, con *job.Console) int {
	r, err := j.Stats(res)
	if err != nil {
		fmt.Fprintf(con, "crawler: %v\n", err)
		code = max(code, exitFailure)
	}
	if code == exitOK && finished && !cfg.Quiet && !cfg.Check && con.OnTerminal() {
		fmt.Fprintf(con, "crawler: %s\n", r.Summary(cfg.Dir))
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

// parseCommandLine parses the command's arguments, and answers -version,
// -help-all and -h. It returns the crawl they ask for, or nil and the exit status,
// having said why there is none, and given the command that does what the
// user most likely meant, with argv0 as the command's name, if there is
// one.
func parseCommandLine(argv0 string, args []string, stdout, stderr io.Writer) (*config, int) {
	if wants(args, "version") {
		fmt.Fprintln(stdout, buildinfo.String("crawler"))
		return nil, exitOK
	}
	if wants(args, "help-all") {
		fmt.Fprint(stdout, theManual().Text())
		return nil, exitOK
	}
	cfg, err := parseArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, theManual().ShortUsage())
		return nil, exitOK
	}
	if err != nil {
		if fe, ok := errors.AsType[*fixableError](err); ok {
			fmt.Fprintf(stderr, "crawler: %v\nTo crawl it, run: %s %s\n", err, shellword.Quote(argv0, strings.Contains(argv0, "=")), shellword.Join(fe.fix))
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

// config is what the command line asks for: a crawl's settings, to which
// the table of flags binds each flag.
type config struct {
	job.Settings
}

// A usageError is a bad command line; code is the exit status it calls for.
type usageError struct {
	code int
	msg  string
}

func (e *usageError) Error() string { return e.msg }

// A fixableError is a bad command line that another would mend: fix are
// its arguments, for run to print after the command's name.
type fixableError struct {
	usageError
	fix []string
}

func (e *fixableError) Unwrap() error { return &e.usageError }

// settingExit is the exit status of each setting the job can refuse.
var settingExit = map[job.Setting]int{job.Flags: exitUsage, job.SeedURL: exitSeedURL, job.MaxDepth: exitMaxDepth}

// parseArgs parses and checks the command line after the command's name,
// all but pageDirectory, which pagedir.Open checks as it creates the
// marker file. Its errors are *usageErrors, or flag.ErrHelp for -h.
func parseArgs(args []string) (*config, error) {
	cfg := new(config)
	if err := cfg.Parse(cfg.flagSet(), args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		se := err.(*job.SettingError)
		ue := usageError{settingExit[se.Setting], se.Error()}
		if se.Fix == nil {
			return nil, &ue
		}
		// The command that crawls the seed: the flags given, then the fix.
		var fix []string
		for _, f := range flags {
			if f.rule != notCarried {
				fix = append(fix, f.words(cfg)...)
			}
		}
		return nil, &fixableError{ue, append(fix, se.Fix...)}
	}
	return cfg, nil
}

// wants reports whether the command line asks for the boolean flag name,
// -version or -help-all, which is answered whatever else the line holds,
// so that any command line, even a broken one, can say what built the
// crawler or print the manual.
func wants(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		given, v, hasValue := strings.Cut(a, "=")
		if given != "-"+name && given != "--"+name {
			continue
		}
		if on, err := strconv.ParseBool(v); !hasValue || err == nil && on {
			return true
		}
	}
	return false
}

// refused tells why the crawl cannot begin: a setting, or its page
// directory, with the advice about flags that package pagedir leaves to
// the command, and returns the exit status. A WARC file that is not the
// crawl's, or is gone, does not match the crawl that resumes. A finished
// crawl is no failure: there is simply nothing left to do. A page
// directory or a WARC file in use by another crawler has a status of its
// own, as it is the one refusal that running the same command later
// mends. A signal can stop the indexing of -since, before the crawl.
func refused(err error, stderr io.Writer) int {
	if sig, ok := errors.AsType[stopSignal](err); ok {
		fmt.Fprintf(stderr, "crawler: stopped by %v while indexing the -since archive, before the crawl began; to crawl, run the command again.\n", signalName(sig.sig))
		return 128 + int(sig.sig)
	}
	if errors.As(err, new(*filelock.BusyError)) {
		fmt.Fprintf(stderr, "crawler: %v\n", err)
		return exitBusy
	}
	if se, ok := errors.AsType[*job.SettingError](err); ok {
		fmt.Fprintf(stderr, "crawler: %v\n", err)
		if errors.As(err, new(*warc.NotWARCError)) || errors.As(err, new(*pagedir.MissingWARCError)) {
			return exitResume
		}
		return settingExit[se.Setting]
	}
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

// A sequel is how a crawl that stopped short is taken up: the command
// that finishes it, with -resume, or for a check given no directory, which
// kept its pages in a temporary one, the command that runs it again.
type sequel struct {
	command string
	again   bool // the command runs the check again: its pages are gone
	removed bool // and the run removed their directory
}

// finish tells the user what came of the crawl: err, which Run gave, and
// ferr, the error of emptying the marker of a crawl that ended; and how to
// go on with next. It returns the exit status.
func finish(cfg *config, j *job.Job, next sequel, res crawler.Result, err, ferr error, stderr io.Writer) int {
	if err == nil || errors.Is(err, crawler.ErrSeedFailed) {
		return ended(cfg, j, err, ferr, stderr)
	}
	run := "run: " + next.command
	resume := "To finish the crawl, " + run
	// Where the pages are, after "saved" or "crawled": in the page
	// directory, or nowhere any more, which gone says.
	saved, gone := fmt.Sprintf("saving %d pages in %s", res.Saved, cfg.Dir), ""
	if next.again {
		resume = "To check again, " + run
		saved = fmt.Sprintf("crawling %d pages, before the check's report", res.Saved)
		if next.removed {
			gone = "crawler: the pages crawled were in a temporary directory, which this run removed: a check given no pageDirectory is run again, not resumed.\n"
		}
	}
	var sig stopSignal
	switch {
	case errors.As(err, &sig):
		fmt.Fprintf(stderr, "crawler: stopped by %v after %s", signalName(sig.sig), saved)
		if res.Last != "" && !next.again {
			fmt.Fprintf(stderr, " (the last, page %d, is %s)", res.Saved, res.Last)
		}
		if res.Current != "" {
			fmt.Fprintf(stderr, "; it was at %s, with %d more pages waiting", res.Current, res.Pending-1)
		}
		fmt.Fprintf(stderr, ".\n%s%s\n", gone, resume)
		return 128 + int(sig.sig)
	case errors.Is(err, crawler.ErrOutage):
		if next.again {
			saved = "after " + saved + "; no page was marked FAILED for this.\n" + gone
		} else {
			saved = fmt.Sprintf("with %d pages saved in %s; no page was marked FAILED for this.\n", res.Saved, cfg.Dir)
		}
		return outage(j, err, saved, res.Current, run, stderr)
	}
	return stopped(cfg, next, res, err, gone, run, stderr)
}

// ended tells what came of a crawl that ended, one way or the other, with
// err, its marker gone back to empty unless ferr says why not.
func ended(cfg *config, j *job.Job, err, ferr error, stderr io.Writer) int {
	switch {
	case ferr != nil:
		fmt.Fprintf(stderr, "crawler: %v\n", ferr)
		return exitFailure
	case err == nil:
		return exitOK
	}
	if msg := j.PlainHTTPSeed(err); msg != "" {
		fmt.Fprintf(stderr, "crawler: %s\n", msg)
		return exitSeedFetch
	}
	fmt.Fprintf(stderr, "crawler: %v\n", err)
	if cfg.Timeout < time.Second {
		// Too short to tell a server that is down from one that is far
		// away; 1ns never even tries to connect.
		fmt.Fprintf(stderr, "crawler: is -timeout %v too short? Give a server at least a second, such as -timeout 10s.\n", cfg.Timeout)
	}
	return exitSeedFetch
}

// outage tells of a crawl that lost its network, err, where it stopped,
// where, at page, and how to go on, run, once the cause, which j
// guesses, is mended.
func outage(j *job.Job, err error, where, page, run string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "crawler: %v\ncrawler: stopped before the next request, %s", err, where)
	once := "the network is back"
	if ue, ok := errors.AsType[*pagefetch.UnreachableError](err); ok {
		var hint string
		hint, once = j.OutageHint(ue, page)
		fmt.Fprintf(stderr, "%s\n", hint)
	}
	fmt.Fprintf(stderr, "Once %s, %s\n", once, run)
	return exitOutage
}

// stopped tells of a crawl that stopped at err, neither a signal nor an
// outage, and how to go on with next, once what err says is mended.
func stopped(cfg *config, next sequel, res crawler.Result, err error, gone, run string, stderr io.Writer) int {
	switch {
	case errors.Is(err, crawler.ErrDiverged):
		fmt.Fprintf(stderr, "crawler: cannot resume: %v: resume with the flags the crawl was started with, or start a new crawl in an empty directory\n", err)
		return exitResume
	case errors.Is(err, pagefetch.ErrNotLoopback):
		fmt.Fprintf(stderr, "crawler: %v: -delay %v is below 1s, which is allowed only when every connection is to a loopback address; use -delay 1s or more for a real server", err, cfg.Delay)
		if cfg.WARC != "" && cfg.Requisites == "all" {
			// A page's stylesheet or font on a CDN is the likely cause.
			fmt.Fprint(stderr, ", or -requisites scope to fetch only the requisites inside the crawl's scope")
		}
		fmt.Fprintln(stderr)
		return exitFailure
	case next.again:
		fmt.Fprintf(stderr, "crawler: %v\n%sOnce the problem is fixed, %s\n", err, gone, run)
		return exitFailure
	}
	fmt.Fprintf(stderr, "crawler: %v\nThe %d pages saved are whole. Once the problem is fixed: %s\n", err, res.Saved, run)
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
			words = append(words, name+"="+shellword.Quote(v, false))
		}
	}
	// Unquoted, a name such as "a=b/crawler" would be one more assignment.
	words = append(words, shellword.Quote(argv0, strings.Contains(argv0, "=")), shellword.Join(resumeArgs(cfg)))
	return strings.Join(words, " ")
}
