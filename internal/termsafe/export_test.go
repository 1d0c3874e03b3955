package termsafe

// Escape returns s with its terminal controls escaped by the rules of the
// package comment, as a Writer given s in one Write and then flushed would.
// It is the tests' oracle: the crawler writes through a Writer.
func Escape(s string) string {
	n := cleanPrefix(s)
	if n == len(s) {
		return s
	}
	b, _ := appendEscaped(make([]byte, 0, len(s)+16), s, true)
	return string(b)
}
