// Package robots reads robots.txt files as RFC 9309 says, for one crawler:
// it answers whether the crawler may fetch a path, and how long the file asks
// it to pause between requests.
//
// # Lines
//
// A line is "key: value". Whitespace around the key, the colon and the value
// is optional, '#' starts a comment anywhere on a line, keys are matched
// without regard to case, and lines may end in CR, LF or CRLF. A UTF-8 byte
// order mark at the start of the file is ignored, and so is the start of
// one ("\xEF" or "\xEF\xBB"), as in Google's parser. The keys are User-agent,
// Allow, Disallow, and the non-standard Crawl-delay and Request-rate; Sitemap
// and every other key are ignored. The misspellings that Google's reference
// parser accepts are accepted too: "useragent" and "user agent" for
// User-agent, and "dissallow", "dissalow", "disalow", "diasllow" and
// "disallaw" for Disallow. Keys must match exactly, not by prefix.
//
// A line that cannot be read (no colon, an unknown key, a User-agent with no
// value, a delay that is not a number) is skipped as if it were not there; it
// never voids the rest of the file (RFC 9309 §2.3.1.5). The last line is read
// even if it has no line end: many files lack a final newline.
//
// # Size
//
// RFC 9309 §2.5 lets a crawler stop at 500 KiB. [Truncate] cuts a longer
// file after the last whole line within the limit, so that no rule is read
// from a line cut short; a file no longer than the limit is kept whole.
//
// # Groups
//
// One or more consecutive User-agent lines start a group, and the rules that
// follow belong to it until a User-agent line that comes after a rule.
// Allow, Disallow, Crawl-delay and Request-rate are rules; Sitemap lines,
// blank lines, comments and skipped lines are not, so they neither join nor
// end a group. Rules before the first User-agent line are ignored.
//
// A User-agent value names the crawler if its product token (see
// [ProductToken]) equals the crawler's, ignoring case: "TSE-Crawler/1.0"
// names "tse-crawler", but "tse" does not, because there is no prefix
// matching. A value that is "*", or "*" followed by a space and anything (as
// Google reads it), names every crawler. The rules of every group that names
// the crawler are combined; if none does, those of every "*" group are
// combined; if there are none either, everything is allowed. A group that
// names the crawler but has no rules still counts, so it allows everything:
// the "*" groups are not consulted.
//
// # Matching
//
// Allow and Disallow patterns are matched against the path and query of a
// URL, from its first octet. In a pattern, '*' matches any run of octets
// (including none) and a '$' at the very end anchors the pattern to the end
// of the path; a '$' anywhere else is literal. A pattern that starts with
// neither '/' nor '*' is read as if it started with '/', so
// "Disallow: private" means "/private". (RFC 9309's grammar has no such
// pattern, and Google's reference parser lets it match nothing; reading it
// as the path its author surely meant is the polite choice.) An empty
// Disallow (or Allow) matches nothing.
//
// Among the patterns that match, the longest one wins, its length being
// counted in octets once normalized as below, '*' and '$' included; when an
// Allow and a Disallow are equally long, the Allow wins (RFC 9309 §2.2.2).
// So "Allow: /café" and "Disallow: /caf%C3%A9", which are the same rule
// written two ways, tie, and the Allow wins. A path that no pattern matches
// is allowed, and so is /robots.txt itself.
//
// Before they are compared, patterns and paths go through the same
// normalization, which RFC 9309 §2.2.2 asks for, so that the two sides
// agree on how a character is written, whichever way each was written:
//   - octets that are not printable ASCII (controls, space, DEL and every
//     octet >= 0x80) are percent-encoded, so "/café" and "/caf%C3%A9" match;
//     so are the printable characters that RFC 3986 never allows unescaped
//     in a path or query (" < > [ \ ] ^ ` { | }): a server can read them
//     only as data, so "/a<b" and "/a%3Cb" match;
//   - the hex digits of an existing %xx escape are upper-cased, and an escape
//     of an unreserved character (a letter, digit, '-', '.', '_' or '~') is
//     decoded, so "/%62az" and "/baz" match;
//   - in the query (after the first '?'), ':', '/', '?', '@' and "'" are
//     percent-encoded, so "/a?u=https://x" and "/a?u=https%3A%2F%2Fx" match
//     (RFC 9309 Figure 4). The first four, general delimiters of RFC 3986,
//     delimit nothing inside a query, so there they are only data; and
//     browsers always send "'" in a query as %27, so a server cannot tell
//     them apart;
//   - any other escape, such as %2F in the path or %26 in the query, is
//     kept as an escape, and the character it stands for is kept as
//     written: "/a%2Fb" and "/a/b" are different paths, and "?a=1%26b=2"
//     is one parameter where "?a=1&b=2" is two;
//   - a '%' that does not start an escape is written %25;
//   - in a path, '*', '$' and '#' are written %2A, %24 and %23, so that a
//     pattern can name them literally by their escapes (RFC 9309 §2.2.3):
//     "Disallow: /foo-%24" forbids "/foo-$". In a pattern, '*' and a final
//     '$' keep their special meaning and any other '$' is written %24.
//
// A pattern has a query too, from its first '?' on, even past a '*': in
// "/*?u=http://" the "://" is in the query, so it matches "/a?u=http://x"
// and "/a?u=http%3A%2F%2Fx". A '/' or ':' before the pattern's first '?'
// is in the path, so "Disallow: /*/private" does not match
// "/search?next=/private", whose second '/' is query data.
//
// # Delays
//
// Crawl-delay gives seconds, possibly fractional ("10", "0.5"). Request-rate
// gives n/m, n requests every m seconds, where m may end in a unit, s, m or h
// ("1/5", "3/1m", "1/1h"), and may be followed by a time window
// ("1/5 0600-0845") that is ignored; it asks for a pause of m/n seconds.
// [Rules.Delay] is the largest pause that any such line of the groups that
// apply asks for. Negative, zero-rate and unreadable values are skipped.
package robots
