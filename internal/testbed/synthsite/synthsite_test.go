package synthsite

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
)

func TestServe(t *testing.T) {
	s := Site{Pages: 1000, Seed: 1}
	tests := []struct {
		path   string
		status int
	}{
		{"/tse/synth/0.html", 200}, {"/tse/synth/", 200}, {"/tse/synth/999.html", 200},
		{"/tse/synth/1000.html", 404}, {"/tse/synth/-1.html", 404}, {"/tse/synth/01.html", 404},
		{"/tse/synth/x.html", 404}, {"/robots.txt", 404}, {"/tse/synth/5", 404},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, tt.path, nil))
		if w.Code != tt.status {
			t.Errorf("GET %s: %d, want %d", tt.path, w.Code, tt.status)
		}
		if w.Code == 200 && (w.Header().Get("Content-Type") != "text/html" || w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len())) {
			t.Errorf("GET %s: headers %v", tt.path, w.Header())
		}
	}
}

// TestShape: the same page every time; every page reachable from page 0
// through the tree links; sizes and links as the package comment says.
func TestShape(t *testing.T) {
	s := Site{Pages: 5000, Seed: 7}
	if !bytes.Equal(s.Page(42), s.Page(42)) {
		t.Fatal("page 42 differs between two calls")
	}
	if bytes.Equal(s.Page(42), Site{Pages: 5000, Seed: 8}.Page(42)) {
		t.Error("the seed does not change the page")
	}
	href := regexp.MustCompile(`href="(\d+)\.html"`)
	depth := map[int]int{0: 0}
	total, links := 0, 0
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		n := queue[0]
		page := s.Page(n)
		total += len(page)
		for _, m := range href.FindAllSubmatch(page, -1) {
			links++
			k, _ := strconv.Atoi(string(m[1]))
			if k < 0 || k >= s.Pages {
				t.Fatalf("page %d links to %d, outside the site", n, k)
			}
			if _, ok := depth[k]; !ok {
				depth[k] = depth[n] + 1
				queue = append(queue, k)
			}
		}
	}
	if len(depth) != s.Pages {
		t.Errorf("%d of %d pages are reachable from page 0", len(depth), s.Pages)
	}
	for n, d := range depth {
		if d > 4 {
			t.Errorf("page %d is %d links from page 0, want at most 4 in 5000 pages", n, d)
		}
	}
	if mean := total / s.Pages; mean < 2000 || mean > 20000 {
		t.Errorf("pages are %d bytes on average, want a few kilobytes", mean)
	}
	if per := links / s.Pages; per < 10 || per > 20 {
		t.Errorf("%d links a page on average, want 10 to 20", per)
	}
}

func BenchmarkPage(b *testing.B) {
	s := Site{Pages: 100_000, Seed: 1}
	n := 0
	for b.Loop() {
		b.SetBytes(int64(len(s.Page(n % s.Pages))))
		n++
	}
}

// TestHosts: a site of several hosts serves each page on its own host
// only, as an origin and as a proxy, and links across hosts by absolute
// URLs, to pages that exist on the host they name.
func TestHosts(t *testing.T) {
	s := Site{Pages: 100, Seed: 3, Hosts: 4}
	for _, tt := range []struct {
		url    string
		status int
	}{
		{"http://h1.synth.test/tse/synth/5.html", 200},
		{"http://h1.synth.test:8080/tse/synth/5.html", 200},
		{"http://h0.synth.test/tse/synth/5.html", 404},
		{"http://h0.synth.test/tse/synth/0.html", 200},
		{"http://h0.synth.test/robots.txt", 404},
	} {
		for _, proxy := range []bool{false, true} {
			r := httptest.NewRequest(http.MethodGet, tt.url, nil)
			if !proxy {
				r.URL.Host = ""
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != tt.status {
				t.Errorf("GET %s (proxy %v): %d, want %d", tt.url, proxy, w.Code, tt.status)
			}
		}
	}
	abs := regexp.MustCompile(`href="http://(h\d)\.synth\.test/tse/synth/(\d+)\.html"`)
	rel := regexp.MustCompile(`href="(\d+)\.html"`)
	across := 0
	for n := range s.Pages {
		page := s.Page(n)
		for _, m := range abs.FindAllSubmatch(page, -1) {
			k, _ := strconv.Atoi(string(m[2]))
			if want := "h" + strconv.Itoa(k%4); string(m[1]) != want || k%4 == n%4 {
				t.Errorf("page %d links to %s", n, m[0])
			}
			across++
		}
		for _, m := range rel.FindAllSubmatch(page, -1) {
			if k, _ := strconv.Atoi(string(m[1])); k%4 != n%4 {
				t.Errorf("page %d links to page %d on another host by a relative URL", n, k)
			}
		}
	}
	if across < 5*s.Pages {
		t.Errorf("%d links across hosts in %d pages, want most of them", across, s.Pages)
	}
	if !bytes.Equal(Site{Pages: 100, Seed: 3}.Page(7), Site{Pages: 100, Seed: 3, Hosts: 1}.Page(7)) {
		t.Error("a site of one host is not the site with no hosts")
	}
}
