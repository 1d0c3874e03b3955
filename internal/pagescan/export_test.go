package pagescan

// For the black-box tests.
var (
	TreeLinks        = treeLinks
	ParseRefresh     = parseRefresh
	ForeignLookalike = foreignLookalike
)
