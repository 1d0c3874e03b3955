package robots

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// token is the crawler's product token in most tests.
const token = "tse-crawler"

// A check is one question put to a robots.txt: may this crawler fetch this
// path?
type check struct {
	path string
	want bool
}

// runChecks parses body for tok and asks each question of the result.
func runChecks(t *testing.T, body, tok string, checks []check) {
	t.Helper()
	r := Parse([]byte(body), tok)
	for _, c := range checks {
		if got := r.Allowed(c.path); got != c.want {
			t.Errorf("Parse(%q, %q).Allowed(%q) = %v, want %v", body, tok, c.path, got, c.want)
		}
	}
}

// rfcSimple is the example of RFC 9309 §5.1, as printed (the "EOF" line is
// part of the figure, and is a line without a colon, so it is skipped).
const rfcSimple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

// rfcLongest is the example of RFC 9309 §5.2.
const rfcLongest = `User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
`

// TestRFC9309 checks every example of RFC 9309. The texts were taken from
// the RFC as published at rfc-editor.org; section and figure numbers are the
// RFC's.
func TestRFC9309(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		token  string
		checks []check
	}{
		// §2.2.1, Figure 1: the product token ExampleBot, which a crawler
		// sending "Mozilla/5.0 (compatible; ExampleBot/0.1;
		// https://www.example.com/bot.html)" uses, finds its group.
		{"2.2.1 figure 1, product token", "user-agent: ExampleBot\ndisallow: /\n", "ExampleBot",
			[]check{{"/", false}, {"/bot.html", false}}},
		// §2.2.1, Figure 2: two groups for the same token are merged.
		{"2.2.1 figure 2, merged groups",
			"user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot",
			[]check{{"/foo", false}, {"/bar", false}, {"/baz", false}, {"/qux", true}}},
		// §2.2.1, Figure 3: with no group of its own, ExampleBot obeys "*"
		// and not BazBot's group.
		{"2.2.1 figure 3, the * group",
			"user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n", "ExampleBot",
			[]check{{"/foo", false}, {"/bar", false}, {"/baz", true}}},

		// §2.2.2, Figure 4, one row per test: the rule's path as written,
		// and the URI path that it must match, both as the figure writes
		// it (its "Path to Match") and as the other column does, so that
		// each row is checked in both directions.
		{"2.2.2 figure 4 row 1, query", "user-agent: *\ndisallow: /foo/bar?baz=quz\n", token,
			[]check{{"/foo/bar?baz=quz", false}, {"/foo/bar?baz=qux", true}, {"/foo/bar", true}}},
		{"2.2.2 figure 4 row 2, reserved characters in the query", "user-agent: *\ndisallow: /foo/bar?baz=https://foo.bar\n", token,
			[]check{{"/foo/bar?baz=https%3A%2F%2Ffoo.bar", false}, {"/foo/bar?baz=https://foo.bar", false},
				{"/foo/bar?baz=https%3a%2f%2ffoo.bar", false}, {"/foo/bar?baz=https%3A//foo.bar", false},
				{"/foo/bar?baz=https%3A%2F%2Ffoo.bar/x", false}, {"/foo/bar?baz=http://foo.bar", true}}},
		{"2.2.2 figure 4 row 2, the encoded rule", "user-agent: *\ndisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar\n", token,
			[]check{{"/foo/bar?baz=https://foo.bar", false}, {"/foo/bar?baz=https%3A%2F%2Ffoo.bar", false}, {"/foo/bar?baz=https:/foo.bar", true}}},
		{"2.2.2 figure 4 row 3, UTF-8 in the rule", "user-agent: *\ndisallow: /foo/bar/\u30c4\n", token,
			[]check{{"/foo/bar/%E3%83%84", false}, {"/foo/bar/%e3%83%84", false}, {"/foo/bar/\u30c4", false}, {"/foo/bar/%E3%83", true}}},
		{"2.2.2 figure 4 row 4, escape in the rule", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", token,
			[]check{{"/foo/bar/%E3%83%84", false}, {"/foo/bar/%e3%83%84", false}, {"/foo/bar/\u30c4", false}}},
		{"2.2.2 figure 4 row 5, escaped unreserved characters", "user-agent: *\ndisallow: /foo/bar/%62%61%7A\n", token,
			[]check{{"/foo/bar/baz", false}, {"/foo/bar/%62%61%7A", false}, {"/foo/bar/%62%61%7a", false}, {"/foo/bar/bat", true}}},
		{"2.2.2 figure 4 row 5, the decoded rule", "user-agent: *\ndisallow: /foo/bar/baz\n", token,
			[]check{{"/foo/bar/%62%61%7A", false}, {"/foo/bar/b%61z", false}, {"/foo/bar/%62%61%7B", true}}},
		// §2.2.2: of two equivalent rules, the Allow is used.
		{"2.2.2 equivalent rules, written differently", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\nallow: /foo/bar/\u30c4\n", token,
			[]check{{"/foo/bar/%E3%83%84", true}, {"/foo/bar/\u30c4/x", true}, {"/foo/bar/", true}}},
		// §2.2.2: rules outside any group are ignored; /robots.txt is
		// implicitly allowed.
		{"2.2.2 rule before any group", "disallow: /\nuser-agent: *\ndisallow: /x\n", token,
			[]check{{"/", true}, {"/x", false}}},
		{"2.2.2 /robots.txt", "user-agent: *\ndisallow: /\n", token,
			[]check{{"/robots.txt", true}, {"/", false}}},

		// §2.2.3, Figure 5: the special characters, with their examples.
		{"2.2.3 figure 5, # in line", "user-agent: *\ndisallow: /\nallow: / # comment in line\n", token,
			[]check{{"/", true}, {"/x", true}}},
		{"2.2.3 figure 5, # on its own line", "user-agent: *\n# comment on its own line\ndisallow: /x\n", token,
			[]check{{"/x", false}, {"/y", true}}},
		{"2.2.3 figure 5, $", "user-agent: *\ndisallow: /\nallow: /this/path/exactly$\n", token,
			[]check{{"/this/path/exactly", true}, {"/this/path/exactly/", false}, {"/this/path/exactly?x", false}}},
		{"2.2.3 figure 5, *", "user-agent: *\ndisallow: /\nallow: /this/*/exactly\n", token,
			[]check{{"/this/a/exactly", true}, {"/this/a/b/exactly/too", true}, {"/this//exactly", true}, {"/this/exactly", false}}},
		// §2.2.3, Figure 6: a literal '*' or '$' is matched by its escape.
		{"2.2.3 figure 6, %2A", "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n", token,
			[]check{{"/path/file-with-a-*.html", false}, {"/path/file-with-a-%2A.html", false}, {"/path/file-with-a-%2a.html", false}, {"/path/file-with-a-x.html", true}}},
		{"2.2.3 figure 6, %24", "user-agent: *\ndisallow: /path/foo-%24\n", token,
			[]check{{"/path/foo-$", false}, {"/path/foo-%24", false}, {"/path/foo-$/more", false}, {"/path/foo-", true}}},
		{"2.2.3 # in a path, by its escape", "user-agent: *\ndisallow: /a%23b\n", token,
			[]check{{"/a%23b", false}, {"/a#b", false}, {"/ab", true}}},

		// §5.1: the simple example, for each crawler it names and one it
		// does not.
		{"5.1 any other crawler", rfcSimple, "otherbot", []check{
			{"/", true},
			{"/publications/", true},
			{"/publications/a.html", true},
			{"/example/", false},
			{"/example/page.html", false},
			{"/image.gif", false},
			{"/dir/image.gif", false},         // '*' crosses '/'
			{"/publications/image.gif", true}, // Allow: /publications/ is longer than *.gif$
			{"/image.gif?size=2", true},       // '$' ends the match
			{"/examples", true},               // not under /example/
		}},
		{"5.1 foobot", rfcSimple, "foobot", []check{
			{"/", false},
			{"/example/page.html", true},
			{"/example/allowed.gif", true},
			{"/example/other.html", false},
			{"/publications/", false},
		}},
		{"5.1 barbot", rfcSimple, "barbot", []check{
			{"/example/page.html", false},
			{"/example/page.html?x=1", false},
			{"/example/other.html", true},
			{"/image.gif", true}, // the * group does not apply to barbot
		}},
		{"5.1 bazbot", rfcSimple, "BazBot", []check{
			{"/example/page.html", false},
			{"/example/", true},
		}},
		{"5.1 quxbot, an empty group", rfcSimple, "quxbot", []check{
			{"/", true},
			{"/example/page.html", true},
			{"/image.gif", true},
		}},

		// §5.2: the longest match. The RFC's sentence names the URI
		// ".../disallow.gif" (erratum 7124); the rule it means is for
		// ".../disallowed.gif". Both are checked.
		{"5.2 longest match", rfcLongest, "foobot", []check{
			{"/example/page/disallowed.gif", false},
			{"/example/page/disallow.gif", true},
			{"/example/page/", true},
			{"/example/page/other.gif", true},
			{"/example/", true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runChecks(t, tt.body, tt.token, tt.checks)
		})
	}
}

// TestGoogle runs the cases of Google's reference parser's test suite
// (robots_test.cc in github.com/google/robotstxt) on which RFC 9309 and
// Google agree, one row per block of the C++ test, named after it. Each
// URL there is given here by its path and query, as Google's
// GetPathParamsQuery takes them out of it. The assertions left out, where
// Google's parser departs from the RFC, are listed at the end.
func TestGoogle(t *testing.T) {
	longA := "/x/" + strings.Repeat("a", 2083*8)
	longB := "/x/" + strings.Repeat("b", 2083*8)
	const groups = "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
	const lines = "User-Agent: foo{}Allow: /some/path{}User-Agent: bar{}{}{}Disallow: /"
	tests := []struct {
		name   string
		body   string
		agent  string
		checks []check
	}{
		{"SystemTest, empty robots.txt", "", "FooBot", []check{{"/", true}}},
		{"SystemTest, empty user-agent", "user-agent: FooBot\ndisallow: /\n", "", []check{{"/", true}}},
		{"SystemTest, empty URL", "user-agent: FooBot\ndisallow: /\n", "FooBot", []check{{"", false}}},
		{"SystemTest, all empty", "", "", []check{{"", true}}},

		{"ID_LineSyntax_Line, correct", "user-agent: FooBot\ndisallow: /\n", "FooBot", []check{{"/x/y", false}}},
		{"ID_LineSyntax_Line, incorrect", "foo: FooBot\nbar: /\n", "FooBot", []check{{"/x/y", true}}},

		{"ID_LineSyntax_Groups, FooBot", groups, "FooBot", []check{{"/x/b", true}, {"/z/d", true}, {"/y/c", false}, {"/foo/bar/", false}}},
		{"ID_LineSyntax_Groups, BarBot", groups, "BarBot", []check{{"/y/c", true}, {"/w/a", true}, {"/z/d", false}, {"/foo/bar/", false}}},
		{"ID_LineSyntax_Groups, BazBot", groups, "BazBot", []check{{"/z/d", true}, {"/foo/bar/", false}}},

		{"ID_LineSyntax_Groups_OtherRules, Sitemap", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "FooBot", []check{{"/", false}}},
		{"ID_LineSyntax_Groups_OtherRules, Sitemap, BarBot", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "BarBot", []check{{"/", false}}},
		{"ID_LineSyntax_Groups_OtherRules, unknown", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "FooBot", []check{{"/", false}}},
		{"ID_LineSyntax_Groups_OtherRules, unknown, BarBot", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "BarBot", []check{{"/", false}}},

		{"ID_REPLineNamesCaseInsensitive, upper", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_REPLineNamesCaseInsensitive, lower", "user-agent: FooBot\nallow: /x/\ndisallow: /\n", "FooBot", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_REPLineNamesCaseInsensitive, camel", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", []check{{"/x/y", true}, {"/a/b", false}}},

		{"ID_UserAgentValueCaseInsensitive, upper, Foo", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_UserAgentValueCaseInsensitive, lower, Foo", "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n", "Foo", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_UserAgentValueCaseInsensitive, camel, Foo", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "Foo", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_UserAgentValueCaseInsensitive, upper, foo", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "foo", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_UserAgentValueCaseInsensitive, lower, foo", "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n", "foo", []check{{"/x/y", true}, {"/a/b", false}}},
		{"ID_UserAgentValueCaseInsensitive, camel, foo", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "foo", []check{{"/x/y", true}, {"/a/b", false}}},

		{"AcceptUserAgentUpToFirstSpace, Foo", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", []check{{"/x/y", true}}},

		{"ID_GlobalGroups_Secondary, empty", "", "FooBot", []check{{"/x/y", true}}},
		{"ID_GlobalGroups_Secondary, global, FooBot", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot", []check{{"/x/y", false}}},
		{"ID_GlobalGroups_Secondary, global, BarBot", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "BarBot", []check{{"/x/y", true}}},
		{"ID_GlobalGroups_Secondary, only specific", "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n", "QuxBot", []check{{"/x/y", true}}},

		{"ID_AllowDisallow_Value_CaseSensitive, lower", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", []check{{"/x/y", false}}},
		{"ID_AllowDisallow_Value_CaseSensitive, upper", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", []check{{"/x/y", true}}},

		{"ID_LongestMatch 1", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", []check{{"/x/page.html", false}}},
		{"ID_LongestMatch 2", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", []check{{"/x/page.html", true}, {"/x/", false}}},
		{"ID_LongestMatch 3, empty patterns", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", []check{{"/x/page.html", true}}},
		{"ID_LongestMatch 4, / and /", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", []check{{"/x/page.html", true}}},
		{"ID_LongestMatch 5", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", []check{{"/x", false}, {"/x/", true}}},
		{"ID_LongestMatch 6, the same rule", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", []check{{"/x/page.html", true}}},
		{"ID_LongestMatch 7", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", []check{{"/page.html", false}, {"/page", true}}},
		{"ID_LongestMatch 8", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", []check{{"/x/page.html", true}, {"/x/y.html", false}}},
		{"ID_LongestMatch 9, the most specific group", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", []check{{"/x/page", true}, {"/y/page", false}}},

		{"ID_Encoding, a query left as it is", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot",
			[]check{{"/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true}}},
		{"ID_Encoding, a 3-byte character", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n", "FooBot", []check{{"/foo/bar/%E3%83%84", true}}},
		{"ID_Encoding, an encoded 3-byte character", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", []check{{"/foo/bar/%E3%83%84", true}}},
		{"ID_Encoding, encoded unreserved characters", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", []check{{"/foo/bar/%62%61%7A", true}}},

		{"ID_SpecialCharacters, *", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot",
			[]check{{"/foo/bar/quz", false}, {"/foo/quz", true}, {"/foo//quz", true}, {"/foo/bax/quz", true}}},
		{"ID_SpecialCharacters, $", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot",
			[]check{{"/foo/bar", false}, {"/foo/bar/qux", true}, {"/foo/bar/", true}, {"/foo/bar/baz", true}}},
		{"ID_SpecialCharacters, #", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot",
			[]check{{"/foo/bar", true}, {"/foo/quz", false}}},

		{"IndexHTMLisDirectory, but for the directory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot",
			[]check{{"/allowed-slash/index.htm", false}, {"/allowed-slash/index.html", true}, {"/anyother-url", false}}},

		{"LineTooLong, a long Disallow", "user-agent: FooBot\ndisallow: " + longA + "/qux\n", "FooBot", []check{{"/fux", true}}},
		{"LineTooLong, long Allows", "user-agent: FooBot\ndisallow: /\nallow: " + longA + "/qux\nallow: " + longB + "/qux\n", "FooBot",
			[]check{{"/", false}, {longA + "/qux", true}}},

		{"DocumentationChecks, /fish", "user-agent: FooBot\ndisallow: /\nallow: /fish\n", "FooBot", []check{
			{"/bar", false}, {"/fish", true}, {"/fish.html", true}, {"/fish/salmon.html", true}, {"/fishheads", true},
			{"/fishheads/yummy.html", true}, {"/fish.html?id=anything", true}, {"/Fish.asp", false}, {"/catfish", false}, {"/?id=fish", false}}},
		{"DocumentationChecks, /fish*", "user-agent: FooBot\ndisallow: /\nallow: /fish*\n", "FooBot", []check{
			{"/bar", false}, {"/fish", true}, {"/fish.html", true}, {"/fish/salmon.html", true}, {"/fishheads", true},
			{"/fishheads/yummy.html", true}, {"/fish.html?id=anything", true}, {"/Fish.bar", false}, {"/catfish", false}, {"/?id=fish", false}}},
		{"DocumentationChecks, /fish/", "user-agent: FooBot\ndisallow: /\nallow: /fish/\n", "FooBot", []check{
			{"/bar", false}, {"/fish/", true}, {"/fish/salmon", true}, {"/fish/?salmon", true}, {"/fish/salmon.html", true},
			{"/fish/?id=anything", true}, {"/fish", false}, {"/fish.html", false}, {"/Fish/Salmon.html", false}}},
		{"DocumentationChecks, /*.php", "user-agent: FooBot\ndisallow: /\nallow: /*.php\n", "FooBot", []check{
			{"/bar", false}, {"/filename.php", true}, {"/folder/filename.php", true}, {"/folder/filename.php?parameters", true},
			{"//folder/any.php.file.html", true}, {"/filename.php/", true}, {"/index?f=filename.php/", true},
			{"/php/", false}, {"/index?php", false}, {"/windows.PHP", false}}},
		{"DocumentationChecks, /*.php$", "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n", "FooBot", []check{
			{"/bar", false}, {"/filename.php", true}, {"/folder/filename.php", true}, {"/filename.php?parameters", false},
			{"/filename.php/", false}, {"/filename.php5", false}, {"/php/", false}, {"/filename?php", false},
			{"/aaaphpaaa", false}, {"//windows.PHP", false}}},
		{"DocumentationChecks, /fish*.php", "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n", "FooBot", []check{
			{"/bar", false}, {"/fish.php", true}, {"/fishheads/catfish.php?parameters", true}, {"/Fish.PHP", false}}},
		{"DocumentationChecks, precedence /p", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", []check{{"/page", true}}},
		{"DocumentationChecks, precedence /folder", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", []check{{"/folder/page", true}}},
		{"DocumentationChecks, precedence /*.htm", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", []check{{"/page.htm", false}}},
		{"DocumentationChecks, precedence /$", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", []check{{"/", true}, {"/page.html", false}}},

		// The C++ test counts lines; here the last line, after two blank
		// ones, must still end up in bar's group, whatever the line ends.
		{"ID_LinesNumbersAreCountedCorrectly, LF", strings.ReplaceAll(lines, "{}", "\n") + "\n", "bar", []check{{"/x", false}}},
		{"ID_LinesNumbersAreCountedCorrectly, CRLF", strings.ReplaceAll(lines, "{}", "\r\n") + "\r\n", "bar", []check{{"/x", false}}},
		{"ID_LinesNumbersAreCountedCorrectly, CR", strings.ReplaceAll(lines, "{}", "\r") + "\r", "bar", []check{{"/x", false}}},
		{"ID_LinesNumbersAreCountedCorrectly, no final newline", strings.ReplaceAll(lines, "{}", "\n"), "bar", []check{{"/x", false}}},
		{"ID_LinesNumbersAreCountedCorrectly, mixed",
			"User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", "bar", []check{{"/x", false}}},
		{"ID_LinesNumbersAreCountedCorrectly, foo", strings.ReplaceAll(lines, "{}", "\r"), "foo", []check{{"/x", true}}},

		// The C++ test counts the lines read; here a Disallow shows it.
		{"ID_UTF8ByteOrderMarkIsSkipped, full", "\xEF\xBB\xBFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", []check{{"/AnyValue", false}}},
		{"ID_UTF8ByteOrderMarkIsSkipped, partial 2", "\xEF\xBBUser-Agent: foo\nDisallow: /AnyValue\n", "foo", []check{{"/AnyValue", false}}},
		{"ID_UTF8ByteOrderMarkIsSkipped, partial 1", "\xEFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", []check{{"/AnyValue", false}}},
		{"ID_UTF8ByteOrderMarkIsSkipped, broken", "\xEF\x11\xBFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", []check{{"/AnyValue", true}}},
		{"ID_UTF8ByteOrderMarkIsSkipped, in the middle", "User-Agent: foo\n\xEF\xBB\xBFDisallow: /AnyValue\n", "foo", []check{{"/AnyValue", true}}},
	}
	// Left out, where Google's parser departs from RFC 9309:
	//   - ID_LineSyntax_Line: "disallow /", with no colon, is read as
	//     "disallow: /"; RFC 9309 §2.2's grammar requires the colon.
	//   - ID_Encoding: "Allow: /foo/bar/\u30c4" and "Allow:
	//     /foo/bar/%E3%83%84" do not match the URL "/foo/bar/\u30c4", and
	//     "Allow: /foo/bar/%62%61%7A" does not match "/foo/bar/baz";
	//     RFC 9309 §2.2.2 and its Figure 4 have both sides encoded, and
	//     unreserved escapes decoded, before they are compared.
	//   - GoogleOnly_AcceptUserAgentUpToFirstSpace: a crawler calling
	//     itself "Foo Bar" is not "Foo"; here the crawler's name is
	//     reduced to its product token first (RFC 9309 §2.2.1).
	//   - GoogleOnly_IndexHTMLisDirectory: "Allow: /d/index.html" allows
	//     "/d/"; the RFC has no such rule.
	//   - GoogleOnly_LineTooLong: a line is cut after 16,664 bytes and the
	//     rest ignored; the RFC sets no limit on a line.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runChecks(t, tt.body, tt.agent, tt.checks)
		})
	}
}

// TestGroups checks which groups apply to the crawler.
func TestGroups(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		checks []check
	}{
		{"exact token", "User-agent: tse-crawler\nDisallow: /a\n",
			[]check{{"/a", false}, {"/b", true}}},
		{"token in another case", "User-agent: TSE-Crawler\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"token with a version", "User-agent: tse-crawler/2.0\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"token with a comment", "User-agent: tse-crawler # us\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"no prefix match: a shorter value", "User-agent: tse\nDisallow: /a\n",
			[]check{{"/a", true}}},
		{"no prefix match: a longer value", "User-agent: tse-crawler-ng\nDisallow: /a\n",
			[]check{{"/a", true}}},
		{"no substring match", "User-agent: Mozilla/5.0 (compatible; tse-crawler/0.2)\nDisallow: /a\n",
			[]check{{"/a", true}}},
		{"two groups with our token combine",
			"User-agent: tse-crawler\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: TSE-CRAWLER\nDisallow: /c\nAllow: /a/ok\n",
			[]check{{"/a", false}, {"/a/ok", true}, {"/b", true}, {"/c", false}}},
		{"* when no group names us", "User-agent: other\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
			[]check{{"/a", true}, {"/b", false}}},
		{"two * groups combine", "User-agent: *\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n",
			[]check{{"/a", false}, {"/b", true}, {"/c", false}}},
		{"our group overrides * entirely",
			"User-agent: *\nDisallow: /\n\nUser-agent: tse-crawler\nDisallow: /private/\n",
			[]check{{"/", true}, {"/page.html", true}, {"/private/x", false}}},
		{"our empty group still overrides *", "User-agent: *\nDisallow: /\n\nUser-agent: tse-crawler\n",
			[]check{{"/", true}, {"/x", true}}},
		{"no group applies", "User-agent: other\nDisallow: /\n",
			[]check{{"/", true}, {"/x", true}}},
		{"several user-agent lines in one group",
			"User-agent: a\nUser-agent: tse-crawler\nUser-agent: b\nDisallow: /a\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"a group naming us and *", "User-agent: *\nUser-agent: tse-crawler\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", true}}},
		{"blank lines and comments do not end a run of user-agent lines",
			"User-agent: tse-crawler\n\n# and\nUser-agent: other\n\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"a user-agent line after a rule starts a group",
			"User-agent: tse-crawler\nDisallow: /a\nUser-agent: other\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", true}}},
		{"an empty Disallow is a rule that ends the run",
			"User-agent: tse-crawler\nDisallow:\nUser-agent: other\nDisallow: /b\n",
			[]check{{"/b", true}}},
		{"a Crawl-delay is a rule that ends the run",
			"User-agent: tse-crawler\nCrawl-delay: 1\nUser-agent: other\nDisallow: /b\n",
			[]check{{"/b", true}}},
		{"rules before any user-agent are ignored", "Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /b\n",
			[]check{{"/a", true}, {"/b", false}}},
		{"only rules, no user-agent", "Disallow: /\n",
			[]check{{"/", true}, {"/x", true}}},
		{"Sitemap between user-agent lines", "User-agent: other\nSitemap: https://h/s.xml\nUser-agent: tse-crawler\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"Sitemap between rules", "User-agent: tse-crawler\nDisallow: /a\nSitemap: https://h/s.xml\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}}},
		{"Sitemap before the first group", "Sitemap: https://h/s.xml\nUser-agent: *\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"* followed by text is * (as Google reads it)", "User-agent: * # everyone\nDisallow: /a\n\nUser-agent: * and more\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}}},
		{"*bot is not *", "User-agent: *bot\nDisallow: /a\n",
			[]check{{"/a", true}}},
		{"a value without a token names nobody", "User-agent: 2bot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
			[]check{{"/a", true}, {"/b", false}}},
		{"misspelled user-agent keys", "useragent: tse-crawler\nDisallow: /a\n\nuser agent: tse-crawler\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runChecks(t, tt.body, token, tt.checks)
		})
	}
}

// TestParseToken checks that Parse takes a whole User-Agent value as well
// as a product token, and that an empty token gets the * group.
func TestParseToken(t *testing.T) {
	const body = "User-agent: tse-crawler\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
	tests := []struct {
		token  string
		checks []check
	}{
		{"tse-crawler", []check{{"/a", false}, {"/b", true}}},
		{"tse-crawler/0.2.0 (+https://x)", []check{{"/a", false}, {"/b", true}}},
		{"", []check{{"/a", true}, {"/b", false}}},
		{"*", []check{{"/a", true}, {"/b", false}}},
		{"0bot", []check{{"/a", true}, {"/b", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.token, func(t *testing.T) {
			runChecks(t, body, tt.token, tt.checks)
		})
	}
}

// TestLines checks the syntax of lines, and that a line that cannot be read
// never voids the rest of the file.
func TestLines(t *testing.T) {
	long := strings.Repeat("x", 600<<10)
	tests := []struct {
		name   string
		body   string
		checks []check
	}{
		{"LF", "User-agent: *\nDisallow: /a\nDisallow: /b", []check{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"CRLF", "User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n", []check{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"CR", "User-agent: *\rDisallow: /a\rDisallow: /b\r", []check{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"mixed line ends", "User-agent: *\r\n\rDisallow: /a\n\r\nDisallow: /b", []check{{"/a", false}, {"/b", false}}},
		{"BOM", "\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n", []check{{"/a", false}}},
		{"BOM only at the start", "User-agent: *\n\xEF\xBB\xBFDisallow: /a\nDisallow: /b\n", []check{{"/a", true}, {"/b", false}}},
		{"key case", "USER-AGENT: *\ndisALLOW: /a\nALLOW: /a/b\n", []check{{"/a", false}, {"/a/b", true}}},
		{"whitespace everywhere", "  User-agent \t :\t * \n\tDisallow :  /a  \n", []check{{"/a", false}, {"/b", true}}},
		{"no whitespace", "User-agent:*\nDisallow:/a\n", []check{{"/a", false}}},
		{"a comment ends the value", "User-agent: *\nDisallow: /a#b\n", []check{{"/a", false}, {"/c", true}}},
		{"a comment hides a colon", "User-agent: *\nDisallow #: /\n", []check{{"/", true}}},
		{"a colon in the value", "User-agent: *\nDisallow: /a:b\n", []check{{"/a:b", false}, {"/a", true}}},
		{"misspelled disallow keys",
			"User-agent: *\ndisalow: /a\ndissallow: /b\ndissalow: /c\ndiasllow: /d\ndisallaw: /e\n",
			[]check{{"/a", false}, {"/b", false}, {"/c", false}, {"/d", false}, {"/e", false}, {"/f", true}}},
		{"keys match exactly, not by prefix", "User-agent: *\nDisallowed: /a\nAllowance: /\nDisallow: /\n",
			[]check{{"/a", false}, {"/", false}}},
		{"lines without a colon",
			"User-agent: *\nDisallow /a\nthis is not a rule\nDisallow: /b\nAllow /b/c\n",
			[]check{{"/a", true}, {"/b", false}, {"/b/c", false}}},
		{"garbage bytes",
			"User-agent: *\n\x00\x01\xff\xfe garbage \x80\nDisallow: /a\n\xff:\xff\n\x00Disallow: /b\nDisallow: /c\n",
			[]check{{"/a", false}, {"/b", true}, {"/c", false}}},
		{"unknown keys",
			"Foo: bar\nUser-agent: *\nNoindex: /a\nHost: example.com\nClean-param: x\nDisallow: /b\n",
			[]check{{"/a", true}, {"/b", false}}},
		{"unknown keys do not end a run of user-agent lines",
			"User-agent: other\nHost: example.com\nUser-agent: tse-crawler\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"bad delays do not end a run of user-agent lines",
			"User-agent: tse-crawler\nCrawl-delay: soon\nRequest-rate: 0/5\nUser-agent: other\nDisallow: /a\n",
			[]check{{"/a", false}}},
		{"an empty user-agent is skipped",
			"User-agent: *\nDisallow: /a\nUser-agent:\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}}},
		{"a very long line without a colon",
			"User-agent: *\nDisallow: /a\n" + long + "\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}, {"/c", true}}},
		{"a very long rule",
			"User-agent: *\nDisallow: /a\nDisallow: /" + long + "\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}, {"/c", true}, {"/xx", true}}},
		{"a very long pattern of stars",
			"User-agent: *\nDisallow: /a\nDisallow: /c" + strings.Repeat("*", 600<<10) + "d\nDisallow: /b\n",
			[]check{{"/a", false}, {"/b", false}, {"/c", true}, {"/cd", false}, {"/c/x/d", false}}},
		{"a body cut mid-line", "User-agent: *\nDisallow: /a\nDisallow: /priv", []check{{"/a", false}, {"/private", false}, {"/pub", true}}},
		{"a body cut mid-key", "User-agent: *\nDisallow: /a\nDisal", []check{{"/a", false}, {"/b", true}}},
		{"a body cut mid-UTF-8", "User-agent: *\nDisallow: /a\nDisallow: /caf\xC3", []check{{"/a", false}, {"/caf%C3", false}, {"/caf%C3%A9", false}, {"/cafe", true}}},
		{"a body cut mid-escape", "User-agent: *\nDisallow: /a%C", []check{{"/a%25C", false}, {"/a%C", false}, {"/a", true}}},
		{"empty body", "", []check{{"/", true}}},
		{"only comments", "# nothing\n# here\n", []check{{"/", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runChecks(t, tt.body, token, tt.checks)
		})
	}
}

// TestTruncate checks where a body longer than the limit is cut: after
// its last whole line within the limit, whatever ends the lines.
func TestTruncate(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		limit int
		want  string
	}{
		{"shorter", "a: 1\nb: 2", 20, "a: 1\nb: 2"},
		{"empty", "", 20, ""},
		{"exactly the limit, no final line end", "a: 1\nb: 2", 10, "a: 1\nb: 2"},
		{"exactly the limit, a final LF", "a: 1\nb: 2\n", 11, "a: 1\nb: 2\n"},
		{"one over, LF", "a: 1\nb: 2\nc", 10, "a: 1\nb: 2\n"},
		{"LF", "a: 1\nb: 2\nc: 3\n", 13, "a: 1\nb: 2\n"},
		{"CR", "a: 1\rb: 2\rc: 3\r", 13, "a: 1\rb: 2\r"},
		{"CRLF", "a: 1\r\nb: 2\r\nc: 3\r\n", 15, "a: 1\r\nb: 2\r\n"},
		{"the limit between CR and LF", "a: 1\r\nb: 2\r\nc: 3\r\n", 11, "a: 1\r\nb: 2\r"},
		{"mixed", "a: 1\rb: 2\nc: 3\r\nd: 4", 18, "a: 1\rb: 2\nc: 3\r\n"},
		{"a line that fills the limit, LF after it", "a: 1\nb: 2\nc: 3", 9, "a: 1\nb: 2"},
		{"a line that fills the limit, CR after it", "a: 1\rb: 2\rc: 3", 9, "a: 1\rb: 2"},
		{"a line that fills the limit, CRLF after it", "a: 1\r\nb: 2\r\nc: 3", 10, "a: 1\r\nb: 2"},
		{"a line that fills the limit, more after it", "a: 1\nb: 22\nc: 3", 9, "a: 1\n"},
		{"a first line longer than the limit", "User-agent: *\nDisallow: /", 8, "User-age"},
		{"a first line longer than the limit, CR after the limit", "User-agent: *\rDisallow: /", 8, "User-age"},
		{"a line end first", "\nUser-agent: *", 8, "\n"},
		{"limit 0", "a", 0, ""},
		{"limit 0, a line end", "\na", 0, ""},
		{"negative limit", "a\n", -1, ""},
		{"a NUL is no line end", "a: 1\x00b: 2\nc", 8, "a: 1\x00b: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Truncate([]byte(tt.body), tt.limit); string(got) != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.body, tt.limit, got, tt.want)
			}
		})
	}
}

// TestTruncateKeepsRules cuts a robots.txt of more than 500 KiB, written
// with each kind of line end, and checks that the rules within the limit
// are all kept and the one cut by it is not read.
func TestTruncateKeepsRules(t *testing.T) {
	const limit = 500 << 10
	for _, eol := range []string{"\n", "\r", "\r\n"} {
		t.Run(fmt.Sprintf("%q", eol), func(t *testing.T) {
			var b strings.Builder
			b.WriteString("User-agent: *" + eol + "Disallow: /first" + eol)
			for i := 0; b.Len() < limit-100; i++ {
				fmt.Fprintf(&b, "Disallow: /d%d%s", i, eol)
			}
			b.WriteString("Disallow: /last" + eol)
			// A Disallow cut at the limit to "/" would forbid everything.
			b.WriteString("Disallow: /" + strings.Repeat("x", 200) + eol)
			b.WriteString("Disallow: /after" + eol)
			body := Truncate([]byte(b.String()), limit)
			if len(body) > limit {
				t.Fatalf("Truncate kept %d bytes, more than %d", len(body), limit)
			}
			r := Parse(body, token)
			for _, c := range []check{{"/first", false}, {"/d0", false}, {"/last", false}, {"/after", true}, {"/", true}} {
				if got := r.Allowed(c.path); got != c.want {
					t.Errorf("Allowed(%q) = %v, want %v", c.path, got, c.want)
				}
			}
		})
	}
}

// TestMatching checks wildcards, anchors, queries and normalization.
func TestMatching(t *testing.T) {
	tests := []struct {
		name   string
		rules  string // the lines after "User-agent: *"
		checks []check
	}{
		{"prefix", "Disallow: /fish", []check{
			{"/fish", false}, {"/fish.html", false}, {"/fish/salmon.html", false}, {"/fishheads", false},
			{"/Fish.asp", true}, {"/catfish", true}, {"/", true}}},
		{"directory", "Disallow: /fish/", []check{{"/fish/", false}, {"/fish/x", false}, {"/fish", true}, {"/fish.html", true}}},
		{"* at the end changes nothing", "Disallow: /fish*", []check{{"/fish", false}, {"/fishheads", false}, {"/Fish", true}}},
		{"* in the middle", "Disallow: /a*/b", []check{{"/a/b", false}, {"/ax/b", false}, {"/a/x/y/b/z", false}, {"/a", true}, {"/ab", true}}},
		{"several *", "Disallow: /*a*b*c", []check{{"/abc", false}, {"/xaybzc", false}, {"/cba", true}, {"/ab", true}, {"/acb", true}}},
		{"consecutive *", "Disallow: /a***b", []check{{"/ab", false}, {"/axxb", false}, {"/a", true}}},
		{"a lone *", "Disallow: *", []check{{"/", false}, {"/anything?at=all", false}}},
		{"$ anchors", "Disallow: /a$", []check{{"/a", false}, {"/a/", true}, {"/ab", true}, {"/a?x", true}}},
		{"*.php$", "Disallow: /*.php$", []check{
			{"/filename.php", false}, {"/folder/filename.php", false}, {"/a.php.php", false},
			{"/filename.php?parameters", true}, {"/filename.php/", true}, {"/filename.php5", true}, {"/windows.PHP", true}}},
		{"*.php", "Disallow: /*.php", []check{{"/index.php", false}, {"/a/b.php?x=1", false}, {"/a.php5", false}, {"/a.PHP", true}}},
		{"* then $", "Disallow: /a*$", []check{{"/a", false}, {"/abc", false}}},
		{"the anchored piece cannot overlap the others", "Disallow: /x*ab*b$", []check{
			{"/xzab", true}, {"/xzabb", false}, {"/xabxb", false}, {"/xab", true}}},
		{"$ in the middle is literal", "Disallow: /a$b", []check{{"/a$b", false}, {"/a%24b", false}, {"/a", true}, {"/ab", true}}},
		{"$$", "Disallow: /a$$", []check{{"/a$", false}, {"/a$b", true}, {"/a", true}}},
		{"$ alone is the root", "Disallow: $", []check{{"/", false}, {"/a", true}}},
		{"query: session ids", "Disallow: /*?sessionid=", []check{
			{"/page?sessionid=1", false}, {"/a/b?sessionid=", false}, {"/page?sessionid", true}, {"/page", true}, {"/sessionid=1", true}}},
		{"query: one parameter", "Disallow: /search?q=", []check{
			{"/search?q=cats", false}, {"/search?q=", false}, {"/search?page=2", true}, {"/search", true}, {"/search?page=2&q=x", true}}},
		{"query anywhere", "Disallow: /*?", []check{{"/list?page=2", false}, {"/?", false}, {"/list", true}}},
		{"Allow: /$ allows only the root", "Disallow: /\nAllow: /$", []check{
			{"/", true}, {"/index.html", false}, {"/?x=1", false}}},
		{"a pattern without a leading /", "Disallow: private", []check{{"/private", false}, {"/private/x", false}, {"/a/private", true}}},
		{"an absolute URL as a pattern", "Disallow: http://example.com/a", []check{{"/a", true}, {"/http://example.com/a", false}}},
		{"an empty Disallow matches nothing", "Disallow:\nDisallow: #nothing", []check{{"/", true}, {"/x", true}}},
		{"an empty Allow matches nothing", "Disallow: /\nAllow:", []check{{"/", false}}},
		{"matching is case-sensitive", "Disallow: /Private", []check{{"/Private", false}, {"/private", true}}},
		{"UTF-8 and its escapes", "Disallow: /café", []check{
			{"/café", false}, {"/caf%C3%A9", false}, {"/caf%c3%a9", false}, {"/cafe", true}}},
		{"escapes and UTF-8", "Disallow: /caf%c3%a9", []check{{"/café", false}, {"/caf%C3%A9", false}}},
		{"reserved escapes are not decoded", "Disallow: /a%2Fb", []check{{"/a%2fb", false}, {"/a%2Fb", false}, {"/a/b", true}}},
		{"and not encoded", "Disallow: /a/b", []check{{"/a/b", false}, {"/a%2Fb", true}}},
		{"unreserved escapes are decoded", "Disallow: /%7Ejoe/", []check{{"/~joe/x", false}, {"/%7ejoe/x", false}, {"/%7Ejoe", true}}},
		{"and match their characters", "Disallow: /~joe/", []check{{"/%7Ejoe/x", false}, {"/%7ejoe/", false}}},
		{"escape case", "Disallow: /a%3cd.html", []check{{"/a%3Cd.html", false}, {"/a%3cd.html", false}}},
		{"a space", "Disallow: /a b", []check{{"/a%20b", false}, {"/a b", false}, {"/a+b", true}}},
		{"a % that is no escape", "Disallow: /100%", []check{{"/100%25", false}, {"/100%", false}, {"/100", true}}},
		{"a % before a *", "Disallow: /a%*b", []check{{"/a%25xb", false}, {"/a%b", false}, {"/ab", true}}},
		{"query data: : and /", "Disallow: /a?u=http://x", []check{
			{"/a?u=http://x", false}, {"/a?u=http%3A%2F%2Fx", false}, {"/a?u=http%3a//x/y", false}, {"/a?u=http:x", true}, {"/a?u=http", true}}},
		{"query data: ? and @", "Disallow: /a?b=c?d@e", []check{{"/a?b=c%3Fd%40e", false}, {"/a?b=c?d@e", false}, {"/a?b=c", true}}},
		{"query data in an escaped rule", "Disallow: /a?b=c%3fd%40e", []check{{"/a?b=c?d@e", false}, {"/a?b=c%3Fd%40e", false}}},
		{"a quote in the query, as browsers send it", "Disallow: /a?q='x'", []check{{"/a?q=%27x%27", false}, {"/a?q='x'", false}, {"/a?q=x", true}}},
		{"a quote in the path is kept", "Disallow: /a'b", []check{{"/a'b", false}, {"/a%27b", true}}},
		{"query delimiters are not data", "Disallow: /a?x=1&y=2", []check{{"/a?x=1&y=2", false}, {"/a?x=1%26y=2", true}, {"/a?x%3D1&y=2", true}}},
		{"and their escapes are kept", "Disallow: /a?x=1%26y", []check{{"/a?x=1%26y", false}, {"/a?x=1&y", true}}},
		{"a colon in the path is kept", "Disallow: /a:b", []check{{"/a:b", false}, {"/a%3Ab", true}}},
		{"an escaped ? does not start the query", "Disallow: /a%3Fb", []check{{"/a%3fb", false}, {"/a?b", true}}},
		{"and a ? is not its escape", "Disallow: /a?b", []check{{"/a?b", false}, {"/a%3Fb", true}}},
		{"a second ? in the query", "Disallow: /*?a?", []check{{"/x?a?", false}, {"/x?a%3Fb", false}, {"/x?b?a?", true}}},
		{"the query of a pattern, past a *", "Disallow: /*?u=http://", []check{
			{"/x?u=http://y", false}, {"/x?u=http%3A%2F%2Fy", false}, {"/x/y?u=http://", false}, {"/x?v=1", true}}},
		{"a pattern piece after its query starts", "Disallow: /s?q=*/x", []check{{"/s?q=a/x", false}, {"/s?q=a%2Fx", false}, {"/s?q=ax", true}}},
		{"a / before the pattern's ? is in the path", "Disallow: /*/private", []check{
			{"/a/private", false}, {"/a/b/private/c?d", false}, {"/search?next=/private", true}, {"/search?next=%2Fprivate", true}}},
		{"an escaped / names it in the query and in a name", "Disallow: /*%2Fprivate", []check{
			{"/search?next=/private", false}, {"/search?next=%2fprivate", false}, {"/a%2Fprivate", false}, {"/a/private", true}}},
		{"characters never allowed unescaped", "Disallow: /a<b>", []check{{"/a%3Cb%3E", false}, {"/a%3cb%3e", false}, {"/a<b>", false}, {"/ab", true}}},
		{"and their escapes", "Disallow: /a%7Bb%7D[1]", []check{{"/a{b}[1]", false}, {"/a%7bb%7d%5B1%5D", false}}},
		{"an escaped * in the query", "Disallow: /a?b=%2A", []check{{"/a?b=*", false}, {"/a?b=%2a", false}, {"/a?b=x", true}}},
		{"a * in the query is a wildcard", "Disallow: /a?b=*&c", []check{{"/a?b=x&c", false}, {"/a?b=&c", false}, {"/a?b=x", true}}},
		{"the /robots.txt exception is exact", "Disallow: /", []check{
			{"/robots.txt", true}, {"/robots.txt?x", false}, {"/robots.txt/", false}, {"/ROBOTS.TXT", false}, {"/robots%2Etxt", true}}},
		{"a path without a leading /", "Disallow: /a", []check{{"a", false}, {"", true}, {"?q", true}}},
		{"a path without a leading / against the root", "Disallow: /$", []check{{"", false}, {"?q", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runChecks(t, "User-agent: *\n"+tt.rules+"\n", token, tt.checks)
		})
	}
}

// TestPrecedence checks that the longest pattern wins, in whatever order
// the lines come, and that Allow wins a tie.
func TestPrecedence(t *testing.T) {
	tests := []struct {
		name  string
		rules []string // tried in this order and reversed
		path  string
		want  bool
	}{
		{"longer Allow", []string{"Allow: /p", "Disallow: /"}, "/page", true},
		{"longer Disallow", []string{"Allow: /folder/", "Disallow: /folder/private"}, "/folder/private.html", false},
		{"tie", []string{"Allow: /folder", "Disallow: /folder"}, "/folder/page", true},
		{"tie with wildcards", []string{"Allow: /page", "Disallow: /*.ph"}, "/page.php5", true},
		{"longer wildcard Disallow", []string{"Allow: /page", "Disallow: /*.htm"}, "/page.htm", false},
		{"Allow: /$ against Disallow: /", []string{"Allow: /$", "Disallow: /"}, "/", true},
		{"Allow: /$ against Disallow: / elsewhere", []string{"Allow: /$", "Disallow: /"}, "/page.htm", false},
		{"length as written, not as matched", []string{"Allow: /*", "Disallow: /a"}, "/abc", true},
		// Lengths are counted once normalized, so a rule written two ways
		// is one rule, and the Allow wins (RFC 9309 §2.2.2).
		{"length in octets, encoded", []string{"Allow: /caf%C3%A9", "Disallow: /café"}, "/café", true},
		{"length in octets, encoded, other way", []string{"Disallow: /caf%C3%A9", "Allow: /café"}, "/café", true},
		{"an unreserved escape counts as one octet", []string{"Allow: /%62a", "Disallow: /baz"}, "/baz", false},
		{"an unreserved escape counts as one octet, tie", []string{"Allow: /%62az", "Disallow: /baz"}, "/baz", true},
		{"query data counts as its escape", []string{"Allow: /a?u=http:", "Disallow: /a?u=http%3A"}, "/a?u=http://x", true},
		{"query data counts as its escape, longer", []string{"Allow: /a?u=http:", "Disallow: /a?u=http%3A/"}, "/a?u=http://x", false},
		{"a missing / counts", []string{"Allow: /ab", "Disallow: ab"}, "/ab", true},
		{"many rules", []string{"Disallow: /a", "Allow: /a/b", "Disallow: /a/b/c", "Allow: /a/b/c/d"}, "/a/b/c/d/e", true},
		{"many rules, one short", []string{"Disallow: /a", "Allow: /a/b", "Disallow: /a/b/c", "Allow: /a/b/c/d"}, "/a/b/c/x", false},
	}
	for _, tt := range tests {
		for _, order := range []string{"as written", "reversed"} {
			t.Run(tt.name+", "+order, func(t *testing.T) {
				t.Parallel()
				lines := append([]string(nil), tt.rules...)
				if order == "reversed" {
					for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
						lines[i], lines[j] = lines[j], lines[i]
					}
				}
				body := "User-agent: *\n" + strings.Join(lines, "\n") + "\n"
				runChecks(t, body, token, []check{{tt.path, tt.want}})
			})
		}
	}
}

// TestDelay checks Crawl-delay and Request-rate.
func TestDelay(t *testing.T) {
	const forever = time.Duration(math.MaxInt64)
	tests := []struct {
		name string
		body string
		want time.Duration
	}{
		{"none", "User-agent: *\nDisallow: /\n", 0},
		{"Crawl-delay", "User-agent: *\nCrawl-delay: 10\n", 10 * time.Second},
		{"Crawl-delay zero", "User-agent: *\nCrawl-delay: 0\n", 0},
		{"Crawl-delay fractional", "User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond},
		{"Crawl-delay .25", "User-agent: *\nCrawl-delay: .25\n", 250 * time.Millisecond},
		{"Crawl-delay 2.", "User-agent: *\nCrawl-delay: 2.\n", 2 * time.Second},
		{"Crawl-delay 0.1 is exact", "User-agent: *\nCrawl-delay: 0.1\n", 100 * time.Millisecond},
		{"Crawl-delay not capped", "User-agent: *\nCrawl-delay: 3600\n", time.Hour},
		{"Crawl-delay too long for a Duration", "User-agent: *\nCrawl-delay: 1" + strings.Repeat("0", 400) + "\n", forever},
		{"Crawl-delay with a comment", "User-agent: *\nCrawl-delay: 7 # please\n", 7 * time.Second},
		{"Crawl-delay case", "User-agent: *\nCRAWL-DELAY: 3\n", 3 * time.Second},
		{"Crawl-delay negative", "User-agent: *\nCrawl-delay: -1\n", 0},
		{"Crawl-delay signed", "User-agent: *\nCrawl-delay: +1\n", 0},
		{"Crawl-delay unparsable", "User-agent: *\nCrawl-delay: soon\n", 0},
		{"Crawl-delay with a unit", "User-agent: *\nCrawl-delay: 10s\n", 0},
		{"Crawl-delay exponent", "User-agent: *\nCrawl-delay: 1e3\n", 0},
		{"Crawl-delay inf", "User-agent: *\nCrawl-delay: inf\n", 0},
		{"Crawl-delay a dot", "User-agent: *\nCrawl-delay: .\n", 0},
		{"Crawl-delay empty", "User-agent: *\nCrawl-delay:\n", 0},
		{"Crawl-delay two numbers", "User-agent: *\nCrawl-delay: 1 2\n", 0},
		{"a bad Crawl-delay leaves a good one", "User-agent: *\nCrawl-delay: 4\nCrawl-delay: x\n", 4 * time.Second},
		{"the largest Crawl-delay", "User-agent: *\nCrawl-delay: 4\nCrawl-delay: 6\nCrawl-delay: 5\n", 6 * time.Second},

		{"Request-rate", "User-agent: *\nRequest-rate: 1/5\n", 5 * time.Second},
		{"Request-rate in seconds", "User-agent: *\nRequest-rate: 1/5s\n", 5 * time.Second},
		{"Request-rate in minutes", "User-agent: *\nRequest-rate: 3/1m\n", 20 * time.Second},
		{"Request-rate in hours", "User-agent: *\nRequest-rate: 1/1h\n", time.Hour},
		{"Request-rate unit case", "User-agent: *\nRequest-rate: 1/2M\n", 2 * time.Minute},
		{"Request-rate several a second", "User-agent: *\nRequest-rate: 2/1\n", 500 * time.Millisecond},
		{"Request-rate thirds", "User-agent: *\nRequest-rate: 3/1\n", 333333333 * time.Nanosecond},
		{"Request-rate fractional period", "User-agent: *\nRequest-rate: 1/1.5\n", 1500 * time.Millisecond},
		{"Request-rate with a window", "User-agent: *\nRequest-rate: 1/5 0600-0845\n", 5 * time.Second},
		{"Request-rate with a unit and a window", "User-agent: *\nRequest-rate: 1/10m\t1300-1659 # afternoons\n", 10 * time.Minute},
		{"Request-rate zero requests", "User-agent: *\nRequest-rate: 0/5\n", 0},
		{"Request-rate zero period", "User-agent: *\nRequest-rate: 1/0\n", 0},
		{"Request-rate zero period with a unit", "User-agent: *\nRequest-rate: 1/0m\n", 0},
		{"Request-rate no slash", "User-agent: *\nRequest-rate: 5\n", 0},
		{"Request-rate no period", "User-agent: *\nRequest-rate: 1/\n", 0},
		{"Request-rate only a unit", "User-agent: *\nRequest-rate: 1/s\n", 0},
		{"Request-rate no count", "User-agent: *\nRequest-rate: /5\n", 0},
		{"Request-rate fractional count", "User-agent: *\nRequest-rate: 0.5/5\n", 0},
		{"Request-rate negative", "User-agent: *\nRequest-rate: -1/5\n", 0},
		{"Request-rate unknown unit", "User-agent: *\nRequest-rate: 1/5d\n", 0},
		{"Request-rate spaces around /", "User-agent: *\nRequest-rate: 1 / 5\n", 0},
		{"Request-rate words", "User-agent: *\nRequest-rate: one/five\n", 0},
		{"Request-rate too long for a Duration", "User-agent: *\nRequest-rate: 1/1" + strings.Repeat("0", 400) + "h\n", forever},
		{"Request-rate huge both", "User-agent: *\nRequest-rate: 1" + strings.Repeat("0", 400) + "/1" + strings.Repeat("0", 400) + "\n", 0},
		{"Request-rate huge count", "User-agent: *\nRequest-rate: 1" + strings.Repeat("0", 400) + "/1\n", 0},

		{"the larger: Request-rate", "User-agent: *\nCrawl-delay: 3\nRequest-rate: 1/4\n", 4 * time.Second},
		{"the larger: Crawl-delay", "User-agent: *\nRequest-rate: 1/4\nCrawl-delay: 5\n", 5 * time.Second},

		{"our group's delay, not *'s", "User-agent: *\nCrawl-delay: 30\n\nUser-agent: tse-crawler\nCrawl-delay: 2\n", 2 * time.Second},
		{"our group without a delay overrides *'s", "User-agent: *\nCrawl-delay: 30\n\nUser-agent: tse-crawler\nDisallow: /x\n", 0},
		{"another crawler's delay", "User-agent: slowbot\nCrawl-delay: 30\n\nUser-agent: *\nCrawl-delay: 1\n", time.Second},
		{"combined groups: the largest", "User-agent: tse-crawler\nCrawl-delay: 2\n\nUser-agent: tse-crawler\nRequest-rate: 1/3\n\nUser-agent: tse-crawler\nCrawl-delay: 1\n", 3 * time.Second},
		{"combined * groups: the largest", "User-agent: *\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 8\n", 8 * time.Second},
		{"a delay before any group", "Crawl-delay: 9\nUser-agent: *\nDisallow: /\n", 0},
		{"a delay shared by a group's agents", "User-agent: other\nUser-agent: tse-crawler\nCrawl-delay: 4\n", 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Parse([]byte(tt.body), token).Delay(); got != tt.want {
				t.Errorf("Parse(%q).Delay() = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestFixedRules checks the zero value, a nil *Rules and AllowAll.
func TestFixedRules(t *testing.T) {
	tests := []struct {
		name   string
		rules  *Rules
		checks []check
	}{
		{"zero value", &Rules{}, []check{{"/", true}, {"/a?b", true}, {"/robots.txt", true}}},
		{"nil", nil, []check{{"/", true}, {"/a?b", true}}},
		{"AllowAll", AllowAll(), []check{{"/", true}, {"/a/b.html?x=1", true}, {"/robots.txt", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range tt.checks {
				if got := tt.rules.Allowed(c.path); got != c.want {
					t.Errorf("Allowed(%q) = %v, want %v", c.path, got, c.want)
				}
			}
			if d := tt.rules.Delay(); d != 0 {
				t.Errorf("Delay() = %v, want 0", d)
			}
		})
	}
}

func TestProductToken(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tse-crawler/0.2.0 (+https://x)", "tse-crawler"},
		{"tse-crawler/0.2.0", "tse-crawler"},
		{"tse-crawler", "tse-crawler"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1)", "Mozilla"},
		{"Google_Bot-News x", "Google_Bot-News"},
		{"", ""},
		{"  x", "x"},
		{"\tx/1", "x"},
		{"bot2", "bot"},
		{"2bot", ""},
		{"*", ""},
		{"café", "caf"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ProductToken(tt.in); got != tt.want {
				t.Errorf("ProductToken(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b.html?x=1&y=2", "/a/b.html?x=1&y=2"},
		{"/café", "/caf%C3%A9"},
		{"/caf%c3%a9", "/caf%C3%A9"},
		{"/%62%61%7a%2D%2e%5F%7E", "/baz-._~"},
		{"/%2f%3A%3f%40%25", "/%2F%3A%3F%40%25"},
		{"/a b\tc\x00\x7f", "/a%20b%09c%00%7F"},
		{"/*$#", "/%2A%24%23"},
		{"/%2a%24%23", "/%2A%24%23"},
		{"/100%", "/100%25"},
		{"/%zz%4", "/%25zz%254"},
		{"/%%41", "/%25A"},
		{"", ""},
		// Characters that RFC 3986 never allows unescaped.
		{"/\"<>[\\]^`{|}", "/%22%3C%3E%5B%5C%5D%5E%60%7B%7C%7D"},
		{"/%22%3c%3E%5b%5C%5d%5e%60%7b%7C%7d", "/%22%3C%3E%5B%5C%5D%5E%60%7B%7C%7D"},
		// Reserved characters: as written in the path, and in the query
		// but for the general delimiters, which are only data there.
		{"/a:b@c/d;e=f,g!h'(i)+j&k", "/a:b@c/d;e=f,g!h'(i)+j&k"},
		{"/p?q=a:b@c/d?e;f=g,h!i'(j)+k&l", "/p?q=a%3Ab%40c%2Fd%3Fe;f=g,h!i%27(j)+k&l"},
		{"/p'?q='%27", "/p'?q=%27%27"},
		{"/p?q=%3a%40%2f%3f", "/p?q=%3A%40%2F%3F"},
		{"/p?x=1%26y=2%3D%3b", "/p?x=1%26y=2%3D%3B"},
		{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
		// Only a '?' as written starts the query.
		{"/a%3Fb:c/d", "/a%3Fb:c/d"},
		{"/a%3fb?c:d", "/a%3Fb?c%3Ad"},
		{"?/", "?%2F"},
		{"/a?", "/a?"},
		{"/a??", "/a?%3F"},
		// Escapes of unreserved characters are decoded in the query too.
		{"/a?%62=%7e", "/a?b=~"},
		// '*', '$' and '#' are escaped in the query too.
		{"/a?*$#", "/a?%2A%24%23"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := escape(tt.in)
			if got != tt.want {
				t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := escape(got); again != got {
				t.Errorf("escape(%q) = %q, not idempotent", got, again)
			}
		})
	}
}

func TestCompile(t *testing.T) {
	tests := []struct {
		in       string
		segs     []string
		anchored bool
		size     int
	}{
		{"/a", []string{"/a"}, false, 2},
		{"/a$", []string{"/a"}, true, 3},
		{"/a*", []string{"/a", ""}, false, 3},
		{"*", []string{"", ""}, false, 1},
		{"**", []string{"", ""}, false, 2},
		{"*$", []string{"", ""}, true, 2},
		{"/a**b*$", []string{"/a", "b", ""}, true, 7},
		{"*.gif$", []string{"", ".gif"}, true, 6},
		{"/a$b$", []string{"/a%24b"}, true, 7},
		{"a", []string{"/a"}, false, 2},
		{"$", []string{"/"}, true, 2},
		{"/é*%2a", []string{"/%C3%A9", "%2A"}, false, 11},
		{"/%7Ea", []string{"/~a"}, false, 3},
		// The pattern's first '?' starts its query, for the pieces after
		// it too.
		{"/*?u=http://", []string{"/", "?u=http%3A%2F%2F"}, false, 18},
		{"/s?q=*/x$", []string{"/s?q=", "%2Fx"}, true, 11},
		{"/*/x", []string{"/", "/x"}, false, 4},
		{"/a:b*?c:d*:e", []string{"/a:b", "?c%3Ad", "%3Ae"}, false, 16},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p := compile(tt.in)
			if !reflect.DeepEqual(p.segs, tt.segs) || p.anchored != tt.anchored || p.size != tt.size {
				t.Errorf("compile(%q) = %q anchored %v size %d, want %q anchored %v size %d",
					tt.in, p.segs, p.anchored, p.size, tt.segs, tt.anchored, tt.size)
			}
		})
	}
}

// TestMatchIsNotExponential matches patterns that make a backtracking
// matcher explode; the test would time out if the matcher were one.
func TestMatchIsNotExponential(t *testing.T) {
	path := "/" + strings.Repeat("a", 4000)
	for _, raw := range []string{
		"/" + strings.Repeat("*a", 2000) + "*b",
		"/" + strings.Repeat("a*", 3000) + "b$",
		strings.Repeat("*", 100000) + "b",
	} {
		p := compile(raw)
		if p.match(path) {
			t.Errorf("compile(%.20q...).match(%.20q...) = true, want false", raw, path)
		}
	}
}

// TestConcurrentUse asks one Rules from many goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	r := Parse([]byte(rfcSimple), "foobot")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				path := fmt.Sprintf("/example/%d/%d.gif", i, j)
				if r.Allowed(path) {
					t.Errorf("Allowed(%q) = true, want false", path)
				}
				_ = r.Delay()
			}
		})
	}
	wg.Wait()
}

func FuzzParse(f *testing.F) {
	for _, body := range []string{
		rfcSimple,
		rfcLongest,
		"User-agent: *\nDisallow: /\n",
		"User-agent: tse-crawler\r\nDisallow: /private/\r\nAllow: /private/ok$\r\nCrawl-delay: 2\r\n",
		"\xEF\xBB\xBFUser-agent: *\rDisallow: /*.gif$\rRequest-rate: 1/5m 0600-0845\r",
		"Disallow: /a\nUser-agent: other\nSitemap: http://x/s.xml\nUser-agent: TSE-Crawler/1.0\nDisallow: /a%2F*b\n",
		"User-agent: *\nDisallow: /caf\xC3\xA9\nDisallow: /%7e\nAllow: /$\n# comment\nnonsense\n\x00\xff",
		"User-agent: *\nDisallow: /a\nDisal",
	} {
		f.Add([]byte(body), "/private/x", "garbage", uint8(1))
	}
	f.Add([]byte(""), "", "", uint8(0))
	f.Fuzz(func(t *testing.T, body []byte, path, garbage string, at uint8) {
		r := Parse(body, token)
		r.Allowed(path) // must not panic
		if !r.Allowed("/robots.txt") {
			t.Fatalf("Parse(%q).Allowed(\"/robots.txt\") = false", body)
		}
		if d := r.Delay(); d < 0 {
			t.Fatalf("Parse(%q).Delay() = %v, negative", body, d)
		}
		if again := Parse(body, token); !reflect.DeepEqual(r, again) {
			t.Fatalf("Parse(%q) is not deterministic", body)
		}

		// A Disallow line written from path, encoded as a rule can always
		// be written, forbids it however it is spelled (RFC 9309 §2.2.2).
		if full := "/" + strings.TrimPrefix(path, "/"); path != "" && escape(full) != "/robots.txt" {
			enc, dec := variants(full)
			rule := "User-agent: *\nDisallow: " + enc + "\n"
			r := Parse([]byte(rule), token)
			for _, v := range []string{path, full, enc, dec} {
				if r.Allowed(v) {
					t.Fatalf("Parse(%q).Allowed(%q) = true, want false: the rule was written from %q", rule, v, path)
				}
			}
		}

		// One line that cannot be read, inserted between two lines (or at
		// either end), changes nothing. The BOM, or the start of one, is
		// taken off first, because it counts only at the very start of the
		// file.
		for len(trimBOM(body)) < len(body) {
			body = trimBOM(body)
		}
		want := answers(Parse(body, token), path)
		lines := bytes.SplitAfter(body, []byte("\n"))
		i := int(at) % (len(lines) + 1)
		// '#' goes too where it could cut a bad value down to a good one.
		noBreaks := strings.NewReplacer("\r", "", "\n", "", "#", "")
		for _, bad := range []string{
			strings.NewReplacer("\r", "", "\n", "", ":", "").Replace(garbage), // no colon
			"x-unknown-key: " + noBreaks.Replace(garbage),
			"User-agent:",
			"User-agent: # " + noBreaks.Replace(garbage),
			"Crawl-delay: -1",
			"Crawl-delay: " + noBreaks.Replace(garbage) + "x",
			"Request-rate: 0/" + noBreaks.Replace(garbage),
		} {
			var b bytes.Buffer
			b.Write(bytes.Join(lines[:i], nil))
			if i == len(lines) && len(body) > 0 && !bytes.HasSuffix(body, []byte("\n")) && !bytes.HasSuffix(body, []byte("\r")) {
				b.WriteString("\n") // end the last line first
			}
			b.WriteString(bad + "\n")
			b.Write(bytes.Join(lines[i:], nil))
			if got := answers(Parse(b.Bytes(), token), path); got != want {
				t.Fatalf("inserting line %q into %q changed the answers\nfrom %s\nto   %s", bad, body, want, got)
			}
		}
	})
}

func FuzzTruncate(f *testing.F) {
	for _, body := range []string{
		"User-agent: *\nDisallow: /a\nDisallow: /b\n",
		"User-agent: *\rDisallow: /a\rDisallow: /b\r",
		"User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n",
		"User-agent: *\n\r\n\rDisallow: /a",
		"a very long first line",
	} {
		for _, limit := range []int16{0, 5, 13, 14, 15, 28, 100} {
			f.Add([]byte(body), limit)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, limit int16) {
		got := Truncate(body, int(limit))
		n := max(int(limit), 0) // a negative limit is 0
		if len(body) <= n {
			if !bytes.Equal(got, body) {
				t.Fatalf("Truncate(%q, %d) = %q, want it whole", body, limit, got)
			}
			return
		}
		if len(got) > n || !bytes.HasPrefix(body, got) {
			t.Fatalf("Truncate(%q, %d) = %q, not a prefix of at most %d bytes", body, limit, got, n)
		}
		isEnd := func(c byte) bool { return c == '\r' || c == '\n' }
		whole := len(got) > 0 && isEnd(got[len(got)-1]) || isEnd(body[len(got)])
		firstLine := len(got) == n && !bytes.ContainsAny(body[:n], "\r\n")
		switch {
		case !whole && !firstLine:
			t.Fatalf("Truncate(%q, %d) = %q, which ends in a line cut short", body, limit, got)
		case len(got) < n && (bytes.ContainsAny(body[len(got):n], "\r\n") || isEnd(body[n])):
			t.Fatalf("Truncate(%q, %d) = %q, but a longer prefix ends with a whole line", body, limit, got)
		}
		// The lines kept are lines of the file, but for a first line
		// longer than the limit.
		kept, all := splitLines(got), splitLines(body)
		if len(kept) > len(all) {
			t.Fatalf("Truncate(%q, %d) = %q, with more lines than the file", body, limit, got)
		}
		for i, line := range kept {
			if line != all[i] && !(i == 0 && firstLine && strings.HasPrefix(all[0], line)) {
				t.Fatalf("Truncate(%q, %d) = %q, whose line %d, %q, is not the file's %q", body, limit, got, i+1, line, all[i])
			}
		}
	})
}

// splitLines returns the lines of b, without their line ends, as Parse
// reads them: a line ends at CR, LF or CRLF.
func splitLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			lines = append(lines, string(b))
			break
		}
		lines = append(lines, string(b[:i]))
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
	return lines
}

// answers sums up what r says about a few fixed paths and path, and its
// delay, for FuzzParse to compare.
func answers(r *Rules, path string) string {
	var b strings.Builder
	for _, p := range []string{"/", "/a", "/a/b.html", "/private/x", "/x.gif", "/search?q=1", "/caf%C3%A9", "/robots.txt", path} {
		fmt.Fprintf(&b, "%q:%v ", p, r.Allowed(p))
	}
	fmt.Fprintf(&b, "delay:%v", r.Delay())
	return b.String()
}

func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"/", "/"},
		{"/a*b$", "/axxb"},
		{"*.gif$", "/a.gif"},
		{"/*?sessionid=", "/x?sessionid=1"},
		{"/a$b", "/a$b"},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-*.html"},
		{"/caf%c3%a9", "/café"},
		{"/%7ejoe", "/~joe"},
		{"/a%*b", "/a%b"},
		{"**a*$", "/aaa"},
		{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
		{"/*?u=http://*/x", "/a?u=http%3a//h/x"},
		{"/a%3F*b?c", "/a%3fb?c:d@e?f"},
		{"/a<b>[c]", "/a%3Cb%3E%5bc%5D?%22"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, raw, path string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		norm := escape(path)
		if again := escape(norm); again != norm {
			t.Fatalf("escape(%q) = %q, but escape(%q) = %q", path, norm, norm, again)
		}
		p := compile(raw)
		got := p.match(norm)
		if len(raw)+len(path) <= 2000 {
			if want := slowMatch(p, norm); got != want {
				t.Fatalf("compile(%q).match(%q) = %v, but the slow matcher says %v", raw, norm, got, want)
			}
		}
		star := compile("*")
		if !star.match(norm) {
			t.Fatalf("compile(\"*\").match(%q) = false", norm)
		}
		if !strings.ContainsAny(path, "*$") {
			self := compile(path)
			if !self.match(norm) {
				t.Fatalf("compile(%q).match(%q) = false, want true: a pattern matches itself", path, norm)
			}
			if exact := compile(path + "$"); !exact.match(norm) {
				t.Fatalf("compile(%q).match(%q) = false, want true", path+"$", norm)
			}
			if !self.match(escape(path + "/more?x")) {
				t.Fatalf("compile(%q) does not match its extension %q", path, path+"/more?x")
			}
		}

		// A rule matches the path it was written from, however either is
		// encoded (RFC 9309 §2.2.2), and is as long, so that the two
		// spellings of one rule tie. enc escapes '*' and '$', so it is a
		// rule for any path; path and dec have them as written, so they
		// are rules for it only without them.
		enc, dec := variants(path)
		spellings := []string{path, enc, dec}
		for _, v := range spellings[1:] {
			if got := escape(v); got != norm {
				t.Fatalf("escape(%q) = %q, but escape(%q) = %q: two spellings of one path", path, norm, v, got)
			}
		}
		rules := spellings[1:2]
		if !strings.ContainsAny(path, "*$") {
			rules = spellings
		}
		size := compile(enc).size
		for _, r := range rules {
			p := compile(r)
			if p.size != size {
				t.Fatalf("compile(%q).size = %d, but compile(%q).size = %d: two spellings of one rule", r, p.size, enc, size)
			}
			for _, v := range spellings {
				if !p.match(escape(v)) {
					t.Fatalf("compile(%q).match(escape(%q)) = false, want true: the rule was written from the path", r, v)
				}
			}
		}
	})
}

// variants returns two other spellings of path that RFC 9309 §2.2.2 makes
// equivalent to it: enc, with every octet percent-encoded that can be
// without changing what the path means, and the hex digits of escapes in
// lower case; and dec, with every escape decoded that can be, but those of
// '*' and '$', which would become wildcards in a rule, and of '%'.
func variants(path string) (enc, dec string) {
	const lowerHex = "0123456789abcdef"
	var e, d strings.Builder
	esc := func(b *strings.Builder, c byte) {
		b.WriteByte('%')
		b.WriteByte(lowerHex[c>>4])
		b.WriteByte(lowerHex[c&0xF])
	}
	inQuery := false
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '%' && i+2 < len(path) && isHex(path[i+1]) && isHex(path[i+2]):
			v := unhex(path[i+1])<<4 | unhex(path[i+2])
			esc(&e, v)
			if isUnreserved(v) || inQuery && isQueryData(v) || alwaysEncoded[v] && !strings.ContainsRune("%*$", rune(v)) {
				d.WriteByte(v)
			} else {
				d.WriteString(path[i : i+3])
			}
			i += 2
		case c == '?' && !inQuery:
			inQuery = true
			e.WriteByte(c)
			d.WriteByte(c)
		case c == '%':
			// A '%' that starts no escape: written as is, it could start
			// one once what follows it is decoded.
			e.WriteString("%25")
			d.WriteString("%25")
		case isUnreserved(c) || alwaysEncoded[c] || inQuery && isQueryData(c):
			esc(&e, c)
			d.WriteByte(c)
		default:
			e.WriteByte(c)
			d.WriteByte(c)
		}
	}
	return e.String(), d.String()
}

// slowMatch is the textbook dynamic-programming glob matcher, run over the
// same pieces, to check the fast one against.
func slowMatch(p pattern, path string) bool {
	pat := strings.Join(p.segs, "*") // no piece holds a '*': escape encodes it
	// m[j] reports whether the pattern so far matches path[:j].
	m := make([]bool, len(path)+1)
	m[0] = true
	for i := 0; i < len(pat); i++ {
		next := make([]bool, len(path)+1)
		if pat[i] == '*' {
			seen := false
			for j := range m {
				seen = seen || m[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(path); j++ {
				next[j] = m[j-1] && path[j-1] == pat[i]
			}
		}
		m = next
	}
	if p.anchored {
		return m[len(path)]
	}
	for _, ok := range m {
		if ok {
			return true
		}
	}
	return false
}

// BenchmarkAllowed asks a realistic robots.txt of 200 rules about a mix of
// paths.
func BenchmarkAllowed(b *testing.B) {
	var body strings.Builder
	body.WriteString("User-agent: *\nCrawl-delay: 1\n")
	for i := range 40 {
		fmt.Fprintf(&body, "Disallow: /section%d/private/\n", i)
		fmt.Fprintf(&body, "Allow: /section%d/private/public-*.html$\n", i)
		fmt.Fprintf(&body, "Disallow: /*?sort=%d\n", i)
		fmt.Fprintf(&body, "Disallow: /archive/%d/*.pdf$\n", 2000+i)
		fmt.Fprintf(&body, "Disallow: /search?q=term%d&*\n", i)
	}
	body.WriteString("\nUser-agent: otherbot\nDisallow: /\n")
	r := Parse([]byte(body.String()), token)
	if n := len(r.rules); n != 200 {
		b.Fatalf("%d rules, want 200", n)
	}
	paths := []string{
		"/",
		"/index.html",
		"/section7/private/secret.html",
		"/section7/private/public-page.html",
		"/products/list?page=2&sort=39",
		"/archive/2031/report.pdf",
		"/archive/2031/report.pdf?download=1",
		"/search?q=term12&page=3",
		"/blog/2024/06/a-long-post-title-with-many-words-in-it.html?utm_source=x&utm_medium=y",
		"/caf%C3%A9/men%C3%BC.html",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Allowed(paths[i%len(paths)])
	}
}

// BenchmarkParse parses a robots.txt of 500 KiB.
func BenchmarkParse(b *testing.B) {
	var body bytes.Buffer
	body.WriteString("User-agent: *\n")
	for i := 0; body.Len() < 500<<10; i++ {
		fmt.Fprintf(&body, "Disallow: /dir%d/*.html$ # comment\nAllow: /dir%d/public/\n", i, i)
	}
	b.SetBytes(int64(body.Len()))
	for b.Loop() {
		Parse(body.Bytes(), token)
	}
}

// TestSitemaps: the Sitemap lines are kept in order, in a group or not,
// whoever the groups name, and change no rule.
func TestSitemaps(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
		dropped    int
	}{
		{"none", "User-agent: *\nDisallow: /a\n", nil, 0},
		{"in and out of groups", "Sitemap: http://h/1.xml\nUser-agent: other\nSITEMAP:http://h/2.xml # two\nsitemap:\nUser-agent: *\nDisallow: /a\nSitemap: http://h/3.xml.gz\n",
			[]string{"http://h/1.xml", "http://h/2.xml", "http://h/3.xml.gz"}, 0},
		{"capped", strings.Repeat("Sitemap: http://h/s.xml\n", maxSitemaps+5), slices.Repeat([]string{"http://h/s.xml"}, maxSitemaps), 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.body), "tse-crawler")
			if got, dropped := r.Sitemaps(); !slices.Equal(got, tt.want) || dropped != tt.dropped {
				t.Errorf("Sitemaps() = %q, %d, want %q, %d", got, dropped, tt.want, tt.dropped)
			}
			if strings.Contains(tt.body, "Disallow: /a") && r.Allowed("/a") {
				t.Errorf("/a allowed: a Sitemap line broke the group")
			}
		})
	}
}
