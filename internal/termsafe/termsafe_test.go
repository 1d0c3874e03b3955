package termsafe_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"tse-crawler/internal/termsafe"
)

// escapeTests has a row for each class of byte the rules tell apart.
var escapeTests = []struct {
	name, in, want string
}{
	{"empty", "", ""},
	{"log line", " 1  Found: http://cs50tse.cs.dartmouth.edu/tse/letters/A.html\n",
		" 1  Found: http://cs50tse.cs.dartmouth.edu/tse/letters/A.html\n"},
	{"tab and newline kept", "a\tb\nc\n", "a\tb\nc\n"},
	{"space and tilde kept", " ~", " ~"},
	{"backslash kept", `http://h/\x1b\`, `http://h/\x1b\`},

	{"window title", "\x1b]0;title\x07", `\x1b]0;title\x07`},
	{"clear screen", "\x1b[2J", `\x1b[2J`},
	{"cursor up and erase", "a\x1b[1A\x1b[Kb", `a\x1b[1A\x1b[Kb`},
	{"ESC at the end", "http://h/\x1b", `http://h/\x1b`},
	{"BEL", "\a", `\x07`},
	{"BS", "abc\b\b\bxyz", `abc\x08\x08\x08xyz`},
	{"CR", "real\rfake\n", `real\x0dfake` + "\n"},
	{"CRLF", "line\r\n", `line\x0d` + "\n"},
	{"VT and FF", "\v\f", `\x0b\x0c`},
	{"NUL", "a\x00b", `a\x00b`},
	{"unit separator", "\x1f", `\x1f`},
	{"DEL", "\x7f", `\x7f`},

	{"C1 CSI in UTF-8", "\u009b2J", `\u009b2J`},
	{"C1 NEL in UTF-8", "a\u0085b", `a\u0085b`},
	{"first C1", "\u0080", `\u0080`},
	{"last C1", "\u009f", `\u009f`},
	{"NBSP after C1 kept", "\u00a0", "\u00a0"},

	{"lone 0x9b", "\x9b[2J", `\x9b[2J`},
	{"lone continuation bytes", "\x80\xbf", `\x80\xbf`},
	{"0xff", "a\xffb", `a\xffb`},
	{"overlong slash", "\xc0\xaf", `\xc0\xaf`},
	{"overlong C1", "\xc1\x9b", `\xc1\x9b`},
	{"surrogate", "\xed\xa0\x80", `\xed\xa0\x80`},
	{"above U+10FFFF", "\xf4\x90\x80\x80", `\xf4\x90\x80\x80`},
	{"truncated sequence inside", "\xe6\x97x", `\xe6\x97x`},
	{"truncated sequence at the end", "caf\xc3", `caf\xc3`},

	{"café", "http://h/café", "http://h/café"},
	{"日本", "http://h/日本/", "http://h/日本/"},
	{"emoji", "🙂", "🙂"},
	{"valid U+FFFD kept", "\ufffd", "\ufffd"},
	{"Arabic kept", "http://h/مرحبا", "http://h/مرحبا"},

	{"right-to-left override", "http://h/\u202egnp.exe", `http://h/\u202egnp.exe`},
	{"every bidi control", "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
		`\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069`},
	{"next to the bidi controls, kept", "\u061b\u200d\u2010\u2029\u2065\u206a", "\u061b\u200d\u2010\u2029\u2065\u206a"},
	{"bidi override cut short", "a\xe2\x80", `a\xe2\x80`},
	{"UTF-8 next to escapes", "é\x1bé\u0085日\x9b", `é\x1bé\u0085日\x9b`},
}

func TestEscape(t *testing.T) {
	t.Parallel()
	for _, tt := range escapeTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := termsafe.Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	t.Parallel()
	for _, tt := range escapeTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := writeAll(t, tt.in); got != tt.want {
				t.Errorf("Writer: %q becomes %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestEscapeAtEveryOffset puts one thing to escape at every offset of a
// long clean line, so that it falls at each place in the eight-byte words
// that the fast scan reads, and checks that only it changes.
func TestEscapeAtEveryOffset(t *testing.T) {
	t.Parallel()
	const line = "http://cs50tse.cs.dartmouth.edu/tse/letters/A.html\tcafé\n"
	for _, bad := range []struct{ in, want string }{
		{"\x1b", `\x1b`}, {"\x00", `\x00`}, {"\x1f", `\x1f`}, {"\x7f", `\x7f`},
		{"\r", `\x0d`}, {"\u009b", `\u009b`}, {"\x9b", `\x9b`}, {"\xff", `\xff`},
		{"\u202e", `\u202e`}, {"\u061c", `\u061c`},
	} {
		for i := 0; i <= len(line); i++ {
			if !utf8.RuneStart(line[min(i, len(line)-1)]) {
				continue // inside é
			}
			in := line[:i] + bad.in + line[i:]
			want := line[:i] + bad.want + line[i:]
			if got := termsafe.Escape(in); got != want {
				t.Errorf("Escape(%q) = %q, want %q", in, got, want)
			}
			if got := writeAll(t, in); got != want {
				t.Errorf("Writer: %q becomes %q, want %q", in, got, want)
			}
		}
	}
}

// writeAll writes the pieces through a Writer, one Write each, flushes it,
// and returns what came out.
func writeAll(t *testing.T, pieces ...string) string {
	t.Helper()
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	for _, p := range pieces {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v, want %d, nil", p, n, err, len(p))
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	return out.String()
}

// splitInputs mix every class, with multi-byte sequences (valid, C1 and
// invalid) at many offsets, so that the split tests cut each of them.
var splitInputs = []string{
	" 1  Found: http://h/café/日本/🙂\n 2   Added: http://h/\x1b]0;x\x07\n",
	"é\x1bé\u0085日\x9b\xe6\x97x\xc3\xa9\u009f\xf0\x9f\x99\x82\xf0\x9f\x99",
	"\xed\xa0\x80\xc0\xaf\u00a0\xc2\xe2\x82\xac\xe2\x82\n\t\r\x7f",
	"\xf0\x9f\x99\x82",
	"\xc2",
	"a\u202eb\u2066\u061c\u200f\xe2\x80\xe2\x81\xa9",
}

// TestWriterSplit checks that cutting the input into two or three Writes,
// at every point, gives the same output as one Write: a sequence cut by a
// bufio.Writer's flush must not be escaped, nor an escape be missed.
func TestWriterSplit(t *testing.T) {
	t.Parallel()
	for _, in := range splitInputs {
		want := termsafe.Escape(in)
		t.Run(fmt.Sprintf("%q", in), func(t *testing.T) {
			for i := 0; i <= len(in); i++ {
				if got := writeAll(t, in[:i], in[i:]); got != want {
					t.Errorf("cut at %d: %q, %q become %q, want %q", i, in[:i], in[i:], got, want)
				}
				for j := i; j <= len(in); j++ {
					if got := writeAll(t, in[:i], in[i:j], in[j:]); got != want {
						t.Errorf("cut at %d and %d: %q becomes %q, want %q", i, j, in, got, want)
					}
				}
			}
			pieces := strings.Split(in, "") // one piece per code point or invalid byte
			var bytewise []string
			for i := range len(in) {
				bytewise = append(bytewise, in[i:i+1])
			}
			for name, p := range map[string][]string{"runes": pieces, "bytes": bytewise} {
				if got := writeAll(t, p...); got != want {
					t.Errorf("one Write per %s: %q becomes %q, want %q", name, in, got, want)
				}
			}
		})
	}
}

// TestWriterHoldsBack checks what reaches the underlying writer at each
// Write: the start of a sequence waits for the next Write, and Flush
// escapes it when none comes.
func TestWriterHoldsBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		writes []string
		after  []string // what the underlying writer has after each Write
		flush  string   // and after Flush
	}{
		{"sequence completed", []string{"caf\xc3", "\xa9\n"}, []string{"caf", "café\n"}, "café\n"},
		{"four bytes in four writes", []string{"\xf0", "\x9f", "\x99", "\x82"},
			[]string{"", "", "", "🙂"}, "🙂"},
		{"sequence broken by the next write", []string{"a\xe6\x97", "x"}, []string{"a", `a\xe6\x97x`}, `a\xe6\x97x`},
		{"sequence left at the end", []string{"a\xe6\x97"}, []string{"a"}, `a\xe6\x97`},
		{"C1 split", []string{"\xc2", "\x9b["}, []string{"", `\u009b[`}, `\u009b[`},
		{"bidi override split", []string{"a\xe2\x80", "\xaeb"}, []string{"a", `a\u202eb`}, `a\u202eb`},
		{"invalid byte not held", []string{"a\x9b"}, []string{`a\x9b`}, `a\x9b`},
		{"invalid prefix not held", []string{"\xed\xa0"}, []string{`\xed\xa0`}, `\xed\xa0`},
		{"escape then held", []string{"\x1b\xe6"}, []string{`\x1b`}, `\x1b\xe6`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := termsafe.NewWriter(&out)
			for i, p := range tt.writes {
				if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
					t.Fatalf("Write(%q) = %d, %v, want %d, nil", p, n, err, len(p))
				}
				if got := out.String(); got != tt.after[i] {
					t.Errorf("after Write(%q): %q, want %q", p, got, tt.after[i])
				}
			}
			for range 2 { // a second Flush has nothing left to write
				if err := w.Flush(); err != nil {
					t.Fatalf("Flush: %v", err)
				}
				if got := out.String(); got != tt.flush {
					t.Errorf("after Flush: %q, want %q", got, tt.flush)
				}
			}
		})
	}
}

// countingWriter counts the Writes it is given.
type countingWriter struct {
	writes int
	buf    bytes.Buffer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.buf.Write(p)
}

// TestWriterOneWrite checks that each Write is passed on in a single
// Write, which progress.Line relies on to keep a message whole, and that an
// empty Write or one that only holds back passes nothing on.
func TestWriterOneWrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		writes int
	}{
		{"", 0},
		{"\xe6", 0},
		{"clean\n", 1},
		{"clean, then the start of a sequence \xe6", 1},
		{"\x1b[2J and \u009b and \x9b, many escapes\n", 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			var c countingWriter
			termsafe.NewWriter(&c).Write([]byte(tt.in))
			if c.writes != tt.writes {
				t.Errorf("Write(%q) made %d Writes, want %d", tt.in, c.writes, tt.writes)
			}
		})
	}
}

// failingWriter accepts up to room bytes, then fails with err.
type failingWriter struct {
	room int
	err  error
	buf  bytes.Buffer
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= f.room {
		f.room -= len(p)
		return f.buf.Write(p)
	}
	n, _ := f.buf.Write(p[:f.room])
	f.room = 0
	return n, f.err
}

// shortWriter writes one byte less than asked and reports no error, which
// breaks the io.Writer contract.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return max(len(p)-1, 0), nil }

// TestWriterError checks that the underlying writer's error comes back,
// with the number of bytes of p that made it out whole.
func TestWriterError(t *testing.T) {
	t.Parallel()
	errDisk := errors.New("disk full")
	tests := []struct {
		name  string
		room  int // bytes the underlying writer takes before failing
		in    string
		wantN int
	}{
		{"clean, nothing written", 0, "abc", 0},
		{"clean, part written", 2, "abc", 2},
		{"clean, held tail not reached", 1, "abc\xe6", 1},
		{"escape not written whole", 3, "a\x1b", 1}, // `a\x` of `a\x1b`
		{"escape written whole", 5, "a\x1bb", 2},    // `a\x1b` of `a\x1bb`
		{"C1 not written whole", 5, "\u0085", 0},
		{"multi-byte kept whole", 3, "日\x1b", 3},
		{"part of a multi-byte rune", 2, "日\x1b", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &failingWriter{room: tt.room, err: errDisk}
			n, err := termsafe.NewWriter(f).Write([]byte(tt.in))
			if n != tt.wantN || !errors.Is(err, errDisk) {
				t.Errorf("Write(%q) with room for %d = %d, %v, want %d, %v", tt.in, tt.room, n, err, tt.wantN, errDisk)
			}
		})
	}

	t.Run("Flush", func(t *testing.T) {
		f := &failingWriter{room: 1, err: errDisk}
		w := termsafe.NewWriter(f)
		if n, err := w.Write([]byte("a\xe6")); n != 2 || err != nil {
			t.Fatalf(`Write("a\xe6") = %d, %v, want 2, nil`, n, err)
		}
		if err := w.Flush(); !errors.Is(err, errDisk) {
			t.Errorf("Flush = %v, want %v", err, errDisk)
		}
	})

	t.Run("short write without an error", func(t *testing.T) {
		w := termsafe.NewWriter(shortWriter{})
		if n, err := w.Write([]byte("abc")); n != 2 || !errors.Is(err, io.ErrShortWrite) {
			t.Errorf(`Write("abc") = %d, %v, want 2, %v`, n, err, io.ErrShortWrite)
		}
		if n, err := w.Write([]byte("\x1b")); n != 0 || !errors.Is(err, io.ErrShortWrite) {
			t.Errorf(`Write("\x1b") = %d, %v, want 0, %v`, n, err, io.ErrShortWrite)
		}
		w.Write([]byte("\xe6"))
		if err := w.Flush(); !errors.Is(err, io.ErrShortWrite) {
			t.Errorf("Flush = %v, want %v", err, io.ErrShortWrite)
		}
	})
}

// TestWriterAllocs guards the fast path: the crawler's log passes through
// the Writer line by line, and almost every line has nothing to escape.
func TestWriterAllocs(t *testing.T) {
	w := termsafe.NewWriter(io.Discard)
	tests := []struct {
		name string
		in   []byte
	}{
		{"ASCII log", []byte(" 1  Found: http://cs50tse.cs.dartmouth.edu/tse/letters/A.html\n")},
		{"UTF-8 log", []byte(" 2   Added: http://h/café/日本\n")},
		{"held tail", []byte("http://h/caf\xc3")},
		{"escaped, buffer reused", []byte("http://h/\x1b]0;x\x07\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.Write(tt.in) // the first escape grows the reused buffer
			if n := testing.AllocsPerRun(100, func() { w.Write(tt.in) }); n != 0 {
				t.Errorf("Write(%q): %v allocations, want 0", tt.in, n)
			}
		})
	}
	t.Run("Escape", func(t *testing.T) {
		s := "http://h/café/日本"
		if n := testing.AllocsPerRun(100, func() { termsafe.Escape(s) }); n != 0 {
			t.Errorf("Escape(%q): %v allocations, want 0", s, n)
		}
	})
}

// TestWriterConcurrent writes from several goroutines, for the race
// detector, and checks that each Write came out whole.
func TestWriterConcurrent(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	const lines = 100
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range lines {
				fmt.Fprintf(w, "goroutine %d line %d \x1b[2J é\n", g, i)
			}
		})
	}
	wg.Wait()
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != 4*lines {
		t.Fatalf("%d lines, want %d", len(got), 4*lines)
	}
	for _, l := range got {
		if !strings.HasSuffix(l, ` \x1b[2J é`) {
			t.Errorf("line %q is not whole", l)
		}
	}
}

// clean reports whether s passes through unchanged under the package's
// rules, written independently of the package's code.
func clean(s []byte) bool {
	if !utf8.Valid(s) {
		return false
	}
	for _, r := range string(s) {
		if r < ' ' && r != '\n' && r != '\t' || r == 0x7f || 0x80 <= r && r <= 0x9f || unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
	}
	return true
}

// FuzzWriter writes data in three pieces, cut at two points the fuzzer
// picks, and checks that the output is what Escape makes of the whole, that
// nothing in it can control a terminal, and that text with nothing to
// escape comes out unchanged.
func FuzzWriter(f *testing.F) {
	for _, tt := range escapeTests {
		f.Add([]byte(tt.in), uint16(0), uint16(0))
	}
	for _, s := range splitInputs {
		f.Add([]byte(s), uint16(3), uint16(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut1, cut2 uint16) {
		i := int(cut1) % (len(data) + 1)
		j := i + int(cut2)%(len(data)-i+1)
		var out bytes.Buffer
		w := termsafe.NewWriter(&out)
		for _, p := range [][]byte{data[:i], data[i:j], data[j:]} {
			if n, err := w.Write(p); n != len(p) || err != nil {
				t.Fatalf("Write(%q) = %d, %v, want %d, nil", p, n, err, len(p))
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got := out.Bytes()

		if want := termsafe.Escape(string(data)); string(got) != want {
			t.Fatalf("%q cut at %d and %d becomes %q; Escape gives %q", data, i, j, got, want)
		}
		if !clean(got) {
			t.Fatalf("%q becomes %q, which still holds controls or invalid UTF-8", data, got)
		}
		if clean(data) && !bytes.Equal(got, data) {
			t.Fatalf("%q has nothing to escape, but becomes %q", data, got)
		}
		if again := termsafe.Escape(string(got)); again != string(got) {
			t.Fatalf("not idempotent: %q -> %q -> %q", data, got, again)
		}
	})
}

// benchLog is a typical stretch of the crawler's log: the CS50 site's
// letters, with nothing to escape.
var benchLog = func() []byte {
	var b bytes.Buffer
	for i := range 200 {
		l := 'A' + i%26
		fmt.Fprintf(&b, " 1  Found: http://cs50tse.cs.dartmouth.edu/tse/letters/%c.html\n", l)
		fmt.Fprintf(&b, " 1  Added: http://cs50tse.cs.dartmouth.edu/tse/letters/%c.html\n", l)
		fmt.Fprintf(&b, " 2   Fetched: http://cs50tse.cs.dartmouth.edu/tse/letters/%c.html\n", l)
	}
	return b.Bytes()
}()

// BenchmarkWriter writes the log in the 16 KiB pieces of the crawler's
// bufio.Writer, and in single lines.
func BenchmarkWriter(b *testing.B) {
	line := []byte(" 1  Found: http://cs50tse.cs.dartmouth.edu/tse/letters/A.html\n")
	utf := bytes.ReplaceAll(benchLog, []byte("letters"), []byte("lettres-été"))
	dirty := bytes.ReplaceAll(benchLog, []byte("letters"), []byte("\x1b[2J"))
	for _, bb := range []struct {
		name string
		p    []byte
	}{
		{"line", line},
		{"log", benchLog},
		{"UTF-8 log", utf},
		{"escaped log", dirty},
	} {
		b.Run(bb.name, func(b *testing.B) {
			w := termsafe.NewWriter(io.Discard)
			b.SetBytes(int64(len(bb.p)))
			b.ReportAllocs()
			for b.Loop() {
				w.Write(bb.p)
			}
		})
	}
}

func BenchmarkEscape(b *testing.B) {
	for _, s := range []string{
		"http://cs50tse.cs.dartmouth.edu/tse/letters/A.html",
		"http://cs50tse.cs.dartmouth.edu/tse/\x1b]0;title\x07",
	} {
		b.Run(fmt.Sprintf("%q", s), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				termsafe.Escape(s)
			}
		})
	}
}

func ExampleWriter() {
	w := termsafe.NewWriter(os.Stdout)
	fmt.Fprintf(w, " 1  Found: %s\n", "http://h/日本\r\x1b[2K")
	w.Flush()
	// Output:  1  Found: http://h/日本\x0d\x1b[2K
}
