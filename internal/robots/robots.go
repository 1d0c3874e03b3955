package robots

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rules are what one robots.txt file says to one crawler. The zero value,
// like a nil *Rules, allows everything and asks for no delay. A *Rules is
// safe for concurrent use once made: it is never changed.
type Rules struct {
	// rules are the Allow and Disallow lines of the groups that apply,
	// longest first and, among equally long ones, Allow first, so that the
	// first one that matches a path decides.
	rules    []rule
	delay    time.Duration
	sitemaps []string
	dropped  int // the Sitemap lines past maxSitemaps
}

// A rule is one Allow or Disallow line. Its pattern's size is its
// priority.
type rule struct {
	allow bool
	pat   pattern
}

// Parse reads a robots.txt body for the crawler whose product token is
// token (e.g. "tse-crawler"; a whole User-Agent value such as
// "tse-crawler/0.2" is reduced to its product token first). A caller that
// reads only the start of a long file should cut it with [Truncate] first;
// a body cut mid-line anyway, or one that is not UTF-8 at all, is read as
// well as it can be. Parse never fails: lines it cannot read are skipped,
// and a body with no usable line allows everything.
func Parse(body []byte, token string) *Rules {
	p := parser{token: ProductToken(token)}
	body = trimBOM(body)
	for len(body) > 0 {
		var line []byte
		i := bytes.IndexAny(body, "\r\n")
		if i < 0 {
			line, body = body, nil
		} else {
			line = body[:i]
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			body = body[i+1:]
		}
		p.line(line)
	}

	acc := &p.global
	if p.named {
		acc = &p.specific
	}
	// A stable sort keeps equal rules in file order, so that Parse is
	// deterministic even though the order of equal rules cannot matter.
	slices.SortStableFunc(acc.rules, func(a, b rule) int {
		if c := cmp.Compare(b.pat.size, a.pat.size); c != 0 {
			return c
		}
		switch {
		case a.allow == b.allow:
			return 0
		case a.allow:
			return -1
		}
		return 1
	})
	return &Rules{rules: acc.rules, delay: acc.delay, sitemaps: p.sitemaps, dropped: p.dropped}
}

// trimBOM removes a UTF-8 byte order mark from the start of body, or the
// start of one: Google's parser skips "\xEF" and "\xEF\xBB" too, and they
// cannot begin a line that means anything.
func trimBOM(body []byte) []byte {
	for _, c := range []byte("\xEF\xBB\xBF") {
		if len(body) == 0 || body[0] != c {
			break
		}
		body = body[1:]
	}
	return body
}

// Truncate returns the part of a robots.txt body that a crawler which
// parses at most limit bytes of it should parse: body itself if it is no
// longer than limit, and otherwise the longest prefix of at most limit
// bytes that ends with a whole line, so that every whole line within the
// limit is kept (RFC 9309 §2.5). A line ends at CR, LF or CRLF. A line
// that fills the limit exactly is whole if the byte after the limit ends
// it, so a body cut by a reader should be cut at limit+1 bytes.
//
// The line that the limit cuts is dropped: cut short, it could mean more or
// less than the file says. A Disallow cut short forbids paths the file
// never named, and yet, being shorter, loses to Allow rules that it would
// have beaten; a User-agent value cut short could come to name this
// crawler. If no line ends within the limit, Truncate keeps the part of
// the first line that fits rather than nothing; that changes no answer (a
// lone line can make no rule apply, since rules count only after a
// User-agent line, so the file allows everything either way), but the
// parser is given all that it may read, and a file never looks empty
// because its first line is long.
func Truncate(body []byte, limit int) []byte {
	limit = max(limit, 0)
	if len(body) <= limit {
		return body
	}
	if c := body[limit]; c == '\n' || c == '\r' {
		return body[:limit]
	}
	if i := bytes.LastIndexAny(body[:limit], "\r\n"); i >= 0 {
		return body[:i+1]
	}
	return body[:limit]
}

// AllowAll returns rules that allow everything, for a robots.txt that is
// unavailable (a 4xx status, RFC 9309 §2.3.1.3).
func AllowAll() *Rules { return &Rules{} }

// Allowed reports whether the crawler may fetch the URL whose path and query
// (e.g. "/a/b.html?x=1", always starting with "/") is given. The path should
// be as it is sent on the wire, percent-encoded or not; see the package
// comment for how it is compared. A path that does not start with "/" is
// read as if it did. /robots.txt is always allowed.
func (r *Rules) Allowed(pathAndQuery string) bool {
	if r == nil || len(r.rules) == 0 {
		return true
	}
	if !strings.HasPrefix(pathAndQuery, "/") {
		pathAndQuery = "/" + pathAndQuery
	}
	path := escape(pathAndQuery)
	if path == "/robots.txt" {
		return true // RFC 9309 §2.2.2: implicitly allowed
	}
	for i := range r.rules {
		if r.rules[i].pat.match(path) {
			return r.rules[i].allow
		}
	}
	return true
}

// Sitemaps returns the URLs of the file's Sitemap lines, as given, in
// order, the first maxSitemaps of them, and how many lines it dropped
// after those, for the caller to say so.
func (r *Rules) Sitemaps() ([]string, int) {
	if r == nil {
		return nil, 0
	}
	return r.sitemaps, r.dropped
}

// Delay returns the pause the file asks of the crawler: the larger of its
// Crawl-delay and its Request-rate (n/m: one request every m/n seconds) in
// the groups that apply, the largest of each if there are several; 0 if it
// gives neither. Delay does not cap the pause, except that a pause too long
// for a time.Duration is the longest Duration.
func (r *Rules) Delay() time.Duration {
	if r == nil {
		return 0
	}
	return r.delay
}

// ProductToken returns the product token of a User-Agent header value: the
// leading run of ASCII letters, '_' and '-', which are the characters RFC
// 9309 §2.2.1 allows in a product token. "tse-crawler/0.2.0 (+https://x)"
// gives "tse-crawler", "Mozilla/5.0 (compatible; Googlebot/2.1)" gives
// "Mozilla", and a value that starts with anything else, such as a digit,
// gives "". Leading spaces and tabs are skipped, so "  x" gives "x": HTTP
// does not count whitespace around a header value as part of it (RFC 9110
// §5.5).
func ProductToken(userAgent string) string {
	s := strings.TrimLeft(userAgent, " \t")
	i := 0
	for i < len(s) && isTokenByte(s[i]) {
		i++
	}
	return s[:i]
}

func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// A parser holds what Parse has learned so far.
type parser struct {
	token string // the crawler's product token; "" names nobody

	inGroup   bool // a User-agent line has been seen
	afterRule bool // a rule has been seen since the last User-agent line
	// The current group names the crawler (specific) or everyone (global).
	// It can do both.
	curSpecific, curGlobal bool

	named            bool // some group names the crawler
	specific, global accumulator
	sitemaps         []string
	dropped          int
}

// An accumulator collects the rules and delay of the groups of one kind.
type accumulator struct {
	rules []rule
	delay time.Duration
}

// line reads one line, without its line end.
func (p *parser) line(line []byte) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	k, v, ok := bytes.Cut(line, []byte(":"))
	if !ok {
		return
	}
	value := string(trimSpace(v))

	switch key := asciiLower(trimSpace(k)); key {
	case "user-agent", "useragent", "user agent":
		p.userAgent(value)
	case "allow", "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw":
		if !p.inGroup {
			return // RFC 9309 §2.2.2: not in any group
		}
		p.afterRule = true
		if value == "" {
			return // an empty pattern matches nothing
		}
		p.add(rule{allow: key == "allow", pat: compile(value)})
	case "crawl-delay", "request-rate":
		if !p.inGroup {
			return
		}
		var d time.Duration
		if key == "crawl-delay" {
			d, ok = parseCrawlDelay(value)
		} else {
			d, ok = parseRequestRate(value)
		}
		if !ok {
			return
		}
		p.afterRule = true
		p.addDelay(d)
	case "sitemap":
		// Any group's, or none's: it is no rule, and has no effect on
		// groups.
		switch {
		case value == "":
		case len(p.sitemaps) < maxSitemaps:
			p.sitemaps = append(p.sitemaps, value)
		default:
			p.dropped++
		}
	}
	// Unknown keys: nothing to do, and no effect on groups.
}

// maxSitemaps is the most Sitemap lines kept: a file of 500 KiB could
// hold thousands, each a fetch.
const maxSitemaps = 100

// userAgent reads the value of a User-agent line.
func (p *parser) userAgent(value string) {
	if value == "" {
		return // names nobody; RFC 9309's grammar has no empty product token
	}
	if p.afterRule {
		// A User-agent line after a rule starts a new group.
		p.afterRule = false
		p.curSpecific, p.curGlobal = false, false
	}
	p.inGroup = true
	// Google also reads "* anything" as "*".
	if value[0] == '*' && (len(value) == 1 || value[1] == ' ' || value[1] == '\t') {
		p.curGlobal = true
		return
	}
	if t := ProductToken(value); t != "" && strings.EqualFold(t, p.token) {
		p.curSpecific = true
		p.named = true
	}
}

func (p *parser) add(r rule) {
	if p.curSpecific {
		p.specific.rules = append(p.specific.rules, r)
	}
	if p.curGlobal {
		p.global.rules = append(p.global.rules, r)
	}
}

func (p *parser) addDelay(d time.Duration) {
	if p.curSpecific {
		p.specific.delay = max(p.specific.delay, d)
	}
	if p.curGlobal {
		p.global.delay = max(p.global.delay, d)
	}
}

// parseCrawlDelay reads the value of a Crawl-delay line: seconds, written
// as digits with an optional fraction.
func parseCrawlDelay(v string) (time.Duration, bool) {
	sec, ok := parseDecimal(v)
	if !ok {
		return 0, false
	}
	return seconds(sec), true
}

// parseRequestRate reads the value of a Request-rate line: "n/m", where m
// may end in a unit s, m or h (seconds by default), optionally followed by
// whitespace and a time window, which is ignored. It returns the pause of
// m/n seconds that the rate implies.
func parseRequestRate(v string) (time.Duration, bool) {
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i] // drop the time window, as in "1/5 0600-0845"
	}
	ns, ms, ok := strings.Cut(v, "/")
	if !ok || !isDigits(ns) {
		return 0, false
	}
	unit := 1.0
	if ms != "" {
		switch ms[len(ms)-1] {
		case 's', 'S':
			ms = ms[:len(ms)-1]
		case 'm', 'M':
			unit, ms = 60, ms[:len(ms)-1]
		case 'h', 'H':
			unit, ms = 3600, ms[:len(ms)-1]
		}
	}
	n, _ := strconv.ParseFloat(ns, 64)
	m, ok := parseDecimal(ms)
	if !ok || n == 0 || m == 0 {
		return 0, false
	}
	sec := m * unit / n
	if math.IsNaN(sec) {
		return 0, false // both too large to tell, as in 1e400/1e400
	}
	return seconds(sec), true
}

// parseDecimal reads a non-negative decimal number such as "10", "0.5",
// ".5" or "5.". It refuses signs, exponents, "inf" and the like, which
// strconv.ParseFloat would take. A number too large for a float64 is +Inf.
func parseDecimal(s string) (float64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || !isDigits(whole) || !isDigits(frac) {
		return 0, false
	}
	f, _ := strconv.ParseFloat(s, 64) // the only possible error is ErrRange, with f = +Inf
	return f, true
}

// isDigits reports whether s is made of ASCII digits only (or is empty).
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// seconds converts a non-negative number of seconds to a Duration, rounded
// to the nanosecond, and to the longest Duration if it is too long for one.
func seconds(sec float64) time.Duration {
	ns := sec * float64(time.Second)
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(math.Round(ns))
}

// trimSpace removes ASCII whitespace at both ends of b. Unlike
// bytes.TrimSpace it leaves other Unicode spaces alone: they are not
// whitespace in RFC 9309's grammar.
func trimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\v\f")
}

// asciiLower returns b lower-cased in ASCII only, so that no non-ASCII key
// can fold into a known one (strings.ToLower maps the Kelvin sign to 'k').
func asciiLower(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}
