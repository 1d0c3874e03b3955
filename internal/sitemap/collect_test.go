package sitemap

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// web serves sitemaps from memory, counting the fetches; a URL it lacks
// is not found.
type web struct {
	files   map[string]string
	robots  map[string][]string // Sitemap lines, by origin
	dropped int                 // robots.txt lines past the limit
	fetches int
}

func (w *web) Sitemap(ctx context.Context, u string) ([]byte, error) {
	w.fetches++
	s, ok := w.files[u]
	if !ok {
		return nil, errors.New("HTTP 404 Not Found")
	}
	return []byte(s), nil
}

func (w *web) Robots(ctx context.Context, origin string) ([]string, int, error) {
	return w.robots[origin], w.dropped, nil
}

// index is a sitemap index of the URLs given.
func index(urls ...string) string {
	var b strings.Builder
	b.WriteString("<sitemapindex>\n")
	for _, u := range urls {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", u)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// TestCollectWarns: what an index lists is told of in a line, whether
// thousands are missing or read already, and at most 1,000 sitemaps are
// fetched.
func TestCollectWarns(t *testing.T) {
	many := func(n int, f string) []string {
		var urls []string
		for i := range n {
			urls = append(urls, fmt.Sprintf(f, i))
		}
		return urls
	}
	tests := []struct {
		name    string
		files   map[string]string
		fetches int
		warns   []string
	}{
		{
			name:    "sitemaps missing",
			files:   map[string]string{"http://h/i.xml": index(many(3, "http://h/gone%d.xml")...)},
			fetches: 4,
			warns:   []string{"-sitemap: http://h/i.xml: 3 sitemaps it lists could not be read, such as http://h/gone0.xml: HTTP 404 Not Found: the pages it lists are not crawled"},
		},
		{
			name:    "a sitemap missing",
			files:   map[string]string{"http://h/i.xml": index("http://h/gone.xml")},
			fetches: 2,
			warns:   []string{"-sitemap: http://h/i.xml: a sitemap it lists could not be read: http://h/gone.xml: HTTP 404 Not Found: the pages it lists are not crawled"},
		},
		{
			name: "sitemaps missing, for several reasons",
			files: map[string]string{
				"http://h/i.xml":     index("http://h/gone1.xml", "/rel.xml", "http://h/empty.xml", "http://h/gone2.xml", "rel2.xml"),
				"http://h/empty.xml": "",
			},
			fetches: 4,
			warns: []string{
				"-sitemap: http://h/i.xml: 2 sitemaps it lists could not be read, such as http://h/gone1.xml: HTTP 404 Not Found: the pages it lists are not crawled",
				"-sitemap: http://h/i.xml: 2 sitemaps it lists could not be read, such as /rel.xml: not a full URL, which sitemaps.org asks for and the site's sitemap should give",
				"-sitemap: http://h/i.xml: a sitemap it lists could not be read: http://h/empty.xml: it is empty, or lists nothing: give the URL of a sitemap that lists pages",
			},
		},
		{
			name: "sitemaps missing, for more reasons than are told",
			files: map[string]string{
				"http://h/i.xml":  index(many(7, "http://h/i%d.xml")...),
				"http://h/i0.xml": index("http://h/s.xml"), "http://h/i1.xml": index("http://h/s.xml"), "http://h/i2.xml": index("http://h/s.xml"),
				"http://h/i3.xml": index("http://h/s.xml"), "http://h/i4.xml": index("http://h/s.xml"), "http://h/i5.xml": index("http://h/s.xml"),
				"http://h/i6.xml": index("http://h/s.xml"),
			},
			fetches: 8,
			warns: append(many(5, "-sitemap: http://h/i.xml: a sitemap it lists could not be read: http://h/i%[1]d.xml: skipped: a sitemap index listed in an index, which sitemaps.org does not allow; give it with -sitemap http://h/i%[1]d.xml"),
				"-sitemap: http://h/i.xml: 2 more sitemaps it lists could not be read, for other reasons, such as http://h/i5.xml: skipped: a sitemap index listed in an index, which sitemaps.org does not allow; give it with -sitemap http://h/i5.xml"),
		},
		{
			name:    "read already",
			files:   map[string]string{"http://h/i.xml": index(slices.Repeat([]string{"http://h/i.xml"}, 3)...)},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml, line 2: skipped http://h/i.xml, read already, and 2 more it lists"},
		},
		{
			name:    "1,001 sitemaps",
			files:   map[string]string{"http://h/i.xml": index(many(1001, "http://h/gone%d.xml")...)},
			fetches: 1000,
			warns: []string{
				"-sitemap: http://h/gone999.xml: skipped, and any sitemap after it: the crawler reads at most 1000 sitemaps; give the ones that matter with -sitemap URL",
				"-sitemap: http://h/i.xml: 999 sitemaps it lists could not be read, such as http://h/gone0.xml: HTTP 404 Not Found: the pages it lists are not crawled",
			},
		},
		{
			name:    "not full URLs",
			files:   map[string]string{"http://h/i.xml": "<urlset><url><loc>/a</loc></url><url><loc>b.html</loc></url></urlset>"},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: ignored 2 entries that are not full URLs, such as /a, at line 1: sitemaps.org asks for full URLs, which the site's sitemap should give"},
		},
		{
			name:    "text that is no sitemap",
			files:   map[string]string{"http://h/i.xml": "Not found\n"},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: ignored 1 entry that is not a full URL, such as Not found, at line 1: sitemaps.org asks for full URLs, which the site's sitemap should give"},
		},
		{
			name:    "a sitemap not a full URL",
			files:   map[string]string{"http://h/i.xml": index("/s.xml")},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: a sitemap it lists could not be read: /s.xml: not a full URL, which sitemaps.org asks for and the site's sitemap should give"},
		},
		{
			name: "URLs outside the crawl in the sitemaps of an index",
			files: map[string]string{
				"http://h/i.xml": index("http://h/1.xml", "http://h/2.xml", "http://h/3.xml"),
				"http://h/1.xml": "http://x/a\nhttp://x/b\n/c\n",
				"http://h/2.xml": "http://h/ok\nhttp://x/d\n",
				"http://h/3.xml": "http://x/e\n/f\n",
			},
			fetches: 4,
			warns: []string{
				"-sitemap: http://h/i.xml: ignored 2 entries that are not full URLs, in 2 of the sitemaps it lists, such as /c, in http://h/1.xml at line 3: sitemaps.org asks for full URLs, which the site's sitemap should give",
				"-sitemap: http://h/i.xml: ignored 4 URLs outside the crawl, in 3 of the sitemaps it lists, such as http://x/a in http://h/1.xml; -scope takes more in",
			},
		},
		{
			name: "parts skipped in the sitemaps of an index",
			files: map[string]string{
				"http://h/i.xml": index("http://h/1.xml", "http://h/2.xml", "http://h/3.xml"),
				"http://h/1.xml": "<urlset><url><loc>http://h/a</loc></url></urlset>\n<script>x()</script>",
				"http://h/2.xml": "<urlset><url><loc>http://h/b</loc></url></urlset>\n<script>x()</script>",
				"http://h/3.xml": "<urlset><url><loc>http://h/c</loc></url></urlset>",
			},
			fetches: 4,
			warns:   []string{"-sitemap: http://h/i.xml: skipped parts of 2 of the sitemaps it lists, such as, in http://h/1.xml, what follows its end, from line 2"},
		},
		{
			name: "parts skipped in one sitemap of an index",
			files: map[string]string{
				"http://h/i.xml": index("http://h/1.xml", "http://h/3.xml"),
				"http://h/1.xml": "<urlset><url><loc>http://h/a</loc></url></urlset>\n<script>x()</script>",
				"http://h/3.xml": "<urlset><url><loc>http://h/c</loc></url></urlset>",
			},
			fetches: 3,
			warns:   []string{"-sitemap: http://h/1.xml: skipped what follows its end, from line 2"},
		},
		{
			name:    "empty",
			files:   map[string]string{"http://h/i.xml": ""},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: it is empty, or lists nothing: give the URL of a sitemap that lists pages"},
		},
		{
			name:    "a urlset of no URL",
			files:   map[string]string{"http://h/i.xml": "<urlset>\n</urlset>"},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: it is empty, or lists nothing: give the URL of a sitemap that lists pages"},
		},
		{
			name:    "a URL outside the crawl",
			files:   map[string]string{"http://h/i.xml": "<urlset><url><loc>http://x/a</loc></url></urlset>"},
			fetches: 1,
			warns:   []string{"-sitemap: http://h/i.xml: ignored 1 URL outside the crawl, such as http://x/a; -scope takes more in"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &web{files: tt.files}
			var warns []string
			keep := func(u string) (string, bool) { return u, strings.HasPrefix(u, "http://h/") }
			if _, err := Collect(t.Context(), w, []string{"http://h/i.xml"}, nil, keep, func(s string) { warns = append(warns, s) }); err != nil {
				t.Fatal(err)
			}
			if w.fetches != tt.fetches || !slices.Equal(warns, tt.warns) {
				t.Errorf("%d fetches, warned\n%q\nwant %d,\n%q", w.fetches, warns, tt.fetches, tt.warns)
			}
		})
	}
}

// TestCollectRobots: "auto" reads the sitemaps robots.txt names, a URL
// relative to robots.txt included, as a browser would resolve it, and
// each once.
func TestCollectRobots(t *testing.T) {
	tests := []struct {
		name    string
		lines   []string
		dropped int
		seeds   []string
		warns   []string
	}{
		{"absolute", []string{"http://h/s.xml"}, 0, []string{"http://h/a"}, nil},
		{"relative to the root", []string{"/s.xml"}, 0, []string{"http://h/a"}, nil},
		{"relative to robots.txt", []string{"s.xml"}, 0, []string{"http://h/a"}, nil},
		{"twice, written two ways", []string{"/s.xml", "http://h/s.xml", "/t.xml"}, 0, []string{"http://h/a", "http://h/b"}, nil},
		{"more than the crawler reads", []string{"/s.xml"}, 3, []string{"http://h/a"}, []string{"-sitemap auto: http://h/robots.txt: skipped 3 Sitemap lines after the first 1, the most the crawler reads from a robots.txt; give the ones that matter with -sitemap URL"}},
		{"not a URL", []string{"http://[::1"}, 0, nil, []string{`-sitemap auto: http://h/robots.txt names a sitemap "http://[::1" that is not a URL: it is not read; give its URL with -sitemap URL`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &web{
				files: map[string]string{
					"http://h/s.xml": "<urlset><url><loc>http://h/a</loc></url></urlset>",
					"http://h/t.xml": "http://h/b\n",
				},
				robots:  map[string][]string{"http://h": tt.lines},
				dropped: tt.dropped,
			}
			var warns []string
			keep := func(u string) (string, bool) { return u, true }
			seeds, err := Collect(t.Context(), w, []string{"auto"}, []string{"http://h"}, keep, func(s string) { warns = append(warns, s) })
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range seeds {
				got = append(got, s.URL)
			}
			if !slices.Equal(got, tt.seeds) || !slices.Equal(warns, tt.warns) {
				t.Errorf("seeds %q, warned %q; want %q, %q", got, warns, tt.seeds, tt.warns)
			}
		})
	}
}
