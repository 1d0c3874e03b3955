// Package sitefolder serves a folder of a site's files to the crawler's
// own HTTP client, in-process, as a static web server would serve it: no
// socket, no port and no network, so that a link check of a folder
// (crawler -check DIR) runs the crawl and the check of a site unchanged,
// and runs where there is no network at all.
//
// The folder is published at a base URL, its origin and a path ending in
// '/': where the user says it is (-base), so that absolute links to it are
// checked in the folder, or else at an origin no real host can have
// (Reserved). A request for the base URL's origin and a path under it is
// answered from the folder; any other goes to the next RoundTripper, the
// network.
//
// Every file is read through an [os.Root], so nothing outside the folder
// is read, whatever a URL says: ".." cannot climb out, and a symbolic
// link is followed only while it stays inside, and only if its target is
// a relative path. A link out, to an absolute path, or in a loop, is
// answered 403 and warned of, never followed.
package sitefolder

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"tse-crawler/internal/browserurl"
)

// Reserved is where a folder is published when no base URL is given: the
// .invalid top-level domain is never a real host (RFC 6761).
const Reserved = "http://folder.invalid/"

// A Folder is a folder of a site's files, published at a base URL. It is
// safe for concurrent use.
type Folder struct {
	dir  string // as the user gave it, for messages
	root *os.Root
	base *url.URL
	// prefix is base as a browser serializes it, which begins the key of
	// every URL in the folder.
	prefix string
	// Warn, if set, is told once of each path that leads out of the
	// folder, or in a loop, or cannot be read.
	Warn func(msg string)

	mu     sync.Mutex
	warned map[string]bool
}

// ParseBase returns base, an http or https URL whose path names a
// folder, as a browser serializes it, ending in '/': "HTTPS://Example.org/docs"
// is "https://example.org/docs/". "" is Reserved.
func ParseBase(base string) (string, error) {
	if base == "" {
		return Reserved, nil
	}
	prefix, err := browserurl.Canonical(base)
	if err != nil {
		return "", fmt.Errorf("-base %q is %v: give where the folder is published, such as https://example.org/docs/", base, err)
	}
	u, err := url.Parse(prefix)
	if err != nil || u.User != nil || u.RawQuery != "" || u.ForceQuery || strings.Contains(prefix, "#") {
		return "", fmt.Errorf("-base %s has a user, a query or a fragment: give the folder's URL alone, such as https://example.org/docs/", base)
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return prefix, nil
}

// Open opens the folder dir, published at base (see ParseBase).
func Open(dir, base string) (*Folder, error) {
	prefix, err := ParseBase(base)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(prefix)
	if err != nil {
		return nil, fmt.Errorf("-base %s: %w", base, err)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder: give a folder of HTML files, or a site's URL with its scheme", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: give a folder of HTML files you can read", err)
	}
	return &Folder{dir: dir, root: root, base: u, prefix: prefix, warned: make(map[string]bool)}, nil
}

// Close closes the folder.
func (f *Folder) Close() error { return f.root.Close() }

// Base returns the URL the folder is published at, serialized as links
// are keyed, ending in '/'.
func (f *Folder) Base() string { return f.prefix }

// Host returns the host the folder is published on, as requests name it.
func (f *Folder) Host() string { return f.base.Host }

// Pages returns the URL of every .html or .htm file under the folder, in
// any case, sorted: each a page to check, whether a link reaches it or
// not. Folders are walked, symbolic links to folders are not (a loop
// cannot trap the walk), and a file that is a symbolic link is taken
// only if it leads to a file in the folder. A file or folder that cannot
// be read is warned of and left out; if every page is, Pages says so.
func (f *Folder) Pages() ([]string, error) {
	var pages []string
	unread := 0
	err := fs.WalkDir(f.root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == "." {
				return fmt.Errorf("reading the folder %s: %w", f.dir, err)
			}
			f.warn(name, err)
			return fs.SkipDir
		}
		if d.IsDir() || !isHTML(name) {
			return nil
		}
		if err := f.readable(name); err != nil {
			f.warn(name, err)
			unread++
			return nil
		}
		pages = append(pages, f.urlOf(name))
		return nil
	})
	if err == nil && len(pages) == 0 && unread > 0 {
		err = fmt.Errorf("the folder %s holds %d .html or .htm file%s, and none it can read: see the warning above of each for what to do", f.dir, unread, plural(unread))
	}
	slices.Sort(pages)
	return pages, err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// readable returns why the file name cannot be served, or nil.
func (f *Folder) readable(name string) error {
	file, err := f.open(name)
	if err != nil {
		return err
	}
	return file.Close()
}

// isHTML says whether the file name is one of a site's pages by its
// extension.
func isHTML(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".html" || ext == ".htm"
}

// urlOf returns the URL of the file name, a slash-separated path in the
// folder, as FileKey gives it.
func (f *Folder) urlOf(name string) string {
	return f.prefix + escapeName(name)
}

// FileKey returns the key of the file that a static web server answers
// key with, a URL as the crawl keys it, under prefix (see ParseBase): one
// key for every URL of the file, however its path is escaped
// ("%C3%A9.html", "%c3%a9.html" and "é.html" are one file to the server,
// which decodes the path), without the query the server ignores, and
// for a folder ("sub/") its index.html's. Any other key is returned as
// it is.
func FileKey(prefix, key string) string {
	rest, ok := strings.CutPrefix(key, prefix)
	if !ok {
		return key
	}
	rest, _, _ = strings.Cut(rest, "?")
	// A "%2F" is no '/' to a browser, which resolves the page's links
	// from the folder the path names without it, so such a path keeps
	// its escapes, as does one the server refuses (400). A "//" stays
	// too: the browser resolves "../" from sub//a.html to sub/.
	if name, err := url.PathUnescape(rest); err == nil && !strings.Contains(strings.ToLower(rest), "%2f") {
		rest = escapeName(name)
	}
	if rest == "" || strings.HasSuffix(rest, "/") {
		rest += "index.html"
	}
	return prefix + rest
}

// escapeName percent-encodes every byte of name but ASCII letters and
// digits, '-', '.', '_', '~' and '/': the one escaping of a file's
// path that its keys share.
func escapeName(name string) string {
	plain := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0
	}
	i := 0
	for i < len(name) && plain(name[i]) {
		i++
	}
	if i == len(name) {
		return name
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString(name[:i])
	for ; i < len(name); i++ {
		if c := name[i]; plain(c) {
			b.WriteByte(c)
		} else {
			b.Write([]byte{'%', hex[c>>4], hex[c&15]})
		}
	}
	return b.String()
}

// Name returns how a report names the URL u: as a path in the folder, as
// the user sees it on disk ("sub/a b.html#x"), if u is in it, else u
// itself. The folder itself is "./".
func (f *Folder) Name(u string) string {
	rest, ok := strings.CutPrefix(u, f.prefix)
	if !ok {
		return u
	}
	end := strings.IndexAny(rest, "?#")
	if end < 0 {
		end = len(rest)
	}
	p, err := url.PathUnescape(rest[:end])
	if err != nil {
		p = rest[:end]
	}
	if p == "" {
		p = "./"
	}
	return p + rest[end:]
}

// Transport returns a RoundTripper that answers the requests for the
// folder's URLs from the folder, and sends any other to next.
func (f *Folder) Transport(next http.RoundTripper) http.RoundTripper {
	return &transport{f: f, next: next}
}

type transport struct {
	f    *Folder
	next http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	p, rel, query, ok := t.f.target(req.URL)
	if !ok {
		return t.next.RoundTrip(req)
	}
	if req.Body != nil {
		req.Body.Close()
	}
	return t.f.serve(req, p, rel, query), nil
}

// Serves says whether a request for u is the folder's to answer, and its
// Transport's: u is under the base URL. Any other, on the base's host or
// another, is the web's.
func (f *Folder) Serves(u *url.URL) bool {
	_, _, _, ok := f.target(u)
	return ok
}

// target returns the escaped path and the query of a request for u, and
// the path's part under the base path, or false if u is not under the
// base URL.
func (f *Folder) target(u *url.URL) (p, rel, query string, ok bool) {
	p, query = requestTarget(u)
	rel, ok = strings.CutPrefix(p, f.base.EscapedPath())
	ok = ok && u.Scheme == f.base.Scheme && u.Host == f.base.Host
	return p, rel, query, ok
}

// requestTarget returns the path of the request for u, percent-encoded
// as it would be sent, and its query, without the '?'.
func requestTarget(u *url.URL) (p, query string) {
	if u.Opaque == "" {
		return u.EscapedPath(), u.RawQuery
	}
	// The crawler sends a path as a browser serialized it, byte for
	// byte, as Opaque: "/a%2fb?q", or "//host/a?q" through a proxy.
	target := u.Opaque
	if rest, ok := strings.CutPrefix(target, "//"); ok {
		target = "/"
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			target = rest[i:]
		}
	}
	p, query, _ = strings.Cut(target, "?")
	return p, query
}

// serve answers req for the escaped path p, whose part under the base
// path is rel, as nginx serves a document root: "dir" is redirected to
// "dir/", which serves dir/index.html; a folder without one is 404.
func (f *Folder) serve(req *http.Request, p, rel, query string) *http.Response {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return f.answer(req, http.StatusMethodNotAllowed, nil)
	}
	name, err := url.PathUnescape(rel)
	if err != nil || strings.IndexByte(name, 0) >= 0 {
		return f.answer(req, http.StatusBadRequest, nil)
	}
	slash := name == "" || strings.HasSuffix(name, "/")
	// "//a.html" is a.html, as a static server that merges slashes
	// serves it: the root takes no path that begins with '/'.
	name = strings.Trim(name, "/")
	if name == "" {
		name = "."
	}
	fi, err := f.stat(name)
	if err != nil {
		return f.failed(req, name, err)
	}
	if fi.IsDir() {
		if !slash {
			loc := f.base.Scheme + "://" + f.base.Host + p + "/"
			if query != "" {
				loc += "?" + query
			}
			resp := f.answer(req, http.StatusMovedPermanently, nil)
			resp.Header.Set("Location", loc)
			return resp
		}
		name = path.Join(name, "index.html")
	} else if slash {
		return f.answer(req, http.StatusNotFound, nil) // a file is no folder
	}
	file, err := f.open(name)
	if err != nil {
		return f.failed(req, name, err)
	}
	resp := f.answer(req, http.StatusOK, nil)
	resp.Header.Set("Content-Type", contentType(name))
	resp.Header.Set("Content-Length", strconv.FormatInt(file.size, 10))
	resp.ContentLength = file.size
	if req.Method == http.MethodHead {
		file.Close()
		return resp
	}
	resp.Body = file
	return resp
}

// A servedFile is a regular file, open, and its size.
type servedFile struct {
	*os.File
	size int64
}

// open opens the file name in the folder, a regular file, after checking
// that no folder on its way is one of the folders before it (a symbolic
// link in a loop, such as "self -> ."), which would give the site
// endless URLs. It is opened without blocking, so that a FIFO that takes
// its place cannot stall the check.
func (f *Folder) open(name string) (*servedFile, error) {
	if err := f.loopless(path.Dir(name)); err != nil {
		return nil, err
	}
	file, err := f.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := file.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: name, Err: errNotFile}
	}
	if err != nil {
		file.Close()
		return nil, err
	}
	return &servedFile{file, fi.Size()}, nil
}

// stat returns what name is, a file or a folder, with the check of open,
// made first: a path through a loop is refused, whether or not its last
// name is there.
func (f *Folder) stat(name string) (fs.FileInfo, error) {
	if err := f.loopless(path.Dir(name)); err != nil {
		return nil, err
	}
	fi, err := f.root.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		err = f.loopless(name)
	}
	return fi, err
}

var (
	errNotFile = errors.New("not a regular file")
	errLoop    = errors.New("a symbolic link in a loop: the folder is one of the folders that lead to it")
)

// loopless returns errLoop if a folder on the way to dir, dir included,
// is the same as one before it.
func (f *Folder) loopless(dir string) error {
	if dir == "." {
		return nil
	}
	var seen []fs.FileInfo
	p := "."
	for i, seg := range append([]string{""}, strings.Split(dir, "/")...) {
		if i > 0 && (seg == "" || seg == ".") {
			continue // "a//b" or "a/./b" is a/b, no folder twice
		}
		p = path.Join(p, seg)
		fi, err := f.root.Stat(p)
		if err != nil {
			return err
		}
		for _, s := range seen {
			if os.SameFile(s, fi) {
				return &fs.PathError{Op: "open", Path: p, Err: errLoop}
			}
		}
		seen = append(seen, fi)
	}
	return nil
}

// failed answers a file that cannot be served: 404 if it is not there,
// as a name too long for the file system cannot be, else 403, having
// warned of it.
func (f *Folder) failed(req *http.Request, name string, err error) *http.Response {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ENAMETOOLONG) {
		return f.answer(req, http.StatusNotFound, nil)
	}
	f.warn(name, err)
	return f.answer(req, http.StatusForbidden, nil)
}

// warn tells Warn, once for each name, why name cannot be read.
func (f *Folder) warn(name string, err error) {
	f.mu.Lock()
	seen := f.warned[name]
	f.warned[name] = true
	f.mu.Unlock()
	if seen || f.Warn == nil {
		return
	}
	var fix string
	switch {
	case errors.Is(err, fs.ErrPermission):
		fix = "give the crawler's user permission to read it"
	case errors.Is(err, errNotFile):
		fix = "make it a regular file"
	default:
		fix = "make it a file or folder inside " + f.dir
		if link, ok := f.absoluteInside(name); ok {
			fix = link + " is a symbolic link to an absolute path: make it relative, such as with ln -sr, to have it followed"
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	f.Warn(fmt.Sprintf("%s in the folder %s is not read: %v; links to it are reported broken (403): %s", name, f.dir, err, fix))
}

// absoluteInside returns the first symbolic link on the way to name
// whose target is an absolute path in the folder, which the folder does
// not follow, though a web server would, and true; or false if there is
// none. It reads the links through the root, so a link out of the
// folder, the reason then, ends the way: what lies beyond is not read.
func (f *Folder) absoluteInside(name string) (string, bool) {
	top, err := filepath.EvalSymlinks(f.dir)
	if err != nil {
		return "", false
	}
	p := ""
	for _, seg := range strings.Split(name, "/") {
		p = path.Join(p, seg)
		fi, err := f.root.Lstat(p)
		if err != nil {
			return "", false
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := f.root.Readlink(p)
		if err != nil || !filepath.IsAbs(target) {
			continue
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			return "", false
		}
		rel, err := filepath.Rel(top, real)
		inside := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
		return p, inside
	}
	return "", false
}

// answer returns a response to req with code and body (nil for none).
func (f *Folder) answer(req *http.Request, code int, body io.ReadCloser) *http.Response {
	if body == nil {
		body = http.NoBody
	}
	return &http.Response{
		Status:     fmt.Sprintf("%d %s", code, http.StatusText(code)),
		StatusCode: code,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     make(http.Header),
		Body:       body,
		Request:    req,
	}
}

// contentType returns the type nginx's stock mime.types gives a file
// name, for the types a crawl or a check tells apart, without a charset,
// which a page's own <meta> then gives, as when nginx serves it.
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm", ".shtml":
		return "text/html"
	case ".xhtml":
		return "application/xhtml+xml"
	case ".css":
		return "text/css"
	case ".js", ".mjs":
		return "application/javascript"
	case ".json":
		return "application/json"
	case ".xml":
		return "text/xml"
	case ".txt":
		return "text/plain"
	case ".svg", ".svgz":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".ico":
		return "image/x-icon"
	case ".woff":
		return "font/woff"
	case ".woff2":
		return "font/woff2"
	case ".pdf":
		return "application/pdf"
	}
	return "application/octet-stream"
}
