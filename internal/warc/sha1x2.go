package warc

import (
	"crypto/sha1"
	"encoding"
)

// Every response record needs two SHA-1 digests of nearly the same bytes:
// its block's, which is the whole response, and its payload's, which is
// the body. SHA-1 cannot share work between them, and on a crawl from a
// fast server, one after the other, they took nearly as long as the rest
// of the crawl. But a SHA-1 round waits for the one before it, so one
// digest leaves most of a processor's SHA units idle: on amd64 processors
// with the SHA extensions, sha1x2_amd64.s runs the rounds of two digests
// side by side, and makes both in about 60% of the time of one after the
// other. Where that is not available, the two are made one after the
// other.

// digests returns the labelled digests of block and of the bytes of
// payload, one after the other.
func digests(block []byte, payload [][]byte) (blockDigest, payloadDigest string) {
	body := payload
	if len(payload) > 1 {
		// Chunked: the lanes need the body in one piece. Copying it costs
		// a tenth of digesting it.
		n := 0
		for _, p := range payload {
			n += len(p)
		}
		joined := make([]byte, 0, n)
		for _, p := range payload {
			joined = append(joined, p...)
		}
		body = [][]byte{joined}
	}
	var p []byte
	if len(body) == 1 {
		p = body[0]
	}
	a, b := sha1.New(), sha1.New()
	if n := min(len(block), len(p)) &^ (sha1.BlockSize - 1); n > 0 && haveX2 {
		// SHA-1's initial hash value (FIPS 180-4, section 5.3.1).
		ha := [5]uint32{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0}
		hb := ha
		blockX2(&ha, &hb, block[:n], p[:n])
		sha1At(a, &ha, n)
		sha1At(b, &hb, n)
		block, p = block[n:], p[n:]
	}
	a.Write(block)
	b.Write(p)
	return labelled(a.Sum(nil)), labelled(b.Sum(nil))
}

// sha1At sets h, a crypto/sha1 hash, to the state after n bytes, a whole
// number of blocks, that left hash value hv, through the state crypto/sha1
// marshals: "sha\x01", the hash value, a block's buffer and the length.
func sha1At(h any, hv *[5]uint32, n int) {
	st := make([]byte, 0, 4+5*4+sha1.BlockSize+8)
	st = append(st, "sha\x01"...)
	for _, v := range hv {
		st = append(st, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	st = append(st, make([]byte, sha1.BlockSize)...)
	for i := 56; i >= 0; i -= 8 {
		st = append(st, byte(uint64(n)>>i))
	}
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st); err != nil {
		panic("warc: crypto/sha1 does not take its own state: " + err.Error())
	}
}
