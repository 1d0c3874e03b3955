package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.String()
}

// utf16BE and utf16LE return s in UTF-16, with a byte order mark.
func utf16BE(s string) string {
	b := []byte{0xfe, 0xff}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// cut returns s without its last n bytes.
func cut(s string, n int) string { return s[:len(s)-n] }

// badSum returns a gzip stream s with its checksum wrong.
func badSum(s string) string {
	b := []byte(s)
	b[len(b)-8] ^= 1
	return string(b)
}

const urlset = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://h/a.html</loc><lastmod>2024-01-01</lastmod></url>
  <url>
    <loc>
      http://h/b.html?x=1&amp;y=2
    </loc>
  </url>
  <url><loc></loc></url>
  <url><loc><![CDATA[http://h/c.html]]></loc></url>
</urlset>
`

var urlsetEntries = []Entry{{"http://h/a.html", 3, 13}, {"http://h/b.html?x=1&y=2", 6, 7}, {"http://h/c.html", 10, 13}}

func TestRead(t *testing.T) {
	long := "http://h/" + strings.Repeat("x", 10000)
	tests := []struct {
		name    string
		in      string
		kind    Kind
		entries []Entry
		skipped []string
		err     error
	}{
		{"urlset", urlset, URLSet, urlsetEntries, nil, nil},
		{"gzipped", gz(urlset), URLSet, urlsetEntries, nil, nil},
		{"with a byte order mark", "\ufeff" + urlset, URLSet, urlsetEntries, nil, nil},
		{"index", "<sitemapindex><sitemap><loc>http://h/s1.xml</loc></sitemap><sitemap><loc>http://h/s2.xml.gz</loc></sitemap></sitemapindex>",
			Index, []Entry{{"http://h/s1.xml", 1, 29}, {"http://h/s2.xml.gz", 1, 74}}, nil, nil},
		{"text", "http://h/a.html\n\n  http://h/b.html  \r\nhttp://h/c.html", Text,
			[]Entry{{"http://h/a.html", 1, 1}, {"http://h/b.html", 3, 3}, {"http://h/c.html", 4, 1}}, nil, nil},
		{"empty", "", Text, nil, nil, nil},
		{"a javascript: URL is an entry like any", "<urlset><url><loc>javascript:alert(1)</loc></url></urlset>", URLSet,
			[]Entry{{"javascript:alert(1)", 1, 19}}, nil, nil},
		{"a <loc> of 10,000 bytes", "<urlset><url><loc>" + long + "</loc></url><url><loc>http://h/ok</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/ok", 1, 10050}}, []string{"1 <loc> of 2048 bytes or more, sitemaps.org's limit (the first at line 1)"}, nil},
		{"a text line of 10,000 bytes", long + "\nhttp://h/ok\n", Text,
			[]Entry{{"http://h/ok", 2, 1}}, []string{"1 line of 2048 bytes or more, sitemaps.org's limit for a URL"}, nil},
		{"HTML", "<!DOCTYPE html>\n<html><body>Not found</body></html>", 0, nil, nil, ErrNotSitemap},
		{"not XML", "<urlset", 0, nil, nil, ErrNotSitemap},
		{"broken half way", "<urlset><url><loc>http://h/a</loc></url>\n<url><loc>http://h/b</loc></url>\n<url><</url></urlset>", URLSet,
			[]Entry{{"http://h/a", 1, 19}, {"http://h/b", 2, 11}}, []string{"the rest from line 3, which is not XML: XML syntax error on line 3: expected element name after <"}, nil},
		{"Latin-1 declared", `<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>http://h/caf` + "\xe9\x80" + `</loc></url></urlset>`, URLSet,
			[]Entry{{"http://h/café€", 1, 62}}, nil, nil},
		{"ASCII declared", `<?xml version="1.0" encoding="US-ASCII"?><urlset><url><loc>http://h/a</loc></url></urlset>`, URLSet,
			[]Entry{{"http://h/a", 1, 60}}, nil, nil},
		{"utf8 declared", `<?xml version="1.0" encoding="utf8"?><urlset><url><loc>http://h/a</loc></url></urlset>`, URLSet,
			[]Entry{{"http://h/a", 1, 56}}, nil, nil},
		{"UTF-16, big-endian", utf16BE("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<urlset><url><loc>http://h/café😀</loc></url></urlset>"), URLSet,
			[]Entry{{"http://h/café😀", 2, 19}}, nil, nil},
		{"UTF-16 text, little-endian", utf16LE("http://h/a\r\nhttp://h/b\r\n"), Text,
			[]Entry{{"http://h/a", 1, 1}, {"http://h/b", 2, 1}}, nil, nil},
		{"Shift_JIS declared", `<?xml version="1.0" encoding="Shift_JIS"?><urlset><url><loc>http://h/` + "\x83\x65" + `</loc></url></urlset>`, URLSet,
			[]Entry{{"http://h/テ", 1, 61}}, nil, nil},
		{"an encoding no browser knows", `<?xml version="1.0" encoding="x-nowhere"?><urlset><url><loc>http://h/a</loc></url></urlset>`, 0, nil, nil, ErrNotSitemap},
		{"not UTF-8", "<urlset><url><loc>http://h/a</loc></url><url><loc>http://h/caf\xe9</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/a", 1, 19}}, []string{"the rest from line 1, which is not XML: it is not UTF-8, which sitemaps.org requires"}, nil},
		{"a text line not UTF-8", "http://h/caf\xe9\nhttp://h/a\n", Text,
			[]Entry{{"http://h/a", 2, 1}}, []string{"1 line not UTF-8, which sitemaps.org requires"}, nil},
		{"nested deeper than a sitemap", gz("<urlset><url><loc>http://h/a</loc></url>\n" + strings.Repeat("<a>", 100)), URLSet,
			[]Entry{{"http://h/a", 1, 19}}, []string{"the rest from line 2, nested deeper than a sitemap"}, nil},
		{"an & not escaped, as many sites write it", "<urlset><url><loc>http://h/a?x=1&y=2&amp;z=&#51;&copy;</loc></url>\n<url><loc>http://h/b</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/a?x=1&y=2&z=3&copy;", 1, 19}, {"http://h/b", 2, 11}}, nil, nil},
		{"a </loc> missing", "<urlset><url><loc>http://h/a</url>\n<url><loc>http://h/b</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/a", 1, 19}, {"http://h/b", 2, 11}}, nil, nil},
		{"a gzipped text cut short", cut(gz("http://h/a\nhttp://h/bbbbbbbbbbbb"), 8), Text,
			[]Entry{{"http://h/a", 1, 1}}, []string{"the rest from line 2: the gzip stream is cut short"}, nil},
		{"a gzipped urlset cut short", cut(gz("<urlset><url><loc>http://h/a</loc></url>\n<url><loc>http://h/b</loc></url></urlset>\n"), 8), URLSet,
			[]Entry{{"http://h/a", 1, 19}, {"http://h/b", 2, 11}}, []string{"the rest from line 3: the gzip stream is cut short"}, nil},
		{"a gzipped urlset cut before its root", cut(gz("<?xml version=\"1.0\"?>\n<urlset><url><loc>http://h/a</loc></url></urlset>"), 50), 0,
			nil, nil, ErrNotSitemap},
		{"a gzipped text with a bad checksum", badSum(gz("http://h/a\nhttp://h/b")), Text,
			[]Entry{{"http://h/a", 1, 1}}, []string{"the rest from line 2: the gzip stream is broken: gzip: invalid checksum"}, nil},
		{"gzipped text in two members, as gzip makes of files joined", gz("http://h/a\n") + gz("http://h/b\n"), Text,
			[]Entry{{"http://h/a", 1, 1}, {"http://h/b", 2, 1}}, nil, nil},
		{"a gzipped urlset in two members", gz("<urlset><url><loc>http://h/a</loc></url>\n") + gz("<url><loc>http://h/b</loc></url></urlset>"), URLSet,
			[]Entry{{"http://h/a", 1, 19}, {"http://h/b", 2, 11}}, nil, nil},
		{"RSS 2.0", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><link>http://h/</link>\n<atom:link href=\"http://h/feed\" rel=\"self\"/>\n" +
			"<item><title>A</title><link>http://h/a</link><enclosure url=\"http://h/a.mp3\"/></item>\n<item><link>\n  http://h/b\n</link></item></channel></rss>", Feed,
			[]Entry{{"http://h/a", 4, 29}, {"http://h/b", 6, 3}}, nil, nil},
		{"Atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\"><link href=\"http://h/\"/>\n<entry><link rel=\"edit\" href=\"http://h/edit\"/><link href=\"http://h/a\"/></entry>\n" +
			"<entry><link rel=\"enclosure\" href=\"http://h/b.mp3\"/><link rel=\"alternate\" type=\"text/html\" href=\"http://h/b\"/></entry></feed>", Feed,
			[]Entry{{"http://h/a", 2, 47}, {"http://h/b", 3, 53}}, nil, nil},
		{"a script after the end, as some hosts add to every answer", "<urlset><url><loc>http://h/a</loc></url></urlset>\n<!-- done -->\n<script>track()</script>\n<urlset><url><loc>http://h/b</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/a", 1, 19}}, []string{"what follows its end, from line 3"}, nil},
		{"text after the end", "<urlset><url><loc>http://h/a</loc></url></urlset>\n\nDone & <", URLSet,
			[]Entry{{"http://h/a", 1, 19}}, []string{"what follows its end, from line 3"}, nil},
		{"space and a comment after the end", "<urlset><url><loc>http://h/a</loc></url></urlset>\n<!-- done -->\n", URLSet,
			[]Entry{{"http://h/a", 1, 19}}, nil, nil},
		{"a broken gzip stream", "\x1f\x8bxx", 0, nil, nil, ErrNotSitemap},
		{"a byte order mark and another encoding declared, which the mark overrules", "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>http://h/\xc3\xa9</loc></url></urlset>", URLSet,
			[]Entry{{"http://h/\u00e9", 1, 62}}, nil, nil},
		{"UTF-16 that declares another encoding", utf16LE("<?xml version=\"1.0\" encoding=\"windows-1252\"?><urlset><url><loc>http://h/\u00e9</loc></url></urlset>"), URLSet,
			[]Entry{{"http://h/\u00e9", 1, 64}}, nil, nil},
		{"an end tag of no open element, which is ignored", "<urlset>\n<url><loc>http://h/a</loc></b></url>\n<url><loc>http://h/b</loc></url>\n</urlset>", URLSet,
			[]Entry{{"http://h/a", 2, 11}, {"http://h/b", 3, 11}}, nil, nil},
		{"an end tag that ends two", "<urlset>\n<url><loc>http://h/a</url>\n<url><loc>http://h/b</loc></url>\n</urlset>", URLSet,
			[]Entry{{"http://h/a", 2, 11}, {"http://h/b", 3, 11}}, nil, nil},
		{"a urlset cut short", "<urlset>\n<url><loc>http://h/a</loc></url>\n<url><loc>http://h/b", URLSet,
			[]Entry{{"http://h/a", 2, 11}}, []string{"the rest from line 3, which is not XML: it ends before the end tag of <urlset>, cut short"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sm, err := Read(strings.NewReader(tt.in))
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Read = %+v, %v; want %v", sm, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sm.Kind != tt.kind || !reflect.DeepEqual(sm.Entries, tt.entries) || !reflect.DeepEqual(sm.Skipped, tt.skipped) {
				t.Errorf("Read =\n%d %v\n%q\nwant\n%d %v\n%q", sm.Kind, sm.Entries, sm.Skipped, tt.kind, tt.entries, tt.skipped)
			}
		})
	}
}

// endless is a sitemap of as many URLs as asked, made as it is read,
// never held whole.
type endless struct {
	n, i int
	buf  []byte
	text bool
}

func (e *endless) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) && e.i < e.n {
		if e.i == 0 && !e.text {
			e.buf = append(e.buf, "<urlset>\n"...)
		}
		if e.text {
			e.buf = fmt.Appendf(e.buf, "http://h/%d.html\n", e.i)
		} else {
			e.buf = fmt.Appendf(e.buf, "<url><loc>http://h/%d.html</loc></url>\n", e.i)
		}
		e.i++
		if e.i == e.n && !e.text {
			e.buf = append(e.buf, "</urlset>\n"...)
		}
	}
	if len(e.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// TestReadLimits: past 50,000 URLs, or 50 MB, the rest is skipped, and
// said to be; a gigabyte is never read whole.
func TestReadLimits(t *testing.T) {
	xmlSpaces, textSpaces := &spaces{n: 1 << 30}, &spaces{n: 1 << 30}
	attrs := &spaces{n: 1 << 30, unit: " a"}
	tests := []struct {
		name    string
		in      io.Reader
		sp      *spaces // the space in, if any, which is never read whole
		most    int64   // the limit in bytes, if not MaxBytes
		entries int
		skipped string
	}{
		{"50,000 URLs", &endless{n: MaxURLs}, nil, 0, MaxURLs, ""},
		{"50,001 URLs", &endless{n: MaxURLs + 1}, nil, 0, MaxURLs, "the URLs after the first 50000, sitemaps.org's limit"},
		{"50,001 text URLs", &endless{n: MaxURLs + 1, text: true}, nil, 0, MaxURLs, "the URLs after the first 50000, sitemaps.org's limit"},
		// Space takes the room, URLs being limited first. The decoder
		// reads a byte at a time, which takes long under the race
		// detector: the XML is cut at a smaller limit, the same way.
		{"a gigabyte", io.MultiReader(strings.NewReader("<urlset><url><loc>http://h/a</loc></url>"), xmlSpaces), xmlSpaces, 1 << 20, 1, tooBig},
		{"a gigabyte of text", io.MultiReader(strings.NewReader("http://h/a\n"), textSpaces), textSpaces, 0, 1, tooBig},
		{"a URL cut by the limit", strings.NewReader("http://h/a\nhttp://h/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n"), nil, 20, 1, tooBig},
		// 50 MB of attributes, which gzip makes 50 KB, would take
		// gigabytes of the decoder: they end at a megabyte, within a
		// limit that is smaller here only to make the test quicker.
		{"endless attributes", io.MultiReader(strings.NewReader("<urlset><url><loc>http://h/a</loc></url><url"), attrs), attrs, 8 << 20, 1, "the rest from line 1: " + errLongRun.Error()},
		{"a text that grows as it is decoded", strings.NewReader(`<?xml version="1.0" encoding="windows-1252"?><urlset><url><loc>http://h/a</loc></url><url><x>` + strings.Repeat("\x80", 600<<10) + "</x></url></urlset>"), nil, 0, 1, "the rest from line 1: " + errLongRun.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			most := tt.most
			if most == 0 {
				most = MaxBytes
			}
			sm, err := read(tt.in, most)
			if err != nil {
				t.Fatal(err)
			}
			skipped := strings.Join(sm.Skipped, "; ")
			if len(sm.Entries) != tt.entries || skipped != tt.skipped {
				t.Errorf("Read: %d entries, skipped %q; want %d, %q", len(sm.Entries), skipped, tt.entries, tt.skipped)
			}
			if tt.sp != nil && int64(tt.sp.read) > most+1<<20 {
				t.Errorf("read %d bytes of space, past the limit of %d", tt.sp.read, most)
			}
		})
	}
}

// spaces is n bytes of space and newlines, made as they are read, or of
// unit over and over if it has one.
type spaces struct {
	n, read int
	unit    string
}

func (s *spaces) Read(p []byte) (int, error) {
	if s.read >= s.n {
		return 0, io.EOF
	}
	n := min(len(p), s.n-s.read)
	for i := range p[:n] {
		switch {
		case s.unit != "":
			p[i] = s.unit[(s.read+i)%len(s.unit)]
		case (s.read+i)%4096 == 4095:
			p[i] = '\n'
		default:
			p[i] = ' '
		}
	}
	s.read += n
	return n, nil
}

// FuzzRead: whatever it is given, Read keeps to its limits, and each
// entry is as written, trimmed, within the limit for a URL.
func FuzzRead(f *testing.F) {
	f.Add([]byte(urlset))
	f.Add([]byte(gz(urlset)))
	f.Add([]byte("http://h/a\nhttp://h/b\n"))
	f.Add([]byte("<sitemapindex><sitemap><loc>http://h/s.xml</loc></sitemap></sitemapindex>"))
	f.Add([]byte("<html><body>x</body></html>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sm, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(sm.Entries) > MaxURLs {
			t.Fatalf("%d entries", len(sm.Entries))
		}
		for _, e := range sm.Entries {
			if e.URL == "" || len(e.URL) >= MaxLoc || strings.TrimSpace(e.URL) != e.URL || e.Line < 1 || e.Column < 1 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
