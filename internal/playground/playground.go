// Package playground serves a static copy of a web site the way the CS50
// playground's nginx server does, so that a crawl of the copy is a crawl of
// the real site. One handler answers both ordinary requests ("GET /tse/x")
// and forward-proxy requests ("GET http://any-host/tse/x"): the path picks
// the file either way, so a crawler pointed at it through HTTP_PROXY
// crawls the copy under the site's real URLs.
package playground

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Handler returns a handler that serves the files of fsys as nginx serves
// a document root:
//   - the percent-decoded URL path names the file, and the query is ignored;
//   - "/dir/" serves dir/index.html, and "/dir/index.html" is served as is;
//   - "/dir" is redirected (301) to "/dir/" on the host that was asked for;
//   - a path that names no file is a 404, a directory with no index.html a
//     403, and a path that climbs above the root a 400;
//   - every response carries Content-Type and Content-Length.
//
// Only GET and HEAD are allowed. To keep a symbolic link from escaping the
// site, serve an [os.Root]'s FS.
func Handler(fsys fs.FS) http.Handler {
	return &server{fsys: fsys}
}

type server struct {
	fsys fs.FS
}

// VirtualHosts returns a handler that serves several sites, one per host:
// a request for http://www.example.edu/x is served by Handler from the
// folder www.example.edu of fsys. The host is the request's (its URL's for
// a proxy request), lower-cased and without its port. A host with no
// folder is a 404.
func VirtualHosts(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == "" || !fs.ValidPath(host) || strings.ContainsAny(host, "/\\") || host == "." || host == ".." {
			httpError(w, r, http.StatusNotFound)
			return
		}
		if fi, err := fs.Stat(fsys, host); err != nil || !fi.IsDir() {
			httpError(w, r, http.StatusNotFound)
			return
		}
		sub, err := fs.Sub(fsys, host)
		if err != nil {
			httpError(w, r, http.StatusNotFound)
			return
		}
		Handler(sub).ServeHTTP(w, r)
	})
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpError(w, r, http.StatusMethodNotAllowed)
		return
	}
	dir, dirSlash, ok := fsPath(r.URL.Path)
	if !ok {
		httpError(w, r, http.StatusBadRequest)
		return
	}
	name := dir
	if dirSlash {
		name = path.Join(dir, "index.html")
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		if dirSlash && errors.Is(err, fs.ErrNotExist) {
			if fi, err := fs.Stat(s.fsys, dir); err == nil && fi.IsDir() {
				httpError(w, r, http.StatusForbidden) // nginx lists no directories
				return
			}
		}
		openError(w, r, err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		openError(w, r, err)
		return
	}
	if fi.IsDir() {
		if dirSlash {
			// an index.html that is a directory
			httpError(w, r, http.StatusForbidden)
			return
		}
		redirectToDir(w, r)
		return
	}
	if !fi.Mode().IsRegular() {
		httpError(w, r, http.StatusForbidden)
		return
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		httpError(w, r, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType(name))
	// ServeContent adds Content-Length, Last-Modified and range support, as
	// nginx does; unlike http.FileServer it never redirects.
	http.ServeContent(w, r, name, fi.ModTime(), content)
}

// fsPath turns a decoded URL path into an fs.FS name. It reports whether
// the path ended in a slash (so it names a directory's index), and fails if
// the path climbs above the root. Like nginx, it merges repeated slashes
// and removes dot segments first.
func fsPath(urlPath string) (name string, dirSlash, ok bool) {
	if urlPath == "" {
		urlPath = "/" // "GET http://host" through the proxy
	}
	if !strings.HasPrefix(urlPath, "/") {
		return "", false, false
	}
	var segs []string
	for seg := range strings.SplitSeq(urlPath[1:], "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", false, false
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, seg)
		}
	}
	last := urlPath[strings.LastIndexByte(urlPath, '/')+1:]
	dirSlash = last == "" || last == "." || last == ".."
	name = strings.Join(segs, "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		return "", false, false // a NUL or similar that no file can have
	}
	return name, dirSlash, true
}

// redirectToDir sends "/dir" to "/dir/", on the host the client asked for,
// keeping the query, as nginx does.
func redirectToDir(w http.ResponseWriter, r *http.Request) {
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	if r.TLS != nil {
		u.Scheme = "https"
	}
	u.Path += "/"
	if u.RawPath != "" {
		u.RawPath += "/"
	}
	u.Fragment, u.RawFragment = "", ""
	w.Header().Set("Location", u.String())
	httpError(w, r, http.StatusMovedPermanently)
}

// openError answers a file that cannot be opened: 403 if it may not be
// read, 404 otherwise, including a symbolic link out of the site.
func openError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, fs.ErrPermission) {
		httpError(w, r, http.StatusForbidden)
		return
	}
	httpError(w, r, http.StatusNotFound)
}

// httpError sends a small HTML page for a status, as nginx does, with its
// Content-Type and Content-Length.
func httpError(w http.ResponseWriter, r *http.Request, code int) {
	status := fmt.Sprintf("%d %s", code, http.StatusText(code))
	body := "<html>\r\n<head><title>" + status + "</title></head>\r\n<body>\r\n<center><h1>" + status + "</h1></center>\r\n<hr><center>playground</center>\r\n</body>\r\n</html>\r\n"
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		io.WriteString(w, body)
	}
}

// contentType returns the type nginx's stock mime.types gives a file name.
func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".html", ".htm", ".shtml":
		return "text/html"
	case ".txt":
		return "text/plain"
	case "":
		return "application/octet-stream"
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Log returns a handler that calls h and writes one line to w for each
// request, once it is answered:
//
//	1763780462.123456 2026-11-22T03:01:02.123456Z 0.000213s 200 GET http://host/tse/x.html "tse-crawler/1.0"
//
// The fields are the start time as Unix seconds (for scripts), the same
// time in UTC (for people), the time taken to answer, the status, the
// method, the absolute URL asked for, and the User-Agent. Lines are written
// whole, so concurrent requests never interleave within a line.
func Log(w io.Writer, h http.Handler) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: rw, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		took := time.Since(start)
		u := *r.URL
		if u.Host == "" {
			u.Scheme, u.Host = "http", r.Host
		}
		line := fmt.Sprintf("%d.%06d %s %.6fs %d %s %s %q\n",
			start.Unix(), start.Nanosecond()/1000,
			start.UTC().Format("2006-01-02T15:04:05.000000Z"),
			took.Seconds(), sw.status, r.Method, u.String(), r.UserAgent())
		mu.Lock()
		io.WriteString(w, line)
		mu.Unlock()
	})
}

// A statusWriter remembers the status a handler sent.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// ReadFrom keeps the sendfile path of the underlying writer.
func (s *statusWriter) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := s.ResponseWriter.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(s.ResponseWriter, r)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
