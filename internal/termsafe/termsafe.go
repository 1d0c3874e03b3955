// Package termsafe makes text from untrusted sources safe to show on a
// terminal, by replacing the bytes a terminal would obey with visible
// escapes.
//
// A crawler prints URLs taken from web pages, and status lines and
// robots.txt text sent by servers. A page can put ESC, BEL, CR or C1
// control codes in a link, and a terminal that received them raw would let
// the page move the cursor, erase lines, hide the lines before it, or set
// the window title; a right-to-left override in a link would make it read
// backwards. The rules of [Writer]:
//
//   - newline and tab, and valid UTF-8 that is neither a control code nor a
//     bidirectional control, are kept as they are, so URLs with accented
//     letters, CJK or Arabic stay readable;
//   - every other C0 byte (0x00–0x1f) and DEL (0x7f) becomes \xHH, as in
//     \x1b for ESC;
//   - every C1 control code point (U+0080–U+009F, two bytes C2 80 to C2 9F
//     in UTF-8) becomes \u00HH, as in \u009b;
//   - every byte that is not part of valid UTF-8 becomes \xHH, as in \x9b
//     for a lone 0x9b, which some terminals read as CSI;
//   - every bidirectional control code point (the marks and overrides of
//     Unicode's Bidi_Control: U+061C, U+200E, U+200F, U+202A–U+202E and
//     U+2066–U+2069) becomes \uHHHH, as in \u202e: a terminal that lays
//     out right-to-left text would let one reorder what follows it, so
//     that a URL reads as another.
//
// The escapes are those of Go's [strconv.Quote], lower-case hex included,
// so a raw byte (\x9b) and a code point (\u009b) read differently. A
// backslash is not escaped: the point is a safe screen, not a reversible
// encoding, and doubling backslashes would change lines that hold no
// control at all (and cost the pass-through of clean text). A URL that
// literally contains the four characters \x1b thus looks like an escaped
// ESC; whoever needs the exact bytes reads the output redirected to a file,
// where the crawler does not escape its log.
package termsafe

import (
	"io"
	"sync"
	"unicode/utf8"
)

// A Writer escapes the terminal controls in what is written to it (see the
// package comment for the rules) and passes the result on to another
// writer.
//
// Each Write reaches the underlying writer in at most one Write, so a writer
// that keeps each of its writes whole (such as a live status line that must
// not be drawn in the middle of a message) still can. Text with nothing to
// escape is passed on as it is, without a copy.
//
// A multi-byte UTF-8 sequence may be split across Writes, as a
// [bufio.Writer] does when its buffer fills: a Write that ends with the
// first bytes of a sequence that may still be valid holds them back, and
// the next Write completes or escapes them. [Writer.Flush] escapes bytes
// still held back when no more Writes will come.
//
// A Writer is safe for concurrent use; it calls the underlying writer from
// one goroutine at a time.
type Writer struct {
	w io.Writer

	mu    sync.Mutex
	tail  [utf8.UTFMax - 1]byte // start of a sequence that the next Write may complete
	ntail int
	in    []byte // tail and p joined, reused across Writes
	out   []byte // escaped text, reused across Writes
}

// NewWriter returns a Writer that writes escaped text to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// Write writes p to the underlying writer, escaped. It returns len(p) on
// success, as an [io.Writer] must, even though it may write more bytes
// than that (escapes), or fewer (bytes held back for the next Write).
//
// If the underlying writer fails, Write returns its error and the number
// of bytes of p whose escaped form was written in full; bytes held back
// from an earlier Write are then dropped.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if w.ntail == 0 {
		// The common case, in one scan: nothing to escape, except perhaps
		// the start of a sequence at the end, where a bufio.Writer flushed.
		n := cleanPrefix(p)
		if n == len(p) {
			return w.write(p) // the bytes out are the bytes in: n is exact
		}
		if !utf8.FullRune(p[n:]) {
			if n > 0 {
				if m, err := w.write(p[:n]); err != nil {
					return m, err
				}
			}
			w.ntail = copy(w.tail[:], p[n:])
			return len(p), nil
		}
	}

	// Escape the tail held back and p as one text, so that a sequence
	// split between them decodes as it would have unsplit. Joining costs a
	// copy of p, but only after a Write that split a sequence.
	in, held := p, w.ntail
	if held > 0 {
		w.in = append(append(w.in[:0], w.tail[:held]...), p...)
		in = w.in
	}
	out, used := appendEscaped(w.out[:0], in, false)
	w.out = out
	w.ntail = copy(w.tail[:], in[used:])
	m, err := w.write(out)
	if m < len(out) {
		w.ntail = 0 // the stream is broken; do not write after the gap
		return max(inputFor(in, m)-held, 0), err
	}
	return len(p), err
}

// Flush writes, escaped, the bytes held back at the end of the last Write
// because they were the start of a UTF-8 sequence: with no more Writes to
// complete it, the sequence is invalid. Flush does nothing when nothing is
// held back, which is always the case after a Write that ended with a
// newline or with ASCII text. It returns the underlying writer's error.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ntail == 0 {
		return nil
	}
	out, _ := appendEscaped(w.out[:0], w.tail[:w.ntail], true)
	w.out = out
	w.ntail = 0
	_, err := w.write(out)
	return err
}

// write writes b to the underlying writer, and makes a short write
// without an error into one. w.mu is held.
func (w *Writer) write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	return n, err
}

// passes holds, for each ASCII byte, whether it is shown as it is. Bytes
// from 0x80 up are the start or the middle of a UTF-8 sequence and are
// decoded instead.
var passes = func() (t [utf8.RuneSelf]bool) {
	for b := ' '; b < 0x7f; b++ {
		t[b] = true
	}
	t['\n'], t['\t'] = true, true
	return t
}()

// cleanPrefix returns the length of the longest prefix of s that needs no
// escape and ends between two whole code points.
func cleanPrefix[S []byte | string](s S) int {
	i := 0
	for i < len(s) {
		// Eight bytes at a time while they are all printable ASCII, which
		// is nearly all of a log; a word with a newline, a tab or anything
		// else is looked at byte by byte below.
		for i+8 <= len(s) && printable8(load64(s[i:])) {
			i += 8
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if !passes[c] {
				return i
			}
			i++
			continue
		}
		r, size := decode(s[i:])
		if r == utf8.RuneError && size == 1 || isC1(r) || isBidi(r) {
			return i
		}
		i += size
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// printable8 reports whether the eight bytes of x are all printable ASCII,
// 0x20 to 0x7e, with the tests of "Bit Twiddling Hacks" for a byte with
// the high bit set, a byte below 0x20 and a byte equal to 0x7f. Each test
// may misreport a byte only after a byte that it rightly reports, so the
// answer for the whole word is exact.
func printable8(x uint64) bool {
	below := (x - 0x20*ones) &^ x
	y := x ^ 0x7f*ones
	del := (y - ones) &^ y
	return (x|below|del)&highs == 0
}

// load64 returns the first eight bytes of s as a little-endian integer;
// the compiler turns it into a single load.
func load64[S []byte | string](s S) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// appendEscaped appends s, escaped, to dst, and returns the result and the
// number of bytes of s used. Unless final, it stops before an incomplete
// UTF-8 sequence at the end of s, which a later write may complete.
func appendEscaped[S []byte | string](dst []byte, s S, final bool) ([]byte, int) {
	const hex = "0123456789abcdef"
	i := 0
	for i < len(s) {
		// Copy what needs no escape in one piece, so that a long text
		// with a few controls costs little more than a clean one.
		n := cleanPrefix(s[i:])
		dst = append(dst, s[i:i+n]...)
		if i += n; i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf && !final && !fullRune(s[i:]) {
			return dst, i
		}
		// cleanPrefix stopped at a control byte, an invalid byte, a C1
		// code point or a bidirectional control.
		if r, size := decode(s[i:]); isC1(r) || isBidi(r) {
			dst = append(dst, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			i += size
			continue
		}
		dst = append(dst, '\\', 'x', hex[c>>4], hex[c&0xf])
		i++
	}
	return dst, i
}

// inputFor returns how many bytes of in have their escaped form entirely
// within the first n bytes that appendEscaped(nil, in, false) returns: the
// bytes of in written when a write of the escaped text stops after n
// bytes. It runs only after a write failed, so it may be slow.
func inputFor(in []byte, n int) int {
	i, out := 0, 0
	for i < len(in) {
		size := 1
		if in[i] >= utf8.RuneSelf {
			if !utf8.FullRune(in[i:]) {
				break // held back, never written
			}
			_, size = utf8.DecodeRune(in[i:])
		}
		esc, _ := appendEscaped(nil, in[i:i+size], true)
		if out+len(esc) > n {
			break
		}
		out += len(esc)
		i += size
	}
	return i
}

// isC1 reports whether r is a C1 control code, which some terminals obey
// when it comes encoded in UTF-8.
func isC1(r rune) bool { return 0x80 <= r && r <= 0x9f }

// isBidi reports whether r is a bidirectional control (Unicode's
// Bidi_Control), which reorders the text around it where a terminal
// lays out right-to-left scripts. It is unicode.Is(unicode.Bidi_Control,
// r), spelt out for the hot path.
func isBidi(r rune) bool {
	return r == 0x061c || 0x200e <= r && r <= 0x200f || 0x202a <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069
}

// decode is utf8.DecodeRune for either kind of text.
func decode[S []byte | string](s S) (rune, int) {
	switch s := any(s).(type) {
	case []byte:
		return utf8.DecodeRune(s)
	case string:
		return utf8.DecodeRuneInString(s)
	}
	panic("unreachable")
}

// fullRune is utf8.FullRune for either kind of text.
func fullRune[S []byte | string](s S) bool {
	switch s := any(s).(type) {
	case []byte:
		return utf8.FullRune(s)
	case string:
		return utf8.FullRuneInString(s)
	}
	panic("unreachable")
}
