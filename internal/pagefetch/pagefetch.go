// Package pagefetch downloads pages for the crawler, politely: every
// request waits for its host's pause (package pace), and a fetch succeeds
// only on a 200 OK with a non-empty body, as in the reference crawler.
package pagefetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"tse-crawler/internal/pace"
)

// ErrNotLoopback is returned, wrapped, for a connection to an address that
// is not a loopback address when the client only allows loopback. The
// crawler treats it as fatal: it means a pause shorter than a second was
// asked for a crawl that would reach a real server.
var ErrNotLoopback = errors.New("connection to a non-loopback address")

// A StatusError reports an HTTP response whose status is not 200 OK.
type StatusError struct {
	Code   int
	Status string // as the server sent it, for example "404 Not Found"
}

func (e *StatusError) Error() string { return "HTTP " + e.Status }

// A Fetcher downloads pages. Every field must be set.
type Fetcher struct {
	Client    *http.Client
	Pacer     *pace.Pacer
	UserAgent string
}

// Fetch waits for the URL's host to be free, downloads the page and
// returns its body. It fails with a [*StatusError] for any status but 200,
// with an error for an empty body, and with the context's cause if ctx
// ends first.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.UserAgent)
	host := req.URL.Host
	if err := f.Pacer.Wait(ctx, host); err != nil {
		return nil, err
	}
	body, err := f.do(req)
	f.Pacer.Done(host) // the pause runs from the end of the request, failed or not
	return body, err
}

func (f *Fetcher) do(req *http.Request) ([]byte, error) {
	resp, err := f.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Read a little of the body so that the connection can be reused.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, &StatusError{Code: resp.StatusCode, Status: resp.Status}
	}
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 {
		// Room for the whole body and the read that finds its end, so
		// the buffer never grows; a lying Content-Length cannot make us
		// reserve more than a few MiB up front.
		buf.Grow(int(min(n, 8<<20)) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return nil, fmt.Errorf("reading body: %w", err)
	}
	if buf.Len() == 0 {
		return nil, errors.New("empty body")
	}
	return buf.Bytes(), nil
}

// ClientOptions configure [NewClient].
type ClientOptions struct {
	// Proxy chooses a proxy for each request, as http.Transport.Proxy.
	Proxy func(*http.Request) (*url.URL, error)
	// LoopbackOnly refuses, with ErrNotLoopback, every connection to an
	// address that is not a loopback address.
	LoopbackOnly bool
	// Timeout bounds each request, from dialing to the end of the body.
	Timeout time.Duration
}

// NewClient returns an HTTP client for crawling. It never follows a
// redirect: the crawler decides what to do with one.
//
// With LoopbackOnly set, the check is made on the address actually being
// connected to, after any DNS lookup and for every connection, including
// one to a proxy or one made while following a redirect, so nothing can get
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
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 opt.Proxy,
			DialContext:           dialer.DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          16,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
		Timeout: opt.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
