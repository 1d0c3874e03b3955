package earlier

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"tse-crawler/internal/warc"
)

// Magic numbers that tell the files apart.
const (
	zipMagic  = "PK\x03\x04"
	gzipMagic = "\x1f\x8b"
	warcMagic = "WARC/"
)

// maxIndexLine bounds a line of a CDXJ index, far longer than any a URL
// makes, so that a damaged index cannot fill the memory.
const maxIndexLine = 1 << 20

// add opens the file at path and indexes it.
func (a *Archive) add(ctx context.Context, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("opening the earlier archive: %w", err)
	}
	a.files = append(a.files, f)
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("opening the earlier archive: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("the earlier archive %s is not a regular file; name the .wacz, .warc.gz or .warc of an earlier crawl", p)
	}
	var magic [5]byte
	n, err := f.ReadAt(magic[:], 0)
	if err != nil && err != io.EOF {
		return fmt.Errorf("reading the earlier archive: %w", err)
	}
	switch head := string(magic[:n]); {
	case strings.HasPrefix(head, zipMagic):
		return a.addWACZ(ctx, p, f, fi.Size())
	case strings.HasPrefix(head, gzipMagic), head == warcMagic:
		a.parts = append(a.parts, part{archive: p, r: f, size: fi.Size()})
		return a.addWARC(ctx, int32(len(a.parts)-1), p)
	}
	return fmt.Errorf("the earlier archive %s is neither a WACZ package nor a WARC file: it begins %q; name the .wacz, .warc.gz or .warc of an earlier crawl", p, magic[:n])
}

// addWARC indexes the records of a.parts[idx], a WARC file, read through
// once, unless ctx ends first; name is what messages call it.
func (a *Archive) addWARC(ctx context.Context, idx int32, name string) error {
	p := a.parts[idx]
	// A record is indexed once the next one begins, or the file ends,
	// unless the file ends inside it.
	type pending struct {
		uri    string
		r      ref
		refers *refersTo
	}
	var last *pending
	undated := 0
	br := bufio.NewReaderSize(nil, 512)
	err := warc.ReadAny(p.r, p.size, func(rec warc.Record, block io.Reader) error {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		if last != nil {
			a.note(last.uri, last.r, last.refers)
			last = nil
		}
		typ := rec.Get("WARC-Type")
		if typ != "response" && typ != "revisit" {
			return nil
		}
		when, err := parseDate(rec.Get("WARC-Date"))
		if err != nil {
			undated++
			return nil
		}
		br.Reset(block)
		line, _ := br.ReadSlice('\n')
		code := status(line)
		r := ref{when: when, off: rec.Offset, part: idx}
		var refers *refersTo
		switch {
		case typ == "revisit" && (code == 0 || code == 200 || code == 304):
			r.kind = revisit
			refers = &refersTo{targetURI(rec.Get("WARC-Refers-To-Target-URI")), rec.Get("WARC-Refers-To-Date"), rec.Get("WARC-Refers-To")}
		case typ == "response" && code == 0:
			return nil // no HTTP response, such as a DNS one
		case typ == "response" && code == 200 && rec.Get("WARC-Truncated") == "":
			r.kind = ok
		default:
			r.kind = other
		}
		last = &pending{targetURI(rec.Get("WARC-Target-URI")), r, refers}
		return nil
	})
	if undated > 0 {
		a.warnings = append(a.warnings, fmt.Sprintf("%s: %d records have a WARC-Date that cannot be read, and are left out: their URLs are fetched whole", name, undated))
	}
	var re *warc.RecordError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.As(err, &re) && errors.Is(err, warc.ErrMemberOfMany):
		return fmt.Errorf("the earlier archive %s is gzip compressed as one stream, not as a gzip member for each record, so its records cannot be read where they lie; recompress it a record to a member (warcio recompress does) and name that", name)
	case errors.As(err, &re) && re.Torn:
		if last != nil && last.r.off == re.Offset {
			last = nil
		}
		a.warnings = append(a.warnings, fmt.Sprintf("%s: its last record, at byte %d, is cut short, as a crawl that was stopped leaves it; the records before it are used, and its URL is fetched whole", name, re.Offset))
	case errors.As(err, &re):
		return fmt.Errorf("the earlier archive %s is damaged or is no WARC file: %w; repair it or leave it out", name, err)
	default:
		return fmt.Errorf("reading the earlier archive %s: %w", name, err)
	}
	if last != nil {
		a.note(last.uri, last.r, last.refers)
	}
	return nil
}

// note indexes an answer to uri: r, which refers to refers if it is a
// revisit read from a WARC file.
func (a *Archive) note(uri string, r ref, refers *refersTo) {
	e, found := a.index[uri]
	if !found {
		uri = strings.Clone(uri) // not the record's whole field
	}
	if r.kind == ok && (e.ok.kind == none || r.after(e.ok)) {
		e.ok = r
	}
	if e.latest.kind == none || r.after(e.latest) {
		e.latest = r
		if refers != nil {
			a.refers[uri] = refers
		} else {
			delete(a.refers, uri)
		}
	}
	a.index[uri] = e
}

// addWACZ indexes a WACZ package through its CDXJ indexes: those in its
// indexes directory (*.cdxj, and *.cdx.gz, the ZipNum index that py-wacz
// writes), or, if it has none, by reading its WARC files through.
func (a *Archive) addWACZ(ctx context.Context, p string, f *os.File, size int64) error {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return fmt.Errorf("the earlier archive %s begins as a zip does, but cannot be read as a WACZ package: %w; name the .wacz, .warc.gz or .warc of an earlier crawl", p, err)
	}
	warcs := make(map[string]*zip.File)
	var indexes []*zip.File
	for _, zf := range zr.File {
		dir, base := path.Split(zf.Name)
		switch {
		case dir == "archive/" && base != "":
			warcs[base] = zf
		case dir == "indexes/" && (strings.HasSuffix(base, ".cdxj") || strings.HasSuffix(base, ".cdx.gz")):
			indexes = append(indexes, zf)
		}
	}
	parts := make(map[string]int32)
	partOf := func(name string, coarse bool) (int32, error) {
		if i, ok := parts[name]; ok {
			return i, nil
		}
		zf := warcs[name]
		if zf == nil {
			return 0, fmt.Errorf("the earlier archive %s indexes archive/%s, which it does not hold; the package is damaged: make it again, or name its WARC files instead", p, name)
		}
		if zf.Method != zip.Store {
			return 0, fmt.Errorf("the earlier archive %s holds archive/%s compressed, so its records cannot be read where they lie; pack it again with its WARC files stored, as WACZ packages are", p, name)
		}
		off, err := zf.DataOffset()
		if err != nil {
			return 0, fmt.Errorf("reading the earlier archive %s: %w", p, err)
		}
		n := int64(zf.CompressedSize64)
		if off < 0 || n < 0 || off > size-n {
			return 0, fmt.Errorf("the earlier archive %s: archive/%s lies past its end; the package is damaged: make it again, or name its WARC files instead", p, name)
		}
		i := int32(len(a.parts))
		a.parts = append(a.parts, part{archive: p, r: io.NewSectionReader(f, off, n), size: n, coarse: coarse})
		parts[name] = i
		return i, nil
	}
	if len(indexes) == 0 {
		// In the order of their names, which ties are broken by.
		for _, name := range slices.Sorted(maps.Keys(warcs)) {
			if !isWARCName(name) {
				continue
			}
			i, err := partOf(name, false)
			if err != nil {
				return err
			}
			if err := a.addWARC(ctx, i, p+": archive/"+name); err != nil {
				return err
			}
		}
		return nil
	}
	for _, zf := range indexes {
		if err := a.readIndex(ctx, p, zf, partOf); err != nil {
			return err
		}
	}
	return nil
}

// isWARCName reports whether a file in a WACZ package's archive
// directory is named as a WARC file is.
func isWARCName(name string) bool {
	return strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz")
}

// readIndex reads a CDXJ index of the WACZ package p through, line by
// line, and notes each answer it lists.
func (a *Archive) readIndex(ctx context.Context, p string, zf *zip.File, partOf func(string, bool) (int32, error)) error {
	rc, err := zf.Open()
	if err != nil {
		return fmt.Errorf("reading the index %s of the earlier archive %s: %w", zf.Name, p, err)
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(zf.Name, ".gz") {
		z, err := gzip.NewReader(rc)
		if err != nil {
			return fmt.Errorf("reading the index %s of the earlier archive %s: %w", zf.Name, p, err)
		}
		r = z
	}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		line, err := readLine(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the index %s of the earlier archive %s: line %d: %w", zf.Name, p, n, err)
		}
		if len(line) == 0 || line[0] == '!' || line[0] == ' ' {
			continue // a header line of a CDX file
		}
		l, err := parseCDXJ(line)
		if err != nil {
			return fmt.Errorf("the earlier archive %s has a damaged index: %s, line %d: %v; make the package again, or name its WARC files instead", p, zf.Name, n, err)
		}
		if l.method != "" {
			continue // the answer to a POST, say, is not one to a GET
		}
		var k kind
		switch {
		case l.revisit && (l.status == 0 || l.status == 200 || l.status == 304):
			k = revisit
		case l.revisit:
			k = other
		case l.status == 200:
			k = ok
		case l.status != 0:
			k = other
		default:
			continue // no HTTP answer, such as a metadata record
		}
		i, err := partOf(l.filename, true)
		if err != nil {
			return err
		}
		a.note(l.url, ref{when: l.when.UnixNano(), off: l.offset, part: i, kind: k}, nil)
	}
}

// readLine reads a line without its end, CRLF or LF. It returns io.EOF
// only at the end of the input.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		b, err := br.ReadSlice('\n')
		line = append(line, b...)
		if len(line) > maxIndexLine {
			return nil, errors.New("line too long")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}

// resolve finds, for each URL whose latest answer is a revisit, the
// response that holds its payload, and counts the URLs with a capture.
func (a *Archive) resolve(ctx context.Context) error {
	// Found first, then set, as a URL's latest 200 may be another's
	// payload.
	payloads := make(map[string]ref)
	unresolved := 0
	for uri, e := range a.index {
		if e.latest.kind != revisit {
			continue
		}
		if err := context.Cause(ctx); err != nil {
			return err
		}
		refers := a.refers[uri]
		if refers == nil {
			var err error
			if refers, err = a.refersTo(e.latest); err != nil {
				return err
			}
		}
		target := refers.uri
		if target == "" {
			target = uri
		}
		if t := a.index[target]; t.ok.kind == ok && a.sameTime(refers.date, t.ok) {
			payloads[uri] = t.ok
		} else {
			unresolved++
		}
	}
	a.refers = nil
	for uri, e := range a.index {
		switch e.latest.kind {
		case ok:
			// ok is latest already.
		case revisit:
			e.ok = payloads[uri]
		default:
			e.ok = ref{}
		}
		if e.ok.kind == ok {
			a.len++
		}
		a.index[uri] = e
	}
	if unresolved > 0 {
		a.warnings = append(a.warnings, fmt.Sprintf("%d URLs were last recorded by a revisit record of a response that the earlier archive does not hold, and are fetched whole; to use them, name the archive that holds those responses too", unresolved))
	}
	return nil
}

// refersTo reads what the revisit record at r refers to.
func (a *Archive) refersTo(r ref) (*refersTo, error) {
	var refers refersTo
	err := a.record(r, func(rec warc.Record, _ io.Reader) error {
		refers = refersTo{targetURI(rec.Get("WARC-Refers-To-Target-URI")), rec.Get("WARC-Refers-To-Date"), rec.Get("WARC-Refers-To")}
		return nil
	})
	return &refers, err
}

// sameTime reports whether a WARC-Refers-To-Date names the time of r, as
// closely as the index knows it; "" names any.
func (a *Archive) sameTime(date string, r ref) bool {
	if date == "" {
		return true
	}
	t, err := parseDate(date)
	if err != nil {
		return false
	}
	if a.parts[r.part].coarse {
		const second = 1e9
		return floorDiv(t, second) == floorDiv(r.when, second)
	}
	return t == r.when
}

// floorDiv divides, rounding down.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
