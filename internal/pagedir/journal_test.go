package pagedir

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"tse-crawler/internal/pagefetch"
)

var params = Params{
	Seed:     "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html",
	MaxDepth: 3,
	Options:  [][2]string{{"links", "reference"}, {"order", "lifo"}},
}

var entries = []Line{
	// A crawl with more seeds lists them first; with none, the line is
	// there, empty.
	{Seeds: []string{"http://h/a.html", "http://h/b \"c\" d.html"}},
	{Seeds: []string{}},
	{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", DocID: 1}},
	{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://cs50tse.cs.dartmouth.edu/tse/letters/Z.html"}},
	{Page: &pagefetch.Page{Kind: pagefetch.Redirected, URL: "http://h/tse/dir", Target: "http://h/tse/dir/"}},
	{Page: &pagefetch.Page{Kind: pagefetch.Disallowed, URL: "http://h/tse/secret.html"}},
	{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/tse/a b\t\"quoted\".html", DocID: 2}},
	{Page: &pagefetch.Page{Kind: pagefetch.Redirected, URL: "http://h/tse/x.html", Target: ""}},
	// A crawl with a WARC file gives its size after each page's records.
	{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/tse/w.html", DocID: 3}, WARC: 1234},
	{Page: &pagefetch.Page{Kind: pagefetch.Redirected, URL: "http://h/tse/w warc 1", Target: "http://h/ warc 7"}, WARC: 5678},
	{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://h/tse/f.html"}, WARC: 9012},
	{Page: &pagefetch.Page{Kind: pagefetch.Disallowed, URL: "http://h/tse/d.html"}, WARC: 9012},
	// A page whose Content-Type decides how it reads keeps its charset.
	{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/tse/sjis.html", DocID: 4, Charset: "Shift_JIS"}},
	{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/tse/w charset \"x\"", DocID: 5, Charset: "windows-1252"}, WARC: 9999},
	// A crawl with a WARC file journals the requisites it records, with
	// a redirect's target and what a stylesheet needs.
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/img/a.png"}, WARC: 10100},
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/old.png", Target: "http://cdn/new.png"}, WARC: 10200},
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/s.css", Needs: []string{"http://h/base.css", "http://h/a b.png needs \"x\""}}, WARC: 10300},
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/r.css", Target: "http://h/s.css", Needs: []string{"http://h/x"}}, WARC: 10400},
	// A frame's document found below another's says how deep it is.
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/f2.html", Nest: 2, Needs: []string{"http://h/f3.html"}}, WARC: 10410},
	{Page: &pagefetch.Page{Kind: pagefetch.Requisite, URL: "http://h/f nest 3", Target: "http://h/g", Nest: 10}, WARC: 10420},
	// What the link graph says of a page that failed or redirected.
	{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://h/tse/404 status 500", Status: "404"}},
	{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://h/tse/slow.html", Status: "timeout"}, WARC: 10500},
	{Page: &pagefetch.Page{Kind: pagefetch.Redirected, URL: "http://h/tse/moved", Target: "http://h/tse/moved/ status 1", Status: "308"}, WARC: 10600},
}

// sameEntries reports whether two lists of entries are equal, a nil list
// and an empty one alike.
func sameEntries(a, b []Line) bool {
	return slices.EqualFunc(a, b, func(e, f Line) bool { return reflect.DeepEqual(e, f) })
}

func journalBytes(p Params, es []Line) []byte {
	b := JournalHeader(p)
	for _, e := range es {
		b = append(b, JournalLine(e)...)
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	p, got, err := ReadJournal(bytes.NewReader(journalBytes(params, entries)))
	if err != nil {
		t.Fatal(err)
	}
	if p.Diff(params) != nil || !sameEntries(got, entries) {
		t.Errorf("Read gave %+v %+v, want %+v %+v", p, got, params, entries)
	}
}

// TestTorn: a crawl killed in the middle of a write leaves a last line with
// no newline, which is ignored, wherever it is cut.
func TestTorn(t *testing.T) {
	full := journalBytes(params, entries)
	header := len(JournalHeader(params))
	for cut := 1; cut < len(full); cut++ {
		p, got, err := ReadJournal(bytes.NewReader(full[:cut]))
		if cut < header {
			if !errors.Is(err, ErrNotJournal) {
				t.Errorf("cut at %d, in the header: error %v, want ErrNotJournal", cut, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		whole := strings.Count(string(full[header:cut]), "\n")
		if p.Diff(params) != nil || !sameEntries(got, entries[:whole]) {
			t.Errorf("cut at %d: %d entries, want the %d whole ones", cut, len(got), whole)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{
		"",
		"not a journal\n",
		"tse-crawler journal 2\nbegin\n",
		"tse-crawler journal 1\nseed unquoted\nbegin\n",
		"tse-crawler journal 1\ncolour \"red\"\nbegin\n",
		"tse-crawler journal 1\nbegin\nS x \"u\"\n",
		"tse-crawler journal 1\nbegin\nS 0 \"u\"\n",
		"tse-crawler journal 1\nbegin\nF \"u\" \"extra\"\n",
		"tse-crawler journal 1\nbegin\nR \"u\"\n",
		"tse-crawler journal 1\nbegin\nX \"u\"\n",
		"tse-crawler journal 1\nbegin\nF u\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc 0\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc -5\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc +5\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc 05\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc 5 \n",
		"tse-crawler journal 1\nbegin\nF \"u\"  warc 5\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc\n",
		"tse-crawler journal 1\nbegin\nR \"u\" warc 5\n",
		"tse-crawler journal 1\nbegin\nR \"u\" \"t\" warc 5 warc 6\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" warc 99999999999999999999\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" charset \"\"\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" charset x\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" charset \"x\" charset \"y\"\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" warc 5 charset \"x\"\n",
		"tse-crawler journal 1\nbegin\nF \"u\" charset \"x\"\n",
		"tse-crawler journal 1\nbegin\nR \"u\" \"t\" charset \"x\"\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" needs warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" needs\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" needs \"a\"\"b\" warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" redirect \"\" warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" redirect t warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" needs \"a\" redirect \"t\" warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" \"t\" warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" charset \"x\" warc 5\n",
		"tse-crawler journal 1\nbegin\nF \"u\" needs \"a\"\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" nest 1 warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" nest 02 warc 5\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" nest -3\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" nest\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" needs \"a\" nest 2\n",
		"tse-crawler journal 1\nbegin\nQ \"u\" nest 2 redirect \"t\"\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" nest 2\n",
		"tse-crawler journal 1\nbegin\nR \"u\" \"t\" redirect \"t\"\n",
		"tse-crawler journal 1\nbegin\nF \"u\" status \n",
		"tse-crawler journal 1\nbegin\nF \"u\" status  warc 5\n",
		"tse-crawler journal 1\nbegin\nS 1 \"u\" status 200\n",
		"tse-crawler journal 1\nbegin\nD \"u\" status 404\n",
		"tse-crawler journal 1\nbegin\nF \"u\" warc 5 status 404\n",
	} {
		if _, _, err := ReadJournal(strings.NewReader(in)); err == nil {
			t.Errorf("ReadJournal(%q) succeeded, want an error", in)
		}
	}
}

// TestOldJournal: a journal written before charsets were reads as it
// did, and its lines are written as they were.
func TestOldJournal(t *testing.T) {
	const old = "tse-crawler journal 1\nseed \"http://h/\"\nmaxDepth 1\nbegin\nS 1 \"http://h/\"\nS 2 \"http://h/a.html\" warc 512\nF \"http://h/b.html\"\n"
	p, got, err := ReadJournal(strings.NewReader(old))
	want := []Line{
		{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/", DocID: 1}},
		{Page: &pagefetch.Page{Kind: pagefetch.Saved, URL: "http://h/a.html", DocID: 2}, WARC: 512},
		{Page: &pagefetch.Page{Kind: pagefetch.Failed, URL: "http://h/b.html"}},
	}
	if err != nil || !sameEntries(got, want) {
		t.Fatalf("ReadJournal(%q) = %+v, %v, want %+v", old, got, err, want)
	}
	if again := string(journalBytes(p, got)); again != old {
		t.Errorf("written again, the journal is\n%s\nwant\n%s", again, old)
	}
}

func TestDiff(t *testing.T) {
	other := Params{Seed: "http://x/", MaxDepth: 2, Options: [][2]string{{"links", "html"}, {"order", "lifo"}, {"robots", "false"}}}
	want := []string{
		`seedURL http://cs50tse.cs.dartmouth.edu/tse/letters/index.html, not http://x/`,
		`maxDepth 3, not 2`,
		`-links "reference", not "html"`,
		`-robots "", not "false"`,
	}
	if got := params.Diff(other); !slices.Equal(got, want) {
		t.Errorf("Diff =\n%q\nwant\n%q", got, want)
	}
	if got := params.Diff(params); got != nil {
		t.Errorf("Diff of equal params = %q, want nil", got)
	}
}

func FuzzReadJournal(f *testing.F) {
	f.Add(journalBytes(params, entries))
	f.Add([]byte("tse-crawler journal 1\nbegin\nR \"a\" \"b\"\n"))
	f.Add([]byte("tse-crawler journal 1\nbegin\nE \"a\" \"b\"\nE\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, es, err := ReadJournal(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What Read accepts, written again, reads back the same.
		p2, es2, err := ReadJournal(bytes.NewReader(journalBytes(p, es)))
		if err != nil || p2.Diff(p) != nil || !sameEntries(es, es2) {
			t.Fatalf("round trip of %q: %v", data, err)
		}
	})
}
