//go:build amd64 && !purego

package warc

// blockX2 runs the SHA-1 compression function over a and b, two inputs
// of the same whole number of 64-byte blocks, updating the hash values
// ha and hb, with the rounds of the two interleaved. It needs the SHA
// extensions, SSSE3 and SSE4.1.
//
//go:noescape
func blockX2(ha, hb *[5]uint32, a, b []byte)

// cpuid returns what the CPUID instruction says for a leaf and subleaf.
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// haveX2 is set once, as the process starts, if blockX2 can run.
var haveX2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	_, ebx7, _, _ := cpuid(7, 0)
	const ssse3, sse41, sha = 1 << 9, 1 << 19, 1 << 29
	return ecx1&ssse3 != 0 && ecx1&sse41 != 0 && ebx7&sha != 0
}()
