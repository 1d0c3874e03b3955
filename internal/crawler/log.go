package crawler

import (
	"bufio"
	"strconv"
)

// A logWriter writes progress lines in the reference crawler's format,
// C's printf("%2d %*s%9s: %s\n", depth, depth, "", word, url): the depth
// in two columns, a space, one more space per level of depth, the word
// right-aligned in nine columns, a colon, a space and the URL.
//
// Write errors are remembered and reported by flush, so that a log line
// never needs its own error check.
type logWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
	off bool // no log at all (-q): nothing is even formatted
}

func (l *logWriter) line(depth int, word, url string) {
	if l.off {
		return
	}
	l.buf = appendLine(l.buf[:0], depth, word, url)
	if _, err := l.w.Write(l.buf); err != nil && l.err == nil {
		l.err = err
	}
}

func (l *logWriter) flush() error {
	if l.off {
		return nil
	}
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
	return l.err
}

// appendLine appends one log line to b.
func appendLine(b []byte, depth int, word, url string) []byte {
	b = appendPadded(b, strconv.Itoa(depth), 2)
	for range depth + 1 {
		b = append(b, ' ')
	}
	b = appendPadded(b, word, 9)
	b = append(b, ": "...)
	b = append(b, url...)
	return append(b, '\n')
}

// appendPadded appends s right-aligned in a field of the given width, as
// printf's %*s does: a longer s is never cut.
func appendPadded(b []byte, s string, width int) []byte {
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}
