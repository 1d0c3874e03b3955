package linkgraph

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"tse-crawler/internal/stats"
)

// An event is one thing a crawl tells a graph.
type event struct {
	do       string // link, decide, queue, saved or failed
	url, arg string // for link, url links to arg; else arg is the status
	docID    int
}

func tell(g *Graph, events []event) {
	for _, e := range events {
		switch e.do {
		case "link":
			g.Link(e.url, e.arg, "")
		case "decide":
			g.Decide(e.url, e.arg)
		case "queue":
			g.Queue(e.url)
		case "saved":
			g.Saved(e.url, e.docID)
		case "failed":
			g.Failed(e.url, e.arg)
		}
	}
}

func TestGraph(t *testing.T) {
	tests := []struct {
		name   string
		events []event
		csv    string // without the header, lines ending in \n
		broken []stats.BrokenLink
	}{
		{
			name:   "nothing",
			broken: []stats.BrokenLink{},
		},
		{
			name: "control bytes in a URL are percent-encoded, as RFC 4180 allows none",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "b\x00c\x1f\x7f"}, {do: "decide", url: "b\x00c\x1f\x7f", arg: External},
			},
			csv:    "a,b%00c%1F%7F,external,1,\n",
			broken: []stats.BrokenLink{},
		},
		{
			name: "a status is decided later, and is the same on every row",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "b"}, {do: "queue", url: "b"},
				{do: "link", url: "a", arg: "b"}, // a duplicate keeps its row
				{do: "link", url: "a", arg: "x"}, {do: "decide", url: "x", arg: External},
				{do: "saved", url: "b", docID: 2},
				{do: "link", url: "b", arg: "a"},
			},
			csv:    "a,b,200,1,2\na,b,200,1,2\na,x,external,1,\nb,a,200,2,1\n",
			broken: []stats.BrokenLink{},
		},
		{
			name: "undecided: in the bag, or never put there",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "b"}, {do: "queue", url: "b"},
				{do: "link", url: "a", arg: "c"},
			},
			csv:    "a,b,max-pages,1,\na,c,depth,1,\n",
			broken: []stats.BrokenLink{},
		},
		{
			name: "the first decision stands",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "r"}, {do: "decide", url: "r", arg: "301"}, {do: "decide", url: "r", arg: Robots},
			},
			csv:    "a,r,301,1,\n",
			broken: []stats.BrokenLink{},
		},
		{
			name: "broken links count distinct pages, and name the first three",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "gone"}, {do: "link", url: "a", arg: "gone"},
				{do: "failed", url: "gone", arg: "404"},
				{do: "saved", url: "b", docID: 2}, {do: "link", url: "b", arg: "gone"},
				{do: "saved", url: "c", docID: 3}, {do: "link", url: "c", arg: "gone"}, {do: "link", url: "c", arg: "slow"},
				{do: "saved", url: "d", docID: 4}, {do: "link", url: "d", arg: "gone"},
				{do: "failed", url: "slow", arg: "timeout"},
				{do: "failed", url: "orphan", arg: "500"}, // no page links to it: the seed, say
			},
			csv: "a,gone,404,1,\na,gone,404,1,\nb,gone,404,2,\nc,gone,404,3,\nc,slow,timeout,3,\nd,gone,404,4,\n",
			broken: []stats.BrokenLink{
				{URL: "gone", Status: "404", Pages: 4, From: []string{"a", "b", "c"}},
				{URL: "slow", Status: "timeout", Pages: 1, From: []string{"c"}},
			},
		},
		{
			name: "a redirect's row comes from the URL that redirected",
			events: []event{
				{do: "saved", url: "a", docID: 1},
				{do: "link", url: "a", arg: "old"}, {do: "queue", url: "old"},
				{do: "decide", url: "old", arg: "308"},
				{do: "link", url: "old", arg: "new"}, {do: "queue", url: "new"},
				{do: "failed", url: "new", arg: "too-many-redirects"},
			},
			csv:    "a,old,308,1,\nold,new,too-many-redirects,,\n",
			broken: []stats.BrokenLink{{URL: "new", Status: "too-many-redirects", Pages: 1, From: []string{"old"}}},
		},
		{
			name: "fields that need quotes get them",
			events: []event{
				{do: "saved", url: "http://h/a,b.html", docID: 1},
				{do: "link", url: "http://h/a,b.html", arg: "http://h/\"q\".html"},
				{do: "link", url: "http://h/a,b.html", arg: "http://h/x\ny"},
			},
			csv:    "\"http://h/a,b.html\",\"http://h/\"\"q\"\".html\",depth,1,\n\"http://h/a,b.html\",http://h/x%0Ay,depth,1,\n",
			broken: []stats.BrokenLink{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(true)
			tell(g, tt.events)
			var b strings.Builder
			if err := g.WriteCSV(&b); err != nil {
				t.Fatal(err)
			}
			// Rows end in CRLF, as RFC 4180 says; a newline inside a
			// quoted field is the field's own.
			got := strings.ReplaceAll(b.String(), "\r\n", "\n")
			if !strings.HasPrefix(b.String(), "from,to,status,from_docid,to_docid\r\n") || !strings.HasSuffix(b.String(), "\r\n") {
				t.Errorf("the rows do not end in CRLF: %q", b.String())
			}
			if want := "from,to,status,from_docid,to_docid\n" + tt.csv; got != want {
				t.Errorf("WriteCSV wrote\n%s\nwant\n%s", got, want)
			}
			if _, err := csv.NewReader(strings.NewReader(b.String())).ReadAll(); err != nil {
				t.Errorf("encoding/csv cannot read it back: %v", err)
			}
			if got := g.Broken(); !reflect.DeepEqual(got, tt.broken) {
				t.Errorf("Broken() = %+v, want %+v", got, tt.broken)
			}
		})
	}
}

// TestWithoutRows: a graph that keeps no rows, for -stats alone, sums up
// the same broken links, and writes only its header.
func TestWithoutRows(t *testing.T) {
	events := []event{
		{do: "saved", url: "a", docID: 1}, {do: "link", url: "a", arg: "gone"},
		{do: "saved", url: "b", docID: 2}, {do: "link", url: "b", arg: "gone"},
		{do: "failed", url: "gone", arg: "404"},
	}
	with, without := New(true), New(false)
	tell(with, events)
	tell(without, events)
	if a, b := with.Broken(), without.Broken(); !reflect.DeepEqual(a, b) {
		t.Errorf("without rows, Broken() = %+v, want %+v", b, a)
	}
	if rows, targets := without.Rows(); rows != 0 || targets != 0 {
		t.Errorf("without rows, Rows() = %d, %d", rows, targets)
	}
	if rows, targets := with.Rows(); rows != 2 || targets != 1 {
		t.Errorf("Rows() = %d, %d, want 2, 1", rows, targets)
	}
}

// TestQueue: a graph, with rows or without, is the crawl's seen-set. A URL
// met only on a page at maxDepth is not in it.
func TestQueue(t *testing.T) {
	for _, keepRows := range []bool{true, false} {
		g := New(keepRows)
		g.Saved("a", 1)
		g.Link("a", "b", "")
		for _, url := range []string{"a", "b", "c"} {
			if g.Queued(url) {
				t.Errorf("keepRows %t: Queued(%q) = true before Queue", keepRows, url)
			}
			if !g.Queue(url) {
				t.Errorf("keepRows %t: Queue(%q) = false the first time", keepRows, url)
			}
			if g.Queue(url) || !g.Queued(url) {
				t.Errorf("keepRows %t: Queue(%q) = true, or Queued false, the second time", keepRows, url)
			}
		}
	}
}

// TestBrokenWithoutRows makes up crawls of small sites, in which pages
// fail, redirect, are disallowed and are linked to from pages at maxDepth
// before the crawl puts them in its bag, and tells each to a graph with
// rows and one without: the two must be the same seen-set, and sum up the
// same broken links, in the same order.
func TestBrokenWithoutRows(t *testing.T) {
	named := 0 // broken links that name three pages and more link to them
	for seed := range 300 {
		rng := rand.New(rand.NewPCG(uint64(seed), 0))
		with, without := New(true), New(false)
		queue := func(url string) bool {
			a, b := with.Queue(url), without.Queue(url)
			if a != b {
				t.Fatalf("seed %d: Queue(%q) = %t with rows, %t without", seed, url, a, b)
			}
			return a
		}
		link := func(from, to, status string) {
			with.Link(from, to, status)
			without.Link(from, to, status)
		}
		pages := 2 + rng.IntN(60)
		url := func() string { return fmt.Sprint("http://h/", rng.IntN(pages)) }
		bag := []string{"http://h/0"}
		queue(bag[0])
		docID := 0
		for len(bag) > 0 {
			var page string
			if rng.IntN(2) == 0 { // taken as from a stack or from a queue
				page, bag = bag[len(bag)-1], bag[:len(bag)-1]
			} else {
				page, bag = bag[0], bag[1:]
			}
			switch rng.IntN(8) {
			case 0:
				status := []string{"404", "timeout", "500"}[rng.IntN(3)]
				with.Failed(page, status)
				without.Failed(page, status)
			case 1:
				with.Decide(page, Robots)
				without.Decide(page, Robots)
			case 2:
				with.Decide(page, "301")
				without.Decide(page, "301")
				to := url()
				if queue(to) {
					bag = append(bag, to)
				}
				link(page, to, "")
			default:
				docID++
				with.Saved(page, docID)
				without.Saved(page, docID)
				atMaxDepth := rng.IntN(4) == 0
				for range rng.IntN(16) {
					to := url()
					switch {
					case rng.IntN(8) == 0:
						link(page, "http://elsewhere/"+to, External)
					case atMaxDepth:
						link(page, to, "")
					default:
						if queue(to) {
							bag = append(bag, to)
						}
						link(page, to, "")
					}
				}
			}
		}
		for i := range pages {
			u := fmt.Sprint("http://h/", i)
			if a, b := with.Queued(u), without.Queued(u); a != b {
				t.Errorf("seed %d: Queued(%q) = %t with rows, %t without", seed, u, a, b)
			}
		}
		want, got := with.Broken(), without.Broken()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: without rows, Broken() =\n%+v\nwant\n%+v", seed, got, want)
		}
		for _, b := range want {
			if b.Pages > 3 {
				named++
			}
		}
	}
	if named < 100 {
		t.Errorf("only %d broken links had more than three pages linking to them", named)
	}
}

// TestChunks checks a chunks across the boundaries of its chunks.
func TestChunks(t *testing.T) {
	var c chunks[int]
	for i := range 3*chunkLen + 1 {
		if got := c.add(i); got != uint32(i) {
			t.Fatalf("add(%d) = %d", i, got)
		}
	}
	for i := range 3*chunkLen + 1 {
		if got := *c.at(uint32(i)); got != i {
			t.Fatalf("at(%d) = %d", i, got)
		}
	}
}

// BenchmarkWriteCSV writes a graph shaped like wikipedia's at depth 2:
// 400 rows a page, most to external URLs of about 60 bytes.
func BenchmarkWriteCSV(b *testing.B) {
	g := New(true)
	const pages, links = 1675, 400
	for p := range pages {
		from := fmt.Sprintf("http://cs50tse.cs.dartmouth.edu/tse/wikipedia/Page_%d.html", p)
		g.Saved(from, p+1)
		for l := range links {
			to := fmt.Sprintf("http://en.wikipedia.org/wiki/Article_%d", (p*links+l)%250000)
			g.Link(from, to, External)
		}
	}
	var n countWriter
	b.ResetTimer()
	for range b.N {
		if err := g.WriteCSV(&n); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(n) / int64(b.N))
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
