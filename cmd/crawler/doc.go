// Crawler fetches a web page and every internal page reachable from it
// within a number of links, and saves each page to a directory, as the
// CS50 Tiny Search Engine's crawler does.
//
// Usage:
//
//	crawler [flags] seedURL pageDirectory maxDepth
//
// seedURL is where the crawl starts; it must be internal, that is, its
// normalized form must begin with http://cs50tse.cs.dartmouth.edu/tse/ (or
// with a -scope prefix).
// pageDirectory must be an existing directory that holds no pages yet.
// maxDepth, from 0 to 10, is how many links away from the seed the crawl
// goes: 0 saves the seed page alone.
//
// The crawler marks pageDirectory with an empty file named .crawler, and
// saves the pages it fetches as pageDirectory/1, pageDirectory/2, and so
// on, in the order it fetches them. Each holds the page's URL on the first
// line, its depth on the second, and then the HTML exactly as the server
// sent it, followed by a newline. By default the crawl is byte for byte the
// CS50 reference crawler's: the same pages under the same numbers, and the
// same progress log on stdout.
//
// The crawler is polite: at least the pause given by -delay (one second by
// default) separates the end of one request from the start of the next to
// the same host. A shorter pause is allowed only when every connection goes
// to a loopback address, such as a local copy of a site.
//
// The flags are:
//
//	-delay D
//		the least pause between requests to one host (default 1s)
//	-links reference|html
//		find links as the reference crawler does (the default), or as a
//		browser reads and resolves them: the page by the HTML Standard,
//		with iframe, frame and meta refresh links too, and every URL by
//		the WHATWG URL Standard, which then names every page
//	-order lifo|bfs|priority
//		crawl the newest link first, as the reference does (the default),
//		breadth-first, so that every page is saved at its shortest depth,
//		or the page whose name ends in the largest number first
//	-scope PREFIX
//		what is internal instead of the CS50 prefix; repeatable, and '*'
//		stands for one or more host labels: http://*.example.edu/
//	-links-from M, -links-until M
//		follow only the links between two markers in each page
//	-stats, -stats-json FILE
//		print statistics at the end, or write them as JSON
//	-robots=false
//		ignore robots.txt (by default each host's is read and obeyed)
//	-retries N
//		retries of a transient failure (default 2, at most 10)
//	-timeout D
//		limit on one request, body included (default 30s)
//	-max-size SIZE
//		largest page saved (default 10MiB)
//	-user-agent S
//		the User-Agent sent (default tse-crawler/VERSION)
//	-resume
//		finish an interrupted crawl in pageDirectory, exactly as if it had
//		never stopped
//	-q
//		print no progress log
//
// HTTP_PROXY (or http_proxy) sends the requests through a proxy: the
// playground command serves a local copy of the CS50 site that way.
//
// While the crawl runs, .crawler holds a journal of it, so that a crawl
// stopped by Ctrl-C, a full disk or even kill -9 can be finished with
// -resume; the finished directory is the same as an uninterrupted crawl's.
// A crawl that loses its network (no DNS, no connection, no proxy) stops
// before its next request, marks no page as failed for it, and can be
// resumed the same way; a single dead host among hosts that answer only
// fails its own pages.
//
// Exit status is 0 when the crawl finishes; 1 when it stops because a page
// cannot be saved or a pause under a second would reach a remote address;
// 2 for a wrong number of arguments or a bad flag; 3 for a seedURL that
// cannot be normalized or is not internal; 4 for a pageDirectory that is
// missing, not writable or already holds pages; 5 for a maxDepth that is
// not an integer from 0 to 10; 6 when no page can be saved because the
// seed cannot be fetched; 7 when -resume does not match the crawl in
// pageDirectory; 8 when the crawl lost its network and stopped, to be
// resumed; and 128 plus the signal's number (130, 143) when a signal stops
// it.
package main
