package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// A sitemapSite serves a few pages on loopback, one linked from the seed
// and two that only sitemaps list, and whatever sitemaps and robots.txt
// a test sets; it counts the requests for each path.
type sitemapSite struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string]string
	asked map[string]int
	// stop, if set, is called when the path it names is asked for.
	stopAt string
	stop   func()
}

func newSitemapSite(t *testing.T, files map[string]string) *sitemapSite {
	s := &sitemapSite{asked: make(map[string]int), files: map[string]string{
		"/index.html":   `<a href=linked.html>linked</a>`,
		"/linked.html":  `linked`,
		"/orphan.html":  `<a href=orphan2.html>next</a>`,
		"/orphan2.html": `orphan 2`,
		"/lone.html":    `lone`,
	}}
	for k, v := range files {
		s.files[k] = v
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked[r.URL.Path]++
		body, ok := s.files[r.URL.Path]
		stop := s.stop != nil && r.URL.Path == s.stopAt
		s.mu.Unlock()
		if stop {
			s.stop()
		}
		switch {
		case r.URL.Path == "/loop.xml":
			http.Redirect(w, r, "/loop.xml", http.StatusFound)
			return
		case r.URL.Path == "/huge.xml":
			// A gigabyte, made as it is sent, never held: space, with a
			// comment now and then, since a text of over 1 MB is cut
			// before the 50 MB.
			io.WriteString(w, "<urlset><url><loc>"+s.URL+"/lone.html</loc></url>")
			chunk := append(bytes.Repeat([]byte(" \n"), 32<<10), "<!---->"...)
			for range (1 << 30) / len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			return
		case !ok:
			http.NotFound(w, r)
			return
		case strings.HasSuffix(r.URL.Path, ".html"):
			w.Header().Set("Content-Type", "text/html")
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *sitemapSite) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = body
}

func (s *sitemapSite) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[path]
}

// urlset is a sitemap of the site's paths, a line each.
func (s *sitemapSite) urlset(paths ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	for _, p := range paths {
		if !strings.Contains(p, ":") {
			p = s.URL + p
		}
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", p)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// pageURLs lists the URLs of a page directory's pages, with their depths,
// the site's address left out.
func pageURLs(t *testing.T, dir, site string) []string {
	var got []string
	for _, p := range readPages(t, dir) {
		got = append(got, fmt.Sprintf("%d %s", p.depth, strings.TrimPrefix(p.url, site)))
	}
	return got
}

func TestSitemap(t *testing.T) {
	seedCrawl := []string{"0 /index.html", "1 /linked.html"}
	tests := []struct {
		name    string
		files   func(t *testing.T, s *sitemapSite) map[string]string
		sitemap []string // "SITE" is the site's address
		want    []string // after seedCrawl
		stderr  []string // phrases stderr must hold
		never   []string // paths never asked for
	}{
		{
			name: "a URL, in the order listed, each once, the scope's only",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{"/s.xml": s.urlset("/linked.html", "/lone.html", "/orphan.html", "/orphan2.html", "/lone.html",
					"javascript:alert(1)", "http://outside.test/x.html", "/"+strings.Repeat("x", 10000))}
			},
			sitemap: []string{"SITE/s.xml"},
			want:    []string{"0 /lone.html", "0 /orphan.html", "1 /orphan2.html"},
			stderr:  []string{"ignored 1 URL outside the crawl, such as http://outside.test/x.html", "ignored 1 entry that is not a full URL, such as javascript:alert(1)", "skipped 1 <loc> of 2048 bytes or more"},
		},
		{
			name: "auto, from robots.txt, an index that lists itself and a gzipped sitemap",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{
					"/robots.txt": "User-agent: *\nDisallow: /secret.xml\nSitemap: " + s.URL + "/index.xml\nSitemap: " + s.URL + "/secret.xml\n",
					"/index.xml":  "<sitemapindex><sitemap><loc>" + s.URL + "/index.xml</loc></sitemap><sitemap><loc>" + s.URL + "/s.xml.gz</loc></sitemap></sitemapindex>",
					"/s.xml.gz":   string(gzipped(t, []byte(s.urlset("/orphan.html")))),
					"/secret.xml": s.urlset("/lone.html"),
				}
			},
			sitemap: []string{"auto"},
			want:    []string{"0 /orphan.html", "1 /orphan2.html"},
			stderr:  []string{"index.xml, read already", "secret.xml: disallowed by robots.txt"},
			never:   []string{"/secret.xml", "/sitemap.xml"},
		},
		{
			name: "auto, /sitemap.xml when robots.txt names none, as text",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{"/sitemap.xml": s.URL + "/lone.html\n"}
			},
			sitemap: []string{"auto"},
			want:    []string{"0 /lone.html"},
		},
		{
			name: "not XML, and missing",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{"/s.xml": "<html><body>oops</body></html>"}
			},
			sitemap: []string{"SITE/s.xml", "SITE/gone.xml"},
			stderr:  []string{"s.xml: not a sitemap: its root is <html>", "gone.xml: HTTP 404 Not Found: the pages it lists are not crawled"},
		},
		{
			name: "auto, a Sitemap line relative to robots.txt",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{
					"/robots.txt": "User-agent: *\nDisallow:\nsitemap: /s.xml\n",
					"/s.xml":      s.urlset("/lone.html"),
				}
			},
			sitemap: []string{"auto"},
			want:    []string{"0 /lone.html"},
		},
		{
			name: "an RSS feed, its items' links",
			files: func(t *testing.T, s *sitemapSite) map[string]string {
				return map[string]string{"/feed.xml": "<rss version=\"2.0\"><channel><link>" + s.URL + "/orphan2.html</link><item><link>" + s.URL + "/lone.html</link></item></channel></rss>"}
			},
			sitemap: []string{"SITE/feed.xml"},
			want:    []string{"0 /lone.html"},
			never:   []string{"/orphan2.html"},
		},
		{
			name:    "a redirect loop",
			files:   func(t *testing.T, s *sitemapSite) map[string]string { return nil },
			sitemap: []string{"SITE/loop.xml"},
			stderr:  []string{"-sitemap: SITE/loop.xml: redirected more than 5 times, the last time to SITE/loop.xml: the pages it lists are not crawled"},
		},
		{
			name:    "a gigabyte",
			files:   func(t *testing.T, s *sitemapSite) map[string]string { return nil },
			sitemap: []string{"SITE/huge.xml"},
			want:    []string{"0 /lone.html"},
			stderr:  []string{"skipped the rest after the first 50 MB"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSitemapSite(t, nil)
			for k, v := range tt.files(t, s) {
				s.set(k, v)
			}
			dir := t.TempDir()
			args := []string{"-delay", "0", "-scope", s.URL + "/"}
			for _, sm := range tt.sitemap {
				args = append(args, "-sitemap", strings.ReplaceAll(sm, "SITE", s.URL))
			}
			code, _, stderr := crawl(t.Context(), noProxy, append(args, s.URL+"/index.html", dir, "3")...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got, want := pageURLs(t, dir, s.URL), append(slices.Clone(seedCrawl), tt.want...); !slices.Equal(got, want) {
				t.Errorf("pages %q, want %q\n%s", got, want, stderr)
			}
			for _, phrase := range tt.stderr {
				if phrase = strings.ReplaceAll(phrase, "SITE", s.URL); !strings.Contains(stderr, phrase) {
					t.Errorf("stderr does not say %q:\n%s", phrase, stderr)
				}
			}
			for _, p := range tt.never {
				if n := s.count(p); n > 0 {
					t.Errorf("%s asked for %d times", p, n)
				}
			}
			if n := s.count("/lone.html"); n > 1 {
				t.Errorf("/lone.html asked for %d times", n)
			}
		})
	}
}

// TestSitemapCheck: with -check, a page a sitemap lists that fails is a
// broken link from the sitemap, at its line and column.
func TestSitemapCheck(t *testing.T) {
	s := newSitemapSite(t, nil)
	s.set("/s.xml", s.urlset("/lone.html", "/missing.html"))
	code, stdout, stderr := crawl(t.Context(), noProxy, "-check", "-delay", "0", "-scope", s.URL+"/", "-sitemap", s.URL+"/s.xml", s.URL+"/index.html")
	if code != exitBroken {
		t.Fatalf("exit %d, want %d: %s\n%s", code, exitBroken, stdout, stderr)
	}
	if want := s.URL + "/s.xml:4:13"; !strings.Contains(stdout, s.URL+"/missing.html") || !strings.Contains(stdout, want) {
		t.Errorf("the report does not name missing.html from %s:\n%s", want, stdout)
	}
}

// TestSitemapResume: a crawl with -sitemap stopped, then resumed once the
// sitemap has changed, goes on with the list it began with, without
// reading the sitemap again, and saves what the crawl never stopped
// would have.
func TestSitemapResume(t *testing.T) {
	s := newSitemapSite(t, nil)
	s.set("/s.xml", s.urlset("/lone.html", "/orphan.html"))
	args := func(dir string, resume bool) []string {
		a := []string{"-delay", "0", "-scope", s.URL + "/", "-sitemap", s.URL + "/s.xml"}
		if resume {
			a = append(a, "-resume")
		}
		return append(a, s.URL+"/index.html", dir, "3")
	}
	whole := t.TempDir()
	if code, _, stderr := crawl(t.Context(), noProxy, args(whole, false)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := pageURLs(t, whole, s.URL)

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	s.mu.Lock()
	s.stopAt, s.stop = "/orphan.html", cancel
	s.mu.Unlock()
	if code, _, stderr := crawl(ctx, noProxy, args(dir, false)...); code == exitOK {
		t.Fatalf("exit %d, want a stopped crawl: %s", code, stderr)
	}
	s.mu.Lock()
	s.stop = nil
	s.mu.Unlock()
	s.set("/s.xml", s.urlset("/orphan2.html"))
	before := s.count("/s.xml")
	code, _, stderr := crawl(t.Context(), noProxy, args(dir, true)...)
	if code != exitOK {
		t.Fatalf("resumed: exit %d: %s", code, stderr)
	}
	if got := pageURLs(t, dir, s.URL); !slices.Equal(got, want) {
		t.Errorf("resumed: pages %q, want %q", got, want)
	}
	if n := s.count("/s.xml") - before; n != 0 {
		t.Errorf("the resumed crawl read the sitemap %d times", n)
	}
	for _, d := range []string{whole, dir} {
		if _, err := os.Stat(filepath.Join(d, "1")); err != nil {
			t.Error(err)
		}
	}
}

// overlay serves extra's files, then base's.
type overlay struct {
	base  fs.FS
	extra fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.extra[name]; ok {
		return o.extra.Open(name)
	}
	return o.base.Open(name)
}

// TestKill9Sitemap kills the crawler process with SIGKILL at every step of
// a crawl with -sitemap, the sitemap's fetch included: -resume finishes the
// crawl as if it had never been killed, with the list it began with.
func TestKill9Sitemap(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: starts a process per step")
	}
	const zoo = "http://cs50tse.cs.dartmouth.edu/tse/zoo/"
	var b strings.Builder
	b.WriteString("<urlset>\n")
	for _, name := range []string{"owl", "office", "gone", "hen", "index", "ant"} {
		fmt.Fprintf(&b, "<url><loc>%s%s.html</loc></url>\n", zoo, name)
	}
	b.WriteString("</urlset>\n")
	site := overlay{testdataSite(t), fstest.MapFS{"tse/zoo/sitemap.xml": {Data: []byte(b.String())}}}
	p := newStepProxy(t, site)
	args := []string{"-q", "-delay", "0", "-sitemap", zoo + "sitemap.xml", zoo + "index.html", "1"}
	kill9EveryStep(t, p, args, "", nil)
}
