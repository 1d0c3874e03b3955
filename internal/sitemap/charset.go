package sitemap

import (
	"fmt"
	"io"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// sitemaps.org asks for UTF-8, but sitemaps declare other encodings,
// which XML parsers, peers' included, read: a sitemap is read in any
// encoding the WHATWG Encoding Standard names, as a browser reads a page
// (Latin-1 as windows-1252).

// charsetReader is the decoder's CharsetReader for a sitemap without a
// byte order mark: it reads one that declares UTF-8, by any of its names,
// as it is (the decoder checks that it is UTF-8 all the same), one that
// declares UTF-16, which a declaration read as ASCII belies, as a browser
// does, the same way, and one in another encoding converted to UTF-8, under
// the same limit on a tag or a text, [maxRun].
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("encoding %q", label)
	}
	switch name, _ := htmlindex.Name(enc); name {
	case "utf-8", "utf-16be", "utf-16le":
		return in, nil
	}
	// Checked again once decoded, as a byte may become three.
	return &runs{r: enc.NewDecoder().Reader(in)}, nil
}

// fromUTF16 reads in, UTF-16 whose byte order mark was read, big-endian
// or not, as UTF-8; a lone surrogate becomes U+FFFD.
func fromUTF16(in io.Reader, big bool) io.Reader {
	order := unicode.LittleEndian
	if big {
		order = unicode.BigEndian
	}
	return transform.NewReader(in, unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder())
}
