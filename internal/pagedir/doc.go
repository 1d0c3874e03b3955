// Package pagedir owns a crawl's page directory: the page files, the
// .crawler marker, the journal the marker holds while a crawl runs, and the
// label that outlives the journal. It checks the directory, saves and loads
// pages, and is the one home of resuming: it writes the journal and reads
// it back (its format is in journal.go), alone decides whether a crawl
// begins afresh or resumes, and from what, down to where its WARC file is
// cut back ([Dir.ResumeWARC]), and gives a resumed crawl its [History];
// its [Recorder] stores a crawl's records in the order that makes a resume
// exact.
//
// # Layout
//
// A page is a file named by its docID, from 1, holding the page's URL, its
// depth and its HTML, each followed by a newline. The [Marker] is a regular
// file. While a crawl runs it holds the journal: a header
// naming the crawl, then, for a crawl with more seeds than one, the line
// that lists them, then one line for each page taken from the bag. When
// the crawl ends it is emptied, leaving the reference's layout. On Linux,
// where the file system allows, the header is also the label, an extended
// attribute of the marker that diff -r does not see, so that a finished
// crawl can still be told from another.
//
// # Writing safely
//
// A page is written under a temporary name starting with a dot, then
// linked into place, which fails if the name is taken, so a page appears
// whole or not at all and never replaces a file. [Open] removes the
// temporary files a killed crawl left. The directory is opened once, and
// every later operation names files relative to it without following a
// symbolic link, so a directory renamed or swapped mid-crawl cannot
// redirect a write; a marker that is a link, a FIFO, a directory or a file
// with other links is refused before anything is written.
//
// # One crawler at a time
//
// [Claim] locks the directory (package filelock) before anything is
// written in it, on the descriptor that every later operation goes
// through, and the lock lasts until the [Dir] is closed or the process
// dies: a second crawler, which would number pages and journal as if
// alone, is refused at once, whether it begins a crawl or resumes one,
// and the directory, the running crawl's temporary files included, is
// left as it was. The lock is the directory's, not the marker's, so it
// follows the directory if it is renamed, and is held before the marker
// is made: [RemoveAbandoned] relies on that to tell a directory a killed
// crawl left from one in use.
//
// # The resume invariant
//
// Pages are saved one at a time, each before its outcome is recorded
// ([Dir.Save], then [Dir.Record]), and each record is one write. A page
// whose line keeps a charset, which its response named and its bytes do
// not say, is recorded first: a page on disk without a line is then always
// one whose bytes alone say how it reads, which the crawl scans as it did.
// So whenever a crawl stops, by an error, a signal or kill -9:
//
//   - the directory holds pages 1 to N of the uninterrupted crawl (the
//     one with the same seed, maxDepth and options that never stopped),
//     each whole, and perhaps a temporary file;
//   - the journal holds the header, then the outcomes of the first J pages
//     that crawl takes from the bag, and perhaps a torn last line; every
//     page they call saved is on disk, except perhaps the last if its line
//     keeps a charset, and at most one more, page N, is on disk without a
//     line;
//   - the label, if there is one, is the header.
//
// [Dir.Begin] drops a last line that keeps a charset if its page is not on
// disk, and the first [Dir.Record] cuts it off: the crawl fetches that page
// again. A crawl with a WARC file also journals the requisites it records,
// between the pages' lines, each after its records; they are no pages, and
// Begin hands them over apart ([Replay.Requisites]).
// Replaying the J outcomes in order, reading saved pages back and scanning
// them again, repeats every push into the bag and the seen-set, and so
// rebuilds both, and the next docID, exactly. The crawler then adopts page
// N if it holds the URL and depth it was about to fetch, and goes on from
// where the uninterrupted crawl was: every later page gets the docID it
// would have had, and a stop leaves the invariant true again.
//
// [Dir.Begin] keeps the conditions the invariant rests on, before it
// writes anything. A crawl that does not resume needs a directory without
// pages ([HoldsPagesError], from [Open]). A resumed crawl must be the one
// the header names ([MismatchError]), its pages numbered 1 to N without a
// gap ([PagesError]), and its journal readable ([NotJournalError]). An
// empty marker with pages is a finished crawl ([FinishedError], or
// [MismatchError] if the label names another); an empty marker, or one
// that is not a journal, with no page is a crawl that saved nothing, which
// begins afresh.
//
// The torn line is cut off at the first [Dir.Record], not at [Open], so a
// refused resume leaves the marker as it was. [Dir.Finish], once the crawl
// has ended or its seed failed, empties the journal; [Dir.Close], for any
// other stop, keeps it.
package pagedir
