package termsafe

import (
	"encoding/binary"
	"testing"
)

// TestPrintable8 checks the word-at-a-time test against a byte-by-byte one
// for every pair of byte values at every pair of neighboring positions, on
// a printable background: a borrow that crosses from one byte to the next
// is where such bit tricks go wrong.
func TestPrintable8(t *testing.T) {
	t.Parallel()
	for pos := range 7 {
		for a := range 256 {
			for b := range 256 {
				word := []byte("abcdefgh")
				word[pos], word[pos+1] = byte(a), byte(b)
				want := true
				for _, c := range word {
					want = want && ' ' <= c && c < 0x7f
				}
				if got := printable8(binary.LittleEndian.Uint64(word)); got != want {
					t.Fatalf("printable8(%q) = %t, want %t", word, got, want)
				}
				if got := printable8(load64(string(word))); got != want {
					t.Fatalf("printable8(load64(%q)) = %t, want %t", word, got, want)
				}
			}
		}
	}
}
