package robots_test

import (
	"fmt"

	"tse-crawler/internal/robots"
)

func ExampleParse() {
	body := []byte(`# Everyone but us: stay out of /private/ and skip GIFs.
User-agent: *
Disallow: /private/
Disallow: /*.gif$

# Us: everything but the search pages, and one of them is fine.
User-Agent: TSE-Crawler
Disallow: /search?q=
Allow: /search?q=help$
Crawl-delay: 2.5
`)
	r := robots.Parse(body, robots.ProductToken("tse-crawler/0.2.0 (+https://example.com/bot)"))
	for _, path := range []string{
		"/private/a.html", // the * group does not apply to us
		"/search?q=cats",
		"/search?q=help",
		"/search?page=2",
		"/robots.txt",
	} {
		fmt.Println(path, r.Allowed(path))
	}
	fmt.Println("delay", r.Delay())
	// Output:
	// /private/a.html true
	// /search?q=cats false
	// /search?q=help true
	// /search?page=2 true
	// /robots.txt true
	// delay 2.5s
}

func ExampleProductToken() {
	for _, ua := range []string{
		"tse-crawler/0.2.0 (+https://example.com/bot)",
		"Mozilla/5.0 (compatible; Googlebot/2.1)",
		"",
	} {
		fmt.Printf("%q\n", robots.ProductToken(ua))
	}
	// Output:
	// "tse-crawler"
	// "Mozilla"
	// ""
}

func ExampleRules_Delay() {
	r := robots.Parse([]byte("User-agent: *\nCrawl-delay: 3\nRequest-rate: 1/10s 0600-0845\n"), "tse-crawler")
	fmt.Println(r.Delay())
	// Output:
	// 10s
}

func ExampleTruncate() {
	// A file whose lines end in CR alone, cut to its first 40 bytes: the
	// third line does not fit whole, so it is not read at all.
	body := []byte("User-agent: *\rDisallow: /private/\rDisallow: /p\r")
	kept := robots.Truncate(body, 40)
	fmt.Printf("%q\n", kept)
	r := robots.Parse(kept, "tse-crawler")
	fmt.Println(r.Allowed("/private/x"), r.Allowed("/public"))
	// Output:
	// "User-agent: *\rDisallow: /private/\r"
	// false true
}

func ExampleRules_Allowed() {
	// RFC 9309 §2.2.2: the rule and the URL are percent-encoded the same
	// way before they are compared, so each matches however either is
	// written; in the query ':' and '/' are data, and compared encoded.
	r := robots.Parse([]byte("User-agent: *\nDisallow: /foo/bar?baz=https://foo.bar\nDisallow: /foo/bar/%62%61%7A\n"), "tse-crawler")
	for _, path := range []string{
		"/foo/bar?baz=https%3A%2F%2Ffoo.bar",
		"/foo/bar?baz=https://foo.bar",
		"/foo/bar/baz",
		"/foo/bar/qux",
	} {
		fmt.Println(path, r.Allowed(path))
	}
	// Output:
	// /foo/bar?baz=https%3A%2F%2Ffoo.bar false
	// /foo/bar?baz=https://foo.bar false
	// /foo/bar/baz false
	// /foo/bar/qux true
}
