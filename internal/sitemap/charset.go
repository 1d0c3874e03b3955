package sitemap

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// sitemaps.org asks for UTF-8, but sitemaps declare other encodings,
// which XML parsers, peers' included, read: those read here are the
// ones a sitemap of URLs is likely to be in, for which the standard
// library is enough.

// charsetReader is the decoder's CharsetReader: it reads a sitemap that
// declares ASCII, or UTF-8 by another name, as it is (the decoder checks
// that it is UTF-8 all the same), one that declares UTF-16, converted
// already by [fromUTF16], and one that declares Latin-1 as
// windows-1252, as browsers do.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf8", "us-ascii", "ascii", "utf-16", "utf-16be", "utf-16le", "utf16":
		return in, nil
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252":
		return &fromLatin1{r: bufio.NewReader(in)}, nil
	}
	return nil, fmt.Errorf("encoding %q", label)
}

// cp1252 is what windows-1252 makes of the bytes from 0x80 to 0x9f,
// which Latin-1 leaves to control characters.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8d, 'Ž', 0x8f,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9d, 'ž', 'Ÿ',
}

// fromLatin1 reads windows-1252 as UTF-8.
type fromLatin1 struct {
	r   *bufio.Reader
	buf []byte
}

func (l *fromLatin1) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		c, err := l.r.ReadByte()
		if err != nil {
			return 0, err
		}
		r := rune(c)
		if 0x80 <= c && c < 0xa0 {
			r = cp1252[c-0x80]
		}
		l.buf = utf8.AppendRune(l.buf[:0], r)
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// fromUTF16 reads UTF-16, big-endian or not, as UTF-8; a lone surrogate
// becomes U+FFFD, and an odd byte at the end is dropped.
type fromUTF16 struct {
	r   *bufio.Reader
	big bool
	buf []byte
}

func (u *fromUTF16) unit() (uint16, error) {
	var b [2]byte
	if _, err := io.ReadFull(u.r, b[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return 0, err
	}
	if u.big {
		return uint16(b[0])<<8 | uint16(b[1]), nil
	}
	return uint16(b[1])<<8 | uint16(b[0]), nil
}

func (u *fromUTF16) Read(p []byte) (int, error) {
	for len(u.buf) == 0 {
		c, err := u.unit()
		if err != nil {
			return 0, err
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
			if next, err := u.r.Peek(2); err == nil && 0xd800 <= c && c < 0xdc00 {
				lo := uint16(next[1])<<8 | uint16(next[0])
				if u.big {
					lo = uint16(next[0])<<8 | uint16(next[1])
				}
				if pair := utf16.DecodeRune(rune(c), rune(lo)); pair != utf8.RuneError {
					u.r.Discard(2)
					r = pair
				}
			}
		}
		u.buf = utf8.AppendRune(u.buf[:0], r)
	}
	n := copy(p, u.buf)
	u.buf = u.buf[n:]
	return n, nil
}
