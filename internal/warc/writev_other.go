//go:build !(darwin || linux || openbsd)

package warc

// writeParts writes parts, one after the other, to f, one write each:
// these systems have no writev in golang.org/x/sys.
func writeParts(f file, parts [][]byte) (int64, error) {
	return writeEach(f, parts)
}
