package pagefetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http/httptest"
	"testing"
	"time"
)

// TestDialTLSBounded: the handshake the recording client makes itself ends
// with the context, however long a server that accepted the connection
// keeps silent.
func TestDialTLSBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent, until the test ends
		}
	}()
	_, dialTLS, _ := recordingDialers(&net.Dialer{}, nil, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := dialTLS(ctx, "tcp", ln.Addr().String()); err == nil {
		t.Fatal("a handshake with a silent server succeeded")
	}
	// Expected to end with its context, after 100ms; the bound, three
	// hundred times that, leaves room for a busy machine, and a handshake
	// the context did not end would last until the test did.
	d := time.Since(start)
	t.Logf("the handshake ended %v after it began; expected about 100ms, its context's timeout", d)
	if d > 30*time.Second {
		t.Errorf("the handshake ended %v after it began, not with its context", d)
	}
}

// TestDialTLSVerifies: the handshake checks the server's certificate
// against the roots configured, as the transport's own would, and records
// the server's address.
func TestDialTLSVerifies(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	untrusted := &tls.Config{RootCAs: x509.NewCertPool()}
	_, dialTLS, _ := recordingDialers(&net.Dialer{}, untrusted, nil)
	if c, err := dialTLS(t.Context(), "tcp", addr); err == nil {
		c.Close()
		t.Fatal("a certificate from no trusted root was accepted")
	}

	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	_, dialTLS, _ = recordingDialers(&net.Dialer{}, &tls.Config{RootCAs: pool}, nil)
	c, err := dialTLS(t.Context(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rc, ok := c.(*recConn)
	if !ok {
		t.Fatalf("dialed a %T, want a *recConn", c)
	}
	if rc.ip != "127.0.0.1" {
		t.Errorf("IP %q, want 127.0.0.1", rc.ip)
	}
	if p := rc.Conn.(*tls.Conn).ConnectionState().NegotiatedProtocol; p != "" && p != "http/1.1" {
		t.Errorf("negotiated %q, want HTTP/1.1", p)
	}
}
