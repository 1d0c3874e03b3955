package pagescan

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// A CharsetScanner is a Scanner that decodes a page before it reads it,
// as a browser does, so that the charset the page's HTTP response names
// in its Content-Type can change what it finds. Its Scan is ScanCharset
// with no charset.
type CharsetScanner interface {
	Scanner
	// ScanCharset is Scan for a page whose Content-Type names charset.
	ScanCharset(pageURL string, page []byte, charset string, found func(link string))
	// Charset returns charset if ScanCharset may read page otherwise
	// with it than without it, and "" if not: the page's bytes alone
	// decide its encoding (a byte order mark overrides the Content-Type),
	// or they say the same. A crawl keeps what it returns beside the saved
	// page, to scan it again exactly. Charset is safe for concurrent use.
	Charset(page []byte, charset string) string
}

// A document is a page as the html scanner reads it: its text in UTF-8,
// and the encoding its URLs' queries are written in, nil for UTF-8.
type document struct {
	text  []byte
	query encoding.Encoding
}

// decode decodes page as the HTML Standard's encoding sniffing and
// decoding do, given the charset its Content-Type names ("" for none),
// and with no byte order mark. A page in UTF-8 is its own text, without a
// copy: bytes that are not UTF-8 reach the URL parser as they are, which
// reads each as U+FFFD.
func decode(page []byte, label string) document {
	name, bom := sniff(page, label)
	return decodeAs(page[bom:], name)
}

// decodeAs decodes page, without its byte order mark, in the encoding
// named name, one of htmlindex's names.
func decodeAs(page []byte, name string) document {
	if name == "utf-8" {
		return document{text: page}
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return document{text: page} // cannot happen: callers give the names of encodings
	}
	// A decoder writes U+FFFD for what it cannot read, and never fails.
	text, err := enc.NewDecoder().Bytes(page)
	if err != nil {
		text = page
	}
	d := document{text: text}
	switch name {
	case "utf-16le", "utf-16be", "replacement":
		// The standard's output encoding for these is UTF-8.
	default:
		d.query = enc
	}
	return d
}

// sniff returns the name of the encoding a browser decodes page in, given
// the charset its Content-Type names ("" for none), and the length of the
// page's byte order mark, if it has one. The order is the standard's, and
// charset.DetermineEncoding's: a byte order mark, then the Content-Type,
// then a <meta> charset or http-equiv in the first 1024 bytes.
//
// A page that declares nothing is UTF-8 if it all is valid UTF-8, and
// windows-1252 otherwise. The standard leaves that guess to the browser,
// which reads the page as it streams in; DetermineEncoding guesses from
// the first 1024 bytes alone, and takes an English page whose first
// non-ASCII letter comes later for windows-1252. A crawler has the whole
// page.
func sniff(page []byte, label string) (name string, bom int) {
	switch {
	case bytes.HasPrefix(page, []byte("\xef\xbb\xbf")):
		return "utf-8", 3
	case bytes.HasPrefix(page, []byte("\xfe\xff")):
		return "utf-16be", 2
	case bytes.HasPrefix(page, []byte("\xff\xfe")):
		return "utf-16le", 2
	}
	if label != "" {
		if e, n := charset.Lookup(label); e != nil {
			return n, 0
		}
	}
	// The prescan costs tens of microseconds when it finds nothing, and
	// it finds nothing without a <meta> tag.
	if utf8.Valid(page) && !hasMeta(page[:min(len(page), 1024)]) {
		return "utf-8", 0
	}
	enc, name, _ := charset.DetermineEncoding(page, "")
	switch {
	case name == "x-user-defined":
		return "windows-1252", 0 // as the standard's prescan says
	case enc == charmap.Windows1252 && utf8.Valid(page):
		// DetermineEncoding's guess, which is bare charmap.Windows1252;
		// a <meta> that names windows-1252 comes wrapped by
		// charset.Lookup.
		return "utf-8", 0
	}
	return name, 0
}

// hasMeta reports whether b holds "<meta" in any case, without which it
// has no <meta> tag.
func hasMeta(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			return false
		}
		b = b[i+1:]
		if len(b) >= 4 && bytes.EqualFold(b[:4], []byte("meta")) {
			return true
		}
	}
}

// Charset returns charset if the page reads otherwise with it than
// without it, and "": see [CharsetScanner].
func (*HTML) Charset(page []byte, charset string) string {
	if charset == "" {
		return ""
	}
	with, _ := sniff(page, charset)
	if without, _ := sniff(page, ""); with == without {
		return ""
	}
	return charset
}
