// Package browserurl reads URLs as a browser does: with the WHATWG URL
// Standard's parser (https://url.spec.whatwg.org/), through
// github.com/nlnwa/whatwg-url. It is what the crawler's html mode
// (-links html) resolves links and names pages with; the reference mode
// keeps package refurl, the CS50 reference crawler's rules.
//
// The standard's serialization of a URL is its one canonical form:
// percent-encoding by the standard's sets (a space in a path becomes %20,
// "é" becomes %C3%A9), '\' read as '/' in http and https URLs, dot
// segments removed (including %2e forms), default ports dropped, hosts
// lower-cased and IDNA hosts turned into punycode (never looked up), an
// empty path made "/", and "http:x" resolved against a page of the same
// scheme. Two links a browser would fetch as one URL serialize to the same
// string, so the serialization, without its fragment, is the crawl's key
// for a page.
package browserurl

import (
	"fmt"
	"strings"

	wurl "github.com/nlnwa/whatwg-url/url"
)

// Resolve parses ref against base, as a browser resolves a link's href
// against its document's base URL, and returns the result serialized
// without its fragment. It reports false when a browser would reject the
// link: base is not an absolute URL, or ref cannot be parsed against it
// (a bad host or port, say). The result may have any scheme; [Normalize]
// decides whether it is a page to crawl.
//
// Leading and trailing C0 controls and spaces, and every tab and newline,
// are removed from ref first, as the standard says.
func Resolve(base, ref string) (string, bool) {
	r := NewResolver(base)
	return r.Resolve(ref)
}

// resolve is [Resolve] by the parser alone.
func resolve(base, ref string) (string, bool) {
	b, err := wurl.Parse(base)
	if err != nil {
		return "", false
	}
	u, err := b.Parse(ref)
	if err != nil {
		return "", false
	}
	return u.Href(true), true
}

// Normalize returns the crawl's key for the absolute URL raw, and true, or
// "" and false when raw is not a page to crawl:
//   - a browser cannot parse it as an absolute URL;
//   - its scheme is not http or https;
//   - its last path segment has an extension that does not begin with
//     "htm" in any case, such as .pdf or .png: the same filter as the
//     reference normalizer's, because the crawler saves HTML pages only,
//     and fetching every document and image only to reject it by its
//     Content-Type would cost the server for nothing;
//   - its serialization does not parse back to itself, which the standard
//     allows in a few corners (none of them in http URLs that we know of),
//     and which would give one page two keys.
//
// The key is the standard's serialization without the fragment.
// Normalize is idempotent: Normalize of a key returns the key itself.
func Normalize(raw string) (string, bool) {
	if plainKey(raw) {
		if !htmlExtension(pathOf(raw)) {
			return "", false
		}
		return raw, true
	}
	return normalize(raw)
}

// normalize is [Normalize] by the parser alone.
func normalize(raw string) (string, bool) {
	s, ok := serialize(raw)
	if !ok || !htmlExtension(pathOf(s)) {
		return "", false
	}
	if s != raw {
		// A key that is its own serialization needs no second parse,
		// which is the case of every link the html scanner resolves.
		if again, ok := serialize(s); !ok || again != s {
			return "", false
		}
	}
	return s, true
}

// Key returns the key of the absolute http or https URL raw, whatever
// its extension, and true, or "" and false if a browser cannot parse it as
// one: the standard's serialization without the fragment, as [Normalize]
// gives it for a page. The crawler keys the resources a page needs to
// render (its stylesheets, images, scripts and fonts) with it.
func Key(raw string) (string, bool) {
	if plainKey(raw) {
		return raw, true
	}
	return key(raw)
}

// key is [Key] by the parser alone.
func key(raw string) (string, bool) {
	s, ok := serialize(raw)
	if !ok {
		return "", false
	}
	if s != raw {
		if again, ok := serialize(s); !ok || again != s {
			return "", false
		}
	}
	return s, true
}

// serialize parses raw as an absolute http or https URL and returns it
// serialized without its fragment.
func serialize(raw string) (string, bool) {
	u, err := wurl.Parse(raw)
	if err != nil {
		return "", false
	}
	if s := u.Scheme(); s != "http" && s != "https" {
		return "", false
	}
	return u.Href(true), true
}

// Canonical parses raw as an absolute http or https URL and returns its
// serialization, fragment included, so that a -scope prefix can be written
// the way links are keyed: "HTTP://Example.EDU:80/a b/" becomes
// "http://example.edu/a%20b/", and "http://example.edu" becomes
// "http://example.edu/". A '*' host label, which package scope reads as a
// wildcard, is kept: the standard allows '*' in a host.
func Canonical(raw string) (string, error) {
	u, err := wurl.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("not a URL a browser can parse: %w", err)
	}
	if s := u.Scheme(); s != "http" && s != "https" {
		return "", fmt.Errorf("not an http or https URL")
	}
	return u.Href(false), nil
}

// pathOf returns the path of a serialized http or https URL: everything
// from the first '/' after "scheme://" to the query. The serialization
// percent-encodes every '/' and '?' in the user-info, and every '?' in the
// path, so the first of each is the one that counts.
func pathOf(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return ""
	}
	s = s[i+3:]
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return ""
	}
	s = s[slash:]
	if q := strings.IndexByte(s, '?'); q >= 0 {
		s = s[:q]
	}
	return s
}

// htmlExtension reports whether path's last segment has no extension, an
// empty one ("p."), or one that starts with "htm" in any case. It is the
// reference normalizer's rule (package refurl), which is not exported
// because the reference mode must not depend on anyone else's use of it.
func htmlExtension(path string) bool {
	dot := strings.LastIndexByte(path, '.')
	if dot < 0 || dot < strings.LastIndexByte(path, '/') || dot == len(path)-1 {
		return true
	}
	ext := path[dot+1:]
	return len(ext) >= 3 && strings.EqualFold(ext[:3], "htm")
}
