package linkcheck

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
	"slices"

	"tse-crawler/internal/termsafe"
)

// report gathers the broken targets, in the order met, then sorts them,
// most linked first. A host that could not be reached is one entry, its
// origin, with every link to it and the URL each names. A target that
// robots.txt disallows is not checked, and listed apart, as are the
// pages too large to read, sorted.
func (c *Checker) report(order []*target) *Report {
	r := &Report{Pages: c.saved, Broken: []BrokenLink{}, NotChecked: []BrokenLink{}, WithCache: c.Cache != nil}
	downs := make(map[string]int) // origin → index in r.Broken
	for _, t := range order {
		switch {
		case t.skip || t.status == "":
			continue
		case t.status == Robots:
			r.NotChecked = append(r.NotChecked, BrokenLink{URL: t.url, Status: t.status, Kind: c.kind(t), From: c.referrers(t.refs)})
			continue
		}
		r.Links += len(t.refs)
		if t.cached {
			r.Cached += len(t.refs)
		}
		switch {
		case t.ok:
			r.Broken = append(r.Broken, c.missingFragments(t)...)
		case t.status == HostUnreachable:
			h := originOf(t.url)
			i, ok := downs[h]
			if !ok {
				i = len(r.Broken)
				downs[h] = i
				r.Broken = append(r.Broken, BrokenLink{URL: h, Status: HostUnreachable, Kind: c.kind(t)})
			}
			for _, f := range c.referrers(t.refs) {
				f.URL = t.url
				r.Broken[i].From = append(r.Broken[i].From, f)
			}
		default:
			r.Broken = append(r.Broken, BrokenLink{URL: t.url, Status: t.status, Kind: c.kind(t), From: c.referrers(t.refs), RetryAfter: t.wait})
		}
	}
	for key, p := range c.pages {
		if p.status == tooLarge {
			r.Unread = append(r.Unread, key)
		}
	}
	slices.Sort(r.Unread)
	for _, bs := range [][]BrokenLink{r.Broken, r.NotChecked} {
		slices.SortStableFunc(bs, func(a, b BrokenLink) int { return cmp.Compare(len(b.From), len(a.From)) })
	}
	return r
}

// missingFragments returns a broken link for each fragment that links to
// t name, and t, an HTML page read, does not have.
func (c *Checker) missingFragments(t *target) []BrokenLink {
	if t.ids == nil {
		return nil
	}
	var broken []BrokenLink
	index := make(map[string]int)
	for _, i := range t.refs {
		f := c.refs[i].fragment
		if topFragment(f) || hasID(t.ids, f) {
			continue
		}
		j, ok := index[f]
		if !ok {
			j = len(broken)
			index[f] = j
			broken = append(broken, BrokenLink{URL: t.url + "#" + f, Status: MissingFragment, Kind: KindFragment})
		}
		broken[j].From = append(broken[j].From, c.referrer(i))
	}
	return broken
}

// hasID says whether a page with ids has the element a fragment names:
// by the fragment as written, or percent-decoded, as a browser looks,
// without its fragment directive.
func hasID(ids map[string]bool, f string) bool {
	f = indicated(f)
	if ids[f] {
		return true
	}
	d, err := url.PathUnescape(f)
	return err == nil && ids[d]
}

// kind is what kind of link t is, for a broken one: a requisite if any
// page needs it to render.
func (c *Checker) kind(t *target) string {
	switch {
	case c.isRequisite(t):
		return KindRequisite
	case !t.internal:
		return KindExternal
	}
	return KindPage
}

func (c *Checker) referrers(refs []int) []Referrer {
	from := make([]Referrer, len(refs))
	for k, i := range refs {
		from[k] = c.referrer(i)
	}
	return from
}

func (c *Checker) referrer(i int) Referrer {
	r := c.refs[i]
	return Referrer{Page: r.from, Line: r.line, Column: r.column}
}

// WriteText writes the report for people: each broken target, its
// status (with the wait asked for, for one rate-limited) and kind, and
// where every link to it is, as page:line:column (followed by the URL it
// names, for a host's entry); then, apart, the targets not checked, and
// the pages not read (Unread); then a line that sums it up.
//
// Every byte a terminal would obey is escaped, as package termsafe does,
// whatever w is: a fragment is reported as its page wrote it, ESC and BEL
// included, and a report written to a file is read on a terminal too.
func (r *Report) WriteText(w io.Writer) error {
	tw := termsafe.NewWriter(w)
	if err := r.writeText(tw); err != nil {
		return err
	}
	return tw.Flush()
}

func (r *Report) writeText(w io.Writer) error {
	writeEntries(w, r.Broken)
	if len(r.NotChecked) > 0 {
		fmt.Fprintln(w, "Not checked, as robots.txt disallows them:")
		writeEntries(w, r.NotChecked)
	}
	if len(r.Unread) > 0 {
		fmt.Fprintln(w, "Not read for their links, as they are larger than -max-size (a larger -max-size reads them):")
		for _, u := range r.Unread {
			fmt.Fprintf(w, "  %s\n", u)
		}
		fmt.Fprintln(w)
	}
	cached := ""
	if r.WithCache {
		cached = fmt.Sprintf(" (%d from the cache)", r.Cached)
	}
	more := ""
	if n := links(r.NotChecked); n > 0 {
		more = fmt.Sprintf("; %s not checked (robots.txt)", count(n, "link"))
	}
	if n := len(r.Unread); n > 0 {
		more += fmt.Sprintf("; %s not read (-max-size)", count(n, "page"))
	}
	_, err := fmt.Fprintf(w, "%s checked, %s checked%s: %s to %s%s\n",
		count(r.Pages, "page"), count(r.Links, "link"), cached, count(r.BrokenLinks(), "broken link"), count(len(r.Broken), "target"), more)
	return err
}

// count is n things, "1 page" or "2 pages".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// writeEntries writes the entries bs, each with where every link to it
// is, then a blank line, if there are any.
func writeEntries(w io.Writer, bs []BrokenLink) {
	for _, b := range bs {
		status := b.Status
		if b.RetryAfter > 0 {
			status += fmt.Sprintf(", Retry-After %v", b.RetryAfter)
		}
		fmt.Fprintf(w, "%s: %s (%s, %s)\n", b.URL, status, b.Kind, count(len(b.From), "link"))
		for _, f := range b.From {
			to := ""
			if f.URL != "" {
				to = " -> " + f.URL
			}
			fmt.Fprintf(w, "  %s:%d:%d%s\n", f.Page, f.Line, f.Column, to)
		}
	}
	if len(bs) > 0 {
		fmt.Fprintln(w)
	}
}
