// Package robots reads robots.txt files as RFC 9309 says, for one crawler:
// whether it may fetch a path, and how long the file asks it to pause
// between requests.
//
// # Lines
//
// A line is "key: value"; '#' starts a comment, keys ignore case, and lines
// end in CR, LF or CRLF. The keys are User-agent, Allow, Disallow and the
// non-standard Crawl-delay and Request-rate, with the misspellings Google's
// parser accepts ("useragent", "dissallow" and the like), and Sitemap, whose
// URLs are kept apart, for whoever reads sitemaps; every other key is
// ignored. A line that cannot be read is skipped,
// never voiding the rest of the file (RFC 9309 §2.3.1.5), and a last line
// without a line end is read. A leading byte order mark is ignored.
// [Truncate] cuts a file over RFC 9309's 500 KiB limit after its last
// whole line within it, so that no rule is read from a line cut short.
//
// # Groups
//
// Consecutive User-agent lines start a group, which the rules after them
// join until a User-agent line that follows a rule. A group names the
// crawler if a User-agent's product token ([ProductToken]) equals the
// crawler's, ignoring case, with no prefix matching; "*" names every
// crawler. The rules of every group that names the crawler combine; if
// none does, those of the "*" groups; if there are none, everything is
// allowed. A group that names the crawler but has no rules allows
// everything.
//
// # Matching
//
// Allow and Disallow patterns match the path and query from their start;
// '*' matches any run of octets, and a final '$' anchors the end. A
// pattern that starts with neither '/' nor '*' is read as if it did
// ("Disallow: private" is "/private"), the path its author surely meant,
// where Google's parser matches nothing. An empty pattern matches
// nothing. The longest matching pattern wins, and an Allow wins a tie
// (RFC 9309 §2.2.2); a path that no pattern matches, and /robots.txt
// itself, are allowed.
//
// Patterns and paths are put in one form before they are compared, as
// §2.2.2 asks, and lengths are counted in it, so one rule written two ways
// is one rule:
//   - octets that are not printable ASCII, and the printable characters
//     RFC 3986 never allows unescaped, are percent-encoded: "/café" matches
//     "/caf%C3%A9";
//   - hex digits are upper-cased, and escapes of unreserved characters
//     decoded: "/%62az" matches "/baz";
//   - in the query, ':', '/', '?', '@' and "'", which mean nothing
//     special there, are encoded: "?u=https://x" matches "?u=https%3A%2F%2Fx"
//     (RFC 9309 Figure 4);
//   - any other escape stays an escape and any other reserved character
//     stays as written, because encoding changes their meaning: "/a%2Fb"
//     is not "/a/b";
//   - in a path, '*', '$' and '#' are written %2A, %24 and %23, as is a
//     '$' in a pattern that is not its last character, so that a pattern
//     can name them by their escapes (§2.2.3).
//
// A pattern's query begins at its first '?', even after a '*'.
//
// # Delays
//
// Crawl-delay gives seconds, perhaps fractional. Request-rate gives n/m, n
// requests every m seconds (m may end in s, m or h), perhaps followed by a
// time window, which is ignored; it asks for a pause of m/n seconds.
// [Rules.Delay] is the longest pause any such line of the groups that
// apply asks for; negative or unreadable values, and rates of zero, are
// skipped.
package robots
