package job

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"tse-crawler/internal/browserurl"
)

// compileExcludes compiles the -exclude expressions, or refuses the first
// that is not one, saying where it goes wrong: Go's message names the
// fault and a piece of the expression, which in a long expression, or one
// that repeats the piece, does not say where it is.
func (cfg *Settings) compileExcludes() error {
	cfg.exclude = nil
	for _, expr := range cfg.Excludes {
		re, err := regexp.Compile(expr)
		if err != nil {
			what := err.Error()
			if se, ok := errors.AsType[*syntax.Error](err); ok {
				what = string(se.Code)
				if at := errorOffset(expr, se); at >= 0 {
					what += fmt.Sprintf(": at position %d, counting from 0", at)
				}
			}
			return refuse(Flags, fmt.Sprintf("-exclude %q: %s: give a regular expression in Go's syntax (RE2), such as /private/ or \\.pdf$", expr, what))
		}
		cfg.exclude = append(cfg.exclude, re)
	}
	return nil
}

// errorOffset returns the byte offset in expr of the error se, which
// compiling expr gave, or -1 if it cannot tell. A group left open is
// missing its ')' at the end, as a class left open is missing its ']';
// any other error is met where the parser, reading from the left, first
// meets it, so it is found by parsing ever longer prefixes of expr.
func errorOffset(expr string, se *syntax.Error) int {
	switch se.Code {
	case syntax.ErrMissingParen:
		return len(expr)
	case syntax.ErrTrailingBackslash:
		return len(expr) - 1
	case syntax.ErrMissingBracket:
		return len(expr) - len(se.Expr) // se.Expr is the class, to the end
	}
	for n := 1; n <= len(expr); n++ {
		_, err := syntax.Parse(expr[:n], syntax.Perl) // regexp.Compile's flags
		pe, ok := errors.AsType[*syntax.Error](err)
		switch {
		case !ok || pe.Code != se.Code:
		case se.Code == syntax.ErrUnexpectedParen:
			return n - 1 // se.Expr is the whole expression, which ends at the ')'
		case pe.Expr == se.Expr:
			return strings.LastIndex(expr[:n], se.Expr)
		}
	}
	return -1
}

// exclusion returns the -exclude expression that matches url, a key of
// the crawl, or nil if none does.
func (cfg *Settings) exclusion(url string) *regexp.Regexp {
	for _, re := range cfg.exclude {
		if re.MatchString(url) {
			return re
		}
	}
	return nil
}

// excluder returns whether a key is excluded by the -exclude expressions,
// or nil if there are none.
func (cfg *Settings) excluder() func(url string) bool {
	if len(cfg.exclude) == 0 {
		return nil
	}
	return func(url string) bool { return cfg.exclusion(url) != nil }
}

// requisiteScope returns which requisites a crawl with -warc may fetch, by
// key: with -requisites scope only those in the crawl's scope, else any,
// and none that an -exclude matches, since an excluded URL is never
// requested. Nil takes any.
func (cfg *Settings) requisiteScope() func(key string) bool {
	var in func(string) bool
	if cfg.Requisites == "scope" {
		in = cfg.scope.Contains
	}
	if len(cfg.exclude) == 0 {
		return in
	}
	return func(key string) bool { return (in == nil || in(key)) && cfg.exclusion(key) == nil }
}

// A crawlScope is the crawler.Scope of a crawl's settings: the link mode's
// keys, -scope, -exclude and -requisites.
type crawlScope struct {
	key       func(link string) (string, bool)
	internal  func(key string) bool
	exclude   func(key string) bool // nil: nothing is excluded
	requisite func(key string) bool // nil: any requisite may be fetched
}

// crawlScope returns the crawl's crawler.Scope.
func (cfg *Settings) crawlScope() crawlScope {
	return crawlScope{key: cfg.normalizer(), internal: cfg.scope.Contains, exclude: cfg.excluder(), requisite: cfg.requisiteScope()}
}

func (s crawlScope) Key(link string) (string, bool) { return s.key(link) }
func (s crawlScope) Internal(key string) bool       { return s.internal(key) }
func (s crawlScope) Excluded(key string) bool       { return s.exclude != nil && s.exclude(key) }
func (s crawlScope) Requisite(key string) bool      { return s.requisite == nil || s.requisite(key) }

// A checkScope is a crawl's scope as a link check asks it: whether a URL
// is in the scope, or excluded, whatever it names, a file that is no page
// included.
type checkScope struct{ crawlScope }

func (s checkScope) Internal(link string) bool {
	key, ok := browserurl.Key(link)
	return ok && s.internal(key)
}

func (s checkScope) Excluded(link string) bool {
	key, ok := browserurl.Key(link)
	return ok && s.crawlScope.Excluded(key)
}
