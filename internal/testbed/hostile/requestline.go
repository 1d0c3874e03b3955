package hostile

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// A crawler that sends a link as it found it may put a raw space in the
// request target: "GET /tse/raw/q.html?x y HTTP/1.1". nginx takes every
// space before the final " HTTP/" as part of the target; net/http ends the
// target at the first space and answers 400, so a server built on it would
// never see the request. The server plays nginx here: each connection it
// accepts is a lenientConn, which percent-encodes the inner spaces of every
// request line before net/http reads it, and keeps the target as it came,
// for the request's record.

// lenientListener accepts lenientConns.
type lenientListener struct{ net.Listener }

func (l lenientListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lenientConn{Conn: c, in: bufio.NewReaderSize(c, maxRequestLine)}, nil
}

// maxRequestLine bounds the request line a lenientConn rewrites; a longer
// one goes through as it is. nginx refuses one longer than 8 KiB, its
// large_client_header_buffers, with 414.
const maxRequestLine = 8 << 10

// A lenientConn is a connection whose request lines are made readable to
// net/http. Requests are taken to have no body, as a crawler's have none:
// the line after a blank line is a request line.
type lenientConn struct {
	net.Conn
	in   *bufio.Reader
	line []byte // the part of a line read so far
	out  []byte // what Read hands on next
	long bool   // in a line too long to rewrite, passed on as it comes
	head bool   // in a request's header fields, past its request line

	mu      sync.Mutex
	targets []string // the targets of the request lines read, as sent, in order, not yet claimed
}

func (c *lenientConn) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		chunk, err := c.in.ReadSlice('\n')
		if c.long {
			c.out = chunk
			if bytes.HasSuffix(chunk, []byte("\n")) {
				c.long, c.head = false, true
			}
		} else {
			// A partial line is kept, through the deadline net/http sets
			// to cut a background read short, until the rest comes.
			c.line = append(c.line, chunk...)
			switch {
			case err == nil:
				c.out, c.line = c.endLine(c.line), nil
			case len(c.line) >= maxRequestLine:
				c.out, c.line, c.long = c.line, nil, true
			}
		}
		if len(c.out) == 0 && err != nil {
			return 0, err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// endLine returns a whole line as net/http is to read it.
func (c *lenientConn) endLine(line []byte) []byte {
	blank := len(bytes.TrimRight(line, "\r\n")) == 0
	switch {
	case c.head:
		c.head = !blank // a blank line ends the header
		return line
	case blank:
		return line // before a request line, as a client may send
	}
	c.head = true
	method, rest, _ := bytes.Cut(line, []byte(" "))
	last := bytes.LastIndexByte(rest, ' ')
	if last < 0 || !bytes.HasPrefix(rest[last+1:], []byte("HTTP/")) {
		return line // not a request line net/http can read; let it say so
	}
	target := rest[:last]
	c.mu.Lock()
	c.targets = append(c.targets, string(target))
	c.mu.Unlock()
	return slices.Concat(method, []byte(" "), bytes.ReplaceAll(target, []byte(" "), []byte("%20")), rest[last:])
}

// claim returns the target of the request whose RequestURI is uri, as it
// was sent. Requests net/http answered without the handler are skipped;
// uri itself is returned if no request line matches.
func (c *lenientConn) claim(uri string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.targets) > 0 {
		t := c.targets[0]
		c.targets = c.targets[1:]
		if strings.ReplaceAll(t, " ", "%20") == uri {
			return t
		}
	}
	return uri
}

// sentTarget returns the target of r as the client sent it, which the
// connection it came on kept.
func (s *Server) sentTarget(r *http.Request) string {
	s.mu.Lock()
	c := s.lenient[r.RemoteAddr]
	s.mu.Unlock()
	if c == nil {
		return r.RequestURI
	}
	return c.claim(r.RequestURI)
}

// splitTarget returns the path and the query of a request target in
// origin form ("/a?q") or absolute form ("http://host/a?q"), as they are.
func splitTarget(target string) (path, query string) {
	if !strings.HasPrefix(target, "/") {
		if _, rest, ok := strings.Cut(target, "://"); ok {
			i := strings.IndexAny(rest, "/?")
			if i < 0 {
				i = len(rest)
			}
			target = rest[i:]
		}
	}
	path, query, _ = strings.Cut(target, "?")
	return path, query
}
