package pagefetch

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

// ClientOptions configure [NewClient].
type ClientOptions struct {
	// Proxy chooses a proxy for each request, as http.Transport.Proxy.
	Proxy func(*http.Request) (*url.URL, error)
	// LoopbackOnly refuses, with ErrNotLoopback, every connection to an
	// address that is not a loopback address.
	LoopbackOnly bool
	// Timeout bounds each request, from dialing to the end of the body.
	Timeout time.Duration
	// TLS, if set, configures https; by default the system's roots are
	// trusted.
	TLS *tls.Config
	// Capture makes every connection record the bytes that the requests
	// of a recording fetch (Fetcher.Record) send and receive. An https request through a proxy
	// then goes through a tunnel the client opens itself, so that it can
	// record the plaintext; only an http:// proxy can be used for it.
	Capture bool
}

// tlsHandshakeTimeout bounds a TLS handshake, as the transport's own
// setting does for the connections it makes itself.
const tlsHandshakeTimeout = 10 * time.Second

// NewClient returns an HTTP client for crawling. It never follows a
// redirect: the fetcher reports it and the crawler decides.
//
// With LoopbackOnly set, the check is made on the address actually being
// connected to, after any DNS lookup and for every connection, including
// one to a proxy or one made for a redirect's target, so nothing can get
// around it.
func NewClient(opt ClientOptions) *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if opt.LoopbackOnly {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				host = address
			}
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				return fmt.Errorf("%w (%s)", ErrNotLoopback, address)
			}
			return nil
		}
	}
	transport := &http.Transport{
		Proxy: opt.Proxy,
		// The transport's own error for a proxy that will not open a
		// tunnel is the bare reason phrase ("Method Not Allowed"), which
		// would read as the host's answer.
		OnProxyConnectResponse: func(_ context.Context, proxy *url.URL, req *http.Request, resp *http.Response) error {
			return proxyRefusal(proxy, req.URL.Opaque, resp)
		},
		DialContext:           countingDial(dialer),
		TLSClientConfig:       opt.TLS,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   tlsHandshakeTimeout,
		ExpectContinueTimeout: time.Second,
	}
	if opt.Capture {
		// A record holds an HTTP/1.1 message, which HTTP/2's binary
		// frames are not.
		transport.ForceAttemptHTTP2 = false
		transport.DialContext, transport.DialTLSContext, transport.Proxy = recordingDialers(dialer, opt.TLS, opt.Proxy)
	}
	return &http.Client{
		Transport: transport,
		Timeout:   opt.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// countingDial returns a dial function whose connections count the bytes
// read from them (see errStale).
func countingDial(dialer *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countConn{Conn: c}, nil
	}
}
