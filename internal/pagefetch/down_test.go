package pagefetch_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"tse-crawler/internal/pagefetch"
)

// TestMarkDown: a host given up is asked nothing more: its pages and its
// requisites fail at once with ErrHostDown and the reason it was given up,
// counted as an unreachable host, while other hosts are fetched as before.
func TestMarkDown(t *testing.T) {
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>"))
	}))
	defer srv.Close()
	f := newFetcher(srv.Client())
	dead := &pagefetch.UnreachableError{Host: "dead.test:80", Err: errors.New("connection refused")}
	f.Scheduler.MarkDown("dead.test:80", dead)
	if err := f.Scheduler.Down("dead.test:80"); !errors.Is(err, pagefetch.ErrHostDown) {
		t.Fatalf("Down = %v, want ErrHostDown", err)
	}
	if err := f.Scheduler.Down(strings.TrimPrefix(srv.URL, "http://")); err != nil {
		t.Fatalf("Down of a host never given up = %v", err)
	}
	_, err := f.FetchPage(t.Context(), "http://dead.test:80/p.html")
	var ue *pagefetch.UnreachableError
	if !errors.Is(err, pagefetch.ErrHostDown) || !errors.As(err, &ue) || ue != dead {
		t.Errorf("FetchPage of a page on a host given up: %v, want ErrHostDown and the reason", err)
	}
	if got := pagefetch.Reason(err); got != "host unreachable" {
		t.Errorf("Reason = %q, want %q", got, "host unreachable")
	}
	if _, err := f.FetchRequisite(t.Context(), "http://dead.test:80/a.png"); !errors.Is(err, pagefetch.ErrHostDown) {
		t.Errorf("FetchRequisite on a host given up: %v, want ErrHostDown", err)
	}
	if n := f.Scheduler.Requests(); n != 0 {
		t.Errorf("%d requests sent for a host given up", n)
	}
	if _, err := f.FetchPage(t.Context(), srv.URL+"/p.html"); err != nil {
		t.Errorf("another host: %v", err)
	}
	if asked.Load() == 0 {
		t.Error("another host was not asked")
	}
}
