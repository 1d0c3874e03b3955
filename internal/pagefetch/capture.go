package pagefetch

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/idna"

	"tse-crawler/internal/warc"
)

// A Recording is what one fetch sent and received, as the bytes went over
// the connection, for a WARC file: see [Fetcher.Record].
type Recording struct {
	// Exchanges are the fetch's own requests and their answers, in the
	// order they were sent: its retries, the hops of a robots.txt read
	// that came to no verdict, or the HEAD of Reach.
	Exchanges []warc.Exchange
	// RobotsOrigin is the origin whose robots.txt the fetch obeyed, or ""
	// if it consulted none, and Robots the exchanges that read that file.
	// Every fetch of a page of that origin has them, not only the fetch
	// that read the file, because which page a crawl records first is not
	// for the fetcher to know: a page fetched ahead of the crawl may be
	// dropped, or committed after another page of its host.
	RobotsOrigin string
	Robots       []warc.Exchange
}

// A tape collects the exchanges of one fetch as its requests end. A
// request's response ends on the goroutine that reads it, but the tape
// is read only once the fetch returns; the lock is for the transport's
// goroutines, which may still hand a connection over late.
type tape struct {
	mu  sync.Mutex
	rec Recording
}

func (t *tape) add(x warc.Exchange) {
	t.mu.Lock()
	t.rec.Exchanges = append(t.rec.Exchanges, x)
	t.mu.Unlock()
}

// obeyed notes the robots.txt that the fetch obeyed.
func (t *tape) obeyed(origin string, xs []warc.Exchange) {
	t.mu.Lock()
	t.rec.RobotsOrigin, t.rec.Robots = origin, xs
	t.mu.Unlock()
}

// recording returns what t holds; a nil tape holds nothing.
func (t *tape) recording() Recording {
	if t == nil {
		return Recording{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rec
}

// newTape returns a tape for one fetch, or nil if f records nothing.
func (f *Fetcher) newTape() *tape {
	if !f.Record {
		return nil
	}
	return new(tape)
}

// A recConn is a connection that copies what is written to it and read
// from it onto the capture of the request that holds it. A request holds a
// connection alone, from the transport handing it over until its
// response has been read, so a connection has at most one capture.
type recConn struct {
	net.Conn
	ip     string       // the address connected to, or "" for a tunnel through a proxy
	dialed string       // the host:port the transport asked to connect to: the request's host's, or its proxy's
	n      atomic.Int64 // bytes read (see errStale)

	mu  sync.Mutex
	cur *capture
}

func newRecConn(c net.Conn, dialed string) *recConn {
	rc := &recConn{Conn: c, dialed: dialed}
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		rc.ip = a.IP.String()
	}
	return rc
}

func (c *recConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.n.Add(int64(n))
	if n > 0 {
		c.mu.Lock()
		if c.cur != nil {
			c.cur.record(b[:n])
		}
		c.mu.Unlock()
	}
	return n, err
}

func (c *recConn) bytesRead() int64 { return c.n.Load() }

func (c *recConn) Write(b []byte) (int, error) {
	// Recorded before it is sent: once it is, the response can come, be
	// read and end the capture before this goroutine runs again.
	c.mu.Lock()
	if c.cur != nil {
		c.cur.req = append(c.cur.req, b...)
	}
	c.mu.Unlock()
	return c.Conn.Write(b)
}

// A capture is the bytes of one request and its response.
type capture struct {
	date      time.Time
	limit     int64         // how many bytes of the response are kept, if positive
	truncated string        // why the response is not recorded to its end, if it is not
	revisit   *warc.Revisit // the earlier record the request revalidated, if any

	// addr is the host and port the request is for. A connection the
	// transport dialed for another address is a proxy's, whose address,
	// not the server's, it has.
	addr string

	mu   sync.Mutex // guards conn; req and resp are the conn's to append to while it holds the capture
	conn *recConn
	ip   string
	req  []byte
	resp *spool
}

// record appends what was read of the response, up to cp.limit: a server
// that sends without end, or a coding that decodes to nothing, must not
// make the record outgrow what the fetch itself would keep. Its conn's lock
// is held.
func (cp *capture) record(b []byte) {
	if cp.limit > 0 {
		room := cp.limit - cp.resp.Size()
		if int64(len(b)) > room {
			b = b[:max(room, 0)]
			cp.truncated = "length"
		}
	}
	cp.resp.write(b)
}

// attach makes c the capture of conn, from the start: a request the
// transport retries on a new connection is recorded as sent on that one.
func (cp *capture) attach(conn *recConn) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.detachLocked()
	conn.mu.Lock()
	cp.resp.reset()
	cp.req, cp.ip, cp.truncated = nil, conn.ip, ""
	if conn.dialed != cp.addr {
		cp.ip = "" // a proxy's
	}
	conn.cur = cp
	conn.mu.Unlock()
	cp.conn = conn
}

func (cp *capture) detachLocked() {
	if cp.conn == nil {
		return
	}
	cp.conn.mu.Lock()
	if cp.conn.cur == cp {
		cp.conn.cur = nil
	}
	cp.conn.mu.Unlock()
	cp.conn = nil
}

// end stops recording and puts the exchange, if a response came, on t.
func (cp *capture) end(t *tape, target string) {
	cp.mu.Lock()
	cp.detachLocked()
	cp.mu.Unlock()
	if cp.resp.Size() == 0 {
		cp.resp.Close()
		return // no response, no exchange
	}
	if cp.resp.failed() != nil && cp.truncated == "" {
		// The record ends where the spool could not take more; the
		// crawl itself goes on, with the page it read.
		cp.truncated = "unspecified"
	}
	// WARC-IP-Address is the server's address: a request sent to a proxy
	// was never connected to the server, so it has none.
	t.add(warc.Exchange{
		TargetURI: target,
		Date:      cp.date,
		IP:        cp.ip,
		Request:   cp.req,
		Response:  cp.resp,
		Truncated: cp.truncated,
		Revisit:   cp.revisit,
	})
}

// trace returns ctx with a trace that attaches cp to the connection the
// request gets, if it is one that records.
func (cp *capture) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if rc, ok := info.Conn.(*recConn); ok {
				cp.attach(rc)
			}
		},
	})
}

// startCapture returns a capture for req, made with ctx, for t, and ctx
// with the trace that feeds it, or nil and ctx if t is nil. The capture
// keeps at most f.captureLimit(body) bytes of the response.
func (f *Fetcher) startCapture(ctx context.Context, req *http.Request, t *tape, body int64) (*capture, context.Context) {
	if t == nil {
		return nil, ctx
	}
	// Past a MiB, the response goes into a file f.Spool makes.
	sp := &spool{open: f.Spool, pool: &f.spools}
	cp := &capture{date: time.Now(), addr: dialAddr(req.URL), limit: f.captureLimit(body), resp: sp}
	return cp, cp.trace(ctx)
}

// captureLimit returns how many bytes of a response whose body is read up
// to body bytes, after decoding, a capture keeps: the most header the
// client's transport accepts, and twice the body, for the chunk framing
// and a content coding that does not shrink it. Past that, the response is
// recorded cut short, with WARC-Truncated "length". A body with no limit
// (0) has none either.
func (f *Fetcher) captureLimit(body int64) int64 {
	if body <= 0 {
		return 0
	}
	header := int64(defaultMaxHeaderBytes)
	if t, ok := f.Client.Transport.(*http.Transport); ok && t.MaxResponseHeaderBytes > 0 {
		header = t.MaxResponseHeaderBytes
	}
	return header + 2*body
}

// defaultMaxHeaderBytes is the most response header an http.Transport
// reads when its MaxResponseHeaderBytes is zero.
const defaultMaxHeaderBytes = 10 << 20

// recordingDialers returns the dial functions of a transport whose
// connections record, for http and for https, and the proxy function
// that goes with them. The https one does the TLS handshake itself, so
// that what it records is the plaintext; the transport then speaks
// HTTP/1.1 on it, as it cannot see the connection is TLS, which is what a
// record of the exchange needs anyway.
//
// The transport would make the TLS connection of an https request through
// a proxy itself, over the proxy's CONNECT tunnel, where only ciphertext
// passes. So the proxy function tells the transport that https goes
// direct, and the https dialer opens the tunnel through the proxy that
// proxy chooses, as the transport would (RFC 9110, section 9.3.6), and
// makes its TLS connection through it.
//
// A connection through a proxy is the proxy's, so an exchange made on one
// has no IP address: a tunnel's connection holds none, and a capture
// knows an http request sent to a proxy by the address its connection
// was dialed for.
func recordingDialers(dialer *net.Dialer, cfg *tls.Config, proxy func(*http.Request) (*url.URL, error)) (
	dial, dialTLS func(ctx context.Context, network, addr string) (net.Conn, error),
	httpProxy func(*http.Request) (*url.URL, error)) {
	dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return newRecConn(c, addr), nil
	}
	if proxy != nil {
		httpProxy = func(r *http.Request) (*url.URL, error) {
			if r.URL.Scheme == "https" {
				return nil, nil
			}
			return proxy(r)
		}
	}
	dialTLS = func(ctx context.Context, network, addr string) (net.Conn, error) {
		hctx, cancel := context.WithTimeout(ctx, tlsHandshakeTimeout)
		defer cancel()
		raw, tunnel, err := dialTunnel(hctx, dialer, proxy, network, addr)
		if err != nil {
			return nil, err
		}
		tc := cfg.Clone()
		if tc == nil {
			tc = &tls.Config{}
		}
		if tc.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			tc.ServerName = host
		}
		tc.NextProtos = []string{"http/1.1"}
		conn := tls.Client(raw, tc)
		if err := conn.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, err
		}
		rc := newRecConn(conn, addr) // a tls.Conn's RemoteAddr is raw's
		if tunnel {
			rc.ip = "" // the proxy's
		}
		return rc, nil
	}
	return dial, dialTLS, httpProxy
}

// dialTunnel connects to addr, an https request's host and port: through
// a CONNECT tunnel if proxy chooses an http proxy for it, else directly.
// It reports which. ctx bounds the whole of it, the proxy's answer
// included.
func dialTunnel(ctx context.Context, dialer *net.Dialer, proxy func(*http.Request) (*url.URL, error), network, addr string) (_ net.Conn, tunnel bool, _ error) {
	var pu *url.URL
	if proxy != nil {
		var err error
		if pu, err = proxy(&http.Request{URL: &url.URL{Scheme: "https", Host: addr}, Header: http.Header{}}); err != nil {
			return nil, false, err
		}
	}
	if pu == nil {
		conn, err := dialer.DialContext(ctx, network, addr)
		return conn, false, err
	}
	if pu.Scheme != "http" {
		// The transport would speak TLS or SOCKS to such a proxy; a
		// crawl that records does not, rather than record ciphertext.
		return nil, false, fmt.Errorf("https through a %s proxy (%s) cannot be recorded in a WARC file: give an http:// proxy", pu.Scheme, pu.Redacted())
	}
	proxyAddr := pu.Host
	if pu.Port() == "" {
		proxyAddr = net.JoinHostPort(pu.Hostname(), "80")
	}
	conn, err := dialer.DialContext(ctx, network, proxyAddr)
	if err != nil {
		return nil, false, err
	}
	// The answer is read with a deadline that ctx's end brings forward, so
	// that a proxy that never answers holds the request no longer than
	// its context.
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	connect := &http.Request{
		Method: http.MethodConnect,
		URL:    &url.URL{Opaque: addr},
		Host:   addr,
		Header: http.Header{},
	}
	if u := pu.User; u != nil {
		pass, _ := u.Password()
		connect.SetBasicAuth(u.Username(), pass)
		connect.Header["Proxy-Authorization"] = connect.Header["Authorization"]
		delete(connect.Header, "Authorization")
	}
	// The answer is read through a limit, as the transport reads it, so
	// that a proxy sending a head without end cannot fill the memory
	// before the deadline comes.
	br := bufio.NewReader(io.LimitReader(conn, defaultMaxHeaderBytes))
	err = connect.Write(conn)
	var resp *http.Response
	if err == nil {
		resp, err = http.ReadResponse(br, connect)
	}
	if !stop() {
		err = context.Cause(ctx)
	}
	if err == nil {
		resp.Body.Close()
		if err = proxyRefusal(pu, addr, resp); err != nil {
			conn.Close()
			return nil, false, err // which names the proxy and addr
		}
		if br.Buffered() > 0 {
			err = errors.New("the proxy sent more than its answer to CONNECT")
		}
	}
	if err != nil {
		conn.Close()
		return nil, false, fmt.Errorf("tunnel to %s through proxy %s: %w", addr, pu.Redacted(), err)
	}
	conn.SetDeadline(time.Time{})
	return conn, true, nil
}

// dialAddr returns the host and port that the transport dials for a
// request to u when no proxy is between: u's, with the scheme's port if
// it names none.
func dialAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	host := u.Hostname()
	if a, err := idna.Lookup.ToASCII(host); err == nil {
		host = a // as the transport dials a name that is not ASCII
	}
	return net.JoinHostPort(host, port)
}
