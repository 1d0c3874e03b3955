package main

import (
	"tse-crawler/internal/manual"
)

// The manual is written once, here and in the table of flags (flags.go),
// and rendered by package manual three ways: as the -help-all text, as
// the man page crawler.1, and as README's tables of flags and exit codes;
// -h prints a short usage made from the same table. manual_test.go checks
// that crawler.1 and README.md hold what renders now (go test
// ./cmd/crawler -update rewrites them), so a flag cannot be described in
// one place and not another. A change to the manual should move
// manualDate, the man page's date, there too.

const synopsis = "crawler [flags] seedURL pageDirectory maxDepth"

// checkSynopsis is the command line of a link check, whose pageDirectory
// and maxDepth may be left out.
const checkSynopsis = "crawler -check [flags] seedURL [pageDirectory maxDepth]"

// usageLines are the synopses the -h and -help-all texts begin with.
const usageLines = "Usage: " + synopsis + "\n" +
	"       " + checkSynopsis + "\n       crawler -check [flags] DIR\n" +
	"       crawler -h | -help-all | -version\n"

const summary = "fetch a web site's pages, within a number of links, into a directory"

var description = []string{
	"Crawler fetches *seedURL* and every internal page reachable from it within *maxDepth* links, " +
		"and saves each page in *pageDirectory*, one file per page, for the indexer of the CS50 Tiny Search Engine to read. " +
		"By default its page directory and its progress log are byte for byte those of the course's reference crawler, " +
		"so grading scripts can compare them.",
	"Flags come before the three arguments. " +
		"Progress goes to stdout, one line per event in the reference format: " +
		"`Fetched`, `Scanning`, `Found`, `Added`, `IgnExtrn` (external or not normalizable), `IgnDupl` (seen before), " +
		"and four of our own, `FAILED` (the reason is on stderr, or under `-q` summed up at the end), `Redirect` (its target follows as `Found`), " +
		"`IgnRobots` (robots.txt does not allow the page, which is not requested) and `IgnExcld` (an `-exclude` matches the URL, which is not requested). " +
		"Errors go to stderr, each with what went wrong and what to do about it; " +
		"nothing is written and no request is sent before all arguments are valid.",
	"The crawler is polite: at least the pause given by `-delay`, one second by default, " +
		"separates the end of one request from the start of the next to the same host, " +
		"and each host's robots.txt is obeyed. " +
		"A shorter pause is allowed only when every connection goes to a loopback address, such as a local copy of a site, " +
		"and through a proxy on loopback it comes with a warning, since the proxy may forward to a real server. " +
		"A crawl of several hosts fetches from up to `-parallel` of them at once, each at its own pace, " +
		"and still saves and logs every page in the order of a crawl of one page at a time.",
	"A page is saved only if the server answers 200 with a non-empty body that is HTML: " +
		"`Content-Type` `text/html` or `application/xhtml+xml`, or no `Content-Type` and a body that sniffs as HTML. " +
		"A redirect is treated like a link found on the page: its target is crawled, if it is internal and new, " +
		"at the same depth and under its own URL.",
	"Ctrl-C (SIGINT) or SIGTERM stops the crawl at once, with every page saved whole, " +
		"and the crawler prints the command that finishes the crawl: the same one with `-resume`. " +
		"A second Ctrl-C kills it outright. " +
		"A crawl stopped by a full disk, an outage of the network or even `kill -9` is finished the same way, " +
		"and the finished directory is byte for byte the one an uninterrupted crawl gives.",
	"A live status line shows on stderr when it is a terminal and the log is not already going there " +
		"(with `-q`, or with stdout redirected), cut to the terminal's width: " +
		"`saved 12 · 40 pages waiting · depth 2 · 1m05s · pause 1s`, " +
		"and, while several hosts are fetched at once, how many are busy: `· 3 hosts busy`. " +
		"Unless `-q` is given, a crawl that finishes with stderr on a terminal ends with a line there that sums it up: " +
		"`finished in 9.2s:` `8 pages saved in data,` `45,678 bytes (44.6 KiB); 1 failed`. " +
		"Any byte of a URL or a message that a terminal would obey, or that would make it read in another order (a bidirectional override), " +
		"is shown escaped, as `\\x1b` or `\\u202e`, on stderr, in `-check`'s report wherever it goes, and in the log when stdout is a terminal.",
}

var arguments = []manual.Entry{
	{Term: "seedURL", Text: "where the crawl starts. It must be *internal*: once normalized, it begins with " +
		"`http://cs50tse.cs.dartmouth.edu/tse/` (or with a `-scope` prefix), and still does once a server decodes " +
		"`%2E` and `%2F` in its path. Links and redirects are held to the same rule."},
	{Term: "pageDirectory", Text: "an existing directory with no pages in it yet. " +
		"The crawler refuses one that already holds numbered files, and names the one in the way. " +
		"It holds one crawler at a time: a second one there, whether a new crawl, a `-resume` or a `-check`, is refused at once (exit 10), " +
		"before it writes anything or sends a request, and told which process to wait for or stop; " +
		"so is a crawl that would write the `-warc` file of one that runs. " +
		"A crawler that dies, even by `kill -9`, leaves no lock behind."},
	{Term: "maxDepth", Text: "an integer from 0 to 10: how many links away from the seed the crawl goes. " +
		"The seed is at depth 0, so 0 saves the seed alone."},
}

var exitStatus = []manual.Entry{
	{Term: "0", Short: "the crawl finished", Text: "the crawl finished (pages that could not be fetched are logged as `FAILED`, with the reason on stderr, or under `-q` summed up in one line at the end, and do not stop it)"},
	{Term: "1", Short: "the crawl stopped: a page could not be saved, or a rule was broken", Text: "the crawl stopped: a page could not be saved, or `-delay` under 1s met an address that is not loopback"},
	{Term: "2", Short: "a bad command line, flag, output file or proxy variable", Text: "wrong number of arguments, a bad flag, a `-stats-json` or `-graph` file that cannot be written, a `-graph` or `-warc` file that exists (without `-resume`) or cannot be made, any of the three inside *pageDirectory*, a proxy variable that is not a proxy URL, or, with `-warc`, an https proxy that is not an `http://` one"},
	{Term: "3", Short: "*seedURL* cannot be crawled", Text: "*seedURL* cannot be normalized, is not internal, or is excluded; or `-check`'s *DIR* is no folder, or holds no page"},
	{Term: "4", Short: "*pageDirectory* cannot be used", Text: "*pageDirectory* does not exist, is not a writable directory, or already holds pages (without `-resume`)"},
	{Term: "5", Short: "*maxDepth* is not 0 to 10", Text: "*maxDepth* is not an integer from 0 to 10"},
	{Term: "6", Short: "no page was saved", Text: "no page was saved: the seed page could not be fetched, robots.txt forbids it, " +
		"or it redirects out of the crawl (only `.crawler` is left)"},
	{Term: "7", Short: "`-resume` does not match the crawl", Text: "`-resume` does not match the crawl in *pageDirectory* (another seed, maxDepth or crawl-shaping flag, `-warc` included), or its `-warc` file is not the one the crawl wrote, or is gone"},
	{Term: "8", Short: "the crawl lost its network; `-resume` finishes it", Text: "the crawl lost its network: no host it had crawled answered any more (no DNS answer, connection refused or timed out, or the proxy down). " +
		"`-resume` finishes it once the network is back: see [Interrupting and resuming](#interrupting-and-resuming). " +
		"A single dead host among hosts that answer is reported once, and its pages fail."},
	{Term: "9", Short: "`-check` found a broken link", Text: "`-check` found a broken link"},
	{Term: "10", Short: "another crawler uses *pageDirectory* or the `-warc` file", Text: "another crawler is using *pageDirectory* or the `-warc` file: nothing was written or fetched; " +
		"wait for it to end, or stop it, and run the same command again"},
	{Term: "130, 143", Short: "stopped by SIGINT or SIGTERM; `-resume` finishes the crawl", Text: "stopped by SIGINT (Ctrl-C) or SIGTERM; the pages saved are whole, and `-resume` finishes the crawl"},
}

var environment = []manual.Entry{
	{Term: "HTTP_PROXY, http_proxy", Text: "the proxy that http requests go through, as `http://host:port` or `host:port`; " +
		"as for curl and wget, https requests do not: they go through `HTTPS_PROXY`, and a crawl whose scope holds https with only this one set is warned. " +
		"The playground command serves a local copy of the CS50 site as such a proxy. " +
		"A proxy variable that is set but is not a proxy URL is refused (exit 2) rather than ignored. " +
		"Where both forms of a name are set, the upper-case one counts."},
	{Term: "HTTPS_PROXY, https_proxy", Text: "the proxy that https requests go through, in the same form, each in a tunnel it opens (`CONNECT`); " +
		"a proxy that refuses to open one is a way to the host that is down (see exit status 8), not the host's answer. " +
		"With `-warc` it must be an `http://` proxy (exit 2 otherwise): the crawler opens the CONNECT tunnel through it itself, " +
		"so that the archive holds the exchanges as sent and received inside TLS."},
	{Term: "NO_PROXY, no_proxy", Text: "the hosts that bypass both proxies, separated by commas: a name, which takes in its subdomains " +
		"(`example.edu`), a name after a dot, which takes in only its subdomains (`.example.edu`), " +
		"an IP address or a CIDR range (`10.0.0.0/8`), each with an optional port, or `*` for every host. " +
		"Requests to `localhost` and to loopback addresses never go through a proxy."},
}

var files = []manual.Entry{
	{Term: "pageDirectory/.crawler", Text: "marks the directory as a crawler's. While a crawl runs it holds the crawl's journal, " +
		"from which `-resume` finishes it; a finished crawl leaves it empty. " +
		"Where the file system keeps extended attributes, the crawl's parameters stay on it in `user.tse-crawler.crawl`. " +
		"One that is a symbolic link, a FIFO, a directory or a file with other hard links is refused (exit 4)."},
	{Term: "pageDirectory/1, 2, ...", Text: "the pages, numbered in the order they were fetched: " +
		"the page's normalized URL, a newline, its depth, a newline, the HTML exactly as the server sent it, and a newline. " +
		"A page file appears whole or not at all, and an existing file is never overwritten."},
	{Term: "pageDirectory/.page-*", Text: "a page being written. The next run removes one that a crash left behind."},
	{Term: "FILE, FILE.lock, FILE.bad", Text: "the cache of `-check-cache FILE`; the file whose lock checks that share it take in turn, which stays; and a *FILE* that was torn or no such cache, set aside for you to look into and remove (then *FILE*`.bad.1`, and so on)."},
	{Term: "$TMPDIR/crawler-check-*", Text: "the page directory of a `-check` given *seedURL* or *DIR* alone, removed when it ends. " +
		"The next such check removes one that a check killed before its end left behind, " +
		"if it holds nothing but what a crawl writes and no crawler holds it."},
}

var examples = []manual.Example{
	{Text: "Crawl the CS50 letters two links deep:", Lines: []string{
		"mkdir data",
		"crawler http://cs50tse.cs.dartmouth.edu/tse/letters/index.html data 2",
	}},
	{Text: "Crawl every host of a university, the pages with the largest numbers first, " +
		"following only the links in each page's content, with statistics at the end:", Lines: []string{
		"crawler -scope 'http://*.example.edu/' -order priority -stats \\",
		"    -links-from '<!-- CONTENT -->' -links-until '<!-- /CONTENT -->' \\",
		"    http://www.example.edu/index.html data 10",
	}},
	{Text: "Crawl a local copy of the CS50 site, which the playground command serves on 127.0.0.1:8080, " +
		"with no pause, reading links as a browser does, breadth-first:", Lines: []string{
		"HTTP_PROXY=http://127.0.0.1:8080 crawler -delay 0 -links html -order bfs \\",
		"    http://cs50tse.cs.dartmouth.edu/tse/wikipedia/index.html wiki 2",
	}},
	{Text: "Finish that crawl once it has been interrupted:", Lines: []string{
		"HTTP_PROXY=http://127.0.0.1:8080 crawler -delay=0s -links=html -order=bfs \\",
		"    -resume http://cs50tse.cs.dartmouth.edu/tse/wikipedia/index.html wiki 2",
	}},
}

const seeAlso = "README.md, DESIGN.md and REQUIREMENTS.md in the tse-crawler sources; " +
	"the playground command, which serves a copy of the CS50 site on loopback, as a web server and as a proxy."

// manSynopsis is the man page's synopsis, in man(7) macros.
const manSynopsis = ".B crawler\n[\\fIflags\\fR]\n.I seedURL pageDirectory maxDepth\n.br\n" +
	".B crawler \\-check\n[\\fIflags\\fR]\n.I seedURL\n[\\fIpageDirectory maxDepth\\fR]\n.br\n.B crawler \\-check\n[\\fIflags\\fR]\n.I DIR\n.br\n" +
	".B crawler\n\\fB\\-h\\fR | \\fB\\-help\\-all\\fR | \\fB\\-version\\fR\n"

// theManual returns the crawler's manual, the table of flags included.
func theManual() *manual.Manual {
	m := &manual.Manual{
		Name: "crawler", Summary: summary, Usage: usageLines, ManSynopsis: manSynopsis,
		Description: description, Arguments: arguments, ExitStatus: exitStatus,
		Environment: environment, Files: files, Examples: examples,
		UsageExamples: usageExamples, SeeAlso: seeAlso,
	}
	for _, f := range flags {
		m.Flags = append(m.Flags, f.entry())
	}
	return m
}

// usageExamples are the commands the -h text ends with, one for each use,
// as they work when pasted: the playground command serves testdata/playground
// on 127.0.0.1:8765 for all but the first, as README.md shows.
var usageExamples = []manual.Example{
	{Text: "Crawl the CS50 letters, from Dartmouth's network:", Lines: []string{
		"mkdir -p data/letters && ./crawler http://cs50tse.cs.dartmouth.edu/tse/letters/index.html data/letters 10",
	}},
	// These two crawl into a new directory each time, so that they work
	// when pasted again.
	{Text: "Crawl your own site, served on 127.0.0.1:8765 as README.md shows:", Lines: []string{
		`mkdir -p data && dir=$(mktemp -d data/mine-XXXX) && ./crawler -scope http://127.0.0.1:8765/ http://127.0.0.1:8765/tse/zoo/index.html "$dir" 2`,
	}},
	{Text: "Crawl it and keep a web archive too:", Lines: []string{
		`mkdir -p data && dir=$(mktemp -d data/archive-XXXX) && ./crawler -scope http://127.0.0.1:8765/ -warc "$dir.warc.gz" ` +
			`http://127.0.0.1:8765/tse/zoo/index.html "$dir" 2`,
	}},
	{Text: "Check its links:", Lines: []string{
		"./crawler -check -delay 0 http://127.0.0.1:8765/tse/town/index.html",
	}},
}
