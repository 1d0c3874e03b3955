package pagefetch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"tse-crawler/internal/earlier"
	"tse-crawler/internal/warc"
)

// errEarlierUnread says that a server found a page unchanged since the
// earlier archive's capture, whose body could then not be read from the
// archive. The page is asked for again without validators, so that a
// damaged archive costs a request, not the page.
var errEarlierUnread = errors.New("the earlier archive's copy cannot be read")

// errNotConfirmed says that a server answered the validators of the
// earlier archive's capture with neither a change nor a 304 that confirms
// that capture: a 412, which no GET's If-None-Match or If-Modified-Since
// calls for, or a 304 that names another ETag or Last-Modified. The page
// is asked for again without validators, as it would be without -since.
var errNotConfirmed = errors.New("the server's answer does not say whether the earlier capture is current")

// A revalidation is a request for a URL that the earlier archive has a
// capture of, which carries that capture's validators if it has any.
type revalidation struct {
	capture earlier.Capture
	// asked says that the request carries validators: only then is a 304
	// an answer about the capture. A request without them is still one
	// whose 200 with the capture's payload revisits it.
	asked bool
}

// revalidate adds to req, a GET of kind k, the validators of the earlier
// archive's capture of its URL, and returns that capture, or nil if there
// is none: no archive, another kind of request, or no capture. A capture
// that cannot be looked up is warned about and the request goes without.
func (f *Fetcher) revalidate(req *http.Request, k kind) *revalidation {
	if f.Since == nil || req.Method != http.MethodGet || k != page && k != requisite {
		return nil
	}
	uri := wireURI(req)
	c, ok, err := f.Since.Lookup(uri)
	if err != nil {
		f.warn(fmt.Sprintf("-since: %s is fetched whole, since its earlier capture cannot be read: %v", uri, err))
		return nil
	}
	if !ok {
		return nil
	}
	r := &revalidation{capture: c, asked: c.ETag != "" || c.LastModified != ""}
	if err := r.revisit().Check(); err != nil {
		// A record another writer wrote, which a revisit record could
		// not name: a 304 could then not be recorded.
		if r.asked {
			f.warn(fmt.Sprintf("-since: %s is fetched whole, since its earlier capture cannot be named in a revisit record: %v", uri, err))
		}
		return nil
	}
	if !r.asked {
		return r
	}
	// Both when both exist, as RFC 9110 (13.1.3) asks of a client that
	// has them: a server that knows only one uses that one.
	if c.ETag != "" {
		req.Header.Set("If-None-Match", c.ETag)
	}
	if c.LastModified != "" {
		req.Header.Set("If-Modified-Since", c.LastModified)
	}
	return r
}

// revisit returns what an exchange that revalidated the capture names of
// it in a revisit record.
func (r *revalidation) revisit() *warc.Revisit {
	c := r.capture
	rv := &warc.Revisit{TargetURI: c.URI, Date: c.Date, RecordID: c.RecordID, PayloadDigest: c.PayloadDigest}
	if strings.EqualFold(filepath.Ext(c.Archive), ".wacz") {
		rv.Container = filepath.Base(c.Archive)
	}
	return rv
}

// unchanged returns, for a 304 that answered a revalidation, the earlier
// capture's response as if the server had sent it again: its status and
// body, and its header updated with the 304's, as a cache updates a
// stored response (RFC 9111, 4.3.4), but for the fields that frame the
// body, which is the earlier one, decoded. The 304's body, which it may
// not have, is drained first.
func (f *Fetcher) unchanged(res *http.Response, r *revalidation) (*http.Response, error) {
	io.CopyN(io.Discard, res.Body, drainMax)
	most := int64(math.MaxInt64)
	if f.MaxSize > 0 {
		most = f.MaxSize + 1 // one past, so that a page too large still fails as too large
	}
	code, h, body, err := f.Since.Response(r.capture, most)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errEarlierUnread, err)
	}
	for name, values := range res.Header {
		switch name {
		case "Content-Length", "Content-Encoding", "Transfer-Encoding", "Content-Type", "Content-Range":
			continue
		}
		h[name] = values
	}
	h.Del("Content-Encoding")
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return &http.Response{
		StatusCode:    code,
		Status:        fmt.Sprintf("%d %s", code, http.StatusText(code)),
		Proto:         res.Proto,
		ProtoMajor:    res.ProtoMajor,
		ProtoMinor:    res.ProtoMinor,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       res.Request,
	}, nil
}

// confirmed returns an error wrapping errNotConfirmed if res, the answer
// to the revalidation r, is a 412, or a 304 that cannot be taken to
// confirm r's capture: one whose ETag differs from the capture's, by the
// weak comparison of RFC 9110 (8.8.3.2), or that names an ETag where the
// capture has none, or, with no ETag, whose Last-Modified differs from
// the capture's, or that has one where the capture has none. RFC
// 9111 (4.3.4) has a cache update only the stored response that a 304's
// validator selects, and by a 304 without one the stored response alone.
func (r *revalidation) confirmed(res *http.Response) error {
	c := r.capture
	switch {
	case !r.asked:
		return nil
	case res.StatusCode == http.StatusPreconditionFailed:
		return fmt.Errorf("%w: it answered the validators with %s", errNotConfirmed, res.Status)
	case res.StatusCode != http.StatusNotModified:
		return nil
	}
	switch etag := res.Header.Get("ETag"); {
	case etag != "" && c.ETag == "":
		// The capture was asked for by its date alone, which a server
		// that tags the page now may find current all the same.
		return fmt.Errorf("%w: its 304 names the ETag %s, where the earlier capture has none", errNotConfirmed, etag)
	case etag != "" && weakTag(etag) != weakTag(c.ETag):
		return fmt.Errorf("%w: its 304 names the ETag %s, not the earlier %s", errNotConfirmed, etag, c.ETag)
	case etag != "":
		return nil
	}
	switch lm := res.Header.Get("Last-Modified"); {
	case lm != "" && c.LastModified == "":
		return fmt.Errorf("%w: its 304 names the Last-Modified %s, where the earlier capture has none", errNotConfirmed, lm)
	case lm != "" && !sameTime(lm, c.LastModified):
		return fmt.Errorf("%w: its 304 names the Last-Modified %s, not the earlier %s", errNotConfirmed, lm, c.LastModified)
	}
	return nil
}

// sameTime reports whether two HTTP dates name the same time: written
// alike, or in any of the three forms RFC 9110 (5.6.7) allows.
func sameTime(a, b string) bool {
	if a == b {
		return true
	}
	t1, err1 := http.ParseTime(a)
	t2, err2 := http.ParseTime(b)
	return err1 == nil && err2 == nil && t1.Equal(t2)
}

// weakTag returns an entity tag without the W/ that marks it weak, for
// the weak comparison; without its quotes, which a careless server may
// leave out of one answer and not another; and without the "-gzip" or
// "-br" that Apache's mod_deflate and mod_brotli add to the tag of a
// compressed answer: Apache answers a request for either coding with the
// tag of its own, and finds the other's tag current, as an archive asked
// for identity holds it.
func weakTag(etag string) string {
	etag = strings.Trim(strings.TrimPrefix(strings.TrimSpace(etag), "W/"), `"`)
	for _, suffix := range []string{"-gzip", "-br"} {
		if strings.HasSuffix(etag, suffix) && len(etag) > len(suffix) {
			return etag[:len(etag)-len(suffix)]
		}
	}
	return etag
}
