package pagefetch_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// A headBodyProxy is a forward proxy on 127.0.0.1 that answers a HEAD
// with a body, which no HEAD may have, and sends that body only once the
// next request on the connection has come: the worst case, since the
// client has no way to tell those bytes from that request's answer. Any
// other request gets a small page.
type headBodyProxy struct {
	ln net.Listener
	mu sync.Mutex
	// heads counts the HEADs received, conns the connections accepted.
	heads, conns int
}

func newHeadBodyProxy(t *testing.T) *headBodyProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &headBodyProxy{ln: ln}
	var wg sync.WaitGroup
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conns++
			conns = append(conns, c)
			p.mu.Unlock()
			wg.Go(func() { p.serve(c) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		p.mu.Unlock()
		wg.Wait()
	})
	return p
}

func (p *headBodyProxy) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	owed := "" // a HEAD's body, sent after the next request comes
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			if owed != "" {
				io.WriteString(c, owed)
			}
			return
		}
		io.Copy(io.Discard, req.Body)
		if owed != "" {
			io.WriteString(c, owed)
			owed = ""
		}
		if req.Method == http.MethodHead {
			p.mu.Lock()
			p.heads++
			p.mu.Unlock()
			body := "HTTP/9.9 not a status line, but a HEAD's body\r\n\r\n"
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n")
			owed = body
			if req.Close {
				io.WriteString(c, owed)
				return
			}
			continue
		}
		page := "<p>" + req.URL.Host + "</p>"
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "+strconv.Itoa(len(page))+"\r\n\r\n"+page)
	}
}

// TestProbeKeepsNoPoisonedConnection: a HEAD that a server answers with a
// body, a probe's or a check's, leaves nothing that the next request
// through the same proxy, to another host, takes for its answer.
func TestProbeKeepsNoPoisonedConnection(t *testing.T) {
	for _, probe := range []string{"Reach", "Check"} {
		t.Run(probe, func(t *testing.T) {
			p := newHeadBodyProxy(t)
			pu, _ := url.Parse("http://" + p.ln.Addr().String())
			for _, capture := range []bool{false, true} {
				f := &pagefetch.Fetcher{
					Client:    pagefetch.NewClient(pagefetch.ClientOptions{Proxy: http.ProxyURL(pu), LoopbackOnly: true, Capture: capture}),
					Scheduler: pagefetch.NewScheduler(0, nil, 1), UserAgent: "tse-crawler/9.9", Record: capture,
				}
				for i := range 3 {
					var err error
					switch probe {
					case "Reach":
						_, err = f.Reach(t.Context(), "http://bad.test")
					case "Check":
						_, err = f.Check(t.Context(), "http://bad.test/x.html", false)
					}
					if err != nil {
						t.Fatalf("capture %v: %s of the host that answers HEAD with a body: %v", capture, probe, err)
					}
					page, err := f.FetchPage(t.Context(), "http://fine.test/p.html")
					if err != nil {
						t.Fatalf("capture %v, round %d: the page after the %s failed: %v", capture, i, probe, err)
					}
					if got := string(page.Body); got != "<p>fine.test</p>" {
						t.Errorf("capture %v, round %d: page = %q", capture, i, got)
					}
				}
			}
		})
	}
}
