package pagescan

import (
	"strings"

	"golang.org/x/text/encoding"

	"tse-crawler/internal/browserurl"
)

// resolve resolves href against base as a browser does, with the WHATWG
// URL parser (package browserurl), and returns the absolute URL serialized
// without its fragment: the form the crawler's html mode keys, requests
// and saves pages by. It reports false for a link a browser would reject,
// and for a base that is not an absolute URL (a <base href> that fails so
// is ignored by browsers, which keep the page's URL as the base).
//
// A link that fails is still a link the page has: the html scanner reports
// it as written, and the crawler's html-mode normalizer, which parses it
// again with no base, rejects it in turn (browserurl's FuzzResolve checks that
// it always does), so it is logged as found and external, and never
// requested.
func resolve(base, href string) (string, bool) {
	return browserurl.Resolve(base, href)
}

// requisiteURL resolves ref, a requisite's URL in a document or a style
// sheet at base whose queries are written in query (nil for UTF-8), and
// reports whether it is an http or https URL, which a crawl can fetch.
func requisiteURL(base, ref string, query encoding.Encoding) (string, bool) {
	u, ok := resolveLink(base, ref, query)
	if !ok || !fetchable(u) {
		return "", false
	}
	return u, true
}

// fetchable reports whether the URL u is an http or https URL, which a
// crawl can fetch.
func fetchable(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}
