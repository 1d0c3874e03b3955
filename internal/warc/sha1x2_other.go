//go:build !amd64 || purego

package warc

// haveX2 is false: these processors have no blockX2.
const haveX2 = false

func blockX2(ha, hb *[5]uint32, a, b []byte) {
	panic("warc: blockX2 without the SHA extensions")
}
