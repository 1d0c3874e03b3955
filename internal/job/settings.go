package job

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"tse-crawler/internal/bag"
	"tse-crawler/internal/browserurl"
	"tse-crawler/internal/pagefetch"
	"tse-crawler/internal/pagescan"
	"tse-crawler/internal/refurl"
	"tse-crawler/internal/scope"
	"tse-crawler/internal/sitefolder"
)

// Settings are what a crawl is asked to do: what the command line asks
// for. The command binds each of its flags to an exported field, with the
// flag.Values of this package, and Parse sets them, checks them, sets the
// three arguments and builds what they name.
type Settings struct {
	Seed      string // normalized
	RawSeed   string // as given, for the command that resumes the crawl
	Dir       string
	MaxDepth  int
	Delay     time.Duration
	Quiet     bool
	Links     string // -links as given: auto, reference or html
	mode      string // the mode links are read in: reference or html
	Order     string
	Robots    bool
	Retries   int
	Timeout   time.Duration
	MaxSize   int64
	MaxPages  int // 0: no limit
	UserAgent string
	Resume    bool
	Scopes    []string // as given; scope is what they make
	scope     *scope.Scope
	From      string // -links-from
	Until     string // -links-until
	Stats     bool
	StatsJSON string
	Graph     string // -graph: the link graph's CSV file, or ""
	WARC      string // -warc FILE: a WARC file, or a .wacz package
	// Since are the archives of an earlier crawl (-since), whose
	// captures the crawl revalidates.
	Since []string
	// Requisites says which requisites of its pages a crawl with -warc
	// fetches: all, scope or none.
	Requisites string
	// MaxRequisites caps the requisites fetched for one page, and for
	// one stylesheet, apart: 0 is no cap.
	MaxRequisites int
	// -exclude as given, and what it compiles to, which the key of each
	// URL is matched against.
	Excludes []string
	exclude  []*regexp.Regexp
	// How many hosts are fetched at once, and how much of what they
	// fetch ahead may wait in memory. They change when pages are fetched,
	// never what is saved, so a crawl may resume with other values.
	Parallel    int
	AheadMemory int64
	// Check makes the crawl a link check: every URL its pages refer to is
	// checked, and the broken ones reported. With the seed alone, Dir is
	// "" and MaxDepth unbounded. CheckExternal is whether links outside
	// the scope are checked too.
	Check         bool
	CheckExternal bool
	// CheckCache is the file a link check keeps the outcomes of links
	// outside the scope in, between checks, or "", and CheckCacheAge how
	// long one found fine is taken as fine without a request.
	CheckCache    string
	CheckCacheAge time.Duration
	// MoreSeeds are more seeds, normalized and in scope, crawled after
	// the seed (crawler.Crawler.Seeds); a crawl that resumes goes on with
	// the list its journal holds instead.
	MoreSeeds []string
	// Sitemaps are -sitemap's: "auto" or the URL of a sitemap, each.
	Sitemaps []string
	// Folder is the folder a link check reads its pages from (-check
	// DIR), served in-process, or ""; Base is where it is published
	// (-base), or "" for sitefolder.Reserved. With a folder, Begin sets
	// Seed and MoreSeeds: the folder's pages.
	Folder string
	Base   string
	// Built as the flags are checked, so that the crawl uses the very
	// values that were checked; mode, order, from and until stay for the
	// journal and the command that resumes the crawl.
	scanner  pagescan.Scanner // mode's, within -links-from and -links-until
	frontier bag.Bag          // -order, empty
}

// DefaultCheckCacheAge is how long a link check with a cache takes a link
// found fine as fine, unless -check-cache-age says otherwise: a day, so
// that a check run every hour asks another site of each link once a day.
const DefaultCheckCacheAge = 24 * time.Hour

// Mode returns the mode links are read in, once Parse has chosen it:
// reference or html.
func (cfg *Settings) Mode() string { return cfg.mode }

// Scope returns the crawl's scope, once Parse has made it: the -scope
// prefixes as the crawl matches them, or the CS50 site's.
func (cfg *Settings) Scope() *scope.Scope { return cfg.scope }

// A Setting names what a SettingError is about.
type Setting int

const (
	// Flags is anything but the seed and maxDepth: a flag, the number of
	// arguments, a proxy variable or a file the crawl writes.
	Flags Setting = iota
	// SeedURL is a seed the crawl cannot start from.
	SeedURL
	// MaxDepth is a maxDepth that is not an integer from 0 to 10.
	MaxDepth
)

// A SettingError is a setting that asks for no crawl, or one the crawl
// cannot begin with.
type SettingError struct {
	Setting Setting
	Err     error
	// Fix, for a seed out of the scope, is what follows the flags in a
	// command that would crawl it: a -scope that takes it in, then the
	// three arguments. It is nil if there is no such command.
	Fix []string
}

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// refuse returns the SettingError that says msg about s.
func refuse(s Setting, msg string) error {
	return &SettingError{Setting: s, Err: errors.New(msg)}
}

// Parse sets cfg from a command line, args, after the command's name:
// fs, whose flags the command has bound to the fields of cfg, parses the
// flags, and check checks them and the arguments after them. Its errors
// are *SettingErrors, or flag.ErrHelp for -h.
func (cfg *Settings) Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		if msg := badBool(fs, args); msg != "" {
			return refuse(Flags, msg)
		}
		return refuse(Flags, err.Error())
	}
	if msg := boolWithSpace(fs, args); msg != "" {
		return refuse(Flags, msg)
	}
	return cfg.check(fs.Args())
}

// check checks the settings the flags have set, all but pageDirectory,
// which pagedir.Open checks as it creates the marker file, then sets the
// arguments after the flags, rest, and builds the scanner, the bag and the
// scope. Its errors are *SettingErrors.
func (cfg *Settings) check(rest []string) error {
	if err := cfg.checkFlags(); err != nil {
		return err
	}
	if cfg.Check && len(rest) == 1 && folderArg(rest[0]) {
		return cfg.checkFolder(rest[0])
	}
	if cfg.Base != "" {
		return refuse(Flags, "-base works only with -check DIR, a folder to check: give a folder, or leave -base out")
	}
	// Before the -scope is read: a scope on the same port would be
	// refused in html mode, which cannot parse it, and the seed is what
	// no connection can be made to.
	if len(rest) == 3 || cfg.Check && len(rest) == 1 {
		if err := seedPort(rest[0]); err != nil {
			return badPort(rest[0], err)
		}
	}
	if cfg.Check && len(cfg.Scopes) == 0 && len(rest) > 0 {
		// A link check's site is the seed's, all of it, unless a -scope
		// says otherwise.
		if site, err := browserurl.Canonical(rest[0]); err == nil {
			if u, err := url.Parse(site); err == nil {
				cfg.Scopes = []string{u.Scheme + "://" + u.Host + "/"}
			}
		}
	}
	if err := cfg.build(); err != nil {
		return err
	}
	return cfg.setArgs(rest)
}

// normalizer returns how the crawl names pages: the reference crawler's
// normalizer, or in html mode the WHATWG URL Standard's serialization, so
// that the seed, the links and the scope's prefixes are keyed alike.
func (cfg *Settings) normalizer() func(string) (string, bool) {
	normalize := refurl.Normalize
	if cfg.mode == "html" {
		normalize = browserurl.Normalize
	}
	if cfg.Folder == "" {
		return normalize
	}
	// A folder is served as a static web server serves it, which answers
	// "a.html?x=1" with the file a.html, "sub/" with sub/index.html and
	// "%65.html" with e.html: each file is one page, crawled once, whose
	// links are reported from it alone.
	base := cfg.Scopes[0]
	return func(raw string) (string, bool) {
		key, ok := normalize(raw)
		if ok {
			key = sitefolder.FileKey(base, key)
		}
		return key, ok
	}
}

// prefixes returns the -scope prefixes as the crawl matches them: as
// given, or in html mode as a browser parses them ("HTTP://Example.EDU:80"
// is then "http://example.edu/"), since every key they are matched against
// is a browser's serialization.
func (cfg *Settings) prefixes() ([]string, error) {
	if cfg.mode != "html" {
		return cfg.Scopes, nil
	}
	prefixes := make([]string, len(cfg.Scopes))
	for i, raw := range cfg.Scopes {
		p, err := browserurl.Canonical(raw)
		if err != nil && !strings.Contains(raw, "://") {
			return nil, fmt.Errorf("-scope %q needs a scheme: give a URL prefix such as http://example.edu/ or http://*.example.edu/docs/", raw)
		}
		if err != nil {
			return nil, fmt.Errorf("-scope %q is %v: give a URL prefix such as http://example.edu/ or http://*.example.edu/docs/", raw, err)
		}
		prefixes[i] = p
	}
	return prefixes, nil
}

// checkFlags refuses a flag whose value parses but is out of range.
func (cfg *Settings) checkFlags() error {
	var msg string
	switch {
	case cfg.Delay < 0:
		msg = fmt.Sprintf("-delay %v is negative: give a pause such as 1s or 500ms", cfg.Delay)
	case cfg.Timeout <= 0:
		msg = fmt.Sprintf("-timeout %v is not positive: give a limit such as 30s", cfg.Timeout)
	case cfg.Retries < 0:
		msg = fmt.Sprintf("-retries %d is negative: give 0 for no retries", cfg.Retries)
	case cfg.Retries > pagefetch.MaxRetries:
		msg = fmt.Sprintf("-retries %d is too many: give at most %d (the backoff doubles each time, up to a minute)", cfg.Retries, pagefetch.MaxRetries)
	case cfg.Parallel < 1 || cfg.Parallel > MaxParallel:
		msg = fmt.Sprintf("-parallel %d is out of range: give how many hosts to fetch from at once, from 1 (one page at a time) to %d", cfg.Parallel, MaxParallel)
	case cfg.Requisites != "all" && cfg.Requisites != "scope" && cfg.Requisites != "none":
		msg = fmt.Sprintf("-requisites %q: give all (from any host), scope (inside the crawl's scope) or none", cfg.Requisites)
	case cfg.MaxRequisites < 0:
		msg = fmt.Sprintf("-max-requisites %d is negative: give 0 for no cap", cfg.MaxRequisites)
	case cfg.CheckCache != "" && !cfg.Check:
		msg = fmt.Sprintf("-check-cache %s works only with -check, which checks links: add -check, or leave -check-cache out", cfg.CheckCache)
	case cfg.CheckCacheAge < 0:
		msg = fmt.Sprintf("-check-cache-age %v is negative: give how long a link found fine is not asked again, such as 24h, or 0 to ask every link", DurationValue{D: &cfg.CheckCacheAge})
	case cfg.CheckCacheAge != DefaultCheckCacheAge && cfg.CheckCache == "":
		msg = "-check-cache-age works only with -check-cache FILE, whose links it ages: add -check -check-cache FILE, or leave -check-cache-age out"
	case strings.TrimSpace(cfg.UserAgent) == "" || strings.ContainsAny(cfg.UserAgent, "\r\n"):
		msg = fmt.Sprintf("-user-agent %q is not a usable User-Agent: give one line such as mybot/1.0", cfg.UserAgent)
	case badSitemap(cfg.Sitemaps) != "":
		msg = fmt.Sprintf("-sitemap %q is neither auto nor an http or https URL: give auto, or the URL of a sitemap", badSitemap(cfg.Sitemaps))
	default:
		return nil
	}
	return refuse(Flags, msg)
}

// badSitemap returns the first of -sitemap's values that is neither auto
// nor an http or https URL with a host, or "".
func badSitemap(list []string) string {
	for _, s := range list {
		u, err := url.Parse(s)
		if s != "auto" && (err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "") {
			return s
		}
	}
	return ""
}

// build makes the scanner, the bag and the scope that the flags name, or
// refuses a flag that names none. -links auto reads links as the CS50
// reference does in a crawl of the CS50 site, the one a grader compares,
// and as a browser does once -scope names another.
func (cfg *Settings) build() error {
	switch cfg.Links {
	case "auto":
		cfg.mode = "reference"
		if len(cfg.Scopes) > 0 || cfg.Check {
			cfg.mode = "html"
		}
	case "reference", "html":
		cfg.mode = cfg.Links
	default:
		return refuse(Flags, fmt.Sprintf("-links: unknown link scanner %q: use auto, reference or html", cfg.Links))
	}
	var err error
	if cfg.frontier, err = bag.New(cfg.Order); err != nil {
		return refuse(Flags, "-order: "+err.Error())
	}
	if err := cfg.compileExcludes(); err != nil {
		return err
	}
	return cfg.buildMode()
}

// buildMode makes the scanner and the scope, which depend on the mode.
func (cfg *Settings) buildMode() error {
	scanner, err := pagescan.New(cfg.mode)
	if err != nil {
		return refuse(Flags, "-links: "+err.Error())
	}
	if cfg.From != "" || cfg.Until != "" {
		scanner = &pagescan.Region{From: []byte(cfg.From), Until: []byte(cfg.Until), Scanner: scanner}
	}
	cfg.scanner = scanner
	cfg.scope = scope.Default()
	if len(cfg.Scopes) > 0 {
		for _, raw := range cfg.Scopes {
			if msg := scopeSchemeHint(raw); msg != "" {
				return refuse(Flags, msg)
			}
		}
		prefixes, err := cfg.prefixes()
		if err != nil {
			return &SettingError{Setting: Flags, Err: err}
		}
		sc, err := scope.Parse(prefixes)
		if err != nil {
			return refuse(Flags, "-"+err.Error())
		}
		cfg.scope = sc
	}
	return nil
}

// setArgs checks the three arguments, those after the flags, and sets
// them.
func (cfg *Settings) setArgs(rest []string) error {
	if cfg.Check && len(rest) == 1 {
		if cfg.Resume {
			return refuse(Flags, "-resume needs the pageDirectory of the check to finish: give seedURL pageDirectory maxDepth")
		}
		seed, err := cfg.checkSeed(rest[0])
		if err != nil {
			return err
		}
		cfg.Seed, cfg.RawSeed, cfg.MaxDepth = seed, rest[0], math.MaxInt32
		return nil
	}
	if len(rest) != 3 {
		msg := fmt.Sprintf("expected 3 arguments, seedURL pageDirectory maxDepth, but got %d", len(rest))
		if cfg.Check {
			msg = fmt.Sprintf("expected seedURL, or seedURL pageDirectory maxDepth, but got %d arguments", len(rest))
		}
		for _, a := range rest {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				msg += fmt.Sprintf(": flags such as %s must come before the arguments", a)
				break
			}
		}
		if len(rest) == 1 && !cfg.Check {
			if fi, err := os.Stat(rest[0]); err == nil && fi.IsDir() {
				msg += fmt.Sprintf(": to check the links of the folder %s, give -check before it", rest[0])
			}
		}
		return refuse(Flags, msg)
	}
	seed, err := cfg.checkSeed(rest[0])
	if err != nil {
		if se := err.(*SettingError); se.Fix != nil {
			if _, derr := parseDepth(rest[2]); derr != nil {
				se.Fix = nil // the command would fail too
			} else {
				se.Fix = append(se.Fix, rest[1], rest[2])
			}
		}
		return err
	}
	depth, err := parseDepth(rest[2])
	if err != nil {
		return &SettingError{Setting: MaxDepth, Err: err}
	}
	cfg.Seed, cfg.RawSeed, cfg.Dir, cfg.MaxDepth = seed, rest[0], rest[1], depth
	return nil
}

// checkSeed normalizes the seed, raw as given, and checks that the crawl
// can start from it: that it is in the crawl's scope, has a port that can
// be connected to, and is not excluded.
func (cfg *Settings) checkSeed(raw string) (string, error) {
	seed, ok := cfg.normalizer()(raw)
	if name, _, _ := splitScheme(raw); name == "file" {
		return "", refuse(SeedURL, fileURLMessage(raw))
	}
	if fi, err := os.Stat(raw); !ok && err == nil && fi.IsDir() {
		if cfg.Check {
			return "", refuse(Flags, fmt.Sprintf("-check %s takes the folder alone: leave out pageDirectory and maxDepth", raw))
		}
		return "", refuse(SeedURL, fmt.Sprintf("seedURL %q is a folder: to check its links, give -check before it; to crawl it, serve it and give its URL", raw))
	}
	if !ok || !cfg.scope.Contains(seed) {
		if msg := cfg.schemeHint(raw); msg != "" {
			return "", refuse(SeedURL, msg)
		}
	}
	if !ok {
		return "", refuse(SeedURL, fmt.Sprintf("seedURL %q cannot be normalized: give an absolute http URL of an HTML page, such as %sletters/index.html", raw, scope.CS50Prefix))
	}
	if !cfg.scope.Contains(seed) {
		msg, escapes := cfg.outsideMessage(seed)
		if fix := cfg.scopeFix(raw); fix != nil {
			what := "another site"
			if escapes || sameSite(cfg.scope.String(), fix[1]) {
				what = "it" // the same site
			}
			msg += fmt.Sprintf("; to crawl %s, add -scope %s", what, fix[1])
			return "", &SettingError{Setting: SeedURL, Err: errors.New(msg), Fix: fix}
		}
		return "", refuse(SeedURL, msg)
	}
	if err := seedPort(seed); err != nil {
		return "", badPort(seed, err)
	}
	if re := cfg.exclusion(seed); re != nil {
		return "", refuse(SeedURL, fmt.Sprintf("seedURL %s is excluded by -exclude %q, so the crawl could request nothing: give a seed it does not match, or another -exclude", seed, re))
	}
	return seed, nil
}

// outsideMessage says why seed, normalized, is outside the crawl's scope:
// it does not begin with a prefix, or it does but leaves it once a server
// decodes the %2E and %2F in its path ("/tse/%2E%2E/x.html" is
// "/x.html"), which escapes reports.
func (cfg *Settings) outsideMessage(seed string) (msg string, escapes bool) {
	prefixes := []string{scope.CS50Prefix}
	if len(cfg.Scopes) > 0 {
		prefixes, _ = cfg.prefixes() // build checked them
	}
	for _, p := range prefixes {
		if strings.HasPrefix(seed, p) {
			return fmt.Sprintf("seedURL %s is outside the crawl: it begins with %s, but leaves it once a server decodes the %%2E (.) and %%2F (/) in its path", seed, p), true
		}
	}
	return fmt.Sprintf("seedURL %s is outside the crawl: it must begin with %s", seed, strings.Join(prefixes, " or ")), false
}

// badPort is the error for a seed whose port no connection can be made
// to.
func badPort(seed string, err error) error {
	return refuse(SeedURL, fmt.Sprintf("seedURL %s: %v, so no connection can be made to it: give a port from 1 to 65535, or none for the scheme's own", seed, err))
}

// scopeFix returns the end of a command that crawls the seed, raw, after
// the flags of cfg: a -scope of the seed's origin and directory, and the
// seed. It returns nil for a crawl that resumes, which must keep its
// scope, or if no such -scope takes the seed in (it escapes its directory
// once a server decodes it, say).
func (cfg *Settings) scopeFix(raw string) []string {
	if cfg.Resume {
		return nil
	}
	// The crawl it makes: -scope makes -links auto html mode.
	try := *cfg
	if try.mode = "html"; cfg.Links == "reference" {
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
	try.Scopes = append(slices.Clone(cfg.Scopes), prefix)
	if try.buildMode() != nil || !try.scope.Contains(seed) {
		return nil
	}
	return []string{"-scope", prefix, raw}
}

// MaxParallel bounds -parallel: each lane is a host being fetched from,
// and more than this many at once is a crawl of the web, not of a site.
const MaxParallel = 64

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

// sameSite reports whether prefix is on the scheme and host of one of
// the space-separated prefixes of a scope.
func sameSite(prefixes, prefix string) bool {
	p, err := url.Parse(prefix)
	if err != nil {
		return false
	}
	for _, raw := range strings.Fields(prefixes) {
		if q, err := url.Parse(raw); err == nil && strings.EqualFold(q.Scheme, p.Scheme) && strings.EqualFold(q.Host, p.Host) {
			return true
		}
	}
	return false
}
