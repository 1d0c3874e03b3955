package pagefetch

import (
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"
)

// fakeConn is a kept-alive connection from which read bytes have been
// read, and which knows whether it was closed.
type fakeConn struct {
	net.Conn
	read   int64
	closed bool
}

func (c *fakeConn) bytesRead() int64 { return c.read }
func (c *fakeConn) Close() error     { c.closed = true; return nil }

// staleTransport answers each request as a transport would with a
// connection from the pool: the first answer is bytes left over on that
// connection (nothing read after it was handed over), the next a true one.
type staleTransport struct {
	conns []*fakeConn
}

func (s *staleTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c := &fakeConn{read: 100}
	s.conns = append(s.conns, c)
	if tr := httptrace.ContextClientTrace(r.Context()); tr != nil && tr.GotConn != nil {
		tr.GotConn(httptrace.GotConnInfo{Conn: c, Reused: true})
	}
	body := "extra"
	if len(s.conns) > 1 {
		c.read += 200 // the answer was read after the request
		body = "<p>the page</p>"
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"text/html"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: r,
	}, nil
}

// TestStaleResponse: a response that came on a kept-alive connection
// before a byte of it was read, bytes a server sent after its last
// response, is no answer to the request: its connection is closed, and
// the request is made again, whatever -retries says.
func TestStaleResponse(t *testing.T) {
	tr := &staleTransport{}
	f := &Fetcher{Client: &http.Client{Transport: tr, Timeout: 5 * time.Second}, Scheduler: NewScheduler(0, nil, 1), UserAgent: "tse-crawler/9.9"}
	html, err := f.Fetch(t.Context(), "http://example.test/p.html")
	if err != nil || string(html) != "<p>the page</p>" {
		t.Fatalf("Fetch = %q, %v; want the page, asked for again", html, err)
	}
	if len(tr.conns) != 2 || !tr.conns[0].closed || tr.conns[1].closed {
		t.Errorf("%d requests; the first connection closed %v, want 2 requests and only the first closed", len(tr.conns), tr.conns[0].closed)
	}
	if f.Scheduler.Requests() != 2 {
		t.Errorf("%d requests counted, want 2", f.Scheduler.Requests())
	}
}
