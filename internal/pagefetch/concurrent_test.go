package pagefetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// A busyHosts handler serves every host in memory, each request taking
// 100ms of fake time, and records how many requests each host has in
// flight at most, and how many of all hosts at once.
type busyHosts struct {
	mu       sync.Mutex
	inFlight map[string]int
	most     map[string]int
	now, max int
	robots   map[string]int
}

func (b *busyHosts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	b.mu.Lock()
	b.inFlight[host]++
	b.most[host] = max(b.most[host], b.inFlight[host])
	b.now++
	b.max = max(b.max, b.now)
	if r.URL.Path == "/robots.txt" {
		b.robots[host]++
	}
	b.mu.Unlock()
	time.Sleep(100 * time.Millisecond)
	b.mu.Lock()
	b.inFlight[host]--
	b.now--
	b.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		return
	}
	w.Header().Set("Content-Type", "text/html")
	io.WriteString(w, "<p>"+r.URL.Path)
}

// TestFetchConcurrently: Fetch may be called from many goroutines at once.
// Requests to one host take turns, each after the host's pause, and each
// origin's robots.txt is read once; different hosts are fetched side by
// side, so that four hosts of four pages each take the time of one.
func TestFetchConcurrently(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &busyHosts{inFlight: map[string]int{}, most: map[string]int{}, robots: map[string]int{}}
		f := memFetcher(b, time.Second, 0)
		hosts := []string{"a.test", "b.test", "c.test", "d.test"}
		start := time.Now()
		var wg sync.WaitGroup
		for _, h := range hosts {
			for i := range 4 {
				// Two goroutines per host, to make them compete for it.
				wg.Go(func() {
					u := fmt.Sprintf("http://%s/%d.html", h, i)
					body, err := f.Fetch(t.Context(), u)
					if err != nil || string(body) != fmt.Sprintf("<p>/%d.html", i) {
						t.Errorf("Fetch(%s) = %q, %v", u, body, err)
					}
				})
			}
		}
		wg.Wait()
		// Per host: robots.txt and 4 pages, 5 requests of 100ms with 4
		// pauses of 1s between them; the hosts side by side.
		if took, want := time.Since(start), 5*100*time.Millisecond+4*time.Second; took != want {
			t.Errorf("took %v, want %v", took, want)
		}
		want := map[string]int{}
		for _, h := range hosts {
			want[h] = 1
			if got := b.robots[h]; got != 1 {
				t.Errorf("%s/robots.txt fetched %d times, want once", h, got)
			}
		}
		if !maps.Equal(b.most, want) {
			t.Errorf("most requests in flight by host = %v, want one each", b.most)
		}
		if b.max != len(hosts) {
			t.Errorf("at most %d requests in flight at once, want %d", b.max, len(hosts))
		}
		wantSent := map[string]int64{}
		for _, h := range hosts {
			wantSent[h] = 5
		}
		if got := f.Scheduler.HostRequests(); !maps.Equal(got, wantSent) || f.Scheduler.Requests() != 20 {
			t.Errorf("HostRequests() = %v, Requests() = %d; want 5 each, 20", got, f.Scheduler.Requests())
		}
		pauses := f.Scheduler.HostPauses()
		for _, h := range hosts {
			if p := pauses[h]; p.Count != 4 || p.Shortest != time.Second {
				t.Errorf("pauses of %s = %+v, want 4 of at least 1s", h, p)
			}
		}
	})
}

// TestReachTakesTurns: a Reach to a host that a page is being fetched from
// waits for that request to end, and for the pause after it.
func TestReachTakesTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &busyHosts{inFlight: map[string]int{}, most: map[string]int{}, robots: map[string]int{}}
		f := memFetcher(b, time.Second, 0)
		f.Robots = false
		start := time.Now()
		var wg sync.WaitGroup
		wg.Go(func() {
			if _, err := f.Fetch(t.Context(), "http://a.test/1.html"); err != nil {
				t.Error(err)
			}
		})
		synctest.Wait() // the fetch is in flight
		if _, err := f.Reach(t.Context(), "http://a.test"); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if took, want := time.Since(start), 100*time.Millisecond+time.Second+100*time.Millisecond; took != want {
			t.Errorf("the fetch and the Reach took %v, want %v", took, want)
		}
		if b.most["a.test"] != 1 {
			t.Errorf("%d requests to a.test in flight at once, want 1", b.most["a.test"])
		}
	})
}

// TestWaitersCanceled: a fetch waiting for its origin's robots.txt, which
// another fetch is reading, and a Reach waiting for the host's turn, which
// that read holds, both end with their context, and the read they waited
// on is not disturbed.
func TestWaitersCanceled(t *testing.T) {
	release := make(chan struct{})
	reading := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			close(reading)
			<-release
			w.WriteHeader(http.StatusNotFound)
			return
		}
		io.WriteString(w, "<html>ok</html>")
	})
	f := memFetcher(h, 0, 0)
	first := make(chan error)
	go func() {
		_, err := f.Fetch(t.Context(), base+"/1.html")
		first <- err
	}()
	<-reading

	ctx, cancel := context.WithCancel(t.Context())
	waiters := make(chan error, 2)
	go func() {
		_, err := f.Fetch(ctx, base+"/2.html")
		waiters <- err
	}()
	go func() {
		_, err := f.Reach(ctx, base)
		waiters <- err
	}()
	cancel()
	for range 2 {
		select {
		case err := <-waiters:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("a canceled waiter: %v, want context.Canceled", err)
			}
		case <-time.After(time.Minute): // expected at once; a minute leaves room for a busy machine
			t.Fatal("a canceled waiter is still waiting after a minute")
		}
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the fetch that read robots.txt: %v", err)
	}
	if _, err := f.Fetch(t.Context(), base+"/2.html"); err != nil {
		t.Errorf("a fetch after the cancellation: %v", err)
	}
}
