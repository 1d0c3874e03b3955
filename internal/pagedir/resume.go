package pagedir

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"tse-crawler/internal/pagefetch"
)

// A Replay is what a resumed crawl repeats before it goes on live.
type Replay struct {
	// Entries are the outcomes of the pages the stopped crawl took from
	// the bag, in order.
	Entries []Line
	// Saved counts the Entries that are saved pages: pages 1 to Saved.
	Saved int
	// Pages counts the pages on disk: Saved, or one more that the stopped
	// crawl saved without journaling it, which the crawl adopts.
	Pages int
	// Requisites are the requisites the stopped crawl recorded in its
	// WARC file, in order: they are no pages, and not in Entries.
	Requisites []Line
	// Seeds are the crawl's more seeds, as its journal lists them, and
	// HasSeeds whether it does: a crawl stopped before it had journaled
	// them, having taken no page, reads them again.
	Seeds    []string
	HasSeeds bool
}

// Begin begins crawl p in the directory, and decides, for a directory
// opened to resume, whether it goes on with the crawl there. The package
// doc gives the rules and why they make a resumed crawl the same as one
// never stopped.
//
// Begin returns a nil Replay for a crawl that begins afresh, after writing
// its journal's header, or the replay of the crawl to go on with, having
// written nothing. Its errors are a [*FinishedError], [*MismatchError],
// [*PagesError] or [*NotJournalError] for a crawl that cannot be resumed,
// or the failure to read or write the journal. After an error the
// directory is as Open left it.
func (d *Dir) Begin(p Params) (*Replay, error) {
	if !d.resume {
		return nil, d.begin(p)
	}
	pages, err := d.count()
	if err != nil {
		return nil, &PagesError{Dir: d.path, Err: err}
	}
	data, err := d.readJournal()
	if err != nil {
		return nil, err
	}
	was, entries, err := ReadJournal(bytes.NewReader(data))
	switch {
	case len(data) == 0 && pages > 0:
		if label, ok := d.label(); ok {
			if was, _, err := ReadJournal(bytes.NewReader(label)); err == nil {
				if diffs := was.Diff(p); diffs != nil {
					return nil, &MismatchError{Dir: d.path, Diffs: diffs}
				}
			}
		}
		return nil, &FinishedError{Dir: d.path, Pages: pages}
	case len(data) == 0 || errors.Is(err, ErrNotJournal) && pages == 0:
		return nil, d.begin(p)
	case err != nil:
		return nil, &NotJournalError{Dir: d.path, Err: err}
	}
	if diffs := was.Diff(p); diffs != nil {
		return nil, &MismatchError{Dir: d.path, Diffs: diffs}
	}
	r := &Replay{Pages: pages}
	for _, e := range entries {
		if e.Page == nil {
			if r.HasSeeds || len(r.Entries) > 0 || len(r.Requisites) > 0 {
				return nil, &NotJournalError{Dir: d.path, Err: errors.New("its line of seeds is not the first after the header")}
			}
			r.Seeds, r.HasSeeds = e.Seeds, true
			continue
		}
		switch e.Kind {
		case pagefetch.Requisite:
			r.Requisites = append(r.Requisites, e)
			continue
		case pagefetch.Saved:
			r.Saved++
		}
		r.Entries = append(r.Entries, e)
	}
	// A line with a charset goes before its page (see the package doc):
	// as the last line, with its page not on disk, it was never saved.
	if n := len(entries); n > 0 && r.Saved == pages+1 {
		if last := entries[n-1]; last.Kind == pagefetch.Saved && last.Charset != "" && last.DocID == r.Saved {
			r.Entries, r.Saved = r.Entries[:len(r.Entries)-1], pages
			d.unsaved = true
		}
	}
	return r, nil
}

// Recorded returns the parameters of the crawl in a directory opened to
// resume, as its journal names them, or for a finished crawl its label,
// and false if neither does. It writes nothing: [Dir.Begin] still decides
// whether the crawl goes on. A command whose flags leave a choice to the
// crawl it resumes reads them here first.
func (d *Dir) Recorded() (Params, bool) {
	if !d.resume {
		return Params{}, false
	}
	data, err := d.readJournal()
	if err != nil {
		return Params{}, false
	}
	if len(data) == 0 {
		if data, _ = d.label(); data == nil {
			return Params{}, false
		}
	}
	// The header alone: the entries are Begin's to read.
	if end := bytes.Index(data, []byte("\nbegin\n")); end >= 0 {
		data = data[:end+len("\nbegin\n")]
	}
	p, _, err := ReadJournal(bytes.NewReader(data))
	return p, err == nil
}

// A HoldsPagesError is returned by [Open], for a crawl that does not
// resume, when the directory holds pages already: a new crawl must never be
// mixed with an earlier one.
type HoldsPagesError struct {
	Dir  string // the directory, as given to Open
	Page string // the path of a page in it
}

func (e *HoldsPagesError) Error() string {
	return fmt.Sprintf("pageDirectory %s already holds pages (%s is in the way)", e.Dir, e.Page)
}

// A FinishedError is returned by [Dir.Begin] for a crawl that ended: its
// journal is empty and its pages are on disk, so there is nothing to
// resume.
type FinishedError struct {
	Dir   string
	Pages int // how many pages the finished crawl saved
}

func (e *FinishedError) Error() string {
	return fmt.Sprintf("the crawl in %s is finished, with %d pages: nothing to resume", e.Dir, e.Pages)
}

// A MismatchError is returned by [Dir.Begin] when the crawl in the
// directory, as its journal or its label names it, is not the crawl to
// resume.
type MismatchError struct {
	Dir string
	// Diffs say how the crawl in the directory differs, one phrase each,
	// as [Params.Diff] does.
	Diffs []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the crawl in %s has %s", e.Dir, strings.Join(e.Diffs, ", "))
}

// A PagesError is returned by [Dir.Begin] when the pages in the directory
// cannot be listed, or are not numbered from 1 without a gap, as a crawl
// saves them.
type PagesError struct {
	Dir string
	Err error
}

func (e *PagesError) Error() string { return fmt.Sprintf("the pages in %s: %v", e.Dir, e.Err) }
func (e *PagesError) Unwrap() error { return e.Err }

// A NotJournalError is returned by [Dir.Begin] when the marker does not
// read as a journal: it is not one at all, though pages say that a crawl
// was under way, or one of its lines cannot be read.
type NotJournalError struct {
	Dir string
	Err error // ReadJournal's
}

func (e *NotJournalError) Error() string {
	return fmt.Sprintf("%s in %s is not a journal of a crawl: %v", Marker, e.Dir, e.Err)
}

func (e *NotJournalError) Unwrap() error { return e.Err }
