// Package stats reports what a crawl did, for people (-stats, on stderr)
// and for scripts (-stats-json, a JSON file).
//
// A page counts as fetched when the progress log says "Fetched" for it: it
// was fetched whole and saved. A page that failed or redirected was tried,
// not fetched, so the pages fetched are as many as the log's "Fetched"
// lines, and "tried" counts all three. Until "tried" was added, the JSON
// field "fetched" counted the tries; it now counts the pages fetched, and
// "tried" holds the old figure.
package stats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Report holds a crawl's figures. The JSON names are part of the
// crawler's interface: scripts read them.
type Report struct {
	Pages         Pages    `json:"pages"`
	URLs          URLs     `json:"urls"`
	Requests      int64    `json:"requests"`       // HTTP requests, robots.txt and retries included
	BytesSaved    int64    `json:"bytes_saved"`    // HTML saved by this run
	Elapsed       Duration `json:"elapsed"`        // the whole run
	Pauses        int      `json:"pauses"`         // pauses kept between requests to a host
	MeanPause     Duration `json:"mean_pause"`     // their mean
	ShortestPause Duration `json:"shortest_pause"` // the shortest of them
	DeepestDepth  int      `json:"deepest_depth"`  // the greatest depth of a page saved
	// Links is how the crawl read links, "reference" or "html": the
	// mode -links auto chose, or the one given.
	Links string `json:"links"`
	// Hosts are the figures of each host requests were sent to, by name.
	Hosts []Host `json:"hosts"`
	// AheadPeak is the most bytes of pages fetched ahead, from several
	// hosts at once, that waited in memory for the crawl to take them.
	AheadPeak int64 `json:"ahead_peak_bytes"`
	// MaxPagesReached is whether the crawl ended at -max-pages, with
	// pages left in the bag.
	MaxPagesReached bool `json:"max_pages_reached"`
	// Waiting counts the pages left in the bag, never taken, when the
	// crawl ended at -max-pages or stopped early (those -resume takes);
	// it is 0 for a crawl that emptied its bag.
	Waiting int `json:"waiting"`
	// Requisites are the figures of the pages' requisites, for a crawl
	// that fetches them (one with a WARC file), else nil.
	Requisites *Requisites `json:"requisites,omitempty"`
	// Broken are the pages that failed and that pages link to, for a
	// crawl that keeps its link graph (-graph, -stats, -stats-json), in
	// the order the crawl met them. Unlike the counts, they are the whole
	// crawl's, an earlier run's pages included.
	Broken []BrokenLink `json:"broken_links"`
	// NotChecked are, for a link check, the links robots.txt kept it
	// from asking, in the form of Broken; none, or a crawl's, are left
	// out.
	NotChecked []BrokenLink `json:"not_checked,omitempty"`
	// Unread are, for a link check, the pages too large to read for
	// their links (-max-size).
	Unread []string `json:"unread,omitempty"`
}

// A BrokenLink is a page the crawl could not fetch, and the pages that
// link to it.
type BrokenLink struct {
	URL    string   `json:"url"`
	Status string   `json:"status"` // its HTTP status, such as "404", or why it failed, such as "timeout"
	Pages  int      `json:"pages"`  // how many pages link to it, or redirect to it
	From   []string `json:"from"`   // the first three of them, in the order the crawl met them
	// A link check's broken links have a kind (page, requisite,
	// external or fragment), and every link to them where it is, which
	// JSON gives as "from" in place of the first three pages.
	Kind      string     `json:"kind,omitempty"`
	Referrers []Referrer `json:"-"`
	// RetryAfter is, for a link check's link rate-limited, the wait its
	// host asked for, which JSON gives in seconds as "retry_after".
	RetryAfter time.Duration `json:"-"`
}

// A Referrer is where a link is: the page that holds it, and its line
// and column there.
type Referrer struct {
	Page   string `json:"page"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// URL is the link's target in the entry of a host that could not be
	// reached, which holds the links to any of its URLs.
	URL string `json:"url,omitempty"`
}

// MarshalJSON writes a link check's broken link with its referrers as
// "from", and any other as it is.
func (b BrokenLink) MarshalJSON() ([]byte, error) {
	type plain BrokenLink
	if b.Referrers == nil {
		return json.Marshal(plain(b))
	}
	return json.Marshal(struct {
		URL        string     `json:"url"`
		Status     string     `json:"status"`
		RetryAfter int64      `json:"retry_after,omitempty"`
		Kind       string     `json:"kind"`
		Pages      int        `json:"pages"`
		From       []Referrer `json:"from"`
	}{b.URL, b.Status, int64(b.RetryAfter / time.Second), b.Kind, b.Pages, b.Referrers})
}

// Requisites counts what came of the requisites of a crawl's pages, the
// resources a page needs to render, which a crawl with a WARC file fetches
// and records. Like [Pages], they are this run's. A requisite fetched is
// neither a page fetched nor a URL found, and no count of those includes
// it; [Report.Requests] and [Report.Hosts] count its requests.
type Requisites struct {
	Fetched    int            `json:"fetched"`    // answered 2xx
	Failed     int            `json:"failed"`     // answered 4xx or 5xx, too large, not answered, or redirected too many times
	FailedBy   map[string]int `json:"failed_by"`  // failures by reason, as pagefetch.Reason gives them
	Redirects  int            `json:"redirects"`  // answered with a redirect, whose target is a requisite too
	Disallowed int            `json:"disallowed"` // never requested: robots.txt says no
	Bytes      int64          `json:"bytes"`      // the bodies of those fetched
	Hosts      int            `json:"hosts"`      // hosts that answered a requisite
	// Skipped counts what pages and stylesheets named that was not
	// fetched: image candidates of srcsets and image-set()s a browser
	// would not load, and requisites past -max-requisites.
	Skipped int `json:"skipped"`
}

// Host holds the figures of one host.
type Host struct {
	Name      string   `json:"host"`       // host[:port]
	Requests  int64    `json:"requests"`   // robots.txt and retries included
	Pauses    int      `json:"pauses"`     // pauses kept between its requests
	MeanPause Duration `json:"mean_pause"` // their mean
}

// Pages counts what came of the pages a crawl took from its bag. The
// crawler counts them as it goes, and a Report only formats them. Saved
// counts every page in the directory; the other counts are this run's,
// not those of outcomes replayed from an earlier run's journal.
//
// Every page whose outcome a run decided is fetched, failed, redirected or
// disallowed ([URLs.Disallowed]), so Tried is Fetched+Failed+Redirects.
type Pages struct {
	// Fetched counts the pages this run logged "Fetched", with or without
	// a log (-q): those it fetched whole, to be saved, and those a killed
	// run had saved without journaling, which this run adopts. (It counted
	// Tried's pages until Tried was added.)
	Fetched   int            `json:"fetched"`
	Tried     int            `json:"tried"`     // pages this run tried to fetch: fetched, failed or redirected
	Saved     int            `json:"saved"`     // pages in the directory, and so the last docID
	Recalled  int            `json:"replayed"`  // outcomes taken from an earlier run's journal
	Failed    int            `json:"failed"`    // pages that could not be fetched
	FailedBy  map[string]int `json:"failed_by"` // failures by reason, as pagefetch.Reason gives them
	Redirects int            `json:"redirects"` // pages that redirected
}

// URLs counts the links a crawl found, and the redirect targets, and what
// it made of them; and the pages robots.txt kept it from. Like [Pages],
// they are the counts of this run.
type URLs struct {
	Found      int `json:"found"`      // links found on pages, and redirect targets
	Added      int `json:"added"`      // new internal URLs put in the bag
	External   int `json:"external"`   // ignored as external or not normalizable
	Duplicate  int `json:"duplicate"`  // ignored as already seen
	Excluded   int `json:"excluded"`   // internal but excluded (-exclude), so never requested
	Disallowed int `json:"disallowed"` // not fetched because robots.txt says no
}

// A Duration is a time.Duration that JSON writes as seconds, a number.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf("%.6f", time.Duration(d).Seconds())), nil
}

// WriteText writes the report for people, a few aligned lines.
func (r *Report) WriteText(w io.Writer) error {
	failed := fmt.Sprintf("%d failed", r.Pages.Failed)
	if len(r.Pages.FailedBy) > 0 {
		failed += " (" + Reasons(r.Pages.FailedBy) + ")"
	}
	tried := fmt.Sprintf("%d tried", r.Pages.Tried)
	if r.Pages.Recalled > 0 {
		tried += fmt.Sprintf(", %d outcomes replayed from an earlier run", r.Pages.Recalled)
	}
	_, err := fmt.Fprintf(w, `crawler: statistics
  pages:     %d fetched, %d saved, %s, %d redirected; %s
  URLs:      %d found, %d added; ignored: %d external, %d duplicate%s, %d disallowed by robots.txt
  requests:  %d, robots.txt and retries included
  saved:     %s of HTML
  time:      %v elapsed; %d pauses, mean %v, shortest %v
  depth:     %d at the deepest
`,
		r.Pages.Fetched, r.Pages.Saved, failed, r.Pages.Redirects, tried,
		r.URLs.Found, r.URLs.Added, r.URLs.External, r.URLs.Duplicate, excluded(r.URLs.Excluded), r.URLs.Disallowed,
		r.Requests,
		size(r.BytesSaved),
		round(r.Elapsed), r.Pauses, round(r.MeanPause), round(r.ShortestPause),
		r.DeepestDepth)
	if err != nil {
		return err
	}
	if how, ok := linkModes[r.Links]; ok {
		if _, err := fmt.Fprintf(w, "  links:     read %s (-links %s)\n", how, r.Links); err != nil {
			return err
		}
	}
	if r.MaxPagesReached {
		pages := "pages"
		if r.Waiting == 1 {
			pages = "page"
		}
		if _, err := fmt.Fprintf(w, "  limit:     -max-pages reached, %d %s left waiting\n", r.Waiting, pages); err != nil {
			return err
		}
	}
	// A crawl of one host has its figures above already.
	if len(r.Hosts) > 1 {
		label := "  hosts:     "
		for _, h := range r.Hosts {
			requests := "requests"
			if h.Requests == 1 {
				requests = "request"
			}
			if _, err := fmt.Fprintf(w, "%s%s: %d %s, mean pause %v\n", label, h.Name, h.Requests, requests, round(h.MeanPause)); err != nil {
				return err
			}
			label = strings.Repeat(" ", len(label))
		}
	}
	if r.AheadPeak > 0 {
		if _, err = fmt.Fprintf(w, "  ahead:     at most %s of pages fetched ahead waited in memory\n", size(r.AheadPeak)); err != nil {
			return err
		}
	}
	if q := r.Requisites; q != nil {
		failed := fmt.Sprintf("%d failed", q.Failed)
		if len(q.FailedBy) > 0 {
			failed += " (" + Reasons(q.FailedBy) + ")"
		}
		hosts := "hosts"
		if q.Hosts == 1 {
			hosts = "host"
		}
		skipped := ""
		if q.Skipped > 0 {
			skipped = fmt.Sprintf(", %d skipped", q.Skipped)
		}
		_, err = fmt.Fprintf(w, "  requisites: %d fetched, %s, %d redirected, %d disallowed by robots.txt%s; %s from %d %s\n",
			q.Fetched, failed, q.Redirects, q.Disallowed, skipped, size(q.Bytes), q.Hosts, hosts)
		if err != nil {
			return err
		}
	}
	return r.writeBroken(w)
}

// writeBroken lists the broken links, a line each: the page that failed,
// why, and how many pages link to it, up to three of them named.
func (r *Report) writeBroken(w io.Writer) error {
	if r.Broken == nil {
		return nil
	}
	if len(r.Broken) == 0 {
		_, err := fmt.Fprintln(w, "  broken:    no link to a page that failed")
		return err
	}
	label := "  broken:    "
	for _, b := range r.Broken {
		pages := "pages link"
		if b.Pages == 1 {
			pages = "page links"
		}
		more := ""
		if b.Pages > len(b.From) {
			more = ", ..."
		}
		if _, err := fmt.Fprintf(w, "%s%s (%s): %d %s to it: %s%s\n", label, b.URL, b.Status, b.Pages, pages, strings.Join(b.From, ", "), more); err != nil {
			return err
		}
		label = strings.Repeat(" ", len(label))
	}
	return nil
}

// excluded writes the URLs -exclude kept out among those ignored, if
// there are any: only a crawl that excluded some says so, so that every
// other reads as it always has.
func excluded(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d excluded", n)
}

// Summary sums the report up in a line, for the end of a crawl of pages
// saved in dir: "finished in 9.2s: 8 pages saved in data/mine, 45,678
// bytes (44.6 KiB); 1 failed".
func (r *Report) Summary(dir string) string {
	pages := "pages"
	if r.Pages.Saved == 1 {
		pages = "page"
	}
	elapsed := time.Duration(r.Elapsed).Round(100 * time.Millisecond)
	if elapsed == 0 {
		elapsed = round(r.Elapsed)
	}
	return fmt.Sprintf("finished in %v: %d %s saved in %s, %s; %d failed", elapsed, r.Pages.Saved, pages, dir, size(r.BytesSaved), r.Pages.Failed)
}

// linkModes say how each mode reads links.
var linkModes = map[string]string{"reference": "as the CS50 reference does", "html": "as a browser does"}

// Reasons sums up failures counted by reason, as "31 HTTP 404, 2 timeout":
// the most frequent first, and reasons as frequent in alphabetical order,
// so that the same crawl always reads the same.
func Reasons(by map[string]int) string {
	reasons := slices.SortedFunc(maps.Keys(by), func(a, b string) int {
		return cmp.Or(cmp.Compare(by[b], by[a]), cmp.Compare(a, b))
	})
	for i, reason := range reasons {
		reasons[i] = fmt.Sprintf("%d %s", by[reason], reason)
	}
	return strings.Join(reasons, ", ")
}

// size writes a count of bytes for people: exactly, with thousands
// separators, and, from 1 KiB, also in the binary units that -max-size
// takes, to one decimal ("6,486 bytes (6.3 KiB)"). The exact count stays
// because a reader comparing two crawls wants every byte.
func size(n int64) string {
	exact := group(n) + " bytes"
	if n == 1 {
		exact = "1 byte"
	}
	if n < 1024 {
		return exact
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	// Integer arithmetic, so that no count is misrounded by a float: u is
	// the unit, 1024 to the power i+1, and tenths the rounded remainder.
	// uint64, because ten times the remainder can pass the largest int64.
	i, u := 0, uint64(1024)
	for i+1 < len(units) && uint64(n) >= u*1024 {
		i, u = i+1, u*1024
	}
	whole, tenths := uint64(n)/u, (uint64(n)%u*10+u/2)/u
	if tenths == 10 {
		whole, tenths = whole+1, 0
	}
	if whole == 1024 && i+1 < len(units) { // 1023.95 KiB and up is 1.0 MiB
		i, whole = i+1, 1
	}
	return fmt.Sprintf("%s (%d.%d %s)", exact, whole, tenths, units[i])
}

// group writes n with a comma between each group of three digits.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// round keeps a duration readable: milliseconds at most.
func round(d Duration) time.Duration {
	return time.Duration(d).Round(time.Millisecond)
}

// JSON returns the report as indented JSON, ending in a newline. A crawl
// with no failures has failed_by {}, and one with no request hosts [],
// never null, so that scripts can index them.
func (r *Report) JSON() ([]byte, error) {
	out := *r
	if out.Pages.FailedBy == nil {
		out.Pages.FailedBy = map[string]int{}
	}
	if out.Hosts == nil {
		out.Hosts = []Host{}
	}
	if q := out.Requisites; q != nil && q.FailedBy == nil {
		clone := *q
		clone.FailedBy = map[string]int{}
		out.Requisites = &clone
	}
	b, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
