package warc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// dechunked is dechunk of the whole of b, with the data it gives.
func dechunked(b []byte) (data []byte, m message) {
	var buf bytes.Buffer
	m = dechunk(bytes.NewReader(b), 0, &buf)
	return buf.Bytes(), m
}

func TestDechunk(t *testing.T) {
	const bad = "\x00malformed"
	tests := []struct {
		name, in, want string
		truncated      bool
		after          string // what follows the message, if it is whole
	}{
		{"one chunk", "5\r\nhello\r\n0\r\n\r\n", "hello", false, ""},
		{"two chunks", "5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n", "hello, world", false, ""},
		{"no chunk", "0\r\n\r\n", "", false, ""},
		{"upper-case hex", "A\r\n0123456789\r\n0\r\n\r\n", "0123456789", false, ""},
		{"leading zeros", "0005\r\nhello\r\n000\r\n\r\n", "hello", false, ""},
		{"extensions", "5;a=b;c=\"d;e\"\r\nhello\r\n0;last\r\n\r\n", "hello", false, ""},
		// RFC 9112 allows it, but net/http does not.
		{"whitespace before an extension", "5 ;a=b\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"whitespace after the size", "5 \t\r\nhello\r\n0\r\n\r\n", "hello", false, ""},
		{"trailer fields", "5\r\nhello\r\n0\r\nA: b\r\nC: d\r\n\r\n", "hello", false, ""},
		{"CRLF in the data", "4\r\n\r\n\r\n\r\n0\r\n\r\n", "\r\n\r\n", false, ""},
		{"bytes after the end", "5\r\nhello\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n", "hello", false, "HTTP/1.1 200 OK\r\n"},
		{"bytes after a trailer", "5\r\nhello\r\n0\r\nA: b\r\n\r\nextra", "hello", false, "extra"},
		{"bytes after an end of bare LFs", "5\r\nhello\r\n0\r\nA: b\n\nextra", "hello", false, "extra"},
		{"16 hex digits", "0000000000000005\r\nhello\r\n0\r\n\r\n", "hello", false, ""},
		{"17 hex digits", "00000000000000005\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"huge chunk", "ffffffffffffffff\r\nhello", "hello", true, ""},
		{"empty size", "\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"not hex", "5x\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"negative", "-5\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"bare LF after the size", "5\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"bare LF after the data", "5\r\nhello\n0\r\n\r\n", bad, false, ""},
		{"CR inside the size line", "5\r;a\r\nhello\r\n0\r\n\r\n", bad, false, ""},
		{"CR inside a size line cut short", "5\r;a", bad, false, ""},
		{"data longer than its size", "5\r\nhello!\r\n0\r\n\r\n", bad, false, ""},
		{"empty", "", "", true, ""},
		{"cut in the size", "1", "", true, ""},
		{"cut before the LF of the size", "5\r", "", true, ""},
		{"cut in the data", "5\r\nhel", "hel", true, ""},
		{"cut before the CR after the data", "5\r\nhello", "hello", true, ""},
		{"cut before the LF after the data", "5\r\nhello\r", "hello", true, ""},
		{"cut after the last chunk", "5\r\nhello\r\n0\r\n", "hello", true, ""},
		{"cut in the trailer", "5\r\nhello\r\n0\r\nA: b\r\n", "hello", true, ""},
		{"cut in the last CRLF", "5\r\nhello\r\n0\r\n\r", "hello", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, p := dechunked([]byte(tt.in))
			switch {
			case tt.want == bad && p.known:
				t.Errorf("dechunk(%q) = %q, want it malformed", tt.in, data)
			case tt.want != bad && (!p.known || string(data) != tt.want || p.truncated != tt.truncated):
				t.Errorf("dechunk(%q) = %q, known %v, truncated %v, want %q, truncated %v",
					tt.in, data, p.known, p.truncated, tt.want, tt.truncated)
			case p.end > int64(len(tt.in)) || p.known && p.chunkedSize != int64(len(data)):
				t.Errorf("dechunk(%q) ends at %d and counts %d bytes of data, for %q", tt.in, p.end, p.chunkedSize, data)
			case tt.want != bad && !tt.truncated && tt.in[p.end:] != tt.after:
				t.Errorf("dechunk(%q) leaves %q after the message, want %q", tt.in, tt.in[p.end:], tt.after)
			case (tt.want == bad || tt.truncated) && p.end != int64(len(tt.in)):
				t.Errorf("dechunk(%q), malformed or cut short, ends at %d, want the end, %d", tt.in, p.end, len(tt.in))
			}
		})
	}
}

const chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

// FuzzDechunk compares dechunk with net/http's own chunked reader, which
// the crawler's client reads with, and which was written apart from it.
// Where net/http reads a body whole, dechunk must give the same body, and
// where net/http finds it cut short, the same data before the cut. They
// may differ on what net/http refuses for its own reasons: a line longer
// than 4 kB, too many bytes of extensions, a trailer it cannot parse.
func FuzzDechunk(f *testing.F) {
	for _, s := range []string{
		"5\r\nhello\r\n0\r\n\r\n",
		"5;a=b\r\nhello\r\n7 \r\n, world\r\n0\r\nX: y\r\n\r\n",
		"5\r\nhel",
		"5\nhello\n0\n\n",
		"0\r\n\r\n",
		"zz\r\n",
		"10000000000000000\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		data, p := dechunked(b)
		if p.known && len(data) > len(b) {
			t.Fatalf("dechunk(%q) = %d bytes, more than it was given", b, len(data))
		}
		body, known, truncated := httpPayload(append([]byte(chunkedHead), b...), "GET")
		switch {
		case !known:
			return // refused by net/http
		case !truncated && (!p.known || p.truncated || !bytes.Equal(data, body)):
			t.Fatalf("dechunk(%q) = %q, known %v, truncated %v; net/http reads %q", b, data, p.known, p.truncated, body)
		case truncated && p.known && !bytes.Equal(data, body):
			t.Fatalf("dechunk(%q) = %q, truncated %v; net/http reads %q, cut short", b, data, p.truncated, body)
		}
	})
}

// FuzzChunked codes a body in chunks of the sizes given, with an extension
// and a trailer, and checks that dechunk gives the body back, and that
// every cut leaves a prefix of it, truncated.
func FuzzChunked(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{5, 7}, "a=b", "X: y", 3)
	f.Add([]byte(""), []byte{}, "", "", 0)
	f.Add([]byte("\r\n0\r\n\r\n"), []byte{1, 1, 1}, "", "", 2)
	f.Fuzz(func(t *testing.T, body, sizes []byte, ext, trailer string, cut int) {
		if strings.ContainsAny(ext+trailer, "\r\n") {
			return
		}
		var b bytes.Buffer
		rest := body
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(sizes) && sizes[i] > 0 {
				n = min(n, int(sizes[i]))
			}
			fmt.Fprintf(&b, "%x", n)
			if ext != "" {
				b.WriteString(";" + ext)
			}
			b.WriteString("\r\n")
			b.Write(rest[:n])
			b.WriteString("\r\n")
			rest = rest[n:]
		}
		b.WriteString("0\r\n")
		if trailer != "" {
			b.WriteString(trailer + "\r\n")
		}
		b.WriteString("\r\n")
		coded := b.Bytes()

		if data, p := dechunked(coded); !p.known || p.truncated || !bytes.Equal(data, body) || p.end != int64(len(coded)) {
			t.Fatalf("dechunk(%q) = %q, known %v, truncated %v, ends at %d, want %q to the end", coded, data, p.known, p.truncated, p.end, body)
		}
		cut = int(uint(cut) % uint(len(coded)))
		data, p := dechunked(coded[:cut])
		if !p.known || !p.truncated || !bytes.HasPrefix(body, data) {
			t.Fatalf("dechunk(%q), cut short = %q, known %v, truncated %v, want a prefix of %q",
				coded[:cut], data, p.known, p.truncated, body)
		}
	})
}
