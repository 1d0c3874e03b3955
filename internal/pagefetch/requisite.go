package pagefetch

import (
	"context"
	"net/http"

	"tse-crawler/internal/browserurl"
)

// FetchRequisite fetches a resource that a page needs to render, as a
// browser loads it: any status and any type is an answer, and a redirect
// is not followed but returned, its Target set, for the caller to follow,
// each hop once. The Page is of [Kind] Requisite, with its answer's Code,
// Status, Header and Body, whatever its status. rawURL must be a WHATWG
// serialization (see [browserurl.Key]), which is sent byte for byte
// whatever f.WHATWG says.
//
// It is paced, retried and checked against robots.txt as [Fetcher.FetchPage]
// is, and fails as it does but for the status and the type: with
// [ErrDisallowed] or [ErrRobotsUnavailable] (wrapped) without a request,
// with an [*UnreachableError] when no connection could be made, with an
// error saying so for a body over MaxSize, and with the context's cause if
// ctx ends first. A failing status (5xx, 429, 408) is retried, and the
// last answer returned. With [Fetcher.Record], every request and every
// answer is recorded as it went, a body over MaxSize as far as it was
// read, and the Page holds the Recording whatever the error.
func (f *Fetcher) FetchRequisite(ctx context.Context, rawURL string) (*Page, error) {
	t := f.newTape()
	p, err := f.fetchRequisite(ctx, rawURL, t)
	p.URL, p.Kind, p.Recording = rawURL, Requisite, recorded(t.recording())
	return p, err
}

func (f *Fetcher) fetchRequisite(ctx context.Context, rawURL string, t *tape) (*Page, error) {
	if err := f.allowed(ctx, rawURL, true, t); err != nil {
		return new(Page), err
	}
	resp, err := f.get(ctx, http.MethodGet, rawURL, requisite, t)
	if err != nil {
		return new(Page), err
	}
	p := resp.page()
	if isRedirect(resp.code) && resp.location() != "" {
		if u, ok := browserurl.Resolve(rawURL, resp.location()); ok {
			p.Target = u
		}
	}
	return p, nil
}
