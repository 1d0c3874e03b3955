package pagefetch

import (
	"crypto/tls"
	"net"
	"sync/atomic"
)

// A server may send more than its response: a second one that nobody
// asked for, after the end of the first. net/http's transport notices
// such bytes on a connection kept alive and closes it, but only once it
// looks; a request that takes the connection from the pool first gets
// those bytes as its own response, the page of another request, perhaps
// of another host sharing the proxy. No byte of a true response can come
// before its request was sent, so a response on a reused connection for
// which not a byte was read after the connection was handed over is such a
// leftover: the connection is closed, and the request is made again.

// errStale reports such a leftover. It is a [net.Error], so that a fetch
// treats it as a connection that failed; get asks again once without
// counting it as a try.
var errStale error = staleError{}

type staleError struct{}

func (staleError) Error() string {
	return "the answer was bytes a server sent before it was asked, on a connection kept alive"
}
func (staleError) Timeout() bool   { return false }
func (staleError) Temporary() bool { return true }

// A readCounter is a connection that counts the bytes read from it.
type readCounter interface {
	net.Conn
	bytesRead() int64
}

// A countConn is a connection that counts the bytes read from it.
type countConn struct {
	net.Conn
	n atomic.Int64
}

func (c *countConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.n.Add(int64(n))
	return n, err
}

func (c *countConn) bytesRead() int64 { return c.n.Load() }

// counterOf returns the counting connection under a connection the
// transport hands over, if it is one: the transport's own TLS connection
// wraps the one it dialed.
func counterOf(c net.Conn) readCounter {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	rc, _ := c.(readCounter)
	return rc
}
