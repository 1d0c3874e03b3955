package browserurl

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"tse-crawler/internal/testbed/playgroundtest"
)

// A link is an href and the page it is on.
type link struct{ base, href string }

// pageLinks appends to links the value of every href and src attribute in
// page, which is at base, as written.
func pageLinks(links []link, base string, page []byte) []link {
	z := html.NewTokenizer(bytes.NewReader(page))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		for _, a := range z.Token().Attr {
			if a.Key == "href" || a.Key == "src" {
				links = append(links, link{base, a.Val})
			}
		}
	}
	return links
}

// testdataLinks returns the links of every page in the module's testdata:
// the playground's pages at http://cs50tse.cs.dartmouth.edu/ and the
// virtual hosts' at their hosts' names.
func testdataLinks(t testing.TB) []link {
	t.Helper()
	root := filepath.Join("..", "..", "testdata")
	var links []link
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".html") {
			return err
		}
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return err
		}
		page, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		site, path, _ := strings.Cut(filepath.ToSlash(rel), "/")
		host := "cs50tse.cs.dartmouth.edu"
		if site == "vhosts" {
			host, path, _ = strings.Cut(path, "/")
		}
		links = pageLinks(links, "http://"+host+"/"+path, page)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(links) < 100 {
		t.Fatalf("only %d links in testdata", len(links))
	}
	return links
}

// siteLinks returns the links of every page of the shared playground's
// site, at its URL, or skips the test if the site is not there. It finds
// them by [quotedLinks], which is cheap enough to read the site's 190 MB
// in a second, even under the race detector, and only once per test
// binary.
func siteLinks(t testing.TB) []link {
	site := playgroundtest.Site(t)
	sitesLinks.once.Do(func() {
		sitesLinks.err = fs.WalkDir(site, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(name, ".html") {
				return err
			}
			page, err := fs.ReadFile(site, name)
			sitesLinks.links = quotedLinks(sitesLinks.links, "http://cs50tse.cs.dartmouth.edu/"+name, page)
			return err
		})
	})
	if sitesLinks.err != nil {
		t.Fatal(sitesLinks.err)
	}
	return sitesLinks.links
}

// sitesLinks holds what siteLinks found, which no test modifies.
var sitesLinks struct {
	once  sync.Once
	links []link
	err   error
}

// quotedLinks appends to links the value of every href and src attribute
// in page, which is at base, that is written in double quotes, with its
// character references decoded, as a tokenizer would give it if the
// attribute is in a tag.
func quotedLinks(links []link, base string, page []byte) []link {
	for _, attr := range []string{` href="`, ` src="`} {
		for rest := page; ; {
			i := bytes.Index(rest, []byte(attr))
			if i < 0 {
				break
			}
			rest = rest[i+len(attr):]
			end := bytes.IndexByte(rest, '"')
			if end < 0 {
				break
			}
			links = append(links, link{base, html.UnescapeString(string(rest[:end]))})
			rest = rest[end+1:]
		}
	}
	return links
}

// onLoopback returns base with its host replaced by 127.0.0.1:8080, as a
// copy of the site served on loopback is crawled.
func onLoopback(base string) string {
	rest, ok := strings.CutPrefix(base, "http://cs50tse.cs.dartmouth.edu/")
	if !ok {
		return base
	}
	return "http://127.0.0.1:8080/" + rest
}

// shape returns the shape of an href: each run of letters, digits, '-'
// and '_' as "a", each run of bytes beyond ASCII as "é", and every other
// byte as it is, so that "Hash_table.html" and "page-2.html" have one
// shape, "a.a".
func shape(s string) string {
	var b strings.Builder
	var last byte // the class of the byte before, if a run
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_':
			c = 'a'
		case c >= 0x80:
			c = 0x80
		default:
			last = 0
			b.WriteByte(c)
			continue
		}
		if c != last {
			if c == 'a' {
				b.WriteByte('a')
			} else {
				b.WriteString("é")
			}
		}
		last = c
	}
	return b.String()
}

// TestPlainSite resolves the links on the pages of testdata and of the
// playground's site, at their own URLs and on loopback, and keys the
// results: the shortcuts must take most of them, and give what the parser
// gives. The parser checks all of testdata's links, and three of each shape
// on the site, where the shortcuts take some 1.7 million links, which the
// parser would take a minute to read.
func TestPlainSite(t *testing.T) {
	checked, unchecked := testdataLinks(t), []link(nil)
	perShape := make(map[string]int)
	for _, l := range siteLinks(t) {
		if s := shape(l.href); perShape[s] < 3 {
			perShape[s]++
			checked = append(checked, l)
		} else {
			unchecked = append(unchecked, l)
		}
	}
	fast, all := 0, 2*(len(checked)+len(unchecked))
	for i, l := range append(checked, unchecked...) {
		for _, base := range []string{l.base, onLoopback(l.base)} {
			got, ok := resolvePlain(base, l.href)
			if !ok {
				continue
			}
			fast++
			if i < len(checked) {
				checkPlain(t, base, l.href, got)
			}
		}
	}
	t.Logf("%d of %d links resolved by the shortcuts, %d checked against the parser", fast, all, 2*len(checked))
	if fast < all*9/10 {
		t.Errorf("only %d of %d links resolved by the shortcuts", fast, all)
	}
}

// resolvePlain is what a Resolver for base resolves ref to without the
// parser.
func resolvePlain(base, ref string) (string, bool) {
	r := NewResolver(base)
	return r.plainResolve(ref)
}

// checkPlain checks that got, which resolvePlain gave for ref against base,
// is what the parser gives, and its own key if it is a page.
func checkPlain(t *testing.T, base, ref, got string) {
	t.Helper()
	if want, ok := resolve(base, ref); !ok || got != want {
		t.Fatalf("resolvePlain(%q, %q) = %q, but the parser gives %q, %v", base, ref, got, want, ok)
	}
	if key, ok := Normalize(got); ok != htmlExtension(pathOf(got)) || ok && key != got {
		t.Fatalf("Normalize(%q) = %q, %v: a plain link's key is itself", got, key, ok)
	}
}

// seedLinks returns the fuzzers' seeds: the base and input of every entry
// of the WPT suite, every link in testdata, and, if the shared playground
// is there, one link of each shape on its site, at its page's URL and on
// loopback.
func seedLinks(t testing.TB) []link {
	var links []link
	for _, e := range wptEntries(t) {
		base := ""
		if e.Base != nil {
			base = *e.Base
		}
		links = append(links, link{base, e.Input})
	}
	links = append(links, testdataLinks(t)...)
	tarball := filepath.Join("..", "..", "..", "shared", "playground", "cs50tse-site.tar.gz")
	if _, err := os.Stat(tarball); err != nil {
		return links
	}
	shapes := make(map[string]bool)
	for _, l := range siteLinks(t) {
		if s := shape(l.href); !shapes[s] {
			shapes[s] = true
			links = append(links, l, link{onLoopback(l.base), l.href})
		}
	}
	return links
}
