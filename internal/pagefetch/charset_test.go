package pagefetch_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestFetchPageCharset checks the charset FetchPage reads from a page's
// Content-Type: as written, unquoted, and the first of two; the body is
// left as it came.
func TestFetchPageCharset(t *testing.T) {
	tests := []struct {
		ctype, want string
	}{
		{"text/html", ""},
		{"-", ""}, // none: the body sniffs as HTML
		{"text/html; charset=ISO-8859-1", "ISO-8859-1"},
		{"TEXT/HTML; CHARSET=Shift_JIS", "Shift_JIS"},
		{`text/html; charset="windows-1252"`, "windows-1252"},
		{"text/html;charset=windows-1252;", "windows-1252"},
		{"text/html; charset=euc-jp; charset=utf-8", "euc-jp"},
		{"application/xhtml+xml; charset=gb18030", "gb18030"},
	}
	const body = "<html><a href=\"caf\xe9.html\">caf\xe9</a></html>"
	for _, tt := range tests {
		t.Run(tt.ctype, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.ctype == "-" {
					w.Header()["Content-Type"] = nil // keep net/http from sniffing one
				} else {
					w.Header().Set("Content-Type", tt.ctype)
				}
				w.Write([]byte(body))
			}))
			defer srv.Close()
			p, err := newFetcher(loopbackClient(t)).FetchPage(t.Context(), srv.URL+"/p.html")
			if err != nil {
				t.Fatal(err)
			}
			if string(p.Body) != body || p.HeaderCharset() != tt.want {
				t.Errorf("FetchPage with Content-Type %q = %q, charset %q; want %q, charset %q", tt.ctype, p.Body, p.HeaderCharset(), body, tt.want)
			}
		})
	}
}
