package pagescan

// For the black-box tests.
var (
	TreeLinks        = treeLinks
	TreeRequisites   = treeRequisites
	ParseRefresh     = parseRefresh
	ForeignLookalike = foreignLookalike
)

// SrcsetURLs returns the URLs of the image candidates in srcset.
func SrcsetURLs(srcset string) []string {
	var urls []string
	srcsetURLs([]byte(srcset), func(url []byte) { urls = append(urls, string(url)) })
	return urls
}

// WithMaxToken returns an HTML scanner that holds at most n bytes of a
// token, as one holds maxToken.
func WithMaxToken(n int) *HTML {
	return &HTML{maxToken: n}
}

// Cut says whether h cut a token at its bound in the last page it read.
func Cut(h *HTML) bool {
	return h.k.cut
}
