// Package wacz packs a finished WARC file into a WACZ 1.1.1 package: a
// zip that holds the WARC file itself (archive/data.warc.gz, stored, so
// that a reader can seek to any record), a CDXJ index of its captures
// (indexes/index.cdxj), the pages of the crawl (pages/pages.jsonl), and
// datapackage.json, which lists those files with their SHA-256 digests,
// and whose own digest datapackage-digest.json gives.
//
// A crawl writes its WARC file as it goes, and resumes by cutting it back;
// the package is made from it once, when the crawl ends. Package wacz
// writes it to any writer: the crawl writes it under a temporary name,
// which a crawl that resumes knows, and renames it into place once whole.
package wacz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"tse-crawler/internal/warc"
)

// WARCName is the name of the package's WARC file, in its archive
// directory, which the records of the WARC file it is made from name as
// theirs.
const WARCName = "data.warc.gz"

// The names of the package's files.
const (
	warcPath   = "archive/" + WARCName
	indexPath  = "indexes/index.cdxj"
	pagesPath  = "pages/pages.jsonl"
	dataPath   = "datapackage.json"
	digestPath = "datapackage-digest.json"
)

// maxTitle bounds what is read of a page for its title.
const maxTitle = 1 << 20

// A Package describes the package to make.
type Package struct {
	// WARC is the path of the finished WARC file, a .warc.gz of one gzip
	// member for each record, as package warc writes it.
	WARC string
	// Pages are the URLs of the pages the crawl saved, as the crawl keys
	// them. Each gets a line in pages.jsonl, from the first 200 response
	// to it that is HTML or XHTML, or says no Content-Type (which the
	// crawler sniffed), under its URL as its record names it.
	Pages []string
	// Requires are the paths of the earlier packages that the WARC file's
	// revisit records name (WARC-Refers-To-Container), which
	// datapackage.json lists, so that a replay tool given them all finds
	// what a revisit's payload is.
	Requires []string
	// Software names the crawler and its version, for datapackage.json.
	Software string
	// Now tells the time, for datapackage.json and the zip's entries.
	Now func() time.Time
}

// Pack writes the package to w. It reads the WARC file through once, for
// the index and the pages, before it writes anything, and again as it
// copies it into the package.
func (p Package) Pack(w io.Writer) error {
	recs, err := p.index()
	if err != nil {
		return err
	}
	return p.pack(w, recs)
}

// A capture is what the index and the pages need of a record.
type capture struct {
	typ, uri, date, digest string
	offset, length         int64
	status, mime           string // of an HTTP response
	page                   bool   // the first 200 HTML response to a page
	title                  string // of a page
}

// index reads the WARC file and returns its records, but warcinfo and
// request records, which the index leaves out.
func (p Package) index() ([]capture, error) {
	// Pages saved twice under one name on the wire were fetched twice,
	// and each has its line.
	pages := make(map[string]int, len(p.Pages))
	for _, u := range p.Pages {
		pages[matchKey(u)]++
	}
	var all []capture
	err := warc.Read(p.WARC, func(r warc.Record, block io.Reader) error {
		c := capture{
			typ:    r.Get("WARC-Type"),
			uri:    r.Get("WARC-Target-URI"),
			date:   r.Get("WARC-Date"),
			digest: r.Get("WARC-Payload-Digest"),
			offset: r.Offset,
		}
		switch {
		case c.typ == "response" && strings.HasPrefix(r.Get("Content-Type"), "application/http"):
			readResponse(&c, block, pages)
		case c.typ == "revisit":
			readRevisit(&c, block, pages)
		}
		all = append(all, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p.WARC)
	if err != nil {
		return nil, fmt.Errorf("reading WARC file: %w", err)
	}
	// Records lie end to end: each ends where the next begins.
	var recs []capture
	for i, c := range all {
		end := fi.Size()
		if i+1 < len(all) {
			end = all[i+1].offset
		}
		c.length = end - c.offset
		if c.typ == "response" || c.typ == "resource" || c.typ == "revisit" {
			recs = append(recs, c)
		}
	}
	return recs, nil
}

// readResponse reads the status and media type of the HTTP response in
// block, and if it is a page's the title, and takes the page from pages,
// so that it has one line.
func readResponse(c *capture, block io.Reader, pages map[string]int) {
	resp, err := http.ReadResponse(bufio.NewReader(block), nil)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	c.status = fmt.Sprint(resp.StatusCode)
	ct := resp.Header.Get("Content-Type")
	c.mime, _, _ = mime.ParseMediaType(ct)
	if c.mime == "" {
		c.mime = "unk"
	}
	key := matchKey(c.uri)
	if resp.StatusCode != http.StatusOK || ct != "" && !htmlType(ct) || pages[key] == 0 {
		return
	}
	pages[key]--
	c.page = true
	c.title = title(decode(resp.Body, resp.Header.Get("Content-Encoding")), ct)
}

// readRevisit reads what a revisit record's block holds, if anything:
// the head of the answer that was found unchanged. A page whose saved
// copy came from an earlier package, by a 304 or an identical payload,
// is listed as a page of this one, without a title, which only the
// earlier payload has.
func readRevisit(c *capture, block io.Reader, pages map[string]int) {
	c.mime = "warc/revisit" // as pywb's indexer writes it, and replay tools look for
	if resp, err := http.ReadResponse(bufio.NewReader(block), nil); err == nil {
		resp.Body.Close()
		c.status = fmt.Sprint(resp.StatusCode)
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "" && !htmlType(ct) {
			return
		}
	}
	if key := matchKey(c.uri); pages[key] > 0 {
		pages[key]--
		c.page = true
	}
}

// htmlType reports whether a Content-Type names HTML or XHTML, as the
// crawler reads it when it saves a page: one that package mime rejects
// is read up to its first ';'.
func htmlType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// matchKey returns the form of a URL in which a page's key and the
// WARC-Target-URI of its record are compared. The two differ: the
// reference mode keeps a link's raw bytes in its key (a backslash, an é),
// which the request line carries escaped, as net/url escapes a path and
// as a browser escapes a query; and html mode's key is sent as it is, so
// its record names it so, but net/url would escape a '|' in it. Both
// forms, read by net/url, then have the same escaped path, and the same
// query once escaped as on the wire. A URL that net/url cannot read is
// compared as it is.
func matchKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return raw
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/" // the request line's
	}
	key := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + path
	if u.ForceQuery || u.RawQuery != "" {
		key += "?" + escapeQuery(u.RawQuery)
	}
	return key
}

// escapeQuery percent-encodes the bytes of a query that a request line
// never carries as they are: controls, space, '"', '#', '<', '>', "'"
// and every byte from 0x7F, as a browser does, and the crawler on the
// wire. It leaves '%' alone, so a query escaped once is as it was.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := range len(q) {
		if c := q[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"#<>'`, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decode removes the content coding of body, or returns nil for one it
// does not know.
func decode(body io.Reader, coding string) io.Reader {
	switch strings.ToLower(strings.TrimSpace(coding)) {
	case "", "identity":
		return body
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(body)
		if err != nil {
			return nil
		}
		return z
	case "deflate":
		return flate.NewReader(body)
	}
	return nil
}

// title returns the text of the page's first title element, its white
// space collapsed, or "".
func title(body io.Reader, contentType string) string {
	if body == nil {
		return ""
	}
	r, err := charset.NewReader(io.LimitReader(body, maxTitle), contentType)
	if err != nil {
		return ""
	}
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) != atom.Title {
				continue
			}
			if z.Next() != html.TextToken {
				return ""
			}
			return strings.Join(strings.Fields(string(z.Text())), " ")
		}
	}
}

// A resource is a file of the package, as datapackage.json lists it.
type resource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Bytes int64  `json:"bytes"`
}

// A relation names the packages a package needs, in datapackage.json,
// as replay tools read it.
type relation struct {
	Requires []required `json:"requires"`
}

// A required package is named by its file's name and digest.
type required struct {
	Filename string `json:"filename"`
	Hash     string `json:"hash"`
	Bytes    int64  `json:"bytes"`
}

// relation returns the packages that p requires, or nil.
func (p Package) relation() (*relation, error) {
	if len(p.Requires) == 0 {
		return nil, nil
	}
	rel := new(relation)
	for _, path := range p.Requires {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading the earlier package: %w", err)
		}
		h := sha256.New()
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the earlier package %s: %w", path, err)
		}
		rel.Requires = append(rel.Requires, required{Filename: filepath.Base(path), Hash: sum(h), Bytes: n})
	}
	return rel, nil
}

// pack writes the package to out.
func (p Package) pack(out io.Writer, recs []capture) error {
	now := p.Now().UTC()
	zw := zip.NewWriter(out)
	var res []resource
	add := func(name string, method uint16, write func(io.Writer) error) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: now})
		if err != nil {
			return err
		}
		h := sha256.New()
		n := &counter{w: io.MultiWriter(w, h)}
		if err := write(n); err != nil {
			return err
		}
		if name != dataPath && name != digestPath {
			res = append(res, resource{Name: filepath.Base(name), Path: name, Hash: sum(h), Bytes: n.n})
		}
		return nil
	}
	err := add(warcPath, zip.Store, func(w io.Writer) error {
		f, err := os.Open(p.WARC)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
	if err != nil {
		return err
	}
	if err := add(indexPath, zip.Deflate, func(w io.Writer) error { return writeIndex(w, recs) }); err != nil {
		return err
	}
	if err := add(pagesPath, zip.Deflate, func(w io.Writer) error { return writePages(w, recs) }); err != nil {
		return err
	}
	rel, err := p.relation()
	if err != nil {
		return err
	}
	data, err := marshal(struct {
		Profile   string     `json:"profile"`
		Version   string     `json:"wacz_version"`
		Created   string     `json:"created"`
		Software  string     `json:"software"`
		Resources []resource `json:"resources"`
		Relation  *relation  `json:"relation,omitempty"`
	}{"data-package", "1.1.1", now.Format(time.RFC3339), p.Software, res, rel})
	if err != nil {
		return err
	}
	if err := add(dataPath, zip.Deflate, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return err
	}
	h := sha256.Sum256(data)
	digest, err := marshal(struct {
		Path string `json:"path"`
		Hash string `json:"hash"`
	}{dataPath, "sha256:" + hex.EncodeToString(h[:])})
	if err != nil {
		return err
	}
	if err := add(digestPath, zip.Deflate, func(w io.Writer) error { _, err := w.Write(digest); return err }); err != nil {
		return err
	}
	return zw.Close()
}

// writeIndex writes the CDXJ index: a line for each capture, sorted by
// SURT key, then timestamp, then as bytes. Readers look a URL up by
// binary search, over lines sorted as LC_ALL=C sort sorts them, so the
// captures of one URL in one second are in the order of their JSON, not
// of the file.
func writeIndex(w io.Writer, recs []capture) error {
	lines := make([]string, 0, len(recs))
	for _, c := range recs {
		j, err := marshal(struct {
			URL      string `json:"url"`
			Mime     string `json:"mime,omitempty"`
			Status   string `json:"status,omitempty"`
			Digest   string `json:"digest,omitempty"`
			Length   int64  `json:"length"`
			Offset   int64  `json:"offset"`
			Filename string `json:"filename"`
		}{c.uri, c.mime, c.status, c.digest, c.length, c.offset, WARCName})
		if err != nil {
			return err
		}
		// No key holds a space, so whole lines sort by key and
		// timestamp first.
		lines = append(lines, surt(c.uri)+" "+timestamp(c.date)+" "+string(j))
	}
	slices.Sort(lines)
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// writePages writes pages.jsonl: its header line, then a line for each
// page, in the order of the WARC file.
func writePages(w io.Writer, recs []capture) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` + "\n")
	for _, c := range recs {
		if !c.page {
			continue
		}
		j, err := marshal(struct {
			URL   string `json:"url"`
			TS    string `json:"ts"`
			Title string `json:"title"`
		}{c.uri, c.date, c.title})
		if err != nil {
			return err
		}
		bw.Write(j)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// marshal encodes v as JSON on one line, with <, > and & as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// timestamp turns a WARC-Date into the 14 digits of a CDXJ timestamp.
func timestamp(date string) string {
	t, err := time.Parse(time.RFC3339Nano, date)
	if err != nil {
		return "00000000000000"
	}
	return t.UTC().Format("20060102150405")
}

// surt returns the SURT form of a URL, the key that indexes sort by: the
// host's labels reversed and joined by commas, without "www" and a
// default port, then ")" and the path and query, all in lower case, the
// query's parameters sorted and the fragment dropped, as in
// "org,example)/a/b?x=1&y=2".
func surt(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.ToLower(raw)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	host = strings.TrimPrefix(host, "www.")
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	key := strings.Join(labels, ",")
	if port := u.Port(); port != "" && !(u.Scheme == "http" && port == "80" || u.Scheme == "https" && port == "443") {
		key += ":" + port
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	key += ")" + path
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		slices.Sort(params)
		key += "?" + strings.Join(params, "&")
	}
	return strings.ToLower(key)
}

// sum returns the labelled hex SHA-256 digest that h has summed.
func sum(h hash.Hash) string {
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// A counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
