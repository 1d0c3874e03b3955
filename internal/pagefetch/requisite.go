package pagefetch

import (
	"context"
	"net/http"

	"tse-crawler/internal/browserurl"
)

// A Requisite is the answer to a request for a resource that a page needs
// to render, such as a stylesheet, an image, a script or a font: the final
// response, whatever its status and its type.
type Requisite struct {
	Code   int
	Status string // as the server sent it, for example "404 Not Found"
	// ContentType is the Content-Type, as the server sent it, and Charset
	// the charset it names, or "".
	ContentType string
	Charset     string
	// Body is the body, whatever the status, as it came but for its
	// transfer and content codings.
	Body []byte
	// Location is a redirect's target, resolved as a browser resolves it,
	// or "" for a response that is no redirect, or whose Location a
	// browser cannot resolve.
	Location string
	// Recording is what the fetch sent and received, with
	// [Fetcher.Record], whether or not an answer came.
	Recording Recording
}

// FetchRequisite fetches a resource that a page needs to render, as a
// browser loads it: any status and any type is an answer, and a redirect
// is not followed but returned, for the caller to follow, each hop once.
// rawURL must be a WHATWG serialization (see [browserurl.Key]), which is
// sent byte for byte whatever f.WHATWG says.
//
// It is paced, retried and checked against robots.txt as [Fetcher.FetchPage]
// is, and fails as it does but for the status and the type: with
// [ErrDisallowed] or [ErrRobotsUnavailable] (wrapped) without a request,
// with an [*UnreachableError] when no connection could be made, with an
// error saying so for a body over MaxSize, and with the context's cause if
// ctx ends first. A failing status (5xx, 429, 408) is retried, and the
// last answer returned. With [Fetcher.Record], every request and every
// answer is recorded as it went, a body over MaxSize as far as it was
// read, and the Requisite holds the Recording whatever the error.
func (f *Fetcher) FetchRequisite(ctx context.Context, rawURL string) (Requisite, error) {
	t := f.newTape()
	r, err := f.fetchRequisite(ctx, rawURL, t)
	r.Recording = t.recording()
	return r, err
}

func (f *Fetcher) fetchRequisite(ctx context.Context, rawURL string, t *tape) (Requisite, error) {
	if err := f.allowed(ctx, rawURL, true, t); err != nil {
		return Requisite{}, err
	}
	resp, err := f.get(ctx, http.MethodGet, rawURL, requisite, t)
	if err != nil {
		return Requisite{}, err
	}
	r := Requisite{Code: resp.code, Status: resp.status, ContentType: resp.ctype, Charset: resp.charset, Body: resp.body}
	if isRedirect(resp.code) && resp.location != "" {
		if u, ok := browserurl.Resolve(rawURL, resp.location); ok {
			r.Location = u
		}
	}
	return r, nil
}
