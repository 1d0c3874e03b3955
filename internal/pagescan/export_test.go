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
