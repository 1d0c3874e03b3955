// Package warc writes a crawl as a WARC 1.1 file (ISO 28500:2017), the
// web-archive format that pywb, ReplayWeb.page, warcio and the CDX indexers
// read.
//
// A file begins with a warcinfo record naming the software, the robots
// policy and the options of the crawl. Each HTTP exchange then gets a
// request record and a response record, adjacent, request first, each
// naming the other in WARC-Concurrent-To, as readers pair them from either
// side. Every record names its warcinfo record, and carries a random UUID,
// a WARC-Date to the microsecond (the same for both records of an
// exchange) and a SHA-1 block digest in base 32. A file whose name ends in
// .gz, in any case, holds one gzip member per record, so that a reader can
// start at any record.
//
// # Response records
//
// A response record holds the final response to its request as it came,
// from its status line to the end of its message as its framing says: a
// chunked body with its chunk sizes and trailer, a gzip body still
// compressed, as wget and warcio record them, so that the record is
// evidence of what the server sent and a replay tool can serve it again.
// Interim 1xx responses before it are left out, since readers take a
// record's first status line for its status, and so are bytes after it,
// which answer no request. A response cut short is recorded with
// WARC-Truncated.
//
// The WARC-Payload-Digest is that of the entity body, as WARC 1.1 defines
// it: the transfer coding removed, the content coding kept, so that two
// captures of one body, chunked differently, have one digest. The IIPC
// settled this (warc-specifications issue 22), and the Internet Archive's
// gowarc digests so; wget 1.x and warcio digest a chunked body with its
// chunk sizes, so "warcio check" reports the payload digest of a chunked
// response written here as failed. A response with no well-defined entity body gets no payload
// digest.
//
// A response is given as a [Source], which may be a file it was spooled
// to, and its record is streamed from it, not held in memory.
//
// # Crashes, and appending again
//
// A [Writer] writes the records of an exchange together, under a lock, so
// a crash leaves at most one torn exchange, the last, and a failed write,
// as on a full disk, cuts the file back to the last whole exchange.
// [Reopen] reads a file record by record (or gzip member by member) and
// cuts it after the last whole exchange; anything else where a record
// should begin is damage, or a file this package did not write, and is
// left alone. [ReopenAt] cuts the file back to a size the caller recorded,
// where a record ends. [Create], Reopen and ReopenAt lock the file
// (package filelock) as they open it, before reading or cutting anything,
// so that no two Writers, in one process or two, ever cut and append to
// one file. A resumed run
// begins with a warcinfo record of its own, as the standard allows, since
// it is a run with its own start and perhaps its own software. [Read]
// reads a finished file back record by record, with the same reader, and
// [ReadAny] the records of any WARC 1.0 or 1.1 writer, such as wget, for
// a crawl that revisits an earlier one's captures: it reports a torn last
// record, which such a crawl skips, apart from damage.
//
// # No WARC library
//
// The Go WARC libraries name and rotate their own files, and none can
// append to a file, cut a torn record off it, or report a full disk to
// its caller, which a crawl that resumes needs. So this package uses the
// standard library, and github.com/klauspost/compress for gzip, whose
// default level takes half the time of compress/gzip's, for a file 4%
// larger.
package warc
