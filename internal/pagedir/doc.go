// Package pagedir owns a crawl's page directory: the page files, the
// .crawler marker, the journal the marker holds while a crawl runs, and the
// label that outlives the journal. It opens and checks the directory, saves
// and loads pages, keeps the journal, and decides whether a crawl begins
// afresh or resumes, and from what, down to where its WARC file is cut
// back ([Dir.ResumeWARC]). It is the only package that decides about
// resuming; the crawler replays what [Dir.Begin] hands it, and adopts the
// one page the invariant below allows.
//
// # Layout
//
// A page is a file named by its docID, a decimal number from 1, that holds
// the page's URL, its depth and its HTML, each followed by a newline. The
// marker, [Marker], is a regular file. While a crawl runs it holds the
// crawl's journal (package journal): a header that names the crawl (its
// seed, maxDepth and the options that shape it), then one line for each
// page taken from the bag, saying what came of it. When the crawl ends the
// marker is emptied, so graders see exactly the reference layout. Where
// the file system allows, the header is also kept as the label, an
// extended attribute of the marker, which neither diff -r nor the indexer
// sees and which outlives the journal, so that a finished crawl can still
// be told from another.
//
// # Writing safely
//
// A page file appears whole or not at all. It is written under a temporary
// name that starts with a dot, so no later stage mistakes it for a page,
// and then linked into place. The link fails if the name is taken, so an
// existing page is never overwritten, even by a file that appears while the
// crawl runs. Temporary files left by a crawl that was killed are removed
// when the directory is next opened.
//
// The directory is opened once, and every later operation names its files
// relative to that handle, never through the directory's path, so a
// directory renamed or swapped for another while the crawl runs cannot
// redirect a write. No operation follows a symbolic link at a name in the
// directory: the crawler writes only to files it made and to the marker,
// which must be a regular file with no other name. A marker that is a link,
// a FIFO, a directory or a hard link is refused before anything is written.
//
// # The resume invariant
//
// Call the uninterrupted crawl the one with the same seed, maxDepth and
// options, against the same server, that was never stopped. The crawler
// saves each page before it records the page's outcome, one page at a
// time ([Dir.Save], then [Dir.Record]), and each record is a single
// write. So at every moment, and whenever the crawl stops, by an error, a
// signal or kill -9:
//
//   - the directory holds pages 1 to N of the uninterrupted crawl, each
//     whole, and perhaps a temporary file, which the next [Open] removes;
//   - the journal holds the header, then the outcomes of the first J pages
//     the uninterrupted crawl takes from the bag, in order, and perhaps a
//     torn last line, which journal.Read ignores; every page those lines
//     call saved is on disk, and at most one more, page N, is on disk
//     without a line;
//   - the label, if the file system keeps one, is the header.
//
// That is why a resume from any point gives a byte-identical result.
// Replaying the J outcomes in order, reading the saved pages back instead
// of fetching them and scanning them again, repeats every push into the
// bag and every URL added to the seen-set, and so rebuilds both, and the
// next docID, exactly as the uninterrupted crawl had them; at each step the
// crawler checks that it takes from the bag the page the journal names,
// and that a saved page on disk has the URL and depth it expects. It then
// adopts page N if it is on disk with the URL and depth it was about to
// fetch, and goes on live from the very point the uninterrupted crawl had
// reached. Every later page gets the docID it would have had, and no page
// is written twice; a stop during the resumed run leaves the invariant
// true again, so any number of stops and resumes give the same directory.
//
// [Dir.Begin] keeps the conditions the invariant rests on, before it
// writes anything:
//
//   - a crawl that does not resume needs a directory without pages
//     ([HoldsPagesError], from [Open]), and begins a new journal;
//   - the crawl resumed must be the one the header names, or the replay
//     would be another crawl's ([MismatchError]);
//   - pages must be numbered 1 to N without a gap ([PagesError]), and the
//     journal must read as one ([NotJournalError]);
//   - an empty marker with pages is a finished crawl: there is nothing to
//     resume ([FinishedError]), unless the label names another crawl
//     ([MismatchError]);
//   - an empty marker, or one that is not a journal, with no page at all,
//     is a crawl that saved nothing (its seed failed, or it stopped before
//     its first page), which begins afresh.
//
// The torn line is cut off at the resumed crawl's first [Dir.Record], not
// at [Open], so a resume refused for its arguments leaves the marker as it
// found it. [Dir.Finish], for a crawl that has ended, whether every page
// is done or its seed failed, empties the journal; [Dir.Close], for any
// other stop, keeps it to resume from.
package pagedir
