package pagefetch

import (
	"context"
)

// Fetch is FetchPage for the tests that look at the body alone.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) ([]byte, error) {
	p, err := f.FetchPage(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	return p.Body, nil
}

// FetchRecorded is FetchPage for the tests that look at the body and
// what the fetch recorded.
func (f *Fetcher) FetchRecorded(ctx context.Context, rawURL string) ([]byte, Recording, error) {
	p, err := f.FetchPage(ctx, rawURL)
	var rec Recording
	if p.Recording != nil {
		rec = *p.Recording
	}
	if err != nil {
		return nil, rec, err
	}
	return p.Body, rec, nil
}

// SetSpillAt sets how large a body's buffer grows before the body spills
// to f.Scratch, so that tests spill bodies of a few KiB.
func (f *Fetcher) SetSpillAt(n int) { f.spillAt = n }
