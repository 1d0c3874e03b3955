package warc

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"

	"tse-crawler/internal/filelock"
)

// Info describes a crawl, in the warcinfo record that begins its part of
// a WARC file.
type Info struct {
	// Software names the crawler and its version, such as
	// "tse-crawler/1.4.0".
	Software string
	// Fields are further fields of the record, in order, as name and
	// value: the robots policy ("robots", which the standard lets say
	// "classic" for a crawler that obeys robots.txt) and the options that
	// shape the crawl. The names must be tokens, and the values single
	// lines of UTF-8.
	Fields [][2]string
	// Date is when the crawl, or its resumed run, began. The zero Time
	// means now.
	Date time.Time
	// Filename is the name the record gives the file, in WARC-Filename:
	// that of the file the records end up in, for one written elsewhere
	// first. "" means the base name of the path written to.
	Filename string
}

// check reports what makes info unfit for a warcinfo record, or nil.
func (info Info) check() error {
	if info.Software == "" || !isText(info.Software) {
		return fmt.Errorf("warcinfo software %q: give a name and version on one line", info.Software)
	}
	if !isText(info.Filename) || strings.ContainsAny(info.Filename, `/\`) {
		return fmt.Errorf("warcinfo filename %q: give a file's base name on one line", info.Filename)
	}
	for _, f := range info.Fields {
		switch {
		case !isToken(f[0]):
			return fmt.Errorf("warcinfo field name %q is not a token", f[0])
		case !isText(f[1]):
			return fmt.Errorf("warcinfo field %s: value %q is not one line of UTF-8", f[0], f[1])
		}
		// Every warcinfo record has these already.
		for _, own := range [...]string{"software", "format", "conformsTo"} {
			if strings.EqualFold(f[0], own) {
				return fmt.Errorf("warcinfo field %s is written by package warc", f[0])
			}
		}
	}
	return nil
}

// An Exchange is one HTTP request and its response, as sent and received.
type Exchange struct {
	// TargetURI is the absolute URI requested.
	TargetURI string
	// Date is when the request began; both records carry it, as the
	// standard asks of the records of one capture.
	Date time.Time
	// IP is the address of the server, IPv4 or IPv6, or empty if it is not
	// known, and then the records do not give one.
	IP string
	// Request is the request as sent: request line, header fields and
	// body.
	Request []byte
	// Response is what was read from the connection for the request,
	// byte for byte, with any transfer coding and content coding as they
	// came. The record holds its final response, from its status line to
	// the end of its message as its framing says: interim 1xx responses
	// before it, which an HTTP client reads past, and any bytes after it,
	// which belong to no response to this request, are left out. It must
	// not be empty: a request that got no response is no exchange.
	Response Source
	// Truncated, if not empty, says why the response was cut short, as the
	// WARC-Truncated field does: "length" (it exceeded a limit on size),
	// "time", "disconnect" or "unspecified". A response whose own framing
	// says that it is incomplete is marked "unspecified" if Truncated is
	// empty.
	Truncated string
	// Revisit, if set, is the earlier record of the same URI that the
	// request revisited, asking whether it had changed: see
	// [Writer.WriteExchange].
	Revisit *Revisit
}

// A Revisit names an earlier response record, one that an exchange
// revisits.
type Revisit struct {
	// TargetURI and Date are its WARC-Target-URI and WARC-Date, which
	// replay tools find it by. Date is kept as that record has it, since
	// WARC-Refers-To-Date must be the same field: a WARC 1.0 writer's has
	// no fraction of a second.
	TargetURI string
	Date      string
	// RecordID is its WARC-Record-ID, or "" if it is not known.
	RecordID string
	// PayloadDigest is its WARC-Payload-Digest, or "".
	PayloadDigest string
	// Container is the name of the WACZ package that holds it, or "":
	// replay tools given several packages look there first.
	Container string
}

// The revisit profiles of WARC 1.1, section 6.7.
const (
	profileIdentical   = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
	profileNotModified = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
)

// A Writer appends records to a WARC file. It is safe for concurrent
// use; the two records of an exchange are always adjacent in the file.
type Writer struct {
	path   string
	gzip   bool   // one gzip member for each record
	infoID string // WARC-Record-ID of the warcinfo record that begins this run
	bufs   sync.Pool

	mu   sync.Mutex
	f    file  // nil once closed
	size int64 // where the last whole exchange, or the warcinfo record, ends
	err  error // the first failure to write, which every later write returns
	out  *bufio.Writer
	zw   *gzip.Writer
}

// file is the part of *os.File that a Writer uses; tests replace it to
// make writes fail as a full disk does.
type file interface {
	io.Writer
	Truncate(size int64) error
	Close() error
}

// An ExistsError is returned by [Create] when its path names something
// already, whether a file, a directory or a symbolic link: a crawl never
// writes into a file it did not make.
type ExistsError struct {
	Path string
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("WARC file %s already exists", e.Path)
}

// A NotWARCError is returned by [Reopen] when the file holds, at Offset,
// something that is neither a whole WARC record nor the start of one that
// a crash cut short: the file is not one that package warc wrote, or it
// was damaged since. Reopen leaves such a file as it found it.
type NotWARCError struct {
	Path   string
	Offset int64 // in the file, so in the compressed data of a .warc.gz
	Err    error
}

func (e *NotWARCError) Error() string {
	return fmt.Sprintf("%s is not a WARC file this crawler can append to: at byte %d: %v", e.Path, e.Offset, e.Err)
}

func (e *NotWARCError) Unwrap() error { return e.Err }

// Create creates a WARC file at path and writes its warcinfo record. A
// path that ends in ".gz", in any case, makes a gzip file of one member
// for each record, the form every reader expects of a .warc.gz; any other
// path makes a plain WARC file.
//
// Create makes a new file or none: if path names anything, even a
// dangling symbolic link, it returns an [*ExistsError]. Its other errors
// are those of creating and writing the file, which it then removes.
//
// The Writer holds the file's lock until it is closed (or later, see
// [Writer.KeepLock]), which keeps any other Writer, in this process or
// another, from reopening it.
func Create(path string, info Info) (*Writer, error) {
	if err := info.check(); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL|oNoFollow, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return nil, &ExistsError{Path: path}
	}
	if err != nil {
		return nil, fmt.Errorf("creating WARC file: %w", err)
	}
	if err := lock(f, path); err != nil {
		// Taken by a crawl that reopened the new file at once: it is
		// that crawl's now.
		f.Close()
		return nil, err
	}
	w := newWriter(path, f, 0)
	if err := w.begin(info); err != nil {
		f.Close()
		os.Remove(path) // made by the exclusive create above
		return nil, err
	}
	return w, nil
}

// Reopen opens the WARC file at path to append to it, as [Create] would
// have made it, or creates it as Create does if there is none.
//
// A crawl killed in the middle of a write leaves a torn last record, and
// perhaps a request record whose response was never written. Reopen reads
// the file record by record, and cuts it off after the last whole
// exchange, or the last whole record that is not a request. It then
// writes a new warcinfo record for the resumed run, which the records
// after it name, so that each run is described by its own. It refuses a
// file in which something other than a torn record follows the whole
// ones ([*NotWARCError]), and anything at path but a regular file with
// one name: a symbolic link, which it never follows, a directory, a device
// or a file with other names, which a cut would change too.
//
// Reopen takes the file's lock, as Create does, before it reads or cuts
// anything: a file another Writer has open, in this process or another,
// is refused, untouched, with a [*filelock.BusyError].
func Reopen(path string, info Info) (*Writer, error) {
	return reopenFile(path, info, -1)
}

// ReopenAt is [Reopen] for a caller that knows where its last whole
// record ended: it cuts the file back to size, so that records written
// after that point, whole or not, are dropped, and then appends as Reopen
// does. A crawl keeps that size in its journal, so that a page fetched
// again after a crash is not recorded twice.
//
// The records before size must be whole, and size must be where one ends,
// or where a file of none begins; otherwise it returns a [*NotWARCError]
// and leaves the file as it found it. With size 0 the whole file must read
// as Reopen would read it, so that only a file a crawl wrote is emptied.
// If there is no file, it creates one, as Reopen does.
func ReopenAt(path string, size int64, info Info) (*Writer, error) {
	if size < 0 {
		return nil, fmt.Errorf("reopening WARC file %s at byte %d", path, size)
	}
	return reopenFile(path, info, size)
}

// reopenFile is Reopen, or with at >= 0 ReopenAt.
func reopenFile(path string, info Info, at int64) (*Writer, error) {
	if err := info.check(); err != nil {
		return nil, err
	}
	// Checked before opening, as opening a device can itself act.
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Create(path, info)
	}
	if err != nil {
		return nil, fmt.Errorf("reopening WARC file: %w", err)
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|oNoFollow|oNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("reopening WARC file: %w", err)
	}
	if err := lock(f, path); err != nil {
		f.Close()
		return nil, err
	}
	w, err := reopen(path, f, info, at)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// reopen is Reopen once the file is open.
func reopen(path string, f *os.File, info Info, at int64) (*Writer, error) {
	// Checked again on what was opened, in case the name changed hands.
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reopening WARC file: %w", err)
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, err
	}
	if n := links(fi); n > 1 {
		return nil, fmt.Errorf("WARC file %s has %d hard links, and cutting it back would cut the file under its other names too", path, n)
	}
	scanned := fi.Size()
	if at > 0 {
		scanned = at
	}
	if at > fi.Size() {
		return nil, &NotWARCError{Path: path, Offset: fi.Size(), Err: fmt.Errorf("the file ends before byte %d, where its last record should", at)}
	}
	end, err := scan(f, scanned, isGzip(path))
	if _, ok := errors.AsType[*ioError](err); ok {
		return nil, fmt.Errorf("reading WARC file: %w", err)
	}
	if err != nil {
		return nil, &NotWARCError{Path: path, Offset: end, Err: err}
	}
	if at >= 0 {
		if at > 0 && end != at {
			return nil, &NotWARCError{Path: path, Offset: end, Err: fmt.Errorf("no whole record ends at byte %d", at)}
		}
		end = at
	}
	if end < fi.Size() {
		if err := f.Truncate(end); err != nil {
			return nil, fmt.Errorf("cutting a torn record off WARC file: %w", err)
		}
	}
	w := newWriter(path, f, end)
	if err := w.begin(info); err != nil {
		return nil, err
	}
	return w, nil
}

// lock takes the lock of f, the file at path (package filelock), which
// keeps any other Writer, in this process or another, from cutting it or
// appending to it while this one has it open. A file system without
// locks leaves it unlocked, as every file was before there were locks.
func lock(f *os.File, path string) error {
	err := filelock.LockFile(f, "WARC file "+path)
	if errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

// KeepLock keeps the file's lock past Close, until the function it
// returns is called: a caller that goes on with the finished file, as a
// crawl does that packs it into a WACZ file and then removes it, keeps any
// other Writer out until it is done. It must be called before Close.
func (w *Writer) KeepLock() (release func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f, ok := w.f.(*os.File)
	if !ok {
		return nil, fmt.Errorf("keeping the lock of WARC file %s: %w", w.path, fs.ErrClosed)
	}
	return filelock.Keep(f)
}

// checkRegular refuses anything at path but a regular file.
func checkRegular(path string, fi fs.FileInfo) error {
	mode := fi.Mode()
	switch {
	case mode.IsRegular():
		return nil
	case mode&fs.ModeSymlink != 0:
		return fmt.Errorf("WARC file %s is a symbolic link, which a crawl never writes through", path)
	case mode.IsDir():
		return fmt.Errorf("WARC file %s is a directory", path)
	default:
		return fmt.Errorf("WARC file %s is not a regular file (%v)", path, mode.Type())
	}
}

// isGzip reports whether path ends in ".gz", in any case: X.WARC.GZ is
// as gzipped as x.warc.gz.
func isGzip(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".gz") }

func newWriter(path string, f file, size int64) *Writer {
	return &Writer{path: path, gzip: isGzip(path), f: f, size: size}
}

// begin writes the warcinfo record that begins a run.
func (w *Writer) begin(info Info) error {
	date := info.Date
	if date.IsZero() {
		date = time.Now()
	}
	var block []byte
	for _, f := range append([][2]string{
		{"software", info.Software},
		{"format", "WARC File Format 1.1"},
		{"conformsTo", "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
	}, info.Fields...) {
		block = fmt.Appendf(block, "%s: %s\r\n", f[0], f[1])
	}
	id := newID()
	h := header{
		{"WARC-Type", "warcinfo"},
		{"WARC-Record-ID", id},
		{"WARC-Date", formatDate(date)},
	}
	name := info.Filename
	if name == "" {
		name = filename(w.path)
	}
	if name != "" {
		h = append(h, [2]string{"WARC-Filename", name})
	}
	h = append(h,
		[2]string{"Content-Type", "application/warc-fields"},
		[2]string{"WARC-Block-Digest", labelled(sha1Sum(block))},
	)
	if err := w.write(record{h, bytes.NewReader(block), message{end: int64(len(block))}}); err != nil {
		return err
	}
	w.infoID = id
	return nil
}

// WriteExchange appends a request record and a response record for x,
// each naming the other in WARC-Concurrent-To, as the standard's own
// example and the readers that pair them from either side expect.
//
// An exchange that revisits an earlier record (x.Revisit) and got a 304
// is recorded as a revisit record of the server-not-modified profile,
// with no block: replay tools serve the headers of a revisit's block when
// it has any, and a 304's lack the earlier answer's Content-Type. One
// that got a 200 whose payload has the digest of the earlier record's is
// recorded as a revisit record of the identical-payload-digest profile,
// whose block is the response's head alone (WARC-Truncated: length), as
// wget --warc-dedup does. Either names the earlier record, so that a
// replay tool given both files finds the payload there. Any other answer
// is recorded whole.
//
// The records are streamed from x's request and response, each
// compressed into its own gzip member for a .warc.gz, so that a response
// spooled to disk is never held in memory. If a write fails, as it does on
// a full disk, the file is cut back to the end of the last whole
// exchange, and that error is returned by this call and every later one:
// the file ends with whole exchanges whatever happens, short of a crash,
// which leaves a torn record that [Reopen] cuts off.
func (w *Writer) WriteExchange(x Exchange) error {
	if err := x.check(); err != nil {
		return err
	}
	reqID, respID := newID(), newID()
	date := formatDate(x.Date)
	common := header{
		{"WARC-Date", date},
		{"WARC-Target-URI", x.TargetURI},
	}
	if x.IP != "" {
		ip, _ := netip.ParseAddr(x.IP) // checked
		// The canonical form, as the standard's maintainers recommend:
		// an IPv4 address as a dotted quad, IPv6 as RFC 5952 writes it.
		common = append(common, [2]string{"WARC-IP-Address", ip.WithZone("").Unmap().String()})
	}

	req := bytes.NewReader(x.Request)
	reqMsg, method := frameRequest(req)
	reqMsg.start, reqMsg.end = 0, req.Size() // the request as sent, whole
	reqBlock, reqPayload := w.digests(req, reqMsg)
	h := header{{"WARC-Type", "request"}, {"WARC-Record-ID", reqID}}
	h = append(h, common...)
	h = append(h, header{
		{"WARC-Warcinfo-ID", w.infoID},
		{"WARC-Concurrent-To", respID},
		{"Content-Type", "application/http;msgtype=request"},
		{"WARC-Block-Digest", labelled(reqBlock)},
	}...)
	// As wget does, a request without a body has no payload digest.
	if reqMsg.known && reqMsg.payloadSize() > 0 {
		h = append(h, [2]string{"WARC-Payload-Digest", labelled(reqPayload)})
	}
	reqRec := record{h, req, reqMsg}

	m := frameResponse(x.Response, method)
	block, payload := w.digests(x.Response, m)
	profile := revisitProfile(x, m, payload)
	typ := "response"
	if profile != "" {
		typ = "revisit"
	}
	h = header{{"WARC-Type", typ}, {"WARC-Record-ID", respID}}
	h = append(h, common...)
	h = append(h, header{
		{"WARC-Warcinfo-ID", w.infoID},
		{"WARC-Concurrent-To", reqID},
	}...)
	if profile != "" {
		h = append(h, [2]string{"WARC-Profile", profile})
		if x.Revisit.RecordID != "" {
			h = append(h, [2]string{"WARC-Refers-To", x.Revisit.RecordID})
		}
		h = append(h, header{
			{"WARC-Refers-To-Target-URI", x.Revisit.TargetURI},
			{"WARC-Refers-To-Date", x.Revisit.Date},
		}...)
		if x.Revisit.Container != "" {
			h = append(h, [2]string{"WARC-Refers-To-Container", "file://" + x.Revisit.Container})
		}
	}
	h = append(h, [2]string{"Content-Type", "application/http;msgtype=response"})
	digested := m.known && profile != profileNotModified
	switch {
	case profile == profileIdentical:
		// The head alone: the payload is the earlier record's.
		h = append(h, [2]string{"WARC-Truncated", "length"})
		m = message{start: m.start, end: m.headEnd}
		block, _ = w.digests(x.Response, m)
	case profile == profileNotModified:
		m = message{start: m.start, end: m.start}
		block = sha1Sum(nil)
	case x.Truncated != "":
		h = append(h, [2]string{"WARC-Truncated", x.Truncated})
	case m.truncated:
		h = append(h, [2]string{"WARC-Truncated", "unspecified"})
	}
	h = append(h, [2]string{"WARC-Block-Digest", labelled(block)})
	// A 304 has no payload of its own, and its revisit record names none
	// (WARC 1.1, 6.7.3); an identical one names the payload it matched.
	if digested {
		h = append(h, [2]string{"WARC-Payload-Digest", labelled(payload)})
	}
	return w.write(reqRec, record{h, x.Response, m})
}

// revisitProfile returns the revisit profile under which x, whose final
// response m has a payload of the given digest, is recorded, or "" if it
// is recorded whole.
func revisitProfile(x Exchange, m message, payload []byte) string {
	switch {
	case x.Revisit == nil || !m.known || m.truncated || x.Truncated != "":
		return ""
	case m.code == http.StatusNotModified:
		return profileNotModified
	case m.code == http.StatusOK && sameDigest(x.Revisit.PayloadDigest, payload):
		return profileIdentical
	}
	return ""
}

// sameDigest reports whether a WARC-Payload-Digest, as recorded, is the
// SHA-1 digest sum: "sha1:" and the digest in base 32, as this package
// and wget write it, or in base 16. A digest by another algorithm never
// matches, and the response is recorded whole.
func sameDigest(recorded string, sum []byte) bool {
	alg, value, ok := strings.Cut(recorded, ":")
	if !ok || !strings.EqualFold(alg, "sha1") {
		return false
	}
	value = strings.TrimSpace(value)
	if b, err := base32.StdEncoding.DecodeString(strings.ToUpper(value)); err == nil {
		return bytes.Equal(b, sum)
	}
	if b, err := hex.DecodeString(value); err == nil {
		return bytes.Equal(b, sum)
	}
	return false
}

// check reports what makes x unfit to record, or nil.
func (x Exchange) check() error {
	u, err := url.Parse(x.TargetURI)
	if err != nil || !u.IsAbs() || !isVisibleASCII(x.TargetURI) {
		return fmt.Errorf("target URI %q is not an absolute URI of visible ASCII", x.TargetURI)
	}
	if x.Date.IsZero() {
		return fmt.Errorf("exchange with %s has no date", x.TargetURI)
	}
	if x.IP != "" {
		if _, err := netip.ParseAddr(x.IP); err != nil {
			return fmt.Errorf("exchange with %s: IP address: %w", x.TargetURI, err)
		}
	}
	if x.Response == nil || x.Response.Size() == 0 {
		return fmt.Errorf("exchange with %s has no response", x.TargetURI)
	}
	if x.Truncated != "" && !isToken(x.Truncated) {
		return fmt.Errorf("exchange with %s: truncation reason %q is not a token", x.TargetURI, x.Truncated)
	}
	if rv := x.Revisit; rv != nil {
		if err := rv.Check(); err != nil {
			return fmt.Errorf("exchange with %s: %w", x.TargetURI, err)
		}
	}
	return nil
}

// Check reports what keeps rv from being named in a revisit record, or
// nil: a record read from another writer's file may have a date or an ID
// that this package would not write.
func (rv *Revisit) Check() error {
	u, err := url.Parse(rv.TargetURI)
	switch {
	case err != nil || !u.IsAbs() || !isVisibleASCII(rv.TargetURI):
		return fmt.Errorf("it revisits %q, not an absolute URI of visible ASCII", rv.TargetURI)
	case !isDate(rv.Date):
		return fmt.Errorf("it revisits a record whose date %q is not a WARC-Date in UTC", rv.Date)
	case !isVisibleASCII(rv.RecordID) || !isVisibleASCII(rv.PayloadDigest) || !isVisibleASCII(rv.Container):
		return fmt.Errorf("it revisits a record whose ID %q, digest %q or package %q is not visible ASCII", rv.RecordID, rv.PayloadDigest, rv.Container)
	}
	return nil
}

// digests returns the SHA-1 digests of m's block, from start to end in
// src, and of its payload. A payload that is one piece of the block is
// digested in the same pass; a chunked one was digested as it was framed.
func (w *Writer) digests(src Source, m message) (block, payload []byte) {
	bh, ph := sha1.New(), sha1.New()
	contiguous := m.known && m.chunked == nil
	buf := w.buf()
	defer w.bufs.Put(buf)
	for off := m.start; off < m.end; {
		n, err := src.ReadAt((*buf)[:min(int64(len(*buf)), m.end-off)], off)
		b := (*buf)[:n]
		bh.Write(b)
		if contiguous {
			lo, hi := max(off, m.bodyStart), min(off+int64(n), m.bodyEnd)
			if lo < hi {
				ph.Write(b[lo-off : hi-off])
			}
		}
		off += int64(n)
		if n == 0 && err != nil {
			break // the source is shorter than it says: the write says so
		}
	}
	if m.chunked != nil {
		return bh.Sum(nil), m.chunked
	}
	return bh.Sum(nil), ph.Sum(nil)
}

// buf returns a buffer to read a source through, reused from an earlier
// one.
func (w *Writer) buf() *[]byte {
	if b, ok := w.bufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 64<<10)
	return &b
}

// write appends recs, whole records, to the file. On failure it cuts the
// file back to where it ended before, keeps the error, and returns it.
func (w *Writer) write(recs ...record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	cw := &countWriter{w: w.f}
	if w.out == nil {
		w.out = bufio.NewWriterSize(cw, 256<<10)
	} else {
		w.out.Reset(cw)
	}
	var err error
	for _, r := range recs {
		if err = w.encode(w.out, r); err != nil {
			break
		}
	}
	if err == nil {
		err = w.out.Flush()
	}
	if err != nil {
		// If the cut fails too, Reopen makes it.
		w.f.Truncate(w.size)
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err // named below
		}
		w.err = fmt.Errorf("writing WARC file %s: %w", w.path, err)
		return w.err
	}
	w.size += cw.n
	return nil
}

// A countWriter counts what it writes.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Size returns the size of the file once the records written so far are
// in it.
func (w *Writer) Size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.size
}

// Close closes the file. It returns the error of closing it, whatever
// went before; later writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("closing WARC file %s: %w", w.path, fs.ErrClosed)
	}
	err := w.f.Close()
	w.f = nil
	if w.err == nil {
		w.err = fmt.Errorf("writing WARC file %s: %w", w.path, fs.ErrClosed)
	}
	if err != nil {
		return fmt.Errorf("closing WARC file: %w", err)
	}
	return nil
}

// isToken reports whether s is a token as RFC 2616 defines it, which field
// names and some values must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// isText reports whether s can be a field's value on one line: UTF-8
// without control characters, so that it cannot end the field, or the
// header, early.
func isText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

func isVisibleASCII(s string) bool {
	for i := range len(s) {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// isDate reports whether s is a WARC-Date: a UTC time of RFC 3339, to the
// second or finer, as WARC 1.0 and 1.1 writers write it.
func isDate(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil && strings.HasSuffix(s, "Z")
}
