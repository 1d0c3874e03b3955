package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/journal"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/scope"
)

// config is what the command line asks for.
type config struct {
	seed      string // normalized
	rawSeed   string // as given, for the command that resumes the crawl
	dir       string
	maxDepth  int
	delay     time.Duration
	quiet     bool
	links     string // -links as given: auto, reference or html
	mode      string // the mode links are read in: reference or html
	order     string
	robots    bool
	retries   int
	timeout   time.Duration
	maxSize   int64
	maxPages  int // 0: no limit
	userAgent string
	resume    bool
	scopes    []string // as given; scope is what they make
	scope     *scope.Scope
	from      string // -links-from
	until     string // -links-until
	stats     bool
	statsJSON string
	graph     string // -graph: the link graph's CSV file, or ""
	warc      string // -warc FILE
	// requisites says which requisites of its pages a crawl with -warc
	// fetches: all, scope or none.
	requisites string
	// -exclude as given, and what it compiles to, which the key of each
	// URL is matched against.
	excludes []string
	exclude  []*regexp.Regexp
	// How many hosts are fetched at once, and how much of what they
	// fetch ahead may wait in memory. They change when pages are fetched,
	// never what is saved, so a crawl may resume with other values.
	parallel    int
	aheadMemory int64
	// Built as the flags are checked, so that the crawl uses the very
	// values that were checked; mode, order, from and until stay for the
	// journal and the command that resumes the crawl.
	scanner  pagescan.Scanner // mode's, within -links-from and -links-until
	frontier bag.Bag          // -order, empty
}

// normalizer returns how the crawl names pages: the reference crawler's
// normalizer, or in html mode the WHATWG URL Standard's serialization, so
// that the seed, the links and the scope's prefixes are keyed alike.
func (cfg *config) normalizer() func(string) (string, bool) {
	if cfg.mode == "html" {
		return browserurl.Normalize
	}
	return refurl.Normalize
}

// prefixes returns the -scope prefixes as the crawl matches them: as
// given, or in html mode as a browser parses them ("HTTP://Example.EDU:80"
// is then "http://example.edu/"), since every key they are matched against
// is a browser's serialization.
func (cfg *config) prefixes() ([]string, error) {
	if cfg.mode != "html" {
		return cfg.scopes, nil
	}
	prefixes := make([]string, len(cfg.scopes))
	for i, raw := range cfg.scopes {
		p, err := browserurl.Canonical(raw)
		if err != nil {
			return nil, fmt.Errorf("-scope %q is %v: give a URL prefix such as http://example.edu/ or http://*.example.edu/docs/", raw, err)
		}
		prefixes[i] = p
	}
	return prefixes, nil
}

// A usageError is a bad command line; code is the exit status it calls for.
type usageError struct {
	code int
	msg  string
}

func (e *usageError) Error() string { return e.msg }

// A fixableError is a bad command line that another would mend: fix are
// its arguments, for run to print after the command's name.
type fixableError struct {
	usageError
	fix []string
}

func (e *fixableError) Unwrap() error { return &e.usageError }

// parseArgs parses and checks the command line after the command's name,
// all but pageDirectory, which pagedir.Open checks as it creates the
// marker file. Its errors are *usageErrors, or flag.ErrHelp for -h.
func parseArgs(args []string) (*config, error) {
	cfg := new(config)
	fs := cfg.flagSet()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{exitUsage, err.Error()}
	}
	if msg := boolWithSpace(fs, args); msg != "" {
		return nil, &usageError{exitUsage, msg}
	}
	if err := cfg.checkFlags(); err != nil {
		return nil, err
	}
	// Before the -scope is read: a scope on the same port would be
	// refused in html mode, which cannot parse it, and the seed is what
	// no connection can be made to.
	if rest := fs.Args(); len(rest) == 3 {
		if err := seedPort(rest[0]); err != nil {
			return nil, badPort(rest[0], err)
		}
	}
	if err := cfg.build(); err != nil {
		return nil, err
	}
	if err := cfg.setArgs(fs.Args()); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkFlags refuses a flag whose value parses but is out of range.
func (cfg *config) checkFlags() error {
	var msg string
	switch {
	case cfg.delay < 0:
		msg = fmt.Sprintf("-delay %v is negative: give a pause such as 1s or 500ms", cfg.delay)
	case cfg.timeout <= 0:
		msg = fmt.Sprintf("-timeout %v is not positive: give a limit such as 30s", cfg.timeout)
	case cfg.retries < 0:
		msg = fmt.Sprintf("-retries %d is negative: give 0 for no retries", cfg.retries)
	case cfg.retries > pagefetch.MaxRetries:
		msg = fmt.Sprintf("-retries %d is too many: give at most %d (the backoff doubles each time, up to a minute)", cfg.retries, pagefetch.MaxRetries)
	case cfg.parallel < 1 || cfg.parallel > maxParallel:
		msg = fmt.Sprintf("-parallel %d is out of range: give how many hosts to fetch from at once, from 1 (one page at a time) to %d", cfg.parallel, maxParallel)
	case cfg.requisites != "all" && cfg.requisites != "scope" && cfg.requisites != "none":
		msg = fmt.Sprintf("-requisites %q: give all (from any host), scope (inside the crawl's scope) or none", cfg.requisites)
	case strings.TrimSpace(cfg.userAgent) == "" || strings.ContainsAny(cfg.userAgent, "\r\n"):
		msg = fmt.Sprintf("-user-agent %q is not a usable User-Agent: give one line such as mybot/1.0", cfg.userAgent)
	default:
		return nil
	}
	return &usageError{exitUsage, msg}
}

// build makes the scanner, the bag and the scope that the flags name, or
// refuses a flag that names none. -links auto reads links as the CS50
// reference does in a crawl of the CS50 site, the one a grader compares,
// and as a browser does once -scope names another.
func (cfg *config) build() error {
	switch cfg.links {
	case "auto":
		cfg.mode = "reference"
		if len(cfg.scopes) > 0 {
			cfg.mode = "html"
		}
	case "reference", "html":
		cfg.mode = cfg.links
	default:
		return &usageError{exitUsage, fmt.Sprintf("-links: unknown link scanner %q: use auto, reference or html", cfg.links)}
	}
	var err error
	if cfg.frontier, err = bag.New(cfg.order); err != nil {
		return &usageError{exitUsage, "-order: " + err.Error()}
	}
	if err := cfg.compileExcludes(); err != nil {
		return err
	}
	return cfg.buildMode()
}

// buildMode makes the scanner and the scope, which depend on the mode.
func (cfg *config) buildMode() error {
	scanner, err := pagescan.New(cfg.mode)
	if err != nil {
		return &usageError{exitUsage, "-links: " + err.Error()}
	}
	if cfg.from != "" || cfg.until != "" {
		scanner = &pagescan.Region{From: []byte(cfg.from), Until: []byte(cfg.until), Scanner: scanner}
	}
	cfg.scanner = scanner
	cfg.scope = scope.Default()
	if len(cfg.scopes) > 0 {
		prefixes, err := cfg.prefixes()
		if err != nil {
			return &usageError{exitUsage, err.Error()}
		}
		sc, err := scope.Parse(prefixes)
		if err != nil {
			return &usageError{exitUsage, "-" + err.Error()}
		}
		cfg.scope = sc
	}
	return nil
}

// adopt makes a crawl that resumes with -links auto read links in the
// mode the journal says the crawl began in, p being the journal's
// parameters: a crawl begun with a -scope before auto was the default
// went on in reference mode. It reports whether it changed the mode; its
// errors, a seed or a -scope that mode cannot read, are *usageErrors.
func (cfg *config) adopt(p journal.Params) (bool, error) {
	var was string
	for _, o := range p.Options {
		if o[0] == "links" {
			was = o[1]
		}
	}
	if cfg.links != "auto" || was == cfg.mode || was != "reference" && was != "html" {
		return false, nil
	}
	cfg.mode = was
	if err := cfg.buildMode(); err != nil {
		return false, err
	}
	seed, err := cfg.checkSeed(cfg.rawSeed)
	if err != nil {
		return false, err
	}
	cfg.seed = seed
	return true, nil
}

// setArgs checks the three arguments, those after the flags, and sets
// them.
func (cfg *config) setArgs(rest []string) error {
	if len(rest) != 3 {
		msg := fmt.Sprintf("expected 3 arguments, seedURL pageDirectory maxDepth, but got %d", len(rest))
		for _, a := range rest {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				msg += fmt.Sprintf(": flags such as %s must come before the arguments", a)
				break
			}
		}
		return &usageError{exitUsage, msg}
	}
	seed, err := cfg.checkSeed(rest[0])
	if err != nil {
		if fe, ok := err.(*fixableError); ok {
			if _, derr := parseDepth(rest[2]); derr != nil {
				return &fe.usageError // the command would fail too
			}
			fe.fix = append(fe.fix, rest[1], rest[2])
		}
		return err
	}
	depth, err := parseDepth(rest[2])
	if err != nil {
		return &usageError{exitMaxDepth, err.Error()}
	}
	cfg.seed, cfg.rawSeed, cfg.dir, cfg.maxDepth = seed, rest[0], rest[1], depth
	return nil
}

// checkSeed normalizes the seed, raw as given, and checks that the crawl
// can start from it: that it is in the crawl's scope, has a port that can
// be connected to, and is not excluded.
func (cfg *config) checkSeed(raw string) (string, error) {
	seed, ok := cfg.normalizer()(raw)
	if !ok || !cfg.scope.Contains(seed) {
		if msg := cfg.schemeHint(raw); msg != "" {
			return "", &usageError{exitSeedURL, msg}
		}
	}
	if !ok {
		return "", &usageError{exitSeedURL, fmt.Sprintf("seedURL %q cannot be normalized: give an absolute http URL of an HTML page, such as %sletters/index.html", raw, scope.CS50Prefix)}
	}
	if !cfg.scope.Contains(seed) {
		msg := fmt.Sprintf("seedURL %s is not in the crawl's scope (%s): give a seed inside it, or add a -scope", seed, cfg.scope)
		if len(cfg.scopes) == 0 {
			msg = fmt.Sprintf("seedURL %s is not internal: it must begin with %s, or a -scope prefix, and stay under it once a server decodes %%2E and %%2F in its path", seed, scope.CS50Prefix)
		}
		if fix := cfg.scopeFix(raw); fix != nil {
			return "", &fixableError{usageError{exitSeedURL, msg}, fix}
		}
		return "", &usageError{exitSeedURL, msg}
	}
	if err := seedPort(seed); err != nil {
		return "", badPort(seed, err)
	}
	if re := cfg.exclusion(seed); re != nil {
		return "", &usageError{exitSeedURL, fmt.Sprintf("seedURL %s is excluded by -exclude %q, so the crawl could request nothing: give a seed it does not match, or another -exclude", seed, re)}
	}
	return seed, nil
}

// badPort is the error for a seed whose port no connection can be made
// to.
func badPort(seed string, err error) error {
	return &usageError{exitSeedURL, fmt.Sprintf("seedURL %s: %v, so no connection can be made to it: give a port from 1 to 65535, or none for the scheme's own", seed, err)}
}

// scopeFix returns the flags and the seed, raw, of a command that crawls
// that seed: the flags of cfg, and a -scope of the seed's origin and
// directory. It returns nil for a crawl that resumes, which must keep its
// scope, or if no such -scope takes the seed in (it escapes its directory
// once a server decodes it, say).
func (cfg *config) scopeFix(raw string) []string {
	if cfg.resume {
		return nil
	}
	// The crawl it makes: -scope makes -links auto html mode.
	try := *cfg
	if try.mode = "html"; cfg.links == "reference" {
		try.mode = "reference"
	}
	seed, ok := try.normalizer()(raw)
	if !ok {
		return nil
	}
	// The seed up to the last slash of its path: a normalized URL has a
	// path, and no fragment.
	_, rest, _ := strings.Cut(seed, "://")
	if strings.IndexByte(rest, '/') < 0 {
		return nil
	}
	path, _, _ := strings.Cut(rest, "?")
	prefix := seed[:len(seed)-len(rest)] + path[:strings.LastIndexByte(path, '/')+1]
	try.scopes = append(slices.Clone(cfg.scopes), prefix)
	if try.buildMode() != nil || !try.scope.Contains(seed) {
		return nil
	}
	var args []string
	for _, f := range flags {
		if f.rule != notCarried {
			args = append(args, f.words(cfg)...)
		}
	}
	return append(args, "-scope", prefix, raw)
}

// wantsVersion reports whether the command line asks for -version, which
// is answered whatever else the line holds, so that any command line, even
// a broken one, can say what built the crawler.
func wantsVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, v, hasValue := strings.Cut(a, "=")
		if name != "-version" && name != "--version" {
			continue
		}
		if on, err := strconv.ParseBool(v); !hasValue || err == nil && on {
			return true
		}
	}
	return false
}

// boolWithSpace finds a boolean flag given its value after a space, as in
// "-robots false seedURL ...", which the flag package reads as -robots and
// a first argument "false", and says how to write it; it returns "" if
// there is none. Only true and false in words count: "-q 1" may well be a
// mistake of another kind.
func boolWithSpace(fs *flag.FlagSet, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return ""
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			return ""
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if !hasValue && i+1 < len(args) {
				if v := args[i+1]; len(v) > 1 {
					if _, err := strconv.ParseBool(v); err == nil {
						return fmt.Sprintf("%s %s: a boolean flag takes its value after \"=\": write %s=%s", a, v, a, v)
					}
				}
			}
			continue
		}
		if !hasValue {
			i++ // the flag's value
		}
	}
	return ""
}

// schemeHint explains a seed that cannot be normalized or is out of scope
// because of its scheme: https where the scope is http, a misspelt scheme
// ("htp://", "http:/"), or none ("cs50tse.cs.dartmouth.edu/tse/"). It names
// the URL the user most likely meant, if that URL is in the scope, and
// returns "" otherwise, for the general message to speak.
func (cfg *config) schemeHint(raw string) string {
	name, rest, problem := splitScheme(raw)
	if problem == "" && name != "https" {
		return ""
	}
	normalize := cfg.normalizer()
	meant := func(scheme string) (string, bool) {
		u, ok := normalize(scheme + "://" + rest)
		return u, ok && cfg.scope.Contains(u)
	}
	u, ok := meant("http")
	if problem == "" { // a well-formed https seed, the scope being http
		seed, _ := normalize(raw)
		if !ok {
			return ""
		}
		// The -scope that takes the seed in over https is the prefix that
		// takes it in over http, as https.
		prefix, verb := scope.CS50Prefix, "give"
		if len(cfg.scopes) > 0 {
			prefixes, _ := cfg.prefixes() // parseArgs checked them
			for _, p := range prefixes {
				if sc, err := scope.Parse([]string{p}); err == nil && sc.Contains(u) {
					prefix, verb = p, "add"
					break
				}
			}
		}
		return fmt.Sprintf("seedURL %s is not internal: it is https, and the crawl's scope is http (%s): use %s, or %s -scope https://%s to crawl over https",
			seed, cfg.scope, u, verb, prefix[len("http://"):])
	}
	// A misspelt https:// most likely meant https, if that is in scope.
	if v, in := meant(name); name == "https" && in {
		u, ok = v, in
	}
	if !ok {
		return ""
	}
	return fmt.Sprintf("seedURL %q %s: use %s", raw, problem, u)
}

// splitScheme reads raw as a URL whose scheme may be misspelt or missing.
// It returns the scheme as given, lower-cased ("" if there is none), what
// follows the scheme and its slashes, and what is wrong with the scheme,
// or "" if it is a well-formed scheme followed by "//".
func splitScheme(raw string) (name, rest, problem string) {
	colon := strings.IndexByte(raw, ':')
	slash := strings.IndexByte(raw, '/')
	if colon <= 0 || slash >= 0 && slash < colon || strings.Contains(raw[:colon], ".") || isPort(raw[colon+1:]) {
		// No scheme before the host: "//host/", "http//host/",
		// "host/path" or "host:port/path".
		first, _, _ := strings.Cut(raw, "/")
		lower := strings.ToLower(first)
		switch {
		case colon == 0:
			return "", strings.TrimLeft(raw[1:], "/"), "has no scheme"
		case strings.HasPrefix(raw, "//"):
			return "", raw[2:], "has no scheme"
		case (lower == "http" || lower == "https") && slash >= 0:
			return lower, strings.TrimLeft(raw[slash:], "/"), "has no colon after " + lower
		case strings.Contains(first, "."):
			return "", raw, "has no scheme"
		}
		return "", "", "" // a relative path, or not a URL at all
	}
	name = strings.ToLower(raw[:colon])
	after := raw[colon+1:]
	rest = strings.TrimLeft(after, "/")
	switch n := len(after) - len(rest); {
	case name != "http" && name != "https":
		return name, rest, fmt.Sprintf("has the scheme %s, not http", name)
	case n == 2:
		return name, rest, ""
	case n == 0:
		return name, rest, fmt.Sprintf("has no slashes after %s:, where %s:// has two", name, name)
	case n == 1:
		return name, rest, fmt.Sprintf("has one slash after %s:, where %s:// has two", name, name)
	default:
		return name, rest, fmt.Sprintf("has %d slashes after %s:, where %s:// has two", n, name, name)
	}
}

// isPort reports whether s begins with a port number: digits, then a
// slash or nothing.
func isPort(s string) bool {
	t := strings.TrimLeft(s, "0123456789")
	return len(t) < len(s) && (t == "" || t[0] == '/')
}

// maxParallel bounds -parallel: each lane is a host being fetched from,
// and more than this many at once is a crawl of the web, not of a site.
const maxParallel = 64

// maxMaxDepth bounds maxDepth, as the specification does.
const maxMaxDepth = 10

// parseDepth accepts only plain decimal digits, so "+3", " 3" and "3.0"
// are all mistakes rather than guesses.
func parseDepth(s string) (int, error) {
	bad := fmt.Errorf("maxDepth %q is not an integer from 0 to %d: give a whole number such as 2", s, maxMaxDepth)
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, bad
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxMaxDepth {
		return 0, bad
	}
	return n, nil
}

// proxyFunc chooses a proxy from HTTP_PROXY, HTTPS_PROXY and NO_PROXY, or
// their lower-case forms, read through getenv. (http.ProxyFromEnvironment
// would read the process's environment once and for all, which a test
// cannot change.) A proxy variable that is set but is not a proxy URL is an
// error: net/http would ignore it and send every request straight to the
// web, which is not what the user asked for. A crawl that records (-warc)
// opens https tunnels itself, through an http:// proxy only.
func proxyFunc(getenv func(string) string, recording bool) (func(*http.Request) (*url.URL, error), error) {
	either := func(name string) (string, error) {
		v := getenv(name)
		if v == "" {
			name = strings.ToLower(name)
			v = getenv(name)
		}
		if v != "" && !proxyURL(v) {
			return "", fmt.Errorf("%s=%q is not a proxy URL: give one such as http://127.0.0.1:8080, or unset it", name, v)
		}
		return v, nil
	}
	var cfg httpproxy.Config
	var err error
	if cfg.HTTPProxy, err = either("HTTP_PROXY"); err != nil {
		return nil, err
	}
	if cfg.HTTPSProxy, err = either("HTTPS_PROXY"); err != nil {
		return nil, err
	}
	if v := cfg.HTTPSProxy; recording && v != "" && !strings.HasPrefix(strings.ToLower(v), "http://") && strings.Contains(v, "://") {
		return nil, fmt.Errorf("the https proxy %q cannot be used with -warc: https then goes through a tunnel the crawler opens itself, to record what passes inside TLS, and only an http:// proxy gives one: give such a proxy, or unset it", v)
	}
	cfg.NoProxy = getenv("NO_PROXY")
	if cfg.NoProxy == "" {
		cfg.NoProxy = getenv("no_proxy")
	}
	proxy := cfg.ProxyFunc()
	return func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }, nil
}

// httpsProxyWarning warns of a crawl that may fetch https while only
// HTTP_PROXY names a proxy, and returns "" for any other. HTTP_PROXY
// covers http alone, as in net/http, curl and wget, so https requests
// would go straight to the network, which a user who set a proxy most
// likely meant them not to.
func httpsProxyWarning(cfg *config, getenv func(string) string) string {
	set := func(name string) string {
		for _, n := range []string{name, strings.ToLower(name)} {
			if getenv(n) != "" {
				return n
			}
		}
		return ""
	}
	httpVar := set("HTTP_PROXY")
	if httpVar == "" || set("HTTPS_PROXY") != "" {
		return ""
	}
	prefixes, _ := cfg.prefixes() // parseArgs checked them
	for _, p := range prefixes {
		if strings.HasPrefix(strings.ToLower(p), "https:") {
			return fmt.Sprintf("%s is set, but HTTPS_PROXY is not, and the scope holds https (%s): https requests go straight to the network, not through the proxy, since HTTP_PROXY covers http alone; set HTTPS_PROXY for them", httpVar, p)
		}
	}
	return ""
}

// proxyURL reports whether v names a proxy that net/http can use, read as
// httpproxy reads it: a URL with a scheme net/http speaks and a host, or
// host:port alone, which means http.
func proxyURL(v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Scheme == "" || u.Host == "" {
		u, err = url.Parse("http://" + v)
	}
	if err != nil || u.Hostname() == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return false
		}
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
		return true
	}
	return false
}

// seedPort returns an error if the port of seed, as given or normalized,
// is one no connection can be made to. Fetching it would fail as no other page
// does, with the seed alone to blame, so it is refused as a bad seed.
func seedPort(seed string) error {
	_, rest, _ := strings.Cut(seed, "://")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	u, err := url.Parse("http://" + rest)
	if err != nil {
		return nil // fetching it says what is wrong
	}
	return pagefetch.CheckPort(u.Port())
}
