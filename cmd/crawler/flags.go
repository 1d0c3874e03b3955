package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tse-crawler/internal/buildinfo"
	"tse-crawler/internal/job"
	"tse-crawler/internal/manual"
	"tse-crawler/internal/pagedir"
	"tse-crawler/internal/scope"
)

// Every flag is described once, in flags: how it parses, its default, what
// it means and what a resume does with it. The parser, the -h and
// -help-all texts, the man page, README's table of flags, the journal's parameters (which decide
// whether a crawl may resume) and the command that resumes a crawl are all
// made from it, so that none can say what another does not do.

// A resumeRule is what a crawl that resumes does with a flag.
type resumeRule int

const (
	// notCarried flags are no part of a crawl: -resume, which the resume
	// command adds itself, -version, -h, -help-all, and -base (a folder's check is run again, not resumed).
	notCarried resumeRule = iota
	// mayChange flags change how pages are fetched or reported, never
	// which are saved or in what order: a crawl may resume with another
	// value, and the resume command carries the one it ran with.
	mayChange
	// mustMatch flags shape the crawl: the journal's header names their
	// values, a crawl that resumes with other values is refused (exit 7),
	// and the resume command carries them.
	mustMatch
)

// A flagDef is one flag of the command.
type flagDef struct {
	name string
	// arg is the value's syntax in the manual, such as "D" or
	// "reference|html"; "" for a boolean flag.
	arg string
	// def is the default, as the flag's value is written: the parser sets
	// it, the manual prints it, and the resume command leaves out a flag
	// that holds it. "" is none. A flag given many times (-scope) starts
	// with none, and def is what holds until one is given.
	def string
	// short is the meaning in a line, for -h and README's table; text the
	// whole of it, for -help-all and the man page, in the manual's
	// Markdown subset.
	short, text string
	rule        resumeRule
	// value binds the flag to its field of cfg; nil for -h, which the
	// flag package answers itself.
	value func(cfg *config) flag.Value
	// journal, if set, gives the flag's value in the journal's header
	// where that is not value's text, and whether it is there at all.
	// The header's names and values must not change, or crawls started
	// by an earlier release could not be resumed.
	journal func(cfg *config) (string, bool)
}

// flags are the command's flags, in the order the manual lists them and
// the resume command gives them.
var flags = []flagDef{
	{
		name: "delay", arg: "D", def: "1s", rule: mayChange,
		short: "the least pause between requests to the same host",
		text: "the least time between the end of one request and the start of the next to the same host, " +
			"such as `1.5s` or `500ms`. Below `1s` only when every connection goes to a loopback address: " +
			"the check is made on each connection, after DNS and through any proxy, and breaking it stops the crawl. " +
			"Through a proxy on loopback it is allowed, with a warning: the crawler cannot see whether the proxy forwards to a real server. " +
			"robots.txt's `Crawl-delay` or `Request-rate` can lengthen it.",
		value: func(cfg *config) flag.Value { return job.DurationValue{D: &cfg.Delay} },
	},
	{
		name: "links", arg: "auto|reference|html", def: "auto", rule: mustMatch,
		short: "find links as a browser does once `-scope` is given, else as the CS50 reference does",
		text: "`reference` finds links as the CS50 reference does, quirks included; " +
			"`html` reads and resolves them as a browser does: the page by the HTML Standard, with the links of " +
			"`<a>`, `<area>`, SVG `<a>`, `<iframe>`, `<frame>` and meta refresh, and every URL by the WHATWG URL Standard, " +
			"which then names each page, so that `a b.html` and `a%20b.html` are one page. " +
			"The seed and each `-scope` prefix are read the same way. " +
			"`auto` is `reference` for a crawl of the CS50 site, so that it is the reference's byte for byte, and `html` once `-scope` is given; " +
			"a crawl resumed with `auto` goes on in the mode it began in. " +
			"See [How html mode reads links](#how-html-mode-reads-links).",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Links} },
		// The mode the crawl reads links in, never auto, so that a resume
		// knows which it began in.
		journal: func(cfg *config) (string, bool) { return cfg.Mode(), true },
	},
	{
		name: "order", arg: "lifo|bfs|priority", def: "lifo", rule: mustMatch,
		short: "crawl the newest link first, breadth-first, or the largest page number first",
		text: "`lifo` crawls the most recently found link first, as the reference's bag does. " +
			"`bfs` crawls breadth-first, so every page gets its shortest depth and every page within *maxDepth* is found. " +
			"`priority` crawls first the page whose name carries the largest number " +
			"(the last run of digits in the last path segment: `05678.html` is 5678); " +
			"pages with no number come last, and ties go to the page found first.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Order} },
	},
	{
		name: "scope", arg: "PREFIX", def: scope.CS50Prefix, rule: mustMatch,
		short: "a URL prefix that is internal; repeat it for several",
		text: "a URL is internal when its normalized form begins with *PREFIX*. " +
			"Repeat it for several prefixes. A host label `*` stands for one or more labels: " +
			"`http://*.inf.ed.ac.uk/` takes in `ir.inf.ed.ac.uk` and `www.inf.ed.ac.uk`, but not `inf.ed.ac.uk` itself. " +
			"The seed must be in scope.",
		value: func(cfg *config) flag.Value { return &job.ListValue{List: &cfg.Scopes} },
		// The prefixes as the crawl matches them, in html mode as a
		// browser parses them, and the default if none is given.
		journal: func(cfg *config) (string, bool) { return cfg.Scope().String(), true },
	},
	{
		name: "links-from", arg: "M", rule: mustMatch,
		short: "follow only the links after the marker *M* in a page",
		text: "follow only the links after the first *M* in a page, such as `<!-- CONTENT -->`. " +
			"A page without *M* is saved, but none of its links are followed. Works with both scanners.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.From} },
	},
	{
		name: "links-until", arg: "M", rule: mustMatch,
		short: "follow only the links before the marker *M*",
		text: "follow only the links before the first *M* after the `-links-from` marker " +
			"(or after the top of the page), such as `<!-- /CONTENT -->`. " +
			"A page without it is saved, but none of its links are followed.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Until} },
	},
	{
		name: "exclude", arg: "REGEX", rule: mustMatch,
		short: "never request a URL *REGEX* matches; repeat it for several",
		text: "never request a URL that *REGEX* matches: a link or a redirect's target inside the scope is logged `IgnExcld` each time it is found, " +
			"and counted as excluded; with `-warc`, such a requisite is not fetched either, and `-check` asks no link it matches, outside the scope too. " +
			"*REGEX* is in Go's syntax (RE2) and matched against the URL normalized, as the log shows it, " +
			"anywhere in it, as grep does: `^` and `$` anchor it. " +
			"Repeat it for several; a URL any of them matches is excluded. " +
			"A bad expression is refused, with where it goes wrong (exit 2), and so is a *seedURL* one matches (exit 3).",
		value: func(cfg *config) flag.Value { return &job.ListValue{List: &cfg.Excludes} },
		// Only when given, so that a journal from before -exclude, or of
		// a crawl without it, still names the crawl it did.
		journal: excludesJournaled,
	},
	{
		name: "sitemap", arg: "auto|URL", rule: mustMatch,
		short: "also crawl the pages sitemaps list; repeat it for several",
		text: "also crawl, after the seed's crawl, each page in the scope that the sitemap at *URL* lists (XML, gzipped or not, an index one level deep, text, or an RSS or Atom feed), at depth 0, in order, unless met; `auto` reads those the robots.txt of each host of the scope names, or its `/sitemap.xml`. " +
			"Sitemaps are fetched as pages are; past 50,000 URLs or 50 MB in one, or a tag or text of over 1 MB, or 1,000 sitemaps in all, the rest is skipped, and stderr says so. `-resume` keeps the list the crawl began with. With `-check`, a listed page that fails is a broken link from *URL*`:`*line*`:`*column*.",
		value:   func(cfg *config) flag.Value { return &job.ListValue{List: &cfg.Sitemaps} },
		journal: func(cfg *config) (string, bool) { return strings.Join(cfg.Sitemaps, " "), len(cfg.Sitemaps) > 0 },
	},
	{
		name: "stats", def: "false", rule: mayChange,
		short: "print statistics on stderr at the end",
		text: "print statistics on stderr at the end: pages fetched (as many as the log's `Fetched` lines), saved, failed (by reason) and redirected, " +
			"and with `-warc` their requisites fetched, failed, redirected, disallowed and skipped (see `-max-requisites`), their bytes and hosts, " +
			"and the pages tried (fetched, failed or redirected); " +
			"URLs found, added and ignored (external, duplicate, excluded, disallowed by robots.txt); requests; bytes saved, exactly and in KiB, MiB or GiB; " +
			"elapsed time, mean and shortest pause, deepest depth; the mode links were read in; whether `-max-pages` was reached; " +
			"for a crawl of several hosts, each host's requests and mean pause, and the most memory that pages fetched ahead took; " +
			"and the broken links: each page that failed and that pages link to, with its status, how many pages link to it and the first three " +
			"(to count them, pages at *maxDepth* are scanned too, which a crawl at `-delay 0` pays for).",
		value: func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.Stats} },
	},
	{
		name: "stats-json", arg: "FILE", rule: mayChange,
		short: "write the statistics to *FILE* as JSON",
		text: "write the same statistics to *FILE* as JSON, for scripts. " +
			"*FILE* is opened before the first request, so a path that cannot be written is refused at once (exit 2). " +
			"`pages.fetched` counts the pages logged `Fetched`, and `pages.tried` the pages fetched, failed or redirected; `urls.excluded` the URLs logged `IgnExcld`; `links` is `reference` or `html`; " +
			"`hosts` lists each host's `requests`, `pauses` and `mean_pause`, and `ahead_peak_bytes` is the most memory pages fetched ahead took; " +
			"`max_pages_reached` says whether the crawl ended at `-max-pages`, and `waiting` how many pages it left in the bag then, or when it stopped early; " +
			"with `-warc`, `requisites` counts the requisites `fetched`, `failed` (and `failed_by`), `redirects`, `disallowed`, `skipped`, their `bytes` and `hosts`; " +
			"`broken_links` lists each page that failed and that pages link to: its `url`, `status`, the number of `pages` that link to it, and the first three `from`; with `-check`, every `from` as its `page`, `line`, `column` (and `url`, in a host's entry), `not_checked` the links robots.txt disallows, and `unread` the pages over `-max-size`, not read for their links.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.StatsJSON} },
	},
	{
		name: "graph", arg: "FILE", rule: mustMatch,
		short: "write every link, and what came of its target, to *FILE* as CSV",
		text: "write the crawl's link graph to *FILE* as CSV (RFC 4180, lines ending in CRLF), under the header `from,to,status,from_docid,to_docid`: " +
			"a row for every link found on every saved page, in the order found, duplicates included, " +
			"pages at *maxDepth* included (scanned for the graph alone, with nothing logged), then, in html mode, for each of its requisites, and a row for every redirect followed. " +
			"`to` is the link as normalized (control bytes percent-encoded), or as found if it names no page. " +
			"`status` is what came of `to`, the same on every row: the HTTP status it was saved, redirected or failed with (`200`, `301`, `404`), " +
			"why it failed (such as `timeout`, `too-many-redirects`, `not-html`, `too-large`, `host-unreachable`), " +
			"or why it was never requested: `external`, `excluded`, `robots`, `requisite`, `depth` (found only at *maxDepth*) or `max-pages`. " +
			"`from_docid` and `to_docid` are the pages' numbers in *pageDirectory*, or empty. " +
			"*FILE* is written once the crawl has ended, under a temporary name then renamed, so a crawl stopped and resumed writes the file an uninterrupted one would. " +
			"Without `-resume`, *FILE* must not exist (exit 2), and it must not be in *pageDirectory*.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Graph} },
		// Only when given, so that a journal from before -graph, or of a
		// crawl without it, still names the crawl it did.
		journal: func(cfg *config) (string, bool) { return cfg.Graph, cfg.Graph != "" },
	},
	{
		name: "warc", arg: "FILE", rule: mustMatch,
		short: "also archive the site in *FILE*, a WARC file or a `.wacz` package",
		text: "also write the crawl to *FILE* as a WARC 1.1 web archive, which pywb, ReplayWeb.page and warcio replay: " +
			"a `warcinfo` record, then a `request` and a `response` record for every HTTP exchange, robots.txt, redirects, failures and retries included, " +
			"of the pages and of their requisites (see `-requisites`), " +
			"each response as received, from its status line to the end of its message, chunked framing and all: not the interim `1xx` answers before it, nor bytes after it. " +
			"A *FILE* ending in `.gz`, in any case, holds one gzip member per record. " +
			"A *FILE* ending in `.wacz`, in any case, is a WACZ 1.1.1 package of the `.warc.gz` file, a CDXJ index and the pages, made when the crawl ends from *FILE*`.warc.gz`, which the crawl writes beside it until then, with the rules of a WARC file, and removes; the package is written under a temporary name then renamed. " +
			"Requests ask for no content coding, so that each saved page is the payload of its `200` record. " +
			"Without `-resume`, *FILE* must not exist, and its directory must (exit 2, checked before anything is written); `-resume` cuts it back to the last page or requisite journaled and appends. " +
			"A full disk stops the crawl, as a page that cannot be saved does (exit 1).",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.WARC} },
		// Only when given, so that a journal from before -warc, or of a
		// crawl without it, still names the crawl it did.
		journal: func(cfg *config) (string, bool) { return cfg.WARC, cfg.WARC != "" },
	},
	{
		name: "since", arg: "FILE", rule: mayChange,
		short: "revalidate what an earlier crawl archived in *FILE*",
		text: "revalidate what an earlier crawl archived in *FILE*, a `.wacz`, `.warc.gz` or `.warc` written by this crawler or by any WARC 1.0 or 1.1 writer, such as wget; give it again for more files. " +
			"Each page or requisite that *FILE* holds a `200` of is asked for with that answer's `If-None-Match` and `If-Modified-Since`; a `304 Not Modified` is taken as the earlier answer: the page is saved, read and logged as if the server had sent it again, so the page directory and the log are those of a crawl without `-since`. With `-warc`, it is recorded as a `revisit` record of the `server-not-modified` profile that names the earlier record, as a `200` with the earlier payload is of the `identical-payload-digest` one; a page that changed, went or is new is fetched and recorded as usual. A `412`, or a `304` that names another `ETag` or `Last-Modified` than the earlier answer's, says nothing of that answer: the page is asked for again without validators. " +
			"*FILE* is read through an index: a package's CDXJ, or one made in a pass over a WARC file. A `.wacz` made with `-since` names the `.wacz` files it revisits in its `datapackage.json`, by their names alone, which must differ from one another and from `-warc`'s; a replay tool needs them all, as one collection.",
		value: func(cfg *config) flag.Value { return &job.ListValue{List: &cfg.Since} },
	},
	{
		name: "requisites", arg: "all|scope|none", def: "all", rule: mustMatch,
		short: "with `-warc`, archive what pages need to render from any host, the scope, or none",
		text: "with `-warc`, also fetch and record each saved page's requisites, what a browser loads to render it: " +
			"stylesheets, icons, manifests and preloads (`<link>`), scripts, images (`src` and `srcset`, `<picture>`), " +
			"video, audio, tracks, posters, `<embed>`, `<object>`, SVG images, and `url()` in `style`; " +
			"and in every stylesheet, its `@import` and `url()`s, to any depth. " +
			"Each URL is fetched once, whatever its type, within `-max-size`, and recorded as answered, a failure included; " +
			"each redirect is followed, at most 10 in a row. " +
			"Of an `srcset` or a CSS `image-set()`, only the candidates a browser picks at 1x and 2x on a viewport up to 1920 px wide count, at most four: " +
			"for a width descriptor, those it picks for the widest viewport and for the narrowest candidate's width; the others are skipped. " +
			"`all` fetches them from any host, as a browser does, `scope` only inside the crawl's scope, and `none` not at all. " +
			"A requisite is no page: it is never saved, logged, or counted with the pages, " +
			"so the page directory and the log are those of the same crawl without `-warc`. " +
			"Each host still has one request at a time, its pause, robots.txt, retries and the loopback rule, pages and requisites alike; " +
			"with `-parallel` above 1, the other workers fetch requisites from other hosts while a page's host pauses. " +
			"Without `-warc`, nothing more is fetched.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Requisites} },
		// Only with -warc, which it shapes, so that a journal of a crawl
		// without -warc still names the crawl it did; and only when not
		// all, so that a crawl with -warc begun by a release that fetched
		// no requisites resumes, with its saved pages' requisites fetched.
		journal: func(cfg *config) (string, bool) { return cfg.Requisites, cfg.WARC != "" && cfg.Requisites != "all" },
	},
	{
		name: "max-requisites", arg: "N", def: "1000", rule: mustMatch,
		short: "with `-warc`, cap requisites per page",
		text: "with `-warc`, fetch at most *N* requisites of each page: the first *N* distinct URLs it names, " +
			"inside what `-requisites` fetches, in document order; and at most *N* of what each stylesheet names, apart from its page's. " +
			"`0` is no cap. What the cap skips, and the image candidates a browser would not load (see `-requisites`), " +
			"are counted as skipped in the statistics, and told on stderr, a line per page or stylesheet that skips any, unless `-q`.",
		value: func(cfg *config) flag.Value {
			return job.CountValue{N: &cfg.MaxRequisites, Want: "a whole number of requisites, 0 for no cap"}
		},
		// Only with -warc and requisites, which it shapes, and only when
		// not the default, so that a journal begun by a release without
		// the cap still resumes.
		journal: func(cfg *config) (string, bool) {
			return strconv.Itoa(cfg.MaxRequisites), cfg.WARC != "" && cfg.Requisites != "none" && cfg.MaxRequisites != 1000
		},
	},
	{
		name: "robots", def: "true", rule: mustMatch,
		short: "ignore robots.txt, for sites you own",
		text: "ignore robots.txt, for sites you own. " +
			"By default each host's `/robots.txt` is fetched (as a paced request) before its first page and obeyed as RFC 9309 says; " +
			"a page it disallows is never requested and is logged `IgnRobots`. " +
			"Its `Crawl-delay` or `Request-rate` lengthens the host's pause, to at most 60 s (with a warning). " +
			"A robots.txt that answers 5xx, 429 or 1xx means nothing on that host is crawled; " +
			"a server that cannot be connected to at all is an outage or a dead host (see exit status 8). " +
			"Rules and URLs are compared after RFC 9309's percent-encoding, " +
			"and a robots.txt over 500 KiB keeps every whole line within that limit.",
		value: func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.Robots} },
	},
	{
		name: "retries", arg: "N", def: "2", rule: mayChange,
		short: "retries of a failed connection, a timeout, 408, 429 or 5xx, at most 10",
		text: "how many times, at most 10, to retry a connection error, a timeout, 408, 429 or 5xx. " +
			"Backoff starts at the pause (at least 100 ms) and doubles, or follows the server's `Retry-After` " +
			"(seconds or a date), at most 60 s (`-check` waits for none longer); the pause still applies. Other 4xx are never retried.",
		value: func(cfg *config) flag.Value {
			return job.CountValue{N: &cfg.Retries, Want: "a number such as 2, or 0 for none"}
		},
	},
	{
		name: "timeout", arg: "D", def: "30s", rule: mayChange,
		short: "the limit on one request, from connecting to the last byte",
		text: "limit on one request, from connecting to the last byte of the body, whatever the status " +
			"(a `101 Switching Protocols` that holds the connection open included), so no server can hang the crawl. " +
			"Ctrl-C ends a request at once too.",
		value: func(cfg *config) flag.Value { return job.DurationValue{D: &cfg.Timeout} },
	},
	{
		name: "max-size", arg: "SIZE", def: "10MiB", rule: mustMatch,
		short: "the largest page saved; a larger one fails",
		text: "the largest page saved, in bytes or with `KiB`, `MiB` or `GiB`, such as `512KiB`. " +
			"A larger page fails and is not saved at all: a page is never cut short. " +
			"A larger requisite (see `-requisites`) fails too, recorded as far as it was read.",
		value: func(cfg *config) flag.Value { return job.SizeValue{N: &cfg.MaxSize} },
		// In bytes, as journals have always had it.
		journal: func(cfg *config) (string, bool) { return strconv.FormatInt(cfg.MaxSize, 10), true },
	},
	{
		name: "max-pages", arg: "N", rule: mustMatch,
		short: "stop once *N* pages are saved",
		text: "stop once *N* pages are saved, with exit 0: the first *N* pages of the crawl without it, " +
			"whatever `-parallel` and `-order`, and with `-warc` their requisites. " +
			"If pages were left waiting, stderr says how many (`crawler: -max-pages 50 reached: 50 pages saved, 120 waiting`), " +
			"as do the statistics. *N* is a whole number from 1; without it, there is no limit. " +
			"Pages are fetched ahead of their turn only if the crawl is sure to take them: " +
			"with `-order bfs`, those near enough the front of the queue that fewer than *N* pages would be saved before them " +
			"even if every page before them still to crawl were; in the other orders none: pages are fetched one at a time.",
		value: func(cfg *config) flag.Value {
			return job.LimitValue{N: &cfg.MaxPages, Want: "a whole number of pages from 1"}
		},
		// Only when given, so that a journal from before -max-pages, or of
		// a crawl without it, still names the crawl it did.
		journal: func(cfg *config) (string, bool) { return strconv.Itoa(cfg.MaxPages), cfg.MaxPages > 0 },
	},
	{
		name: "user-agent", arg: "S", def: "tse-crawler/" + buildinfo.Version, rule: mayChange,
		short: "the User-Agent header, whose product token picks the robots.txt group",
		text: "the User-Agent header. " +
			"Its product token (the part before `/`) picks the robots.txt group that applies.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.UserAgent} },
	},
	{
		name: "parallel", arg: "N", def: "4", rule: mayChange,
		short: "how many hosts to fetch from at once, from 1 to 64",
		text: "how many hosts to fetch from at once, from 1 to 64: " +
			"the most requests in flight at once, pages, robots.txt files, requisites and a link check's alike. " +
			"Each host still has one request at a time, with its own pause, robots.txt, retries and backoff. " +
			"Once a crawl meets a second host, pages are fetched ahead of their turn, " +
			"but numbered, logged, scanned, saved and journaled in the order of a crawl of one page at a time, " +
			"so the page directory, the log and the statistics but for the times are the same whatever *N* is; " +
			"only pages the crawl is bound to fetch are fetched ahead. " +
			"`1` fetches one page at a time, as it comes out of the bag; a crawl of one host does too, whatever *N*. " +
			"A crawl may be resumed with another *N*.",
		value: func(cfg *config) flag.Value {
			return job.CountValue{N: &cfg.Parallel, Want: fmt.Sprintf("a number of hosts from 1 to %d", job.MaxParallel)}
		},
	},
	{
		name: "ahead-memory", arg: "SIZE", def: "64MiB", rule: mayChange,
		short: "how much may wait in memory, fetched ahead",
		text: "how much of the pages fetched ahead may wait in memory for their turn, " +
			"in bytes or with `KiB`, `MiB` or `GiB`. Past it, only the page the crawl is waiting for is fetched, " +
			"though a fetch already under way on each other host may still add a page.",
		value: func(cfg *config) flag.Value { return job.SizeValue{N: &cfg.AheadMemory} },
	},
	{
		name: "check", def: "false", rule: mustMatch,
		short: "check every link of the site, and list the broken ones on stdout (exit 9 if any)",
		text: "check links instead of logging the crawl: every link (any `<link>`'s `href` too), frame, image (every candidate of an `srcset` or `image-set()`), stylesheet (and what it imports), script and other requisite " +
			"of every page crawled, and every `#fragment` of a page, in the scope or out (a page over `-max-size` keeps its fragments unchecked). " +
			"Targets that are no pages, outside the scope or past *maxDepth* are asked once each with HEAD (GET if HEAD is refused, fails or times out), paced and allowed by robots.txt as pages are. " +
			"A host that asks, with `Retry-After`, for a longer wait than a minute is not waited for: that link, and the host's others until the wait has passed, " +
			"are reported `rate-limited` with the wait asked for, unasked, and stderr says so once. " +
			"stdout lists the broken links, most linked first, each with every page that holds it, as *page*:*line*:*column* (a host that cannot be reached is one entry, each link followed by the URL it names), then apart the links robots.txt disallows, not checked, and the pages over `-max-size`, not read for their links, then a line that sums up; " +
			"the exit status is 9 if one is broken (one not checked is not). With *seedURL* alone, the crawl goes as deep as the site, saves nothing, " +
			"and its scope is the seed's host, unless a `-scope` says otherwise; stopped, it keeps nothing to resume, and prints the command that runs it again. " +
			"Given a folder, *DIR*, it checks every `.html` and `.htm` file in it, served from disk as by a web server whose root is *DIR* (or `-base`), with no network but for links outside it, " +
			"naming files by their paths in *DIR*. Each file is one page, checked once however a link names it: `sub/` is `sub/index.html`, `a.html?x=1` is `a.html`, and `%c3%a9.html` is `é.html`; but `sub//a.html` and `sub%2Fa.html`, served as `sub/a.html` is, are pages of their own, as a browser resolves their links from another folder. Nothing outside *DIR* is read: `/../x.html` is *DIR*`/x.html`, and a symbolic link out of *DIR*, to an absolute path, or in a loop, is reported `403`, never followed. " +
			"See [Checking a site's links](#checking-a-sites-links).",
		value:   func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.Check} },
		journal: func(cfg *config) (string, bool) { return "true", cfg.Check },
	},
	{
		name: "check-external", def: "true", rule: mayChange,
		short: "with -check, skip links outside the scope",
		text:  "with `-check`, leave out links outside the scope, which by default are checked too, each once.",
		value: func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.CheckExternal} },
	},
	{
		name: "base", arg: "URL", rule: notCarried,
		short: "with -check *DIR*, the URL the folder is published at",
		text:  "with `-check` *DIR*, the URL *DIR* is published at, such as `https://example.org/docs/`: links to it and below it are checked in *DIR*, and `/x.html` is on its host. Without it, `/x.html` is *DIR*`/x.html`.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.Base} },
	},
	{
		name: "check-cache", arg: "FILE", rule: mayChange,
		short: "with -check, remember in *FILE* which links outside the scope were fine",
		text: "with `-check`, keep in *FILE*, as JSON, what came of each link outside the scope (its URL, status and when it was asked), written as they are known, so that a check stopped by Ctrl-C keeps what it learned, and one killed all but its last few outcomes, about a fiftieth of *FILE*. " +
			"The next check with *FILE* takes a link found fine (a `2xx`) less than `-check-cache-age` ago as fine, without a request, unless a link names a `#fragment` of it; a link that failed is always asked again, and so is every link inside the scope. " +
			"The report's last line says how many links the cache answered. *FILE* is replaced whole, under a temporary name then renamed, never written through a symbolic link; " +
			"checks may share it, at once or one after another, each keeping the newer outcome of a link, under the lock of *FILE*`.lock`, which stays; an outcome dated more than a day ahead, by a clock set wrong, is dropped. " +
			"A *FILE* that is torn or not such a cache is renamed *FILE*`.bad`, never trusted nor removed, with a warning, and the check asks every link.",
		value: func(cfg *config) flag.Value { return job.StringValue{S: &cfg.CheckCache} },
	},
	{
		name: "check-cache-age", arg: "D", def: "24h", rule: mayChange,
		short: "with -check-cache, how long a fine link is trusted",
		text:  "with `-check-cache`, how long a link found fine is taken as fine without a request, such as `1h` or `168h`; `0` asks every link, and still keeps what came of it.",
		value: func(cfg *config) flag.Value { return job.DurationValue{D: &cfg.CheckCacheAge} },
	},
	{
		name: "resume", def: "false", rule: notCarried,
		short: "finish an interrupted crawl, given its arguments and flags",
		text: "finish an interrupted crawl in the same *pageDirectory*, with the same *seedURL*, *maxDepth*, " +
			mustMatchFlags + " (anything else is refused with exit 7); other flags may change. " +
			"The result is the same as if the crawl had never stopped, and no page already saved is fetched again. " +
			"Resuming a finished crawl changes nothing; resuming in an empty directory is a fresh crawl. " +
			"See [Interrupting and resuming](#interrupting-and-resuming).",
		value: func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.Resume} },
	},
	{
		name: "q", def: "false", rule: mayChange,
		short: "no progress log; the pages that failed are summed up at the end",
		text: "no progress log, and no line for each page that could not be fetched: " +
			"one line at the end sums them up by reason (`crawler: 2 pages could not be fetched: 2 HTTP 404`). " +
			"Other errors still print.",
		value: func(cfg *config) flag.Value { return job.BoolValue{B: &cfg.Quiet} },
	},
	{
		name: "version", rule: notCarried,
		short: "print the version and exit",
		text: "print the version, the Go release and the VCS revision the crawler was built from, and exit, " +
			"whatever else the command line holds.",
		// run answers -version before parsing; the flag is here so that
		// -version=false parses too.
		value: func(*config) flag.Value { return job.BoolValue{B: new(bool)} },
	},
	{
		name: "h", rule: notCarried,
		short: "print this usage and exit",
		text:  "print a short usage, a line for each flag and an example of each use, and exit.",
	},
	{
		name: "help-all", rule: notCarried,
		short: "print the whole manual",
		text: "print the whole manual, as plain text, and exit, " +
			"whatever else the command line holds.",
		// run answers -help-all before parsing, as it does -version.
		value: func(*config) flag.Value { return job.BoolValue{B: new(bool)} },
	},
}

// mustMatchFlags stands in -resume's text for the flags that must match,
// which manualText names from their rules.
const mustMatchFlags = "MUST-MATCH"

// manualText returns the flag's text for -h and the man page.
func (f *flagDef) manualText() string {
	var names []string
	for _, g := range flags {
		if g.rule == mustMatch {
			names = append(names, "`-"+g.name+"`")
		}
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return strings.Replace(f.text, mustMatchFlags, list, 1)
}

// entry returns the flag as the manual lists it.
func (f *flagDef) entry() manual.Flag {
	return manual.NewFlag(f.name, f.arg, f.def, f.short, f.manualText())
}

// flagSet returns the command's flags, each bound to its field of cfg and
// set to its default.
func (cfg *config) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("crawler", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // run prints the one message that matters
	fs.Usage = func() {}
	for _, f := range flags {
		if f.value == nil {
			continue
		}
		v := f.value(cfg)
		if _, many := v.(*job.ListValue); f.def != "" && !many {
			if err := v.Set(f.def); err != nil {
				// A mistake in the table, which every test that parses
				// a command line finds.
				panic(fmt.Sprintf("the default of -%s, %q, does not parse: %v", f.name, f.def, err))
			}
		}
		fs.Var(v, f.name, "")
	}
	return fs
}

// params names the crawl for its journal: the seed, the depth, and the
// flags that must match.
func (cfg *config) params() pagedir.Params {
	p := pagedir.Params{Seed: cfg.Seed, MaxDepth: cfg.MaxDepth}
	for _, f := range flags {
		if f.rule != mustMatch {
			continue
		}
		v, ok := f.value(cfg).String(), true
		if f.journal != nil {
			v, ok = f.journal(cfg)
		}
		if ok {
			p.Options = append(p.Options, [2]string{f.name, v})
		}
	}
	return p
}

// resumeArgs returns the arguments that resume the crawl cfg describes:
// every flag a resume carries that does not hold its default, as
// -name=value, then -resume, the seed as given, pageDirectory and
// maxDepth. They are built from what the flags mean rather than from how
// they were written, so that -resume=false or a flag given twice cannot
// make the command contradict itself.
func resumeArgs(cfg *config) []string {
	var args []string
	for _, f := range flags {
		if f.rule != notCarried {
			args = append(args, f.words(cfg)...)
		}
	}
	return append(args, "-resume", cfg.RawSeed, cfg.Dir, strconv.Itoa(cfg.MaxDepth))
}

// words returns the flag as the resume command gives it: nothing if cfg
// holds its default, "-q" for a boolean flag that is set, and
// "-name=value" otherwise, once for each value of a flag given many times.
func (f *flagDef) words(cfg *config) []string {
	v := f.value(cfg)
	if l, ok := v.(*job.ListValue); ok {
		words := make([]string, len(*l.List))
		for i, s := range *l.List {
			words[i] = "-" + f.name + "=" + s
		}
		return words
	}
	switch s := v.String(); {
	case s == f.def:
		return nil
	case f.arg == "" && s == "true":
		return []string{"-" + f.name}
	default:
		return []string{"-" + f.name + "=" + s}
	}
}

// excludesJournaled is -exclude in the journal's header: each expression
// quoted, so that no two lists read alike whatever they hold.
func excludesJournaled(cfg *config) (string, bool) {
	quoted := make([]string, len(cfg.Excludes))
	for i, expr := range cfg.Excludes {
		quoted[i] = strconv.Quote(expr)
	}
	return strings.Join(quoted, " "), len(quoted) > 0
}
