package browserurl

import (
	"bytes"
	"strings"
)

// A Resolver resolves links against one base URL, as [Resolve] does,
// having read the base once, for the many links of a page.
type Resolver struct {
	base string
	// plain says whether base is a plain key (see [plainKey]); if so,
	// host, origin and pathEnd are where its host and its path begin and
	// where its path ends.
	plain                 bool
	host, origin, pathEnd int
}

// NewResolver returns a Resolver for links against base.
func NewResolver(base string) Resolver {
	r := Resolver{base: base, plain: plainKey(base)}
	if !r.plain {
		return r
	}
	r.host = len("http://")
	if base[len("http")] == 's' {
		r.host++
	}
	r.origin = r.host + strings.IndexByte(base[r.host:], '/')
	r.pathEnd = len(base)
	if q := strings.IndexByte(base, '?'); q >= 0 {
		r.pathEnd = q
	}
	return r
}

// Base returns the base URL links are resolved against.
func (r *Resolver) Base() string { return r.base }

// Resolve is [Resolve] against the Resolver's base.
func (r *Resolver) Resolve(ref string) (string, bool) {
	if s, ok := r.plainResolve(ref); ok {
		return s, true
	}
	return resolve(r.base, ref)
}

// plainResolve resolves ref without the parser, when the base is a plain
// key and ref, without its fragment, is one of:
//   - empty: the result is the base;
//   - a plain key: the result is ref;
//   - "//" and what makes a plain key after the base's scheme;
//   - a query, "?q": the base's path and the query;
//   - a path of plain bytes, absolute ("/a/b") or relative ("../a/b"),
//     with an optional plain query.
//
// It reports false for anything else, which the parser must resolve.
func (r *Resolver) plainResolve(ref string) (string, bool) {
	if !r.plain {
		return "", false
	}
	ref, _, _ = strings.Cut(ref, "#")
	base, host, origin, pathEnd := r.base, r.host, r.origin, r.pathEnd
	switch {
	case ref == "":
		return base, true
	case ref[0] == '?':
		if !plainQuery(ref[1:]) {
			return "", false
		}
		return base[:pathEnd] + ref, true
	case strings.HasPrefix(ref, "//"):
		if abs := base[:host-len("//")] + ref; plainKey(abs) {
			return abs, true
		}
		return "", false
	case ref[0] == '/':
		return resolvePath(base[:origin], "", ref[1:])
	case plainKey(ref):
		return ref, true
	}
	// A ':' before any '/' may end a scheme ("mailto:x", or "File:x.png",
	// which a browser reads as a file: URL), so it is for the parser.
	if colon := strings.IndexByte(ref, ':'); colon >= 0 {
		if end := strings.IndexAny(ref, "/?"); end < 0 || colon < end {
			return "", false
		}
	}
	dir := base[origin:pathEnd]
	return resolvePath(base[:origin], dir[:strings.LastIndexByte(dir, '/')], ref)
}

// resolvePath returns origin, then the path that the path state makes of
// ref, without its query, after the segments of dir (a path without its
// last segment: "" for the root, "/a" for "/a/b", "/a/" for "/a//b"), then
// ref's query, if it has one. It reports false unless ref's path and query
// are plain but for dot segments, which it applies as the standard does:
// "." drops itself, ".." drops the segment before it too (none at the
// root), and either at the end leaves a trailing '/'.
func resolvePath(origin, dir, ref string) (string, bool) {
	path, query, hasQuery := strings.Cut(ref, "?")
	if !plainBytes(path, &pathUnsafe) || !plainQuery(query) {
		return "", false
	}
	// Most results fit in the array, on the stack: the string is then the
	// one allocation.
	var buf [256]byte
	b := append(append(buf[:0], origin...), dir...)
	for {
		seg, rest, more := strings.Cut(path, "/")
		switch dots(seg) {
		case 2:
			if i := bytes.LastIndexByte(b[len(origin):], '/'); i >= 0 {
				b = b[:len(origin)+i]
			}
			fallthrough
		case 1:
			if !more {
				b = append(b, '/')
			}
		default:
			b = append(append(b, '/'), seg...)
		}
		if !more {
			break
		}
		path = rest
	}
	if hasQuery {
		b = append(append(b, '?'), query...)
	}
	return string(b), true
}
