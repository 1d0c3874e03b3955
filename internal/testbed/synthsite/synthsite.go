// Package synthsite serves a large synthetic web site, made up on the fly
// from each request's path, so that a crawler can be measured on a hundred
// thousand pages without a hundred thousand files.
//
// The site lives under /tse/synth/, inside the CS50 crawler's default
// scope. Page n (0 <= n < Pages) is /tse/synth/n.html, and /tse/synth/ is
// page 0 too. Each page links to its ten children in a tree (10n+1 to
// 10n+10), so that every page can be reached within six links of page 0, to
// one or two pages chosen pseudo-randomly from the whole site in each
// paragraph, as real sites cross-link, and back to page 0 and to a page
// outside the site: about fourteen links a page. Its
// text is varied filler, a few kilobytes to a few tens of kilobytes long.
// The same Site always serves the same bytes for the same page.
//
// A Site of several hosts spreads the same pages over them: page n is
// served by [Host](n mod Hosts) alone, and a link to a page on another
// host is absolute, so that most links cross hosts, as the hosts of one
// university's site do. Those hosts have no robots.txt.
package synthsite

import (
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// A Site is a synthetic site.
type Site struct {
	Pages int    // how many pages
	Seed  uint64 // varies the links and the text
	Hosts int    // how many hosts serve them; up to 1, any host serves every page
}

// Path returns the URL path of page n.
func Path(n int) string { return "/tse/synth/" + strconv.Itoa(n) + ".html" }

// Host returns the name of host k of a site of several hosts.
func Host(k int) string { return "h" + strconv.Itoa(k) + ".synth.test" }

// ServeHTTP serves a page, or a 404 for anything that is not one. Asked
// as a proxy, it takes the host from the request's URL.
func (s Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n, ok := s.page(r.URL.Path)
	if ok && s.Hosts > 1 {
		host := r.URL.Host
		if host == "" {
			host = r.Host
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		ok = strings.EqualFold(host, Host(n%s.Hosts))
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	body := s.Page(n)
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func (s Site) page(path string) (int, bool) {
	if path == "/tse/synth/" {
		return 0, true
	}
	name, ok := strings.CutPrefix(path, "/tse/synth/")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(name, ".html")
	if !ok || num == "" || (len(num) > 1 && num[0] == '0') {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n >= s.Pages {
		return 0, false
	}
	return n, true
}

var words = strings.Fields(`crawler page link index search engine term document
query frontier politeness depth scope seed bag hashtable robots pause server
client request response header body anchor reference normalize resolve save
history status byte word text site host path segment fragment scheme`)

// Page returns the HTML of page n. It is built with appends rather than
// fmt, so that the server costs little next to the crawler it serves.
func (s Site) Page(n int) []byte {
	rng := rand.New(rand.NewPCG(s.Seed, uint64(n)))
	num := strconv.Itoa(n)
	b := make([]byte, 0, 16<<10)
	b = append(b, "<!DOCTYPE html>\n<html>\n<head><title>Page "...)
	b = append(b, num...)
	b = append(b, "</title></head>\n<body>\n<h1>Page "...)
	b = append(b, num...)
	b = append(b, "</h1>\n"...)
	link := func(m int) {
		b = append(b, `<a href="`...)
		if s.Hosts > 1 && m%s.Hosts != n%s.Hosts {
			b = append(b, "http://"...)
			b = append(b, Host(m%s.Hosts)...)
			b = append(b, "/tse/synth/"...)
		}
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, `.html">page `...)
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, "</a> "...)
	}
	paragraphs := 2 + rng.IntN(12)
	children := 10 * n
	for p := range paragraphs {
		b = append(b, "<p>"...)
		// Ten words from each random number: calling the generator per
		// word would cost more than the rest of the page.
		var bits uint64
		for i := range 40 + rng.IntN(80) {
			if i%10 == 0 {
				bits = rng.Uint64()
			}
			b = append(b, words[int(bits&63)%len(words)]...)
			b = append(b, ' ')
			bits >>= 6
		}
		// Spread the links through the text, as in a real page.
		for c := children + 1 + p; c <= children+10 && c < s.Pages; c += paragraphs {
			link(c)
		}
		for range 1 + rng.IntN(2) {
			link(rng.IntN(s.Pages))
		}
		b = append(b, "</p>\n"...)
	}
	b = append(b, `<p><a href="`...)
	if s.Hosts > 1 && n%s.Hosts != 0 {
		b = append(b, "http://"+Host(0)+"/tse/synth/"...)
	}
	b = append(b, `0.html">home</a> <a href="https://en.wikipedia.org/wiki/Web_crawler">crawlers</a></p>`+"\n</body>\n</html>\n"...)
	return b
}
