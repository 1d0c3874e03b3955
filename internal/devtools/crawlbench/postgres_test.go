package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRewriteLinks(t *testing.T) {
	ext := externals{"http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"}
	for _, c := range []struct{ in, want string }{
		{`<a class="ulink" href="https://postgr.es/m/x@y" target="_top">https://postgr.es/m/x@y</a>`,
			`<a class="ulink" href="http://127.0.0.1:1/m/x@y" target="_top">https://postgr.es/m/x@y</a>`},
		{`<a href='http://en.wikipedia.org/wiki/SQL'>`, `<a href='http://127.0.0.1:2/wiki/SQL'>`},
		{`<a id="x"href="https://postgr.es/z">`, `<a id="x"href="http://127.0.0.1:1/z">`},
		{`<A HREF = https://www.gnu.org/software/>`, `<A HREF = http://127.0.0.1:3/www.gnu.org/software/>`},
		{`<img src="http://gist.cs.berkeley.edu:8080?q#f">`, `<img src="http://127.0.0.1:3/gist.cs.berkeley.edu:8080?q#f">`},
		{`<a href="https://POSTGR.ES">`, `<a href="http://127.0.0.1:1">`},
		// Not links: left as they are.
		{`<html xmlns="http://www.w3.org/1999/xhtml">`, `<html xmlns="http://www.w3.org/1999/xhtml">`},
		{`<a href="sql.html#x">see https://postgr.es</a>`, `<a href="sql.html#x">see https://postgr.es</a>`},
		{`<a data-href="https://postgr.es/x">`, `<a data-href="https://postgr.es/x">`},
	} {
		if got := string(rewriteLinks([]byte(c.in), ext.origin)); got != c.want {
			t.Errorf("rewriteLinks(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestServeExternal(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{http.MethodHead, "/m/x@y", 200},
		{http.MethodGet, "/www.gnu.org/", 200},
		{http.MethodGet, "/robots.txt", 200},
		{http.MethodHead, "/c/0f404c581", 404},
		{http.MethodGet, "/c/0f404c581", 404},
	} {
		w := httptest.NewRecorder()
		serveExternal(w, httptest.NewRequest(c.method, c.path, nil))
		if w.Code != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, w.Code, c.want)
		}
	}
}
