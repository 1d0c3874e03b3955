package pagefetch_test

import (
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"tse-crawler/internal/pagefetch"
)

// TestRefused checks that Refused answers only what FetchPage would, with
// no request and no wait: a URL robots.txt disallows, or a host it forbids,
// once its robots.txt was read; nil for a URL it allows, for one whose
// robots.txt was never read, and without robots.txt obeyed.
func TestRefused(t *testing.T) {
	tests := []struct {
		name   string
		robots string // the robots.txt; "503" answers 503
		obey   bool
		record bool
		url    string // the path of the URL asked, after /ok.html read robots.txt
		want   pagefetch.Kind
		err    error // nil: Refused returns nil
	}{
		{"disallowed", "User-agent: *\nDisallow: /no/\n", true, false, "/no/p.html", pagefetch.Disallowed, pagefetch.ErrDisallowed},
		{"disallowed as served", "User-agent: *\nDisallow: /no/\n", true, false, "/x/%2e%2e/no/p.html", pagefetch.Disallowed, pagefetch.ErrDisallowed},
		{"disallowed, recorded", "User-agent: *\nDisallow: /no/\n", true, true, "/no/p.html", pagefetch.Disallowed, pagefetch.ErrDisallowed},
		{"allowed", "User-agent: *\nDisallow: /no/\n", true, false, "/yes.html", 0, nil},
		{"not obeyed", "User-agent: *\nDisallow: /no/\n", false, false, "/no/p.html", 0, nil},
		{"host forbidden", "503", true, false, "/p.html", pagefetch.Failed, pagefetch.ErrRobotsUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/robots.txt" && tt.robots == "503":
					w.WriteHeader(http.StatusServiceUnavailable)
				case r.URL.Path == "/robots.txt":
					w.Header().Set("Content-Type", "text/plain")
					w.Write([]byte(tt.robots))
				default:
					w.Write([]byte("<p>page</p>"))
				}
			}))
			client := loopbackClient(t)
			if tt.record {
				client = pagefetch.NewClient(pagefetch.ClientOptions{LoopbackOnly: true, Timeout: 10 * time.Second, Capture: true})
				t.Cleanup(client.CloseIdleConnections)
			}
			f := newFetcher(client)
			f.Robots, f.Record = tt.obey, tt.record
			if p := f.Refused(srv.URL + tt.url); p != nil {
				t.Fatalf("Refused before robots.txt was read = %+v, want nil", p)
			}
			first, _ := f.FetchPage(t.Context(), srv.URL+"/ok.html")
			first.Close()
			asked := len(rec.requested())

			got := f.Refused(srv.URL + tt.url)
			if n := len(rec.requested()); n != asked {
				t.Errorf("Refused sent %d requests", n-asked)
			}
			if tt.err == nil {
				if got != nil {
					t.Fatalf("Refused = %+v, want nil", got)
				}
				return
			}
			if got == nil {
				t.Fatal("Refused = nil, want a page")
			}
			want, err := f.FetchPage(t.Context(), srv.URL+tt.url)
			if n := len(rec.requested()); n != asked {
				t.Errorf("FetchPage sent %d requests", n-asked)
			}
			if got.Kind != tt.want || !errors.Is(got.Err, tt.err) || got.Err.Error() != err.Error() || got.URL != want.URL {
				t.Errorf("Refused = %v, %v, %q; FetchPage = %v, %v, %q; want %v, %v", got.Kind, got.Err, got.URL, want.Kind, err, want.URL, tt.want, tt.err)
			}
			if !reflect.DeepEqual(got.Recording, want.Recording) {
				t.Errorf("Refused's recording = %+v, FetchPage's = %+v", got.Recording, want.Recording)
			}
			if tt.record && (got.Recording == nil || got.Recording.RobotsOrigin != srv.URL) {
				t.Errorf("Refused's recording = %+v, want the robots.txt of %s obeyed", got.Recording, srv.URL)
			}
		})
	}
}
