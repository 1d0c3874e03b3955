// Crawler fetches a web page and every internal page reachable from it
// within a number of links, and saves each page to a directory, as the
// CS50 Tiny Search Engine's crawler does.
//
// Usage:
//
//	crawler [flags] seedURL pageDirectory maxDepth
//
// crawler -h prints a short usage, a line a flag. Its manual, with every
// flag, the exit codes, the environment and examples, is printed by
// crawler -help-all, and installed as crawler.1 for man crawler. All are
// rendered from manual.go and flags.go, as are the tables of flags and
// exit codes in README.md.
package main
