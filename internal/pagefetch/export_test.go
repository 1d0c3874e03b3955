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

// FetchRecorded is FetchPage for the tests that look at the body and
// what the fetch recorded.
func (f *Fetcher) FetchRecorded(ctx context.Context, rawURL string) ([]byte, Recording, error) {
	p, err := f.FetchPage(ctx, rawURL)
	return p.HTML, p.Recording, err
}

// SpoolMemory returns the memory a recorded response is held in, as far as
// it is held in memory.
func SpoolMemory(src warc.Source) []byte { return src.(*spool).mem }
