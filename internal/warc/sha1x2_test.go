package warc

import (
	"crypto/sha1"
	"math/rand/v2"
	"testing"
)

// TestDigests: digests gives what crypto/sha1 gives, one digest after the
// other, for blocks and payloads of every length around the 64-byte
// blocks and the lanes' end, the payload whole or in parts.
func TestDigests(t *testing.T) {
	if !haveX2 {
		t.Log("no SHA extensions: digests runs crypto/sha1 twice")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	lengths := []int{0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4095}
	for _, nb := range lengths {
		for _, np := range lengths {
			block := data[:nb]
			body := data[len(data)-np:]
			for _, parts := range [][][]byte{
				{body},
				{body[:np/3], body[np/3 : np/2], body[np/2:]},
				nil,
			} {
				want := body
				if parts == nil {
					want = nil
				}
				gotBlock, gotPayload := digests(block, parts)
				wantBlock, wantPayload := sha1.Sum(block), sha1.Sum(want)
				if gotBlock != labelled(wantBlock[:]) || gotPayload != labelled(wantPayload[:]) {
					t.Errorf("block of %d, payload of %d in %d parts: digests %s %s, want %s %s",
						nb, np, len(parts), gotBlock, gotPayload, labelled(wantBlock[:]), labelled(wantPayload[:]))
				}
			}
		}
	}
}

// FuzzDigests: digests agrees with crypto/sha1 on any block and payload.
func FuzzDigests(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\n\r\n<html>"), []byte("<html>"), uint8(1))
	f.Add(make([]byte, 200), make([]byte, 130), uint8(3))
	f.Fuzz(func(t *testing.T, block, body []byte, cuts uint8) {
		var parts [][]byte
		rest := body
		for i := range int(cuts % 5) {
			n := len(rest) / (int(cuts%5) - i + 1)
			parts = append(parts, rest[:n])
			rest = rest[n:]
		}
		parts = append(parts, rest)
		gotBlock, gotPayload := digests(block, parts)
		wantBlock, wantPayload := sha1.Sum(block), sha1.Sum(body)
		if gotBlock != labelled(wantBlock[:]) || gotPayload != labelled(wantPayload[:]) {
			t.Errorf("digests disagree with crypto/sha1 on a block of %d and a payload of %d in %d parts", len(block), len(body), len(parts))
		}
	})
}

// BenchmarkDigests measures the two digests of a 100 kB page's record.
func BenchmarkDigests(b *testing.B) {
	page := make([]byte, 100_000)
	resp := append([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"), page...)
	parts := [][]byte{resp[len(resp)-len(page):]}
	b.Run("two lanes", func(b *testing.B) {
		if !haveX2 {
			b.Skip("no SHA extensions")
		}
		b.SetBytes(int64(len(resp) + len(page)))
		for b.Loop() {
			digests(resp, parts)
		}
	})
	b.Run("one after the other", func(b *testing.B) {
		b.SetBytes(int64(len(resp) + len(page)))
		for b.Loop() {
			sha1.Sum(resp)
			sha1.Sum(page)
		}
	})
}
