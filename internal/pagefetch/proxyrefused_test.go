package pagefetch_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tse-crawler/internal/pace/pacetest"
	"tse-crawler/internal/pagefetch"
)

// TestProxyRefusesTunnel: a proxy that answers CONNECT with anything but
// 200, as the playground answers 405, has refused the way to the host,
// which has said nothing. Through net/http's tunnel and through the one a
// recording client opens itself, the fetch fails with an
// [*pagefetch.UnreachableError] that holds a [*pagefetch.ProxyRefusedError]
// naming the proxy (without its password), the tunnel's end and the
// status; it is not retried, and robots.txt is not taken as unavailable,
// so the next fetch asks the proxy again. No name is looked up: the
// client sends CONNECT for site.test to the proxy on loopback, and may
// connect nowhere else.
func TestProxyRefusesTunnel(t *testing.T) {
	for _, code := range []int{http.StatusMethodNotAllowed, http.StatusProxyAuthRequired, http.StatusNoContent} {
		var connects, others atomic.Int64
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodConnect {
				others.Add(1)
				http.Error(w, "not here", http.StatusBadGateway)
				return
			}
			connects.Add(1)
			w.WriteHeader(code)
		}))
		defer proxy.Close()
		pu, err := url.Parse("http://crawler:s3cret@" + strings.TrimPrefix(proxy.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		for _, capture := range []bool{false, true} {
			connects.Store(0)
			c := pagefetch.NewClient(pagefetch.ClientOptions{Proxy: http.ProxyURL(pu), LoopbackOnly: true, Timeout: 5 * time.Second, Capture: capture})
			f := &pagefetch.Fetcher{Client: c, Scheduler: pagefetch.NewScheduler(0, pacetest.New(), 1), UserAgent: userAgent, Robots: true, Retries: 2, Record: capture}
			for i := 1; i <= 2; i++ {
				_, err := f.Fetch(t.Context(), "https://site.test/p.html")
				ue, ok := errors.AsType[*pagefetch.UnreachableError](err)
				pr, ok2 := errors.AsType[*pagefetch.ProxyRefusedError](err)
				if !ok || !ok2 || ue.Host != "site.test" {
					t.Fatalf("%d, capture %v: Fetch error %v (%T), want an UnreachableError for site.test with a ProxyRefusedError", code, capture, err, err)
				}
				want := fmt.Sprintf("the proxy http://crawler:xxxxx@%s refused to open a tunnel to site.test:443 (%d)", strings.TrimPrefix(proxy.URL, "http://"), code)
				if err.Error() != want || pr.Code != code || pr.Status != fmt.Sprintf("%d %s", code, http.StatusText(code)) {
					t.Errorf("%d, capture %v: %q (status %q), want %q", code, capture, err, pr.Status, want)
				}
				if errors.Is(err, pagefetch.ErrRobotsUnavailable) || pagefetch.Reason(err) != "host unreachable" {
					t.Errorf("%d, capture %v: %v is taken for the host's answer (%s)", code, capture, err, pagefetch.Reason(err))
				}
				if n := connects.Load(); n != int64(i) {
					t.Errorf("%d, capture %v: %d CONNECTs after %d fetches: want one each, not retried, robots.txt asked again", code, capture, n, i)
				}
			}
			c.CloseIdleConnections()
		}
		if n := others.Load(); n != 0 {
			t.Errorf("%d: the proxy got %d requests other than CONNECT", code, n)
		}
	}
}
