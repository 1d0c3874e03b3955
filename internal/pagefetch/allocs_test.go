package pagefetch_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"tse-crawler/internal/pace"
	"tse-crawler/internal/pagefetch"
)

// TestFetchRecyclesBodies guards against allocating memory for every body:
// with each body recycled, fetching a 1 MB page over and over allocates a
// small fraction of a megabyte per fetch (what net/http needs for the
// request and the headers), not the page.
func TestFetchRecyclesBodies(t *testing.T) {
	page := bytes.Repeat([]byte("<p>a page of a megabyte</p>\n"), 1<<20/28)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write(page)
	}))
	defer srv.Close()
	f := &pagefetch.Fetcher{
		Client:    pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second}),
		Pacer:     pace.New(0, nil),
		UserAgent: "tse-crawler/test",
	}
	fetch := func() {
		body, err := f.Fetch(t.Context(), srv.URL+"/p.html")
		if err != nil || len(body) != len(page) {
			t.Fatalf("Fetch = %d bytes, %v", len(body), err)
		}
		f.Recycle(body)
	}
	fetch() // the first fetch grows the buffer
	const n = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		fetch()
	}
	runtime.ReadMemStats(&after)
	if perFetch := (after.TotalAlloc - before.TotalAlloc) / n; perFetch > uint64(len(page))/8 {
		t.Errorf("each fetch of a %d-byte page allocated %d bytes, want under an eighth of the page", len(page), perFetch)
	}
}
