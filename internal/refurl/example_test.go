package refurl_test

import (
	"fmt"
	"strings"

	"tse-crawler/internal/refurl"
)

func ExampleNormalize() {
	for _, raw := range []string{
		"Http://CS50TSE.CS.Dartmouth.edu//index.html",
		"http://cs50tse.cs.dartmouth.edu/tse/letters/../K.html",
		"http://cs50tse.cs.dartmouth.edu/tse/logo.jpg",
		"http://cs50tse.cs.dartmouth.edu",
	} {
		u, ok := refurl.Normalize(raw)
		fmt.Printf("%q %v\n", u, ok)
	}
	// Output:
	// "http://cs50tse.cs.dartmouth.edu/index.html" true
	// "http://cs50tse.cs.dartmouth.edu/tse/K.html" true
	// "" false
	// "" false
}

func ExampleCS50Bases() {
	root, dir := refurl.CS50Bases("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html")
	for _, link := range []string{"A.html", "../K.html", "//host/x", ""} {
		if strings.HasPrefix(link, "/") {
			fmt.Println(root + link)
		} else {
			fmt.Println(dir + link)
		}
	}
	// Output:
	// http://cs50tse.cs.dartmouth.edu/tse/letters/A.html
	// http://cs50tse.cs.dartmouth.edu/tse/letters/../K.html
	// http://cs50tse.cs.dartmouth.edu//host/x
	// http://cs50tse.cs.dartmouth.edu/tse/letters/
}

func ExampleResolve() {
	const page = "http://cs50tse.cs.dartmouth.edu/tse/letters/index.html"
	for _, link := range []string{"A.html#top", "../K.html", "//host/x", ""} {
		fmt.Println(refurl.Resolve(page, link))
	}
	// Output:
	// http://cs50tse.cs.dartmouth.edu/tse/letters/A.html
	// http://cs50tse.cs.dartmouth.edu/tse/K.html
	// http://host/x
	// http://cs50tse.cs.dartmouth.edu/tse/letters/index.html
}
