package warc

// An independent reader of WARC files, written from the WARC 1.1 standard
// (ISO 28500:2017, as the IIPC publishes it) and RFC 1952, to check what a
// Writer writes. It shares no code with the package: it finds records by
// their own framing, recomputes the digests, takes payloads from HTTP
// messages with net/http's own chunked reader, and checks the pairing of
// requests and responses.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A rec is a record as the test reader finds it.
type rec struct {
	offset int64       // where it starts in the file
	fields [][2]string // named fields, in order
	block  []byte
}

// values returns the values of the fields named name.
func (r rec) values(name string) []string {
	var vs []string
	for _, f := range r.fields {
		if strings.EqualFold(f[0], name) {
			vs = append(vs, f[1])
		}
	}
	return vs
}

// get returns the value of the field named name, which may appear once at
// most, as the standard requires of every field but WARC-Concurrent-To.
func (r rec) get(t *testing.T, name string) (string, bool) {
	t.Helper()
	vs := r.values(name)
	switch len(vs) {
	case 0:
		return "", false
	case 1:
		return vs[0], true
	}
	t.Errorf("record at %d has %d %s fields", r.offset, len(vs), name)
	return vs[0], true
}

// must returns the value of a field the record must have.
func (r rec) must(t *testing.T, name string) string {
	t.Helper()
	v, ok := r.get(t, name)
	if !ok {
		t.Errorf("record at %d has no %s", r.offset, name)
	}
	return v
}

// parseWARC reads every record of a WARC file: a plain one, or a gzip
// file whose every member holds one whole record.
func parseWARC(data []byte, gz bool) ([]rec, error) {
	var recs []rec
	if !gz {
		for off := 0; off < len(data); {
			r, n, err := parseRecord(data[off:])
			if err != nil {
				return recs, fmt.Errorf("record at %d: %w", off, err)
			}
			r.offset = int64(off)
			recs = append(recs, r)
			off += n
		}
		return recs, nil
	}
	// A bytes.Reader is an io.ByteReader, so gzip reads no further than
	// the end of each member.
	br := bytes.NewReader(data)
	for br.Len() > 0 {
		off := int64(len(data) - br.Len())
		z, err := gzip.NewReader(br)
		if err != nil {
			return recs, fmt.Errorf("gzip member at %d: %w", off, err)
		}
		z.Multistream(false)
		member, err := io.ReadAll(z)
		if err != nil {
			return recs, fmt.Errorf("gzip member at %d: %w", off, err)
		}
		r, n, err := parseRecord(member)
		if err != nil {
			return recs, fmt.Errorf("gzip member at %d: %w", off, err)
		}
		if n != len(member) {
			return recs, fmt.Errorf("gzip member at %d holds %d bytes after its record", off, len(member)-n)
		}
		r.offset = off
		recs = append(recs, r)
	}
	return recs, nil
}

var fieldName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// parseRecord reads the record at the start of b, and returns it and its
// length:
//
//	warc-record = header CRLF block CRLF CRLF
//	header      = "WARC/1.1" CRLF *named-field CRLF
func parseRecord(b []byte) (rec, int, error) {
	const version = "WARC/1.1\r\n"
	if !bytes.HasPrefix(b, []byte(version)) {
		return rec{}, 0, fmt.Errorf("no version line %q: %.20q", version, b)
	}
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < len(version) {
		return rec{}, 0, errors.New("no end of header")
	}
	var r rec
	for _, line := range strings.Split(string(b[len(version):end]), "\r\n") {
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			if len(r.fields) == 0 {
				return rec{}, 0, fmt.Errorf("continuation line %q first", line)
			}
			r.fields[len(r.fields)-1][1] += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !fieldName.MatchString(name) {
			return rec{}, 0, fmt.Errorf("bad named field %q", line)
		}
		r.fields = append(r.fields, [2]string{name, strings.TrimSpace(value)})
	}
	lengths := r.values("Content-Length")
	if len(lengths) != 1 {
		return rec{}, 0, fmt.Errorf("%d Content-Length fields", len(lengths))
	}
	n, err := strconv.Atoi(lengths[0])
	if err != nil || n < 0 || strings.TrimLeft(lengths[0], "0123456789") != "" {
		return rec{}, 0, fmt.Errorf("Content-Length %q", lengths[0])
	}
	start := end + 4
	if len(b) < start+n+4 {
		return rec{}, 0, fmt.Errorf("block of %d bytes and two CRLFs do not fit in %d", n, len(b)-start)
	}
	if string(b[start+n:start+n+4]) != "\r\n\r\n" {
		return rec{}, 0, fmt.Errorf("block is followed by %q, not two CRLFs", b[start+n:start+n+4])
	}
	r.block = b[start : start+n]
	return r, start + n + 4, nil
}

// sha1b32 is the labelled digest WARC tools write: SHA-1, in base 32.
func sha1b32(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

var (
	recordID = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)
	warcDate = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$`)
)

// checkRecords checks what the standard requires of every record, and of
// the records a crawl writes: a warcinfo record, then pairs of a request
// and its response, which name each other and the warcinfo record before
// them. It returns the records' types, in order.
func checkRecords(t *testing.T, recs []rec) []string {
	t.Helper()
	var types []string
	ids := make(map[string]bool)
	var info string // the ID of the last warcinfo record
	for i, r := range recs {
		typ := r.must(t, "WARC-Type")
		types = append(types, typ)
		id := r.must(t, "WARC-Record-ID")
		if !recordID.MatchString(id) {
			t.Errorf("record at %d: WARC-Record-ID %q is not a version 4 UUID URN", r.offset, id)
		}
		if ids[id] {
			t.Errorf("record at %d: WARC-Record-ID %s is not unique", r.offset, id)
		}
		ids[id] = true
		date := r.must(t, "WARC-Date")
		if _, err := time.Parse(time.RFC3339Nano, date); err != nil || !warcDate.MatchString(date) {
			t.Errorf("record at %d: WARC-Date %q is not a W3C-DTF date in UTC", r.offset, date)
		}
		for _, f := range r.fields {
			if len(r.values(f[0])) > 1 && !strings.EqualFold(f[0], "WARC-Concurrent-To") {
				t.Errorf("record at %d: %s is repeated", r.offset, f[0])
			}
		}
		if got, want := r.must(t, "WARC-Block-Digest"), sha1b32(r.block); got != want {
			t.Errorf("record at %d: WARC-Block-Digest %s, want %s", r.offset, got, want)
		}
		switch typ {
		case "warcinfo":
			checkWarcinfo(t, r)
			info = id
			continue
		case "request":
			if i+1 == len(recs) || !slices.Contains([]string{"response", "revisit"}, recs[i+1].must(t, "WARC-Type")) {
				t.Errorf("request at %d is not followed by a response", r.offset)
				continue
			}
			checkPair(t, r, recs[i+1])
		case "response", "revisit":
			if i == 0 || recs[i-1].must(t, "WARC-Type") != "request" {
				t.Errorf("response at %d does not follow a request", r.offset)
			}
		default:
			t.Errorf("record at %d has type %q", r.offset, typ)
		}
		if got := r.must(t, "WARC-Warcinfo-ID"); got != info {
			t.Errorf("%s at %d: WARC-Warcinfo-ID %s, want %s, the warcinfo record before it", typ, r.offset, got, info)
		}
	}
	return types
}

// checkWarcinfo checks a warcinfo record: application/warc-fields, which
// begin with the software, the format and the standard it conforms to.
func checkWarcinfo(t *testing.T, r rec) {
	t.Helper()
	if got := r.must(t, "Content-Type"); got != "application/warc-fields" {
		t.Errorf("warcinfo at %d: Content-Type %q", r.offset, got)
	}
	for _, name := range []string{"WARC-Target-URI", "WARC-Concurrent-To", "WARC-Warcinfo-ID", "WARC-Payload-Digest", "WARC-IP-Address"} {
		if _, ok := r.get(t, name); ok {
			t.Errorf("warcinfo at %d has %s", r.offset, name)
		}
	}
	fields := warcFields(t, r.block)
	if len(fields) < 3 || fields[0][0] != "software" || fields[0][1] == "" ||
		fields[1] != [2]string{"format", "WARC File Format 1.1"} ||
		fields[2] != [2]string{"conformsTo", "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"} {
		t.Errorf("warcinfo at %d begins %q", r.offset, fields)
	}
}

// warcFields parses an application/warc-fields block.
func warcFields(t *testing.T, block []byte) [][2]string {
	t.Helper()
	s, ok := strings.CutSuffix(string(block), "\r\n")
	if !ok {
		t.Errorf("warc-fields %q do not end in CRLF", block)
	}
	var fields [][2]string
	for _, line := range strings.Split(s, "\r\n") {
		name, value, ok := strings.Cut(line, ": ")
		if !ok || !fieldName.MatchString(name) {
			t.Errorf("warc-fields line %q", line)
		}
		fields = append(fields, [2]string{name, value})
	}
	return fields
}

// checkPair checks a request and the response that follows it.
func checkPair(t *testing.T, req, resp rec) {
	t.Helper()
	reqID, respID := req.must(t, "WARC-Record-ID"), resp.must(t, "WARC-Record-ID")
	if got := req.values("WARC-Concurrent-To"); len(got) != 1 || got[0] != respID {
		t.Errorf("request at %d: WARC-Concurrent-To %q, want the response's ID %s", req.offset, got, respID)
	}
	if got := resp.values("WARC-Concurrent-To"); len(got) != 1 || got[0] != reqID {
		t.Errorf("response at %d: WARC-Concurrent-To %q, want the request's ID %s", resp.offset, got, reqID)
	}
	for _, name := range []string{"WARC-Target-URI", "WARC-Date", "WARC-IP-Address"} {
		a, aok := req.get(t, name)
		b, bok := resp.get(t, name)
		if a != b || aok != bok {
			t.Errorf("request at %d and its response differ in %s: %q and %q", req.offset, name, a, b)
		}
	}
	if got := req.must(t, "Content-Type"); got != "application/http;msgtype=request" {
		t.Errorf("request at %d: Content-Type %q", req.offset, got)
	}
	if got := resp.must(t, "Content-Type"); got != "application/http;msgtype=response" {
		t.Errorf("response at %d: Content-Type %q", resp.offset, got)
	}
	if _, ok := req.get(t, "WARC-Truncated"); ok {
		t.Errorf("request at %d has WARC-Truncated", req.offset)
	}

	hr, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(req.block)))
	if err != nil {
		t.Errorf("request at %d does not hold an HTTP request: %v", req.offset, err)
		return
	}
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		t.Errorf("request at %d: body: %v", req.offset, err)
	}
	got, ok := req.get(t, "WARC-Payload-Digest")
	switch {
	case len(body) == 0 && ok:
		t.Errorf("request at %d has no body, but WARC-Payload-Digest %s", req.offset, got)
	case len(body) > 0 && got != sha1b32(body):
		t.Errorf("request at %d: WARC-Payload-Digest %q, want %s", req.offset, got, sha1b32(body))
	}

	if resp.must(t, "WARC-Type") == "revisit" {
		return // its payload is the earlier record's: TestRevisit checks it
	}
	pl, known, truncated := httpPayload(resp.block, hr.Method)
	got, ok = resp.get(t, "WARC-Payload-Digest")
	switch {
	case known && got != sha1b32(pl):
		t.Errorf("response at %d: WARC-Payload-Digest %q, want %s, of %d bytes", resp.offset, got, sha1b32(pl), len(pl))
	case !known && ok:
		t.Errorf("response at %d has no well-defined payload, but WARC-Payload-Digest %s", resp.offset, got)
	}
	if _, ok := resp.get(t, "WARC-Truncated"); truncated && !ok {
		t.Errorf("response at %d is truncated, but has no WARC-Truncated", resp.offset)
	}
}

// httpPayload takes the entity body from a raw HTTP response as net/http
// does, with the chunked coding removed and any content coding kept. It
// reports whether the response has a well-defined body, and whether the
// response is cut short.
func httpPayload(raw []byte, method string) (body []byte, known, truncated bool) {
	br := bufio.NewReader(bytes.NewReader(raw))
	for {
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			return nil, false, errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
		}
		if resp.StatusCode/100 == 1 && resp.StatusCode != 101 {
			continue
		}
		body, err = io.ReadAll(resp.Body)
		switch {
		case err == nil:
			return body, true, false
		case errors.Is(err, io.ErrUnexpectedEOF):
			return body, true, true
		case strings.Contains(err.Error(), "trailer"):
			// net/http reports a torn trailer so, after the whole body.
			return body, true, true
		}
		return nil, false, false
	}
}
