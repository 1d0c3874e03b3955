package pagescan

// For the black-box tests.
var (
	TreeLinks        = treeLinks
	TreeRequisites   = treeRequisites
	ParseRefresh     = parseRefresh
	ForeignLookalike = foreignLookalike
)

// SrcsetURLs returns the URLs of the image candidates in srcset, every
// one, whichever a browser could pick.
func SrcsetURLs(srcset string) []string {
	var urls []string
	srcsetCandidates([]byte(srcset), func(url []byte, _ candidate) { urls = append(urls, string(url)) })
	return urls
}

// SrcsetPicks returns the URLs of the image candidates in srcset that a
// browser could pick, and how many others there are.
func SrcsetPicks(srcset string) (urls []string, skipped int) {
	skipped = srcsetURLs([]byte(srcset), func(url []byte) { urls = append(urls, string(url)) }, nil)
	return urls, skipped
}

// CSSPicks returns the references in a style attribute's declarations,
// and how many of image-set() candidates it skipped.
func CSSPicks(decls string) (refs []string, skipped int) {
	skipped = cssURLs(decls, false, func(ref string) { refs = append(refs, ref) })
	return refs, skipped
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
