// Package warc writes a crawl as a WARC file (ISO 28500:2017, WARC 1.1),
// the web-archive format that wget, Heritrix and the Internet Archive's
// Zeno write, and that pywb, ReplayWeb.page, warcio and the CDX indexers
// read.
//
// A file begins with a warcinfo record, which names the software, the
// options that shaped the crawl and its robots policy. Each HTTP exchange
// then gets a request record and a response record, written one after the
// other, request first as wget writes them, each naming the other in
// WARC-Concurrent-To: the standard's own example links the request to the
// response, as warcio does, wget links the response to the request, and
// readers look from either side. Every record names its warcinfo record
// in WARC-Warcinfo-ID, and carries a random UUID as its WARC-Record-ID, a
// WARC-Date to the microsecond (the same in both records of an exchange,
// as the standard asks of one capture) and a SHA-1 WARC-Block-Digest in
// base 32. A file whose name ends in .gz holds one gzip member for each
// record, so that a reader can start at any record.
//
// # What a response record holds
//
// A response record holds the final response to its request, from its
// status line to the end of its message as its framing says. Interim 1xx
// responses before it (100 Continue, 103 Early Hints), which an HTTP
// client reads past, are left out: a reader such as warcio takes a
// record's first status line for its status, and would index a page as a
// 100. So are bytes a server sent after the end, such as a second
// response nobody asked for, which belong to no response to this request.
// A 101 ends with its head: what follows is another protocol.
//
// What was read is given as a [Source], which may be a file a large
// response was spooled to, and the record is streamed from it, so that
// writing it holds none of it in memory.
//
// # Transfer and content codings
//
// The final response is recorded byte for byte as it came: a
// chunked body with its chunk sizes, extensions and trailer, and a body
// with a gzip Content-Encoding still compressed. wget does the same,
// writing the chunk headers to its WARC copy while it decodes them for
// the page (src/retr.c, fd_read_body), and so does warcio, whose
// capture_http records the bytes read from the socket. The record is then
// the evidence of what the server sent, and a replay tool, which reads the
// Transfer-Encoding and Content-Encoding headers in the record, can serve
// it again.
//
// The WARC-Payload-Digest is that of the entity body (WARC 1.1, sections
// 5.9 and 6.3.2, after RFC 2616): the body with the transfer coding
// removed and the content coding kept. The IIPC settled this in its
// warc-specifications issue 22, so that two captures of the same body,
// chunked differently, have the same payload digest, which deduplication
// relies on; the Internet Archive's gowarc (the library of Zeno) digests
// so, wget-lua was corrected to (its issue 13), and Heritrix is being (its
// issue 769). Here wget 1.x and
// warcio, in Python and JavaScript, differ: they digest the bytes after
// the head as they are, chunk sizes included (wget's
// warc_sha1_stream_with_payload; warcio's ensure_digest and its issue 74,
// open, which calls it a bug). For a response that is not chunked, which
// is every response to an HTTP/1.0 request, all of them agree; for a
// chunked one, "warcio check" would report the payload digest as failed.
// Content coding is kept because the entity body is the coded one, and
// because it is what the replay serves.
//
// The framing of a message is read as net/http's client reads it, so that
// the payload of a page's record is the body the crawler saved, provided
// the client did not decode a content coding for it. A response cut short
// is still recorded, with WARC-Truncated, and with the payload digest of
// the part of the entity body it holds, as the standard defines the
// payload of a truncated record; a response with no well-defined entity
// body, because its head is torn or malformed, its chunked coding is
// malformed, or it has another transfer coding, has no payload digest, as
// the standard requires.
//
// # Crashes and resuming
//
// The records of an exchange are written one after the other, each
// compressed into its own member for a .warc.gz, while a lock keeps
// other exchanges out, so that a crawl killed with kill -9 leaves at most
// one torn exchange, the last. If a write fails, as on a full disk, the
// file is cut back to the end of the last whole exchange. [Resume] reads
// the file record by record, by Content-Length and the two CRLFs that end
// a record, or member by member, and cuts it off after the last whole
// exchange, dropping a torn record and a request whose response was never
// written. Anything else where a record should begin is damage, or a file
// this package did not write, and Resume leaves it alone.
//
// A resumed run begins with a warcinfo record of its own, which its
// records name. The standard lets a warcinfo record appear anywhere, so
// that WARC files can be concatenated, and says that it describes the
// records that follow it, up to the next one; a resumed run is a run of
// its own, with its own start and perhaps its own version of the software.
// Neither wget nor warcio resumes a file: wget starts a new file, each
// with its warcinfo record, and warcio appends to a file without writing
// one.
//
// # Digests
//
// A response record carries two SHA-1 digests of nearly the same bytes,
// the block's and the payload's, made from one reading of the response
// by crypto/sha1. They are most of what a plain file costs to write.
//
// # No WARC library
//
// The package uses the standard library, with
// github.com/klauspost/compress for gzip, whose fastest level
// compresses a page in two thirds of the time of compress/gzip's for a
// file of the same size. Of the Go WARC libraries
// that are served, github.com/internetarchive/gowarc (v0.8.96) is the
// capturing HTTP client of Zeno, with its own dialer, DNS resolver, TLS
// fingerprinting, SOCKS proxy and deduplication against remote services,
// fifteen direct dependencies, counters in package variables and files it
// names and rotates itself from goroutines that panic on an I/O error;
// github.com/nlnwa/gowarc (v3) is a sound reader and validator, but its
// writer too names and rotates its files, and it digests the payload of a
// chunked response with the chunk sizes. Neither can append to a file, cut
// a torn record off it, or report a full disk to its caller, which is
// what a crawl that resumes needs; the whole of what it needs is a few
// hundred lines here.
package warc
