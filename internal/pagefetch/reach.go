package pagefetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"time"
)

// An UnreachableError reports a request that got no HTTP response at all,
// because no connection could be made: the host's name did not resolve, the
// connection was refused or timed out, the proxy could not be reached, or
// it would not open a tunnel to the host ([*ProxyRefusedError]). It says
// nothing about the page, only about the way to it, so the crawler must
// not take it as the page's verdict.
type UnreachableError struct {
	Host string // the host asked for, as host[:port]
	Addr string // the address a connection was last tried to (a proxy's, if one is used); may be empty
	Err  error
}

func (e *UnreachableError) Error() string {
	if _, ok := e.Err.(*ProxyRefusedError); ok {
		return e.Err.Error() // which names the proxy and the host
	}
	if e.Addr != "" && e.Addr != e.Host {
		return fmt.Sprintf("cannot reach %s (connecting to %s): %v", e.Host, e.Addr, e.Err)
	}
	return fmt.Sprintf("cannot reach %s: %v", e.Host, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// DNS reports whether the failure was looking up a name.
func (e *UnreachableError) DNS() bool {
	var de *net.DNSError
	return errors.As(e.Err, &de)
}

// A ProxyRefusedError reports a proxy that answered the request to open
// a tunnel to an https host (CONNECT) with a status other than 200, which
// the tunnel needs: it will not, or cannot, carry the crawl there. It is
// the proxy's answer, not the host's, and a request that gets it is
// [*UnreachableError] too.
type ProxyRefusedError struct {
	Proxy  string // the proxy's URL, without its password
	Target string // the tunnel's end, as host:port
	Code   int    // the proxy's status code
	Status string // and its whole status line, such as "405 Method Not Allowed"
}

func (e *ProxyRefusedError) Error() string {
	return fmt.Sprintf("the proxy %s refused to open a tunnel to %s (%d)", e.Proxy, e.Target, e.Code)
}

// proxyRefusal returns the error for a proxy's answer to CONNECT, or nil
// if the answer opens the tunnel.
func proxyRefusal(proxy *url.URL, target string, resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	return &ProxyRefusedError{Proxy: proxy.Redacted(), Target: target, Code: resp.StatusCode, Status: resp.Status}
}

// A connTrace watches one request for a connection: whether one was made
// or taken from the idle pool, and where the last attempt went.
type connTrace struct {
	// The transport calls the hooks on its own goroutines, and a dial it
	// gave up waiting for may still report after RoundTrip has returned.
	mu        sync.Mutex
	connected bool
	addr      string
	// The connection last handed over, if it was a kept-alive one, and
	// how many bytes had been read from it then (see errStale).
	reused readCounter
	readAt int64
}

// with returns ctx carrying a trace that fills in t.
func (t *connTrace) with(ctx context.Context) context.Context {
	set := func(connected bool, addr string) {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.connected = t.connected || connected
		if addr != "" {
			t.addr = addr
		}
	}
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		DNSStart:     func(info httptrace.DNSStartInfo) { set(false, info.Host) },
		ConnectStart: func(_, addr string) { set(false, addr) },
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				set(true, "")
			}
		},
		GotConn: func(info httptrace.GotConnInfo) {
			set(true, "")
			t.mu.Lock()
			defer t.mu.Unlock()
			t.reused = nil
			if rc := counterOf(info.Conn); rc != nil && info.Reused {
				t.reused, t.readAt = rc, rc.bytesRead()
			}
		},
	})
}

// stale reports whether a response came on a kept-alive connection from
// which not a byte was read after it was handed over, and if so closes
// that connection, so that no other request takes it.
func (t *connTrace) stale() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reused == nil || t.reused.bytesRead() != t.readAt {
		return false
	}
	t.reused.Close()
	return true
}

// unreachable wraps err, the failure of a request to host, in an
// [*UnreachableError] when no connection could be made for it and the
// failure came from the network (and not, say, from the crawl being
// stopped). That is so when the trace saw no connection, or when the
// error is a failed dial: the transport retries a request whose kept-alive
// connection turns out dead on a new one, and when that dial fails, the
// connection the trace saw was not this request's answer.
//
// timeout is the client's limit on a request. One shorter than
// [minJudge] cut the attempt off too soon to say anything of the network,
// so a connection it cut short is a timeout, not an unreachable host.
func (t *connTrace) unreachable(ctx context.Context, host string, err error, timeout time.Duration) error {
	t.mu.Lock()
	connected, addr := t.connected, t.addr
	t.mu.Unlock()
	if context.Cause(ctx) != nil || errors.Is(err, ErrNotLoopback) {
		return err
	}
	// A connection was made, to the proxy, but none to the host.
	if pr, ok := errors.AsType[*ProxyRefusedError](err); ok {
		return &UnreachableError{Host: host, Addr: addr, Err: pr}
	}
	if connected && !dialFailed(err) {
		return err
	}
	var ne net.Error
	if !errors.As(err, &ne) {
		return err
	}
	if ne.Timeout() && timeout > 0 && timeout < minJudge {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is the page's, and the crawler names it
	}
	return &UnreachableError{Host: host, Addr: addr, Err: err}
}

// minJudge is the shortest timeout whose running out while connecting
// says that the host cannot be reached. A connection attempt given less
// has not lived to see TCP's first retransmission, whose timer starts at
// a second (RFC 6298, section 2), so it cannot tell a lost packet from a
// network that is down; and a -timeout of 1ns never even tries.
const minJudge = time.Second

// dialFailed reports whether err is the failure to open a connection:
// the name did not resolve, or the connection was refused, timed out or
// could not reach the proxy. An address that cannot be dialed at all,
// such as a port out of range, is no failure of the network.
func dialFailed(err error) bool {
	if _, ok := errors.AsType[*net.AddrError](err); ok {
		return false
	}
	if _, ok := errors.AsType[*net.DNSError](err); ok {
		return true
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if oe, ok := e.(*net.OpError); ok && oe.Op == "dial" {
			return true
		}
	}
	return false
}

// connects reports whether a connection to the host of origin
// ("http://host[:port]") can be made now: it returns nil if one can, an
// [*UnreachableError] if none can, and another error if it cannot tell
// (the crawl was stopped, say). It is what recheck asks once a connection
// to the host broke or went silent, and the connection alone answers
// that: waiting for an HTTP answer, which a silent server never sends,
// would cost another timeout. So on a route straight to the host it only
// dials, in the host's turn and after its pause, as a request would,
// sends nothing, and closes the connection. Through a proxy, a connection
// is the proxy's, which says nothing of the host, so it asks as
// [Fetcher.Reach] does, and the proxy's answer, or its refusal to open a
// tunnel, tells; its exchange goes on t. A proxy that took a request and
// never answered it is most likely silent still, and waiting a whole
// timeout more for its answer would make a host that never answers cost
// two: so that answer is waited for [proxyProbeWait] at most, after the
// host's pause, and silence tells nothing.
func (f *Fetcher) connects(ctx context.Context, origin string, t *tape) error {
	req, err := f.newRequest(ctx, http.MethodHead, origin+"/robots.txt", false)
	if err != nil {
		return err
	}
	dial := f.directDial(req)
	if dial == nil {
		return f.reach(ctx, origin, t, proxyProbeWait)
	}
	host := req.URL.Host
	done, err := f.Scheduler.paced(ctx, host, false)
	if err != nil {
		return err
	}
	defer done()
	dialCtx, cancel := f.attemptContext(ctx)
	defer cancel()
	port := req.URL.Port()
	switch {
	case port != "":
	case req.URL.Scheme == "https":
		port = "443"
	default:
		port = "80"
	}
	var trace connTrace
	conn, err := dial(trace.with(dialCtx), "tcp", net.JoinHostPort(req.URL.Hostname(), port))
	if err != nil {
		return trace.unreachable(ctx, host, err, f.Client.Timeout)
	}
	conn.Close()
	return nil
}

// directDial returns the function with which f.Client's transport would
// connect to req's host if it connects straight to it, with no proxy
// between, and nil if a proxy is between, or if the transport is not an
// [*http.Transport], whose route cannot be known.
func (f *Fetcher) directDial(req *http.Request) func(ctx context.Context, network, addr string) (net.Conn, error) {
	t, ok := f.Client.Transport.(*http.Transport)
	if !ok {
		return nil
	}
	if t.Proxy != nil {
		if req.URL.Scheme == "https" && t.DialTLSContext != nil {
			// A client that records opens its https tunnels itself,
			// through a proxy its Proxy function no longer names
			// (recordingDialers).
			return nil
		}
		if p, err := t.Proxy(req); err != nil || p != nil {
			return nil
		}
	}
	if t.DialContext != nil {
		return t.DialContext
	}
	return new(net.Dialer).DialContext
}

// Reach reports whether origin ("http://host[:port]") answers at all: it
// sends one paced HEAD request for its robots.txt, which any site may be
// asked for, and returns nil for any HTTP response, whatever its status.
// It does not retry. The crawler uses it to tell a dead host from a crawl
// that has lost its network, by asking another host that has answered
// before. Unlike the check a fetch makes once a connection broke, which
// a connection answers, it waits for the answer: through a proxy only an
// answer tells that the crawl still has its network. With
// [Fetcher.Record], the Recording holds the exchange, if an answer came.
func (f *Fetcher) Reach(ctx context.Context, origin string) (Recording, error) {
	t := f.newTape()
	err := f.reach(ctx, origin, t, 0)
	return t.recording(), err
}

// proxyProbeWait is the most a recheck through a proxy waits for the
// proxy's answer: long enough for a proxy on this machine or near it to
// say that it cannot reach the host, short enough that a host that never
// answers costs one timeout and a second, not two timeouts.
const proxyProbeWait = time.Second

// reach is Reach, recording on t. If wait is positive, the request, once
// the host's pause is over, is given no longer than wait, or the client's
// timeout if that is shorter.
func (f *Fetcher) reach(ctx context.Context, origin string, t *tape, wait time.Duration) error {
	req, err := f.newRequest(ctx, http.MethodHead, origin+"/robots.txt", false)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", f.UserAgent)
	host := req.URL.Host
	done, err := f.Scheduler.paced(ctx, host, false)
	if err != nil {
		return err
	}
	defer done()
	reqCtx := ctx
	if wait > 0 {
		if d := f.Client.Timeout; d > 0 && d < wait {
			wait = d
		}
		var cancel context.CancelFunc
		reqCtx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	var trace connTrace
	traced := trace.with(reqCtx)
	// A HEAD response has no body; a server may send one all the same.
	if cp, withCapture := f.startCapture(traced, req, t, 1); cp != nil {
		defer cp.end(t, wireURI(req))
		traced = withCapture
	}
	req = req.WithContext(traced)
	f.Scheduler.sending(host)
	res, err := f.Client.Do(req)
	if err != nil {
		return trace.unreachable(ctx, host, err, f.Client.Timeout)
	}
	res.Body.Close()
	return nil
}
