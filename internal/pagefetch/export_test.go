package pagefetch

import (
	"context"

	"tse-crawler/internal/warc"
)

// Fetch is FetchPage for the tests that look at the body alone.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) ([]byte, error) {
	p, err := f.FetchPage(ctx, rawURL)
	return p.HTML, err
}

// SpoolMemory returns the memory a recorded response is held in, as far as
// it is held in memory.
func SpoolMemory(src warc.Source) []byte { return src.(*spool).mem }

// SetSpillAt sets how large a body's buffer grows before the body spills
// to f.Scratch, so that tests spill bodies of a few KiB.
func (f *Fetcher) SetSpillAt(n int) { f.spillAt = n }
