package pagedir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"tse-crawler/internal/pagefetch"
)

// The journal is a text file: a header that names the crawl (its seed,
// its maximum depth and the options that shape it), then one line for each
// page taken from the bag, saying what came of it: saved under a docID
// (with the charset it was read in, if only its response said so), failed
// or redirected (with its HTTP status, or why it failed), or disallowed by
// robots.txt. A crawl that writes a WARC file also journals each
// requisite it records, a resource a page needs to render, with what it
// needs in turn: a stylesheet's imports and images, a redirect's target.
// A crawl with more seeds than one (crawler.Crawler.Seeds) lists them, as
// they were read, on one line before the first page's, so that a resumed
// crawl goes on with the same list even if where they were read from has
// changed meanwhile; the line is written whole or, torn, not at all.
//
// [ReadJournal] ignores a torn last line, the one a crawl killed in the
// middle of a write leaves. A writer that goes on with such a journal must
// cut that line off first, or the next line would run into it and make an
// entry ReadJournal rejects.

// journalMagic starts every journal, with its format's version.
const journalMagic = "tse-crawler journal 1"

// Params name a crawl: two crawls with equal Params crawl the same pages in
// the same order, given the same server.
type Params struct {
	Seed     string
	MaxDepth int
	// Options are the other settings that shape the crawl, such as the
	// link scanner and the crawl order, as name and value.
	Options [][2]string
}

// Diff describes how p differs from q, one phrase per difference, or
// returns nil if they are equal.
func (p Params) Diff(q Params) []string {
	var diffs []string
	if p.Seed != q.Seed {
		diffs = append(diffs, fmt.Sprintf("seedURL %s, not %s", p.Seed, q.Seed))
	}
	if p.MaxDepth != q.MaxDepth {
		diffs = append(diffs, fmt.Sprintf("maxDepth %d, not %d", p.MaxDepth, q.MaxDepth))
	}
	names := make(map[string]bool)
	for _, o := range slices.Concat(p.Options, q.Options) {
		names[o[0]] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		pv, pok := option(p.Options, name)
		qv, qok := option(q.Options, name)
		if pv != qv || pok != qok {
			diffs = append(diffs, fmt.Sprintf("-%s %q, not %q", name, pv, qv))
		}
	}
	return diffs
}

func option(opts [][2]string, name string) (string, bool) {
	for _, o := range opts {
		if o[0] == name {
			return o[1], true
		}
	}
	return "", false
}

// The letters that start a journal's lines, by what came of the page.
var letters = map[pagefetch.Kind]byte{
	pagefetch.Saved:      'S', // fetched and saved as its DocID
	pagefetch.Failed:     'F', // could not be fetched
	pagefetch.Disallowed: 'D', // robots.txt did not allow it
	pagefetch.Redirected: 'R', // redirected to its Target
	// A resource some page needs to render, fetched for the WARC file and
	// recorded there, whatever the answer: no page taken from the bag.
	pagefetch.Requisite: 'Q',
}

// kindOf returns the kind a journal line's letter stands for, or 0.
func kindOf(letter byte) pagefetch.Kind {
	for k, l := range letters {
		if l == letter {
			return k
		}
	}
	return 0
}

// A Line is one line of the journal: a page taken from the bag, or a
// requisite recorded, as far as the journal keeps it (its Kind, URL,
// DocID, Target, Charset, Status, Needs and Nest), and the size of the
// crawl's WARC file once its records are in, or 0 for a crawl without
// one. A resumed crawl cuts the file back to the size its last line
// gives, so that a page whose records were written but whose line was
// not, and which is fetched again, is not recorded twice.
//
// What each field holds is what the page's holds (package pagefetch):
// Charset only if it changes how the page's links read (see
// pagescan.CharsetScanner), since a resumed crawl, which has the page but
// not its response, reads it again with it, and package pagedir says why
// such a line is written before its page is saved; Status, for a page
// that failed or redirected, what the link graph says of it (its HTTP
// status, such as "404", or a word such as "timeout"), which a journal
// written before statuses were lacks; Needs, of a requisite, what it
// needs in turn, which a resumed crawl fetches if it has not; Nest, how
// deep below its page it was found, from 1, which the line leaves out,
// and which a journal written before nesting was bounded lacks.
//
// The line of a crawl's more seeds has no Page, and Seeds, never nil.
type Line struct {
	*pagefetch.Page
	WARC  int64
	Seeds []string
}

// JournalHeader returns the journal's first lines, for p.
func JournalHeader(p Params) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nseed %s\nmaxDepth %d\n", journalMagic, strconv.Quote(p.Seed), p.MaxDepth)
	for _, o := range p.Options {
		fmt.Fprintf(&b, "option %s %s\n", o[0], strconv.Quote(o[1]))
	}
	b.WriteString("begin\n")
	return b.Bytes()
}

// seedsLetter starts the line of a crawl's more seeds.
const seedsLetter = 'E'

// JournalLine returns the journal line for e.
func JournalLine(e Line) []byte {
	if e.Page == nil {
		b := []byte{seedsLetter}
		for _, u := range e.Seeds {
			b = append(b, ' ')
			b = strconv.AppendQuote(b, u)
		}
		return append(b, '\n')
	}
	b := []byte{letters[e.Kind], ' '}
	if e.Kind == pagefetch.Saved {
		b = strconv.AppendInt(b, int64(e.DocID), 10)
		b = append(b, ' ')
	}
	b = strconv.AppendQuote(b, e.URL)
	if e.Kind == pagefetch.Redirected {
		b = append(b, ' ')
		b = strconv.AppendQuote(b, e.Target)
	}
	if e.Kind == pagefetch.Requisite {
		b = appendRequisite(b, e.Page)
	}
	if (e.Kind == pagefetch.Failed || e.Kind == pagefetch.Redirected) && e.Status != "" {
		b = append(b, " status "...)
		b = append(b, e.Status...)
	}
	if e.Kind == pagefetch.Saved && e.Charset != "" {
		b = append(b, " charset "...)
		b = strconv.AppendQuote(b, e.Charset)
	}
	if e.WARC > 0 {
		b = append(b, " warc "...)
		b = strconv.AppendInt(b, e.WARC, 10)
	}
	return append(b, '\n')
}

// appendRequisite appends what a requisite's line says after its URL:
// " redirect" and its target, if it redirected, then " nest" and how deep
// it is, if deeper than a page's own requisites, then " needs" and each
// URL it needs, if any.
func appendRequisite(b []byte, e *pagefetch.Page) []byte {
	if e.Target != "" {
		b = append(b, " redirect "...)
		b = strconv.AppendQuote(b, e.Target)
	}
	if e.Nest > 1 {
		b = append(b, " nest "...)
		b = strconv.AppendInt(b, int64(e.Nest), 10)
	}
	if len(e.Needs) > 0 {
		b = append(b, " needs"...)
		for _, u := range e.Needs {
			b = append(b, ' ')
			b = strconv.AppendQuote(b, u)
		}
	}
	return b
}

// ErrNotJournal is returned by ReadJournal for content that is not a journal.
var ErrNotJournal = errors.New("not a crawl journal")

// ReadJournal reads a journal. A last line without its newline was torn by a
// crash and is ignored; any other line that cannot be read is an error.
func ReadJournal(r io.Reader) (Params, []Line, error) {
	var p Params
	var entries []Line
	br := bufio.NewReader(r)
	n := 0
	inHeader := true
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break // a torn line, or the end
		}
		if err != nil {
			return p, nil, err
		}
		n++
		line = strings.TrimSuffix(line, "\n")
		if n == 1 {
			if line != journalMagic {
				return p, nil, ErrNotJournal
			}
			continue
		}
		if inHeader {
			if line == "begin" {
				inHeader = false
				continue
			}
			if err := p.parse(line); err != nil {
				return p, nil, fmt.Errorf("journal line %d: %w", n, err)
			}
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			return p, nil, fmt.Errorf("journal line %d: %w", n, err)
		}
		entries = append(entries, e)
	}
	if n == 0 {
		return p, nil, ErrNotJournal
	}
	if inHeader {
		return p, nil, fmt.Errorf("%w: its header is cut short", ErrNotJournal)
	}
	return p, entries, nil
}

func (p *Params) parse(line string) error {
	key, rest, _ := strings.Cut(line, " ")
	switch key {
	case "seed":
		s, err := strconv.Unquote(rest)
		p.Seed = s
		return err
	case "maxDepth":
		d, err := strconv.Atoi(rest)
		p.MaxDepth = d
		return err
	case "option":
		name, val, ok := strings.Cut(rest, " ")
		v, err := strconv.Unquote(val)
		if !ok || err != nil {
			return fmt.Errorf("bad option %q", rest)
		}
		p.Options = append(p.Options, [2]string{name, v})
		return nil
	}
	return fmt.Errorf("unknown header line %q", line)
}

func parseEntry(line string) (Line, error) {
	bad := fmt.Errorf("bad entry %q", line)
	if line != "" && line[0] == seedsLetter {
		seeds := []string{}
		for rest := line[1:]; rest != ""; {
			q, err := strconv.QuotedPrefix(strings.TrimPrefix(rest, " "))
			if err != nil || rest[0] != ' ' {
				return Line{}, bad
			}
			u, _ := strconv.Unquote(q)
			seeds = append(seeds, u)
			rest = rest[1+len(q):]
		}
		return Line{Seeds: seeds}, nil
	}
	if len(line) < 3 || line[1] != ' ' {
		return Line{}, bad
	}
	e := Line{Page: &pagefetch.Page{Kind: kindOf(line[0])}}
	rest := line[2:]
	if e.Kind == pagefetch.Saved {
		num, after, ok := strings.Cut(rest, " ")
		id, err := strconv.Atoi(num)
		if !ok || err != nil || id < 1 {
			return Line{}, bad
		}
		e.DocID, rest = id, after
	}
	u, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return Line{}, bad
	}
	e.URL, _ = strconv.Unquote(u)
	rest = rest[len(u):]
	switch e.Kind {
	case pagefetch.Saved, pagefetch.Failed, pagefetch.Disallowed:
	case pagefetch.Requisite:
		var ok bool
		if rest, ok = parseRequisite(e.Page, rest); !ok {
			return Line{}, bad
		}
	case pagefetch.Redirected:
		t, err := strconv.QuotedPrefix(strings.TrimPrefix(rest, " "))
		if err != nil || !strings.HasPrefix(rest, " ") {
			return Line{}, bad
		}
		e.Target, _ = strconv.Unquote(t)
		rest = rest[1+len(t):]
	default:
		return Line{}, bad
	}
	if after, ok := strings.CutPrefix(rest, " status "); ok && (e.Kind == pagefetch.Failed || e.Kind == pagefetch.Redirected) {
		e.Status, rest, _ = strings.Cut(after, " ")
		if rest != "" {
			rest = " " + rest
		}
		if e.Status == "" {
			return Line{}, bad
		}
	}
	// A journal written before charsets were, or a page whose
	// Content-Type changes nothing, has none.
	if after, ok := strings.CutPrefix(rest, " charset "); ok && e.Kind == pagefetch.Saved {
		q, err := strconv.QuotedPrefix(after)
		if err != nil {
			return Line{}, bad
		}
		if e.Charset, _ = strconv.Unquote(q); e.Charset == "" {
			return Line{}, bad
		}
		rest = after[len(q):]
	}
	// A journal written before WARC files were, or by a crawl without
	// one, has no size; the field comes last so that such lines read as
	// they always did. It is a positive number as Line writes it, with
	// no sign and no leading zero.
	if rest != "" {
		num, ok := strings.CutPrefix(rest, " warc ")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || n < 1 || strconv.FormatInt(n, 10) != num {
			return Line{}, bad
		}
		e.WARC = n
	}
	return e, nil
}

// parseRequisite reads what a requisite's line says after its URL, as
// appendRequisite writes it, and returns the rest of the line.
func parseRequisite(e *pagefetch.Page, rest string) (string, bool) {
	if after, ok := strings.CutPrefix(rest, " redirect "); ok {
		q, err := strconv.QuotedPrefix(after)
		if err != nil {
			return "", false
		}
		if e.Target, _ = strconv.Unquote(q); e.Target == "" {
			return "", false
		}
		rest = after[len(q):]
	}
	if after, ok := strings.CutPrefix(rest, " nest "); ok {
		num, _, _ := strings.Cut(after, " ")
		n, err := strconv.Atoi(num)
		if err != nil || n < 2 || strconv.Itoa(n) != num {
			return "", false
		}
		e.Nest = n
		rest = after[len(num):]
	}
	after, ok := strings.CutPrefix(rest, " needs")
	if !ok {
		return rest, true
	}
	for rest = after; strings.HasPrefix(rest, " \""); {
		q, err := strconv.QuotedPrefix(rest[1:])
		if err != nil {
			return "", false
		}
		u, _ := strconv.Unquote(q)
		e.Needs = append(e.Needs, u)
		rest = rest[1+len(q):]
	}
	return rest, len(e.Needs) > 0
}
