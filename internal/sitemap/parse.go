// Package sitemap reads sitemaps, as sitemaps.org defines them, for a
// crawl that takes the pages they list as more seeds (-sitemap): XML
// urlsets and sitemap indexes, gzipped or not, text sitemaps, one URL a
// line, and the feeds sitemaps.org allows as sitemaps, RSS 2.0 (an
// item's <link>) and Atom (an entry's alternate <link>).
//
// A sitemap comes from anyone, so it is read under sitemaps.org's limits,
// which a crawler need not go past: 50,000 URLs and 50 MB once
// uncompressed, and a <loc> of fewer than 2,048 bytes; what goes past one
// is skipped, and said to be, never read whole first. XML is read as a
// stream of tokens, so that a huge sitemap costs only the URLs it lists;
// encoding/xml expands no entity a document declares, so a sitemap
// cannot grow inside the parser either, nor nest deeper than a sitemap
// needs (each open element is kept), nor hold a tag or a text of
// over 1 MB (the decoder keeps it whole, and a tag's attributes cost it
// some twenty times their bytes). A sitemap index lists sitemaps,
// which are read in turn, one level deep, as sitemaps.org allows: an
// index listed in an index, itself included, is skipped.
//
// sitemaps.org asks for UTF-8; a sitemap in UTF-16, with its byte order
// mark, or that declares another encoding a browser knows, is read all
// the same, as XML parsers read it; one in an encoding no browser knows
// is no sitemap. A byte order mark wins over what a sitemap declares.
//
// Each URL keeps where it is in its sitemap, line and column, so that a
// link check names it as a link's referrer.
package sitemap

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// sitemaps.org's limits.
const (
	MaxURLs  = 50_000   // URLs in one sitemap, or sitemaps in one index
	MaxBytes = 50 << 20 // bytes of one sitemap, uncompressed
	MaxLoc   = 2048     // a URL is shorter
)

// A Kind is what a sitemap is.
type Kind int

const (
	URLSet Kind = iota + 1 // XML, listing pages
	Index                  // XML, listing sitemaps
	Text                   // one URL a line
	Feed                   // RSS 2.0 or Atom, listing pages
)

// An Entry is one URL a sitemap lists, as written, with surrounding
// space trimmed, and where it starts (an Atom link's, where its element
// does): line and column, from 1, the column counted in bytes.
type Entry struct {
	URL          string
	Line, Column int
}

// A Sitemap is what Read found in one sitemap.
type Sitemap struct {
	Kind    Kind
	Entries []Entry
	// Skipped says what was skipped and why, a phrase each, for the
	// user: URLs past a limit, or the rest of a sitemap broken half way.
	Skipped []string
}

// ErrNotSitemap is returned, wrapped, by Read for a file that is no
// sitemap: XML whose root is none of <urlset>, <sitemapindex>, <rss> and
// <feed> (an HTML page, say), or that cannot be read as XML before its
// root.
var ErrNotSitemap = errors.New("not a sitemap")

// errTooBig ends the reading of a sitemap at MaxBytes.
var errTooBig = errors.New("over 50 MB")

// Read reads a sitemap from r: gzipped if it starts as gzip does, XML if
// its first character but space is '<', else text. It reads no more than
// MaxBytes of it, uncompressed, and keeps at most MaxURLs entries; what
// it skips, Skipped says. Its error is for a file that gives nothing:
// one that wraps ErrNotSitemap, or a gzip stream broken at its start.
func Read(r io.Reader) (*Sitemap, error) { return read(r, MaxBytes) }

// read is Read, reading at most most bytes, uncompressed: a test's limit
// can be smaller.
func read(r io.Reader, most int64) (*Sitemap, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: a broken gzip stream: %w", ErrNotSitemap, err)
		}
		// A gzip file may hold several members, which gunzip joins: all
		// are read, within MaxBytes all the same.
		br = bufio.NewReader(zr)
	}
	lr := &limited{r: br, left: most}
	in := bufio.NewReader(lr)
	// A byte order mark, then space, before the first character. One of
	// UTF-16 says that the rest is converted.
	bom, _ := in.Peek(3)
	marked := true
	switch {
	case bytes.HasPrefix(bom, []byte("\xef\xbb\xbf")):
		in.Discard(3)
	case bytes.HasPrefix(bom, []byte("\xfe\xff")), bytes.HasPrefix(bom, []byte("\xff\xfe")):
		in.Discard(2)
		in = bufio.NewReader(fromUTF16(in, bom[0] == 0xfe))
	default:
		marked = false
	}
	// XML if the first character but space is '<'; the space stays, so
	// that the decoder counts lines from the start.
	for i := 1; i <= 4096; i++ {
		b, err := in.Peek(i)
		if err != nil || len(b) < i {
			break
		}
		if c := b[i-1]; c == '<' {
			return readXML(in, lr, marked)
		} else if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
	}
	return readText(in, lr), nil
}

// A limited reader gives at most left bytes, then errTooBig.
type limited struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more says whether there was more.
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			l.hit = true
			return 0, errTooBig
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// tooMany is the phrase for the entries past MaxURLs.
func tooMany(what string) string {
	return fmt.Sprintf("the %s after the first %d, sitemaps.org's limit", what, MaxURLs)
}

// tooBig is the phrase for the rest past MaxBytes.
const tooBig = "the rest after the first 50 MB, sitemaps.org's limit"

// maxDepth is how deep elements may nest in an XML sitemap, whose <loc>
// is at 3, with room for extensions such as images.
const maxDepth = 8

// maxRun is how many bytes of an XML sitemap may come without a '<'.
// The decoder keeps a tag or a text whole, and each attribute of a tag
// as a string and an Attr of 48 bytes: 50 MB of " a" in one tag, which
// gzip makes 50 KB, would take gigabytes. A sitemap's tags and texts are
// short, so that the rest of one past this is skipped.
const maxRun = 1 << 20

// errLongRun ends the reading of an XML sitemap at maxRun bytes without a '<'.
var errLongRun = errors.New("over 1 MB without a tag, a text or tag longer than any of a sitemap's")

// A runs reader gives what r gives, then errLongRun once more than
// maxRun bytes have come since the last '<'; it keeps back the bytes of
// that run that it read last, which may end part way through a
// character, and are skipped all the same.
type runs struct {
	r   io.Reader
	run int
	hit bool
}

func (g *runs) Read(p []byte) (int, error) {
	if g.hit {
		return 0, errLongRun
	}
	n, err := g.r.Read(p)
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '<')
		if j < 0 {
			j = n - i
		}
		if g.run+j > maxRun {
			g.hit = true
			return i, errLongRun
		}
		g.run += j
		if i += j; i < n {
			g.run = 0 // the '<'
			i++
		}
	}
	return n, err
}

// readXML reads an XML sitemap, in UTF-8 if a byte order mark said so
// (marked), whatever it declares: the mark wins, as it does for XML
// parsers and browsers.
func readXML(r io.Reader, lr *limited, marked bool) (*Sitemap, error) {
	d := xml.NewDecoder(&runs{r: r})
	// Many sitemaps leave an & in a URL unescaped, or an end tag out,
	// which strict XML would take for the end of the file: the rest is
	// read as lxml's recover mode reads it (Scrapy's), the & as itself and
	// an end tag as those missing too; an end tag of no open element is
	// ignored. An entity stays as written.
	d.Strict = false
	d.CharsetReader = charsetReader
	if marked {
		d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	}
	sm := new(Sitemap)
	var (
		names     [maxDepth + 1]xml.Name // of the open elements, by depth
		depth     int
		inLoc     bool
		locDepth  int // of the element inLoc reads
		loc       []byte
		locLong   bool
		line, col int
		long      int // <loc>s too long
		longAt    int
		over      bool
		deep      bool
		ended     bool // the root's end was read
	)
	take := func(u string, line, col int) {
		switch {
		case len(u) >= MaxLoc:
			if long == 0 {
				longAt = line
			}
			long++
		case u == "":
		case len(sm.Entries) == MaxURLs:
			over = true
		default:
			sm.Entries = append(sm.Entries, Entry{URL: u, Line: line, Column: col})
		}
	}
	for {
		startLine, startCol := d.InputPos() // of the token, unless space is first
		// Raw: the decoder's own matching of end tags, unless strict,
		// takes one of no open element for the end of every element, and
		// of the sitemap. Elements are matched below.
		tok, err := d.RawToken()
		if err != nil {
			if err == io.EOF {
				if depth > 0 && !ended {
					l, _ := d.InputPos()
					sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d, which is not XML: it ends before the end tag of <%s>, cut short", l, names[1].Local))
				}
				break
			}
			if ended && !lr.hit && gzipError(err) == "" {
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("what follows its end, from line %d", startLine))
				break
			}
			if sm.Kind == 0 {
				return nil, fmt.Errorf("%w: %s", ErrNotSitemap, xmlError(err, lr))
			}
			if lr.hit {
				sm.Skipped = append(sm.Skipped, tooBig)
			} else if broken := gzipError(err); broken != "" {
				l, _ := d.InputPos()
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d: %s", l, broken))
			} else if errors.Is(err, errLongRun) {
				l, _ := d.InputPos()
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d: %v", l, errLongRun))
			} else {
				l, _ := d.InputPos()
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d, which is not XML: %s", l, xmlError(err, lr)))
			}
			break
		}
		if ended {
			// Some hosts add a script, or a line of text, to every
			// answer: what follows the root is no part of the sitemap,
			// but comments and space are no sign of one.
			at, junk := startLine, false
			switch t := tok.(type) {
			case xml.StartElement, xml.EndElement, xml.Directive:
				junk = true
			case xml.CharData:
				if rest := bytes.TrimLeft(t, " \t\r\n"); len(rest) > 0 {
					at += bytes.Count(t[:len(t)-len(rest)], []byte("\n"))
					junk = true
				}
			}
			if junk {
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("what follows its end, from line %d", at))
				break
			}
			continue
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxDepth {
				// The decoder keeps an entry for each open element: a
				// small gzipped file of nested tags would take gigabytes.
				l, _ := d.InputPos()
				sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d, nested deeper than a sitemap", l))
				deep = true
				break
			}
			names[depth] = t.Name
			switch {
			case depth == 1 && t.Name.Local == "urlset":
				sm.Kind = URLSet
			case depth == 1 && t.Name.Local == "sitemapindex":
				sm.Kind = Index
			case depth == 1 && (t.Name.Local == "rss" || t.Name.Local == "feed"):
				sm.Kind = Feed
			case depth == 1:
				return nil, fmt.Errorf("%w: its root is <%s>, where a sitemap's is <urlset> or <sitemapindex>, or a feed's <rss> or <feed>", ErrNotSitemap, t.Name.Local)
			case sm.Kind != Feed && depth == 3 && t.Name.Local == "loc",
				// An RSS item's link is its text.
				sm.Kind == Feed && depth == 4 && t.Name.Local == "link" && names[1].Local == "rss" && names[3].Local == "item":
				inLoc, loc, locLong, locDepth = true, loc[:0], false, depth
				line, col = d.InputPos()
			case sm.Kind == Feed && depth == 3 && t.Name.Local == "link" && names[1].Local == "feed" && names[2].Local == "entry":
				// An Atom entry's link is its alternate one, the page.
				if rel := attr(t, "rel"); rel == "" || rel == "alternate" {
					take(strings.TrimSpace(attr(t, "href")), startLine, startCol)
				}
			}
		case xml.CharData:
			if !inLoc {
				break
			}
			if len(loc) == 0 {
				// Where the URL starts: past the space before it.
				trimmed := bytes.TrimLeft(t, " \t\r\n")
				for _, c := range t[:len(t)-len(trimmed)] {
					if c == '\n' {
						line, col = line+1, 1
					} else {
						col++
					}
				}
				t = trimmed
			}
			if len(loc)+len(t) > MaxLoc+64 { // room for the space trimmed after
				locLong = true
				t = t[:max(0, min(len(t), MaxLoc+64-len(loc)))]
			}
			loc = append(loc, t...)
		case xml.EndElement:
			// It ends the open element of its name, and those left open
			// inside it, as lxml's recover mode reads a missing end tag;
			// one of no open element is ignored.
			k := depth
			for k > 0 && names[k] != t.Name {
				k--
			}
			if k == 0 {
				break
			}
			if inLoc && k <= locDepth {
				inLoc = false
				u := strings.TrimSpace(string(loc))
				if locLong {
					u = string(loc) // too long all the same
				}
				take(u, line, col)
			}
			depth = k - 1
			ended = depth == 0
		}
		if over {
			what := "URLs"
			if sm.Kind == Index {
				what = "sitemaps"
			}
			sm.Skipped = append(sm.Skipped, tooMany(what))
			break
		}
		if deep {
			break
		}
	}
	if long > 0 {
		sm.Skipped = append(sm.Skipped, fmt.Sprintf("%d <loc> of %d bytes or more, sitemaps.org's limit (the first at line %d)", long, MaxLoc, longAt))
	}
	return sm, nil
}

// attr returns the value of the attribute of e named name, in no name
// space, or "".
func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// xmlError says what err, the decoder's, means: a sitemap cut at its
// limit, or in an encoding other than UTF-8, is told so.
func xmlError(err error, lr *limited) string {
	switch {
	case lr.hit:
		return tooBig
	case gzipError(err) != "":
		return gzipError(err)
	case errors.Is(err, errLongRun):
		return errLongRun.Error()
	case strings.Contains(err.Error(), "xml: opening charset"):
		return "it declares an encoding that is none of the Encoding Standard's, where sitemaps.org requires UTF-8"
	case strings.Contains(err.Error(), "invalid UTF-8"):
		return "it is not UTF-8, which sitemaps.org requires"
	}
	return err.Error()
}

// gzipError says what err means if a gzip stream broke, else "". A
// stream cut short, or whose checksum is wrong, may have given a URL cut
// short, or wrong.
func gzipError(err error) string {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the gzip stream is cut short"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		return "the gzip stream is broken: " + err.Error()
	}
	return ""
}

// readText reads a text sitemap: a URL a line, blank lines ignored.
func readText(in *bufio.Reader, lr *limited) *Sitemap {
	sm := &Sitemap{Kind: Text}
	long, notUTF8 := 0, 0
	for line := 1; ; line++ {
		text, err := in.ReadSlice('\n')
		tooLong := false
		for errors.Is(err, bufio.ErrBufferFull) {
			tooLong = true
			_, err = in.ReadSlice('\n')
		}
		if errors.Is(err, errTooBig) {
			// The last line, cut short by the limit, is no URL.
			sm.Skipped = append(sm.Skipped, tooBig)
			return sm.with(long, notUTF8)
		}
		if err != nil && err != io.EOF {
			// Nor is one cut short by a broken gzip stream.
			broken := gzipError(err)
			if broken == "" {
				broken = err.Error()
			}
			sm.Skipped = append(sm.Skipped, fmt.Sprintf("the rest from line %d: %s", line, broken))
			return sm.with(long, notUTF8)
		}
		u := strings.TrimSpace(string(text))
		switch {
		case tooLong || len(u) >= MaxLoc:
			long++
		case !utf8.ValidString(u):
			notUTF8++
		case u == "":
		case len(sm.Entries) == MaxURLs:
			sm.Skipped = append(sm.Skipped, tooMany("URLs"))
			return sm.with(long, notUTF8)
		default:
			col := 1 + strings.Index(string(text), u)
			sm.Entries = append(sm.Entries, Entry{URL: u, Line: line, Column: col})
		}
		if err != nil {
			return sm.with(long, notUTF8)
		}
	}
}

// with adds to what sm skipped its lines too long, and those not UTF-8.
func (sm *Sitemap) with(long, notUTF8 int) *Sitemap {
	if long > 0 {
		sm.Skipped = append(sm.Skipped, fmt.Sprintf("%s of %d bytes or more, sitemaps.org's limit for a URL", count(long, "line"), MaxLoc))
	}
	if notUTF8 > 0 {
		sm.Skipped = append(sm.Skipped, count(notUTF8, "line")+" not UTF-8, which sitemaps.org requires")
	}
	return sm
}
