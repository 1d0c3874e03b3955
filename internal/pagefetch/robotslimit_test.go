package pagefetch_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// robotsLimit is the 500 KiB of a robots.txt that are parsed (RFC 9309
// §2.5), written out so that the test pins it.
const robotsLimit = 500 << 10

// robotsOfSize returns a robots.txt of exactly size bytes: head, then
// comment lines ended by eol, then tail, which ends the file.
func robotsOfSize(t *testing.T, head, eol, tail string, size int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(head)
	r := size - len(head) - len(tail) // bytes of comment lines to write
	for ; r > 160; r -= 80 {
		b.WriteString("#" + strings.Repeat("x", 79-len(eol)) + eol)
	}
	if r != 0 {
		if r < 1+len(eol) {
			t.Fatalf("robotsOfSize: no room for a comment line of %d bytes", r)
		}
		b.WriteString("#" + strings.Repeat("x", r-1-len(eol)) + eol)
	}
	b.WriteString(tail)
	if b.Len() != size {
		t.Fatalf("robotsOfSize made %d bytes, want %d", b.Len(), size)
	}
	return b.String()
}

// serveRobots returns a handler that serves body as a robots.txt, gzipped
// if gz is set, with a Content-Length if length is set and without one
// otherwise, as a chunked response has none.
func serveRobots(t *testing.T, body string, length, gz bool) http.HandlerFunc {
	t.Helper()
	data := []byte(body)
	if gz {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data = b.Bytes()
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if gz {
			w.Header().Set("Content-Encoding", "gzip")
		}
		if length {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		}
		w.Write(data)
	}
}

// TestRobotsLimit serves robots.txt files around the 500 KiB limit and
// checks which of their rules the fetcher obeys: all of a file no longer
// than the limit, and of a longer one every whole line within the limit,
// whatever ends its lines, but never a line that the limit cuts short.
func TestRobotsLimit(t *testing.T) {
	const L = robotsLimit
	tests := []struct {
		name string
		body func(t *testing.T) string
		gz   bool
		// allowed and disallowed are paths of pages on the host.
		allowed, disallowed []string
	}{
		{
			name: "exactly the limit, the last line without a line end",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\nDisallow: /first/\n", "\n", "Disallow: /last/", L)
			},
			allowed:    []string{"/other.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			name: "exactly the limit, CR only",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\rDisallow: /first/\r", "\r", "Disallow: /last/\r", L)
			},
			allowed:    []string{"/other.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			name: "exactly the limit, CRLF",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\r\nDisallow: /first/\r\n", "\r\n", "Disallow: /last/\r\n", L)
			},
			allowed:    []string{"/other.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			// Read whole, "Disallow: /lasso" would forbid "/lasso/";
			// cut at the limit, it would be "Disallow: /lass" and forbid
			// "/lass.html" too. Dropped, it forbids neither.
			name: "one byte over: the line cut by the limit is dropped",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\nDisallow: /first/\n", "\n", "Disallow: /kept/\nDisallow: /lasso", L+1)
			},
			allowed:    []string{"/lass.html", "/lasso/p.html"},
			disallowed: []string{"/first/p.html", "/kept/p.html"},
		},
		{
			name: "one byte over, and that byte ends the last line",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\nDisallow: /first/\n", "\n", "Disallow: /last/\n", L+1)
			},
			allowed:    []string{"/other.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			name: "one byte over, a CR",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\rDisallow: /first/\r", "\r", "Disallow: /last/\r", L+1)
			},
			allowed:    []string{"/other.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			name: "the limit between the CR and the LF",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\r\nDisallow: /first/\r\n", "\r\n", "Disallow: /last/\r\nDisallow: /late/\r\n", L+1+len("Disallow: /late/\r\n"))
			},
			allowed:    []string{"/other.html", "/late/p.html"},
			disallowed: []string{"/first/p.html", "/last/p.html"},
		},
		{
			// Issue 11: cutting after the last LF left nothing of a file
			// whose lines all end in CR, and so no rules at all.
			name: "CR only, far over the limit",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\rDisallow: /first/\r", "\r", "Disallow: /kept/\r", L-100) +
					strings.Repeat("# more\r", 10000) + "Disallow: /late/\r"
			},
			allowed:    []string{"/other.html", "/late/p.html"},
			disallowed: []string{"/first/p.html", "/kept/p.html"},
		},
		{
			name: "CRLF, far over the limit",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\r\nDisallow: /first/\r\n", "\r\n", "Disallow: /kept/\r\n", L-100) +
					strings.Repeat("# more\r\n", 10000) + "Disallow: /late/\r\n"
			},
			allowed:    []string{"/other.html", "/late/p.html"},
			disallowed: []string{"/first/p.html", "/kept/p.html"},
		},
		{
			name: "CR only, far over the limit, gzipped",
			body: func(t *testing.T) string {
				return robotsOfSize(t, "User-agent: *\rDisallow: /first/\r", "\r", "Disallow: /kept/\r", L-100) +
					strings.Repeat("# more\r", 10000) + "Disallow: /late/\r"
			},
			gz:         true,
			allowed:    []string{"/other.html", "/late/p.html"},
			disallowed: []string{"/first/p.html", "/kept/p.html"},
		},
		{
			// No line ends within the limit, so no rule can be read: the
			// file allows everything, and is not taken for a failure.
			name: "a first line longer than the limit",
			body: func(t *testing.T) string {
				return "#" + strings.Repeat("x", L+100) + "\nUser-agent: *\nDisallow: /\n"
			},
			allowed: []string{"/p.html", "/a/b.html"},
		},
		{
			name: "a first line longer than the limit, CR only",
			body: func(t *testing.T) string {
				return "User-agent: *" + strings.Repeat(" ", L) + "\rDisallow: /\r"
			},
			allowed: []string{"/p.html"},
		},
	}
	for _, tt := range tests {
		body := tt.body(t)
		for _, length := range []bool{true, false} {
			name := tt.name + ", no Content-Length"
			if length {
				name = tt.name + ", Content-Length"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s := newScript().on("/robots.txt", serveRobots(t, body, length, tt.gz))
				for _, p := range append(tt.allowed, tt.disallowed...) {
					s.on(p, page("<p>ok</p>"))
				}
				f := memFetcher(s, 0, 0)
				for _, p := range tt.allowed {
					if _, err := f.Fetch(t.Context(), base+p); err != nil {
						t.Errorf("Fetch(%q) error = %v, want the page", p, err)
					}
				}
				for _, p := range tt.disallowed {
					if _, err := f.Fetch(t.Context(), base+p); !errors.Is(err, pagefetch.ErrDisallowed) {
						t.Errorf("Fetch(%q) error = %v, want ErrDisallowed", p, err)
					}
				}
				if n := s.count("/robots.txt"); n != 1 {
					t.Errorf("robots.txt requested %d times, want once", n)
				}
			})
		}
	}
}
