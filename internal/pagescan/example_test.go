package pagescan_test

import (
	"fmt"

	"tse-crawler/internal/pagescan"
)

// The page for the examples: a link whose text holds a colon, a link in a
// comment, and a relative link with a fragment.
const examplePage = `<a href="A.html">A</a>
<a href="B.html">Note: B</a>
<!-- <a href="C.html">C</a> -->
<a href="../D.html#top">D</a>`

func ExampleReference_Scan() {
	var r pagescan.Reference
	r.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", []byte(examplePage), func(link string) {
		fmt.Println(link)
	})
	// Output:
	// http://cs50tse.cs.dartmouth.edu/tse/letters/A.html
	// http://cs50tse.cs.dartmouth.edu/tse/letters/C.html
	// http://cs50tse.cs.dartmouth.edu/tse/letters/../D.html
}

func ExampleHTML_Scan() {
	var h pagescan.HTML
	h.Scan("http://cs50tse.cs.dartmouth.edu/tse/letters/index.html", []byte(examplePage), func(link string) {
		fmt.Println(link)
	})
	// Output:
	// http://cs50tse.cs.dartmouth.edu/tse/letters/A.html
	// http://cs50tse.cs.dartmouth.edu/tse/letters/B.html
	// http://cs50tse.cs.dartmouth.edu/tse/D.html
}
