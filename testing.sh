#!/usr/bin/env bash
# testing.sh: regression tests of the crawler binary, after the CS50 testing
# plan. It checks the command's contract (arguments, exit codes, messages)
# and crawls the offline playground through the playground server, comparing
# every page byte for byte with the course's reference crawls.
#
# Usage: bash -v testing.sh > testing.out 2>&1
#
# It needs Go, and ../shared/playground for the reference crawls; without
# them it runs what it can and says what it skipped (under CI=true, a skip
# is a failure). It ends with "N passed, M failed, K skipped" and exits
# non-zero if anything failed. If TESTING_COUNTS names a file, "N M K" is
# written there too, for make test to add to the Go tests' counts.

set -u
case ${TESTING_COUNTS:-} in
'' | /*) ;;
*) TESTING_COUNTS=$PWD/$TESTING_COUNTS ;;
esac
cd "$(dirname "$0")" || exit 2

SHARED=${SHARED:-../shared/playground}
CS50=http://cs50tse.cs.dartmouth.edu/tse

pass=0
fail=0
skipped=()
servers=()
tmp=$(mktemp -d "${TMPDIR:-/tmp}/crawler-testing.XXXXXX") || exit 2

cleanup() {
	for pid in "${servers[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT
trap 'echo "terminated"; exit 143' TERM

ok() {
	pass=$((pass + 1))
	echo "PASS: $*"
}
bad() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}
skip() {
	skipped+=("$*")
	echo "SKIP: $*"
}
# optional: a check that needs a tool the project does not require, such
# as node, which is skipped without it even under CI=true: it is said, and
# not counted as a skip.
optional=()
optional() {
	optional+=("$*")
	echo "SKIP (optional): $*"
}

# finish: say what was skipped, print the counts and exit, non-zero if
# anything failed.
finish() {
	if [ ${#optional[@]} -gt 0 ]; then
		printf 'not run, as optional: %s\n' "${optional[@]}"
	fi
	if [ ${#skipped[@]} -gt 0 ]; then
		printf 'skipped: %s\n' "${skipped[@]}"
		if [ "${CI:-}" = true ]; then
			bad "under CI nothing may be skipped"
		fi
	fi
	if [ -n "${TESTING_COUNTS:-}" ]; then
		echo "$pass $fail ${#skipped[@]}" >"$TESTING_COUNTS"
	fi
	echo "$pass passed, $fail failed, ${#skipped[@]} skipped"
	exit $((fail > 0))
}

# abort MESSAGE: a failure that leaves nothing more to test.
abort() {
	bad "$*"
	finish
}

# show COMMAND...: print a command, then run it. The command's own output
# may be redirected; the line saying what runs goes to the script's stdout.
exec 3>&1
show() {
	{
		printf '+'
		printf ' %q' "$@"
		printf '\n'
	} >&3
	"$@"
}

# newdir: print the path of a new, empty page directory.
newdir() {
	mktemp -d "$tmp/data.XXXXXX"
}

# start_server NAME "[FLAGS] DIR": start the playground over DIR on a free
# port, with its request log in $tmp/NAME.log; set PROXY to its address,
# which is the one line it writes on stdout.
start_server() {
	local name=$1 dir=$2
	echo "+ ./playground -addr 127.0.0.1:0 -log $tmp/$name.log $dir >$tmp/$name.addr &"
	# shellcheck disable=SC2086 # $dir may hold a flag
	./playground -addr 127.0.0.1:0 -log "$tmp/$name.log" $dir >"$tmp/$name.addr" 2>"$tmp/$name.err" &
	local pid=$!
	servers+=("$pid")
	local i
	for i in $(seq 100); do
		[ -s "$tmp/$name.addr" ] || ! kill -0 "$pid" 2>/dev/null && break
		sleep 0.1
	done
	PROXY=$(cat "$tmp/$name.addr")
	if [[ ! $PROXY =~ ^http://127\.0\.0\.1:[0-9]+$ ]]; then
		echo "the playground server did not start: stdout \"$PROXY\", stderr: $(cat "$tmp/$name.err")"
		return 1
	fi
}

# expect_error CODE PHRASE ARGS...: the crawler must exit with CODE, print
# nothing on stdout, say PHRASE on stderr, and leave its directory empty.
expect_error() {
	local want=$1 phrase=$2
	shift 2
	local dir
	dir=$(newdir)
	local args=("${@//DIR/$dir}")
	show env HTTP_PROXY="$PROXY" ./crawler "${args[@]}" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		bad "crawler ${args[*]}: exit $got, want $want: $(cat "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		bad "crawler ${args[*]}: wrote to stdout: $(head -3 "$tmp/out")"
	elif ! grep -q -- "$phrase" "$tmp/err"; then
		bad "crawler ${args[*]}: stderr does not say \"$phrase\": $(cat "$tmp/err")"
	elif [ -n "$(ls -A "$dir")" ]; then
		bad "crawler ${args[*]}: left files behind: $(ls -A "$dir")"
	else
		ok "exit $got: $(head -1 "$tmp/err")"
	fi
}

# page_body SITE URL: print the file the server sends for URL.
page_body() {
	local site=$1 path=${2#http://*/}
	path=${path%%[?#]*} # the query names no file
	path=$(printf '%b' "${path//%/\\x}") # percent-decode, as nginx does
	case $path in '' | */) path+=index.html ;; esac
	cat "$site/$path"
}

# same_page SITE DIR ID URL DEPTH: is DIR/ID exactly URL, DEPTH and the
# site's HTML for URL, each followed by a newline?
same_page() {
	local site=$1 dir=$2 id=$3 url=$4 depth=$5
	[ -f "$dir/$id" ] || return 1
	{
		printf '%s\n%s\n' "$url" "$depth"
		page_body "$site" "$url" || return 1
		printf '\n'
	} | cmp -s - "$dir/$id"
}

# only_pages DIR COUNT: does DIR hold an empty .crawler, pages 1..COUNT and
# nothing else?
only_pages() {
	local dir=$1 count=$2
	[ -f "$dir/.crawler" ] && [ ! -s "$dir/.crawler" ] || return 1
	[ "$(ls -A "$dir" | wc -l)" -eq $((count + 1)) ] || return 1
	[ "$count" -eq 0 ] || [ -f "$dir/$count" ]
}

# crawl_matches NAME SITE: crawl one of the course's reference crawls and
# compare the page directory with it, page by page.
crawl_matches() {
	local name=$1 site=$2
	local seed depth pages
	read -r seed depth pages < <(expected_crawl "$name")
	local dir
	dir=$(newdir)
	if ! show env HTTP_PROXY="$PROXY" ./crawler -q -delay 0 "$seed" "$dir" "$depth" 2>"$tmp/err"; then
		bad "$name: crawler failed: $(cat "$tmp/err")"
		return
	fi
	if matches "$name" "$site" "$dir"; then
		ok "$name: $pages pages, byte-identical to the reference crawl"
	fi
}

# expected_crawl NAME: print the seed, maxDepth and page count of a
# reference crawl.
expected_crawl() {
	awk -F'\t' -v n="$1" '$1 == n {print $2, $3, $4}' "$SHARED/expected/crawls.tsv"
}

# matches NAME SITE DIR: is DIR byte for byte the reference crawl NAME?
# Says why not.
matches() {
	local name=$1 site=$2 dir=$3
	local seed depth pages
	read -r seed depth pages < <(expected_crawl "$name")
	local wrong=0 id d url
	while IFS=$'\t' read -r id d url; do
		case $id in '#'* | '') continue ;; esac
		if ! same_page "$site" "$dir" "$id" "$url" "$d"; then
			wrong=$((wrong + 1))
			[ $wrong -le 5 ] && echo "  page $id differs from the reference's: depth $d $url; got: $(head -2 "$dir/$id" 2>/dev/null | tr '\n' ' ')"
		fi
	done <"$SHARED/expected/$name.tsv"
	if [ $wrong -ne 0 ]; then
		bad "$name: $wrong of $pages pages differ from the reference crawl"
		return 1
	elif ! only_pages "$dir" "$pages"; then
		bad "$name: the page directory holds more than an empty .crawler and $pages pages: $(ls -A "$dir" | head)"
		return 1
	fi
}

# all_whole SITE DIR COUNT: for a crawl with no reference output, check
# that it saved COUNT pages and that each is whole and true to the site.
all_whole() {
	local site=$1 dir=$2 count=$3 id url depth
	only_pages "$dir" "$count" || return 1
	for id in $(seq "$count"); do
		url=$(sed -n 1p "$dir/$id")
		depth=$(sed -n 2p "$dir/$id")
		same_page "$site" "$dir" "$id" "$url" "$depth" || return 1
	done
}

echo "== building"
go build -buildvcs=auto -o crawler ./cmd/crawler && go build -buildvcs=auto -o playground ./cmd/playground || abort "the build failed"

echo "== the playground server"
# The project's own test site stands in for the CS50 playground here and in
# sections 1 and 2, so these run even without ../shared.
start_server own testdata/playground || abort "the playground server did not start"
OWN=$PROXY
if [ "$(wc -l <"$tmp/own.addr")" -eq 1 ] && [ "$(cat "$tmp/own.err")" = "playground: serving testdata/playground on $OWN" ]; then
	ok "playground -addr 127.0.0.1:0: stdout is one line, its URL $OWN, and stderr says what it serves"
else
	bad "playground -addr 127.0.0.1:0: stdout \"$(cat "$tmp/own.addr")\", stderr \"$(cat "$tmp/own.err")\""
fi
port=${OWN##*:}
next=$((port + 1))
[ $next -le 65535 ] || next=8080
show ./playground -addr "127.0.0.1:$port" testdata/playground >"$tmp/out" 2>"$tmp/err"
code=$?
want="playground: cannot listen on 127.0.0.1:$port: address already in use: a server you started before may still be serving there, or give another port, such as -addr 127.0.0.1:$next, or -addr 127.0.0.1:0 for a free one"
if [ $code -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ]; then
	ok "a port in use: exit 1, nothing on stdout, and another port suggested: $want"
else
	bad "a port in use: exit $code, stdout \"$(cat "$tmp/out")\", stderr \"$(cat "$tmp/err")\"; want exit 1 and \"$want\""
fi
for flag in -version --version; do
	if show ./playground $flag >"$tmp/out" 2>&1 && grep -q "^playground [0-9][0-9.]* (go" "$tmp/out"; then
		ok "playground $flag: $(cat "$tmp/out")"
	else
		bad "playground $flag: $(cat "$tmp/out")"
	fi
done

# make build stamps the revision of a git checkout into the binary, but
# go build stamps none in a linked worktree, whose .git is a file
# (golang/go#58218).
if [ -f .git ] && git rev-parse HEAD >/dev/null 2>&1; then
	skip "crawler -version's revision: go build stamps none in a linked git worktree"
elif rev=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	if show ./crawler -version >"$tmp/out" 2>&1 && grep -q "^crawler [0-9][0-9.]* (go[0-9.]*, revision $rev" "$tmp/out"; then
		ok "crawler -version names this checkout's revision: $(cat "$tmp/out")"
	else
		bad "crawler -version: \"$(cat "$tmp/out")\", want the revision $rev"
	fi
else
	skip "crawler -version's revision: this is not a git checkout"
fi

echo "== 1. bad arguments"
zoo=$CS50/zoo/index.html
echo "not a directory" >"$tmp/file"
mkdir "$tmp/full" && echo "an old page" >"$tmp/full/1"
expect_error 2 "expected 3 arguments"
expect_error 2 "got 1" "$zoo"
expect_error 2 "got 2" "$zoo" DIR
expect_error 2 "got 4" "$zoo" DIR 2 extra
expect_error 2 "must come before" "$zoo" DIR 2 -q
expect_error 2 "flag provided but not defined" -fast "$zoo" DIR 2
expect_error 2 "invalid value" -delay soon "$zoo" DIR 2
expect_error 2 "negative" -delay -1s "$zoo" DIR 2
expect_error 2 "use auto, reference or html" -links regex "$zoo" DIR 2
expect_error 2 "use lifo, bfs or priority" -order random "$zoo" DIR 2
expect_error 3 "cannot be normalized" "" DIR 2
expect_error 3 "cannot be normalized" zoo/index.html DIR 2
expect_error 3 "cannot be normalized" http://cs50tse.cs.dartmouth.edu DIR 2
expect_error 3 "cannot be normalized" "$CS50/zoo/map.pdf" DIR 2
expect_error 3 "is outside the crawl" http://www.example.com/index.html DIR 2
expect_error 3 "not internal" https://cs50tse.cs.dartmouth.edu/tse/ DIR 2
expect_error 3 "is outside the crawl" http://cs50tse.cs.dartmouth.edu:80/tse/ DIR 2
expect_error 4 "does not exist" "$zoo" "$tmp/no/such/dir" 2
expect_error 4 "not a directory" "$zoo" "$tmp/file" 2
expect_error 4 "is in the way" "$zoo" "$tmp/full" 2
expect_error 5 "not an integer" "$zoo" DIR 1.5
expect_error 5 "not an integer" "$zoo" DIR 2x
expect_error 5 "from 0 to 10" "$zoo" DIR -1
expect_error 5 "from 0 to 10" "$zoo" DIR 11
expect_error 5 "not an integer" "$zoo" DIR ""
expect_error 2 "at most" -retries 1000000 "$zoo" DIR 2
expect_error 2 "-stats-json" -stats-json "$tmp/no/such/dir/stats.json" "$zoo" DIR 2
PROXY='http://[::1' expect_error 2 "is not a proxy URL" "$zoo" DIR 2
# A .crawler that is a symbolic link is never written through, even when it
# points at a file that does not exist yet.
dir=$(newdir)
echo "precious" >"$tmp/precious"
ln -s "$tmp/precious" "$dir/.crawler"
ln -s "$tmp/created-through-a-link" "$tmp/dangling"
show env HTTP_PROXY="$OWN" ./crawler -delay 0 "$zoo" "$dir" 2 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ $code -eq 4 ] && [ "$(cat "$tmp/precious")" = precious ] && [ "$(ls -A "$dir")" = .crawler ]; then
	ok "a symlinked .crawler: exit 4, its target untouched: $(head -1 "$tmp/err")"
else
	bad "a symlinked .crawler: exit $code, target now \"$(cat "$tmp/precious")\": $(cat "$tmp/err")"
fi
dir=$(newdir)
mv "$tmp/dangling" "$dir/.crawler"
show env HTTP_PROXY="$OWN" ./crawler -delay 0 "$zoo" "$dir" 2 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ $code -eq 4 ] && [ ! -e "$tmp/created-through-a-link" ]; then
	ok "a dangling symlinked .crawler: exit 4, nothing created: $(head -1 "$tmp/err")"
else
	bad "a dangling symlinked .crawler: exit $code: $(cat "$tmp/err")"
fi
if [ "$(./crawler -h | wc -l)" -le 60 ] && ./crawler -h | grep -q -- "-help-all" && ./crawler -help-all | grep -q "Exit status"; then
	ok "crawler -h: a usage of at most 60 lines; -help-all: the manual, with the exit codes"
else
	bad "crawler -h: $(./crawler -h | wc -l) lines"
fi
if [ "$(cat "$tmp/full/1")" = "an old page" ]; then ok "an existing page was left alone"; else bad "an existing page was overwritten"; fi

echo "== 2. seeds that cannot be crawled"
dir=$(newdir)
show env HTTP_PROXY="$OWN" ./crawler -delay 0 "$CS50/zoo/missing.html" "$dir" 2 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ $code -eq 6 ] && grep -q "404" "$tmp/err" && [ "$(ls -A "$dir")" = .crawler ]; then
	ok "a missing seed page: exit 6, only .crawler left: $(cat "$tmp/err")"
else
	bad "a missing seed page: exit $code, $(ls -A "$dir"), $(cat "$tmp/err")"
fi
dir=$(newdir)
# A proxy address on which nothing listens stands for a network that is
# down; nothing here may reach the internet. That is no verdict on the seed:
# the crawl stops, resumable, and logs nothing as FAILED.
show env HTTP_PROXY=http://127.0.0.1:9 ./crawler -delay 0 "$zoo" "$dir" 2 >"$tmp/out" 2>"$tmp/err"
code=$?
if [ $code -eq 8 ] && grep -q "refused" "$tmp/err" && grep -q "127.0.0.1:9" "$tmp/err" && grep -q -- "-resume" "$tmp/err" &&
	[ "$(ls -A "$dir")" = .crawler ] && ! grep -q FAILED "$tmp/out"; then
	ok "a proxy that does not answer: exit 8, nothing FAILED: $(grep -v "^crawler: warning: " "$tmp/err" | head -1)"
else
	bad "a proxy that does not answer: exit $code, $(cat "$tmp/out" "$tmp/err")"
fi
# zoo at depth 2 is 8 pages.
if show env HTTP_PROXY="$OWN" ./crawler -q -delay 0 -resume "$zoo" "$dir" 2 2>"$tmp/err" && all_whole testdata/playground "$dir" 8; then
	ok "once the proxy answers, -resume finishes that crawl"
else
	bad "-resume after the outage: $(cat "$tmp/err")"
fi
# Two crawlers in one directory: a -resume started while the crawl runs,
# as a script could, is refused at once and changes nothing; the crawl,
# killed with SIGKILL, leaves no lock, and -resume then finishes it.
dir=$(newdir)
echo "+ env HTTP_PROXY=$OWN ./crawler -q -delay 300ms $zoo $dir 2 &   # then -resume in $dir, once page 1 is saved"
HTTP_PROXY=$OWN ./crawler -q -delay 300ms "$zoo" "$dir" 2 2>/dev/null &
pid=$!
until [ -f "$dir/1" ] || ! kill -0 $pid 2>/dev/null; do sleep 0.05; done
show env HTTP_PROXY="$OWN" ./crawler -q -delay 0 -resume "$zoo" "$dir" 2 >"$tmp/out" 2>"$tmp/err"
code=$?
kill -KILL $pid 2>/dev/null
running=$? # so the crawl still ran when the -resume was refused
wait $pid 2>/dev/null
if [ $code -eq 10 ] && [ $running -eq 0 ] && [ ! -s "$tmp/out" ] &&
	grep -qF "pageDirectory $dir is in use by another crawler (process $pid): wait for it to end, or stop it (kill $pid)" "$tmp/err"; then
	ok "a -resume while the crawl runs: exit 10: $(cat "$tmp/err")"
else
	bad "a -resume while the crawl runs: exit $code: $(cat "$tmp/err")"
fi
if show env HTTP_PROXY="$OWN" ./crawler -q -delay 0 -resume "$zoo" "$dir" 2 2>"$tmp/err" && all_whole testdata/playground "$dir" 8; then
	ok "once that crawl is killed with SIGKILL, -resume finishes it"
else
	bad "-resume after SIGKILL: $(cat "$tmp/err")"
fi
PROXY=$OWN expect_error 3 "is outside the crawl" http://www.example.com/tse/index.html DIR 2

echo "== the project's own sites"
dir=$(newdir)
if show env HTTP_PROXY="$OWN" ./crawler -delay 0 "$zoo" "$dir" 10 >"$tmp/zoo.out" 2>"$tmp/err" &&
	all_whole testdata/playground "$dir" 10 && grep -q "FAILED: $CS50/zoo/yak.html" "$tmp/zoo.out"; then
	ok "zoo at depth 10: 10 whole pages, and the missing yak logged as FAILED"
else
	bad "zoo at depth 10: $(ls "$dir" | wc -l) files; $(cat "$tmp/err")"
fi
if grep -q "IgnRobots: $CS50/zoo/office.html" "$tmp/zoo.out" && ! grep -q "zoo/office.html" "$tmp/own.log"; then
	ok "zoo: robots.txt keeps the crawler out of the office, which is never requested"
else
	bad "zoo: the office page, disallowed by robots.txt, was not logged IgnRobots or was requested"
fi
dir=$(newdir)
if show env HTTP_PROXY="$OWN" ./crawler -delay 0 "$CS50/syntax/other" "$dir" 0 >"$tmp/out" 2>"$tmp/err" &&
	grep -q "Redirect: $CS50/syntax/other$" "$tmp/out" && [ "$(sed -n 1p "$dir/1")" = "$CS50/syntax/other/" ]; then
	ok "a seed that redirects (301 to other/) is saved under its target's URL"
else
	bad "a redirecting seed: $(cat "$tmp/out" "$tmp/err")"
fi
for links in reference html; do
	dir=$(newdir)
	if show env HTTP_PROXY="$OWN" ./crawler -q -delay 0 -links $links "$CS50/syntax/index.html" "$dir" 1 2>/dev/null &&
		all_whole testdata/playground "$dir" "$(ls "$dir" | wc -l)"; then
		ok "syntax with -links $links: $(ls "$dir" | wc -l) whole pages"
	else
		bad "syntax with -links $links"
	fi
done

echo "== README's site of your own, its commands run as printed"
# readme_block HEADING [N]: print the lines of the Nth sh block, the
# first by default, after the README heading HEADING.
readme_block() {
	awk -v h="$1" -v n="${2:-1}" '$0 == h { in_section = 1; next }
		in_section && /^```sh$/ { if (++k == n) in_block = 1; next }
		in_block && /^```$/ { exit }
		in_block { print }' README.md
}
# Its first block starts the server, and its second crawls.
mapfile -t own < <(readme_block "## Crawling a site of your own" 1; readme_block "## Crawling a site of your own" 2)
mapfile -t check < <(readme_block "## Checking a site's links")
mapfile -t folder < <(readme_block "## Checking a site's links" 2)
mapfile -t archive < <(readme_block "## Keeping a crawl as a web archive")
mapfile -t rearchive < <(readme_block "## Keeping a crawl as a web archive" 2)
# They run in a directory of their own, which holds what a fresh clone
# holds once make has run, so that they write nothing in this checkout
# (data/mine, playground.log) and touch no crawl of the user's there.
if [ ${#own[@]} -ne 2 ] || [[ ${own[0]} != *' &' ]]; then
	bad "README's own site: want a command that serves, ending in &, and one that crawls; got: ${own[*]}"
elif (exec 4<>/dev/tcp/127.0.0.1/8765) 2>/dev/null; then
	skip "README's own site: something already listens on 127.0.0.1:8765, the port its commands use"
else
	here=$PWD fresh=$tmp/fresh
	mkdir "$fresh" && ln -s "$here/crawler" "$here/playground" "$here/testdata" "$fresh/"
	echo "+ cd $fresh"
	cd "$fresh" || abort "cd $fresh"
	echo "+ ${own[0]}"
	eval "${own[0]}" >"$tmp/own-site.addr" 2>"$tmp/own-site.err"
	servers+=("$!")
	own_server=$!
	for i in $(seq 100); do
		grep -q "^playground: serving" "$tmp/own-site.err" || ! kill -0 $own_server 2>/dev/null && break
		sleep 0.1
	done
	if ! kill -0 $own_server 2>/dev/null || ! grep -qx "playground: serving testdata/playground on http://127.0.0.1:8765" "$tmp/own-site.err"; then
		bad "README's own site: the server did not start: $(cat "$tmp/own-site.err")"
	else
		# README's chain, each block as printed, twice: each run makes
		# directories of its own.
		for run in 1 2; do
			echo "+ ${own[1]}"
			dir=
			eval "${own[1]}" >"$tmp/own-site.out" 2>"$tmp/own-site.crawl.err"
			code=$?
			# zoo at depth 2 is 7 pages here: eel.html is linked by its
			# absolute CS50 URL, which this -scope leaves out.
			if [ $code -eq 0 ] && [ -n "$dir" ] && all_whole "$here/testdata/playground" "$dir" 7 && grep -q "Fetched: http://127.0.0.1:8765/tse/zoo/index.html" "$tmp/own-site.out" &&
				grep -q "GET http://127.0.0.1:8765/robots.txt" playground.log; then
				ok "README's own site, run $run: served on 127.0.0.1:8765 and crawled, 7 whole pages in $dir"
			else
				bad "README's own site, run $run: exit $code, $(ls "$dir" 2>&1 | wc -l) files: $(cat "$tmp/own-site.crawl.err")"
			fi
			echo "+ ${archive[0]}"
			dir=
			eval "${archive[0]}" >"$tmp/archive.out" 2>"$tmp/archive.err"
			code=$?
			if [ ${#archive[@]} -eq 1 ] && [ $code -eq 0 ] && [ -n "$dir" ] && all_whole "$here/testdata/playground" "$dir" 7 &&
				[ "$(cat "$tmp/archive.out")" = "9" ]; then
				ok "README's archive, run $run: 7 whole pages in $dir, and $dir.warc.gz read back"
			else
				bad "README's archive, run $run: exit $code: $(cat "$tmp/archive.out" "$tmp/archive.err")"
			fi
			# The archive again, -since the first: the same pages, each
			# a revisit.
			echo "+ ${rearchive[0]}"
			again=
			eval "${rearchive[0]}" >"$tmp/again.out" 2>"$tmp/again.err"
			code=$?
			if [ ${#rearchive[@]} -eq 1 ] && [ $code -eq 0 ] && [ -n "$again" ] && diff -r "$dir" "$again" >/dev/null &&
				[ "$(gzip -dc "$again.warc.gz" | grep -ac '^WARC-Type: revisit')" = 7 ]; then
				ok "README's archive again -since, run $run: the pages of $dir, each recorded as a revisit"
			else
				bad "README's archive again -since, run $run: exit $code: $(cat "$tmp/again.out" "$tmp/again.err")"
			fi
		done
		# Twice: the same command gives the same report, and exits 9.
		for run in 1 2; do
			echo "+ ${check[0]}"
			eval "${check[0]}" >"$tmp/links$run.out" 2>"$tmp/links$run.err"
			codes[$run]=$?
		done
		site="http://127.0.0.1:8765/tse/town"
		if [ ${#check[@]} -eq 1 ] && [ "${codes[1]}" -eq 9 ] && [ "${codes[2]}" -eq 9 ] && cmp -s "$tmp/links1.out" "$tmp/links2.out" &&
			grep -qxF "$site/parking.html: 404 (page, 2 links)" "$tmp/links1.out" &&
			grep -qxF "  $site/index.html:14:5" "$tmp/links1.out" &&
			grep -qxF "$site/images/crest.png: 404 (requisite, 1 link)" "$tmp/links1.out" &&
			grep -qxF "$site/images/banner.png: 404 (requisite, 1 link)" "$tmp/links1.out" &&
			grep -qxF "$site/style/print.css: 404 (requisite, 1 link)" "$tmp/links1.out" &&
			grep -qxF "$site/forms/brochure.pdf: 404 (page, 1 link)" "$tmp/links1.out" &&
			grep -qxF "$site/news.html#snow: missing-fragment (fragment, 1 link)" "$tmp/links1.out" &&
			grep -qxF "http://localhost:8765/tse/state/hanover.html: 404 (external, 2 links)" "$tmp/links1.out" &&
			grep -qxF "http://127.0.0.1:9: host-unreachable (external, 1 link)" "$tmp/links1.out" &&
			grep -qxF "  $site/services.html:17:5 -> http://127.0.0.1:9/library/" "$tmp/links1.out" &&
			grep -qxF "http://127.0.0.1:8765/tse/zoo/office.html: robots (page, 1 link)" "$tmp/links1.out" &&
			! grep -q "permit.pdf: \|#hours: \|#weather: \|town.css: " "$tmp/links1.out"; then
			ok "README's link check: every kind of broken link, where each is, exit 9, the same report twice"
		else
			bad "README's link check: exit ${codes[1]} and ${codes[2]}: $(cat "$tmp/links1.out" "$tmp/links1.err")"
		fi
		# The folder check, with no server: the town's files by their
		# paths in the folder.
		echo "+ ${folder[0]}"
		eval "${folder[0]}" >"$tmp/folder.out" 2>"$tmp/folder.err"
		code=$?
		if [ ${#folder[@]} -eq 1 ] && [ $code -eq 9 ] && grep -qxF "parking.html: 404 (page, 2 links)" "$tmp/folder.out" &&
			grep -qxF "  index.html:14:5" "$tmp/folder.out" && grep -qxF "news.html#snow: missing-fragment (fragment, 1 link)" "$tmp/folder.out"; then
			ok "README's folder check: the town's broken links by their paths in the folder, exit 9"
		else
			bad "README's folder check: exit $code: $(cat "$tmp/folder.out" "$tmp/folder.err")"
		fi
		# -h's examples for the same server, each pasted twice: the
		# crawls exit 0 and the link check 9, its broken links.
		mapfile -t examples < <(./crawler -h | awk '/^Examples:/ { e = 1; next } e && /^    .*127\.0\.0\.1:8765/ { sub(/^    /, ""); print }')
		codes=()
		for line in "${examples[@]}"; do
			for run in 1 2; do
				echo "+ $line"
				dir=
				eval "$line" >"$tmp/example.out" 2>"$tmp/example.err"
				codes+=($?)
			done
		done
		if [ ${#examples[@]} -eq 3 ] && [ "${codes[*]}" = "0 0 0 0 9 9" ]; then
			ok "crawler -h's examples of your own site, an archive and a link check, each pasted twice: exits ${codes[*]}"
		else
			bad "crawler -h's examples: ${#examples[@]} of them, exits ${codes[*]}, want 3 and 0 0 0 0 9 9: $(cat "$tmp/example.err")"
		fi
	fi
	kill $own_server 2>/dev/null && wait $own_server 2>/dev/null
	# What the recipes wrote, in a checkout, is what git must ignore, so
	# that -version does not call the checkout modified.
	mapfile -t wrote < <(find . -type f | sed 's|^\./||')
	if ! git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
		skip "README's recipes' files: $here is not a git checkout"
	elif [ ${#wrote[@]} -gt 0 ] && unignored=$(for f in "${wrote[@]}"; do git -C "$here" check-ignore -q --no-index "$f" || echo "$f"; done) && [ -z "$unignored" ]; then
		ok "README's recipes' files: git ignores all ${#wrote[@]} of them"
	else
		bad "README's recipes' files: git does not ignore: ${unignored:-(none written)}"
	fi
	cd "$here" || abort "cd $here"
fi

echo "== other sites: the university of testdata/vhosts, crawled as seed 004's crawler did"
start_server vhosts "-vhosts testdata/vhosts" || abort "the playground server did not start"
dir=$(newdir)
if show env HTTP_PROXY="$PROXY" ./crawler -delay 0 -scope 'http://*.example.edu/' -order priority \
	-links-from '<!-- CONTENT -->' -links-until '<!-- /CONTENT -->' -stats \
	http://www.example.edu/index.html "$dir" 10 >"$tmp/uni.out" 2>"$tmp/uni.err"; then
	order=$(for f in $(seq 14); do printf '%s:%s ' "$(sed -n 2p "$dir/$f" 2>/dev/null)" "$(sed -n 1p "$dir/$f" 2>/dev/null | sed 's|http://||; s|\.example\.edu/|/|')"; done)
	want="0:www/index.html 1:ir/00300.html 2:staff/00400.html 2:ir/00310.html 3:staff/00310.html 1:www/00200.html 2:www/00210.html 1:www/00100.html 2:www/00110.html 3:www/00120.html 1:www/00050.html 2:www/00055.html 3:staff/notes.html 4:staff/00020.html "
	if [ "$order" = "$want" ] && only_pages "$dir" 14; then
		ok "the university: 14 pages in priority order, at the right depths"
	else
		bad "the university: visited $order; want $want"
	fi
	if grep -q "14 fetched, 14 saved, 0 failed, 0 redirected" "$tmp/uni.err" &&
		grep -q "21 found, 14 added; ignored: 3 external, 4 duplicate, 1 disallowed by robots.txt" "$tmp/uni.err" &&
		grep -q "requests:  17," "$tmp/uni.err" && grep -q "IgnRobots: http://www.example.edu/private/00900.html" "$tmp/uni.out"; then
		ok "the university: the statistics add up: $(grep -c . "$tmp/uni.err") lines on stderr"
	else
		bad "the university: statistics: $(cat "$tmp/uni.err")"
	fi
	if ! grep -q -E "09999|08888|05000" "$tmp/vhosts.log"; then
		ok "the university: no link outside a content region was followed"
	else
		bad "the university: a link outside a content region was followed: $(grep -E "09999|08888|05000" "$tmp/vhosts.log")"
	fi
	if awk '$6 ~ /www.example.edu/ { if (n++ && $1 - end < 0.2) bad = 1; end = $1 + $3 } END { exit bad }' "$tmp/vhosts.log"; then
		ok "the university: www's Request-rate of 5/1 was kept: 200ms between its requests"
	else
		bad "the university: www's requests came closer than its Request-rate allows"
	fi
	uni=$dir
	dir=$(newdir)
	if show env HTTP_PROXY="$PROXY" ./crawler -parallel 1 -delay 0 -scope 'http://*.example.edu/' -order priority \
		-links-from '<!-- CONTENT -->' -links-until '<!-- /CONTENT -->' \
		http://www.example.edu/index.html "$dir" 10 >"$tmp/uni1.out" 2>"$tmp/uni1.err" &&
		diff -r "$uni" "$dir" >/dev/null && cmp -s "$tmp/uni.out" "$tmp/uni1.out"; then
		ok "the university: three hosts at once (the default -parallel 4) save and log what one page at a time does"
	else
		bad "the university: -parallel 1 differs from -parallel 4: $(cat "$tmp/uni1.err")"
	fi
else
	bad "the university: $(cat "$tmp/uni.err")"
fi

echo "== several hosts at once: a synthetic site on four hosts, with a pause of 20ms each"
start_server hosts "-synthetic 300 -hosts 4" || abort "the playground server did not start"
dirs=() took=()
for n in 1 4; do
	dir=$(newdir)
	start=$(date +%s.%N)
	if ! show env HTTP_PROXY="$PROXY" ./crawler -q -delay 20ms -parallel $n -scope 'http://*.synth.test/' \
		http://h0.synth.test/tse/synth/0.html "$dir" 10 2>"$tmp/hosts$n.err"; then
		bad "four hosts, -parallel $n: $(cat "$tmp/hosts$n.err")"
	fi
	took+=("$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')")
	dirs+=("$dir")
done
if diff -r "${dirs[0]}" "${dirs[1]}" >/dev/null && [ "$(ls "${dirs[1]}" | wc -l)" -gt 250 ]; then
	ok "four hosts: -parallel 4 saves what -parallel 1 does, $(ls "${dirs[1]}" | wc -l) pages, in ${took[1]} s against ${took[0]} s"
else
	bad "four hosts: -parallel 4 and -parallel 1 differ"
fi

if [ ! -f "$SHARED/cs50tse-site.tar.gz" ]; then
	skip "3. letters, 4. toscrape, 5. wikipedia, 6. politeness and 7. interrupted and resumed: no shared playground at $SHARED; put the shared folder beside the project"
else
	echo "== unpacking the playground"
	mkdir "$tmp/site" && show tar -xzf "$SHARED/cs50tse-site.tar.gz" -C "$tmp/site" || abort "cannot unpack $SHARED/cs50tse-site.tar.gz"
	start_server shared "$tmp/site" || abort "the playground server did not start"

	echo "== 3. letters"
	for name in letters-depth-0 letters-depth-1 letters-depth-2 letters-10; do
		crawl_matches "$name" "$tmp/site"
	done
	dir=$(newdir)
	show env HTTP_PROXY="$PROXY" ./crawler -delay 0 "$CS50/letters/index.html" "$dir" 10 >"$tmp/letters.log" 2>"$tmp/err"
	if cmp -s "$tmp/letters.log" "$SHARED/expected/letters-10.log"; then
		ok "letters-10: the log is the reference's, line for line"
	else
		bad "letters-10: the log differs from the reference's: $(diff "$tmp/letters.log" "$SHARED/expected/letters-10.log" | head -5)"
	fi
	# A second seed: the directory URL, which the seen-set tells apart from
	# index.html, so the crawl holds both and has 10 pages.
	dir=$(newdir)
	if show env HTTP_PROXY="$PROXY" ./crawler -q -delay 0 "$CS50/letters/" "$dir" 10 2>"$tmp/err" &&
		all_whole "$tmp/site" "$dir" 10; then
		ok "letters from a second seed, $CS50/letters/: 10 whole pages"
	else
		bad "letters from $CS50/letters/: $(ls -A "$dir" | wc -l) files; $(cat "$tmp/err")"
	fi
	dir=$(newdir)
	if show env HTTP_PROXY="$PROXY" ./crawler -q -delay 0 "$CS50/letters/E.html" "$dir" 2 2>"$tmp/err" &&
		[ "$(sed -n 1p "$dir/1")" = "$CS50/letters/E.html" ] && all_whole "$tmp/site" "$dir" "$(ls "$dir" | wc -l)"; then
		ok "letters from a third seed, E.html at depth 2: $(ls "$dir" | wc -l) whole pages"
	else
		bad "letters from E.html: $(cat "$tmp/err")"
	fi

	echo "== 4. toscrape"
	for name in toscrape-depth-0 toscrape-depth-1 toscrape-depth-2; do
		crawl_matches "$name" "$tmp/site"
	done

	echo "== 5. wikipedia"
	for name in wikipedia-depth-0 wikipedia-depth-1 wikipedia-depth-2; do
		crawl_matches "$name" "$tmp/site"
	done

	echo "== 6. politeness: letters at depth 2 with the default pause"
	: >"$tmp/shared.log"
	dir=$(newdir)
	show env HTTP_PROXY="$PROXY" ./crawler -q "$CS50/letters/index.html" "$dir" 2 2>"$tmp/err"
	# Each log line starts with the request's start in Unix seconds and,
	# third, how long it took; a request may start only a second after the
	# previous one ended. robots.txt comes first, and counts.
	if awk '{ start = $1; took = $3 + 0
	          if (NR > 1 && start - end < 1.0) { printf "requests %d and %d are %.3fs apart\n", NR - 1, NR, start - end; bad = 1 }
	          end = start + took }
	        END { exit bad || NR != 4 }' "$tmp/shared.log" && grep -q "^[^ ]* [^ ]* [^ ]* 404 GET http://cs50tse.cs.dartmouth.edu/robots.txt" "$tmp/shared.log"; then
		ok "robots.txt and 3 pages, each request at least 1s after the previous one ended"
	else
		bad "the server saw requests closer than 1s, or not robots.txt and 3 pages: $(cat "$tmp/shared.log")"
	fi

	echo "== 7. interrupted and resumed: wikipedia at depth 2"
	read -r seed depth pages < <(expected_crawl wikipedia-depth-2)
	dir=$(newdir)
	echo "+ env HTTP_PROXY=$PROXY ./crawler -q -delay 1ms $seed $dir $depth &   # then SIGTERM once 300 pages are saved"
	HTTP_PROXY=$PROXY ./crawler -q -delay 1ms "$seed" "$dir" "$depth" 2>"$tmp/err" &
	pid=$!
	until [ -f "$dir/300" ] || ! kill -0 $pid 2>/dev/null; do sleep 0.05; done
	kill -TERM $pid 2>/dev/null
	wait $pid
	code=$?
	if [ $code -eq 143 ] && grep -q "crawler .*-resume " "$tmp/err"; then
		ok "SIGTERM after $(ls "$dir" | wc -l) pages: exit 143, and the way to resume: $(tail -1 "$tmp/err")"
	else
		bad "SIGTERM: exit $code: $(cat "$tmp/err")"
	fi
	if show env HTTP_PROXY="$PROXY" ./crawler -q -resume -delay 0 "$seed" "$dir" "$depth" 2>"$tmp/err" &&
		matches wikipedia-depth-2 "$tmp/site" "$dir"; then
		ok "-resume finished it: byte-identical to the reference crawl"
	else
		bad "-resume: $(grep -v 404 "$tmp/err")"
	fi
fi

echo "== make install and uninstall"
# Into a staging root, as a packager runs it. Nothing may be written outside
# DESTDIR: not to PREFIX, checked with a PREFIX no one has made, and not to
# /usr, checked by the time of the files there.
if command -v make >/dev/null; then
	root=$tmp/root
	installed="usr/bin/crawler 755
usr/bin/playground 755
usr/share/man/man1/crawler.1 644"
	touch "$tmp/before-install"
	if show make -s install DESTDIR="$root" PREFIX=/usr >"$tmp/install.out" 2>&1; then
		got=$(cd "$root" && find . -type f | sort | xargs stat -c '%n %a' | sed 's|^\./||')
		if [ "$got" = "$installed" ] && cmp -s "$root/usr/share/man/man1/crawler.1" cmd/crawler/crawler.1; then
			ok "make install DESTDIR=… PREFIX=/usr: $(echo $got)"
		else
			bad "make install DESTDIR=… PREFIX=/usr installed: $(echo $got); want $(echo $installed)"
		fi
		if show "$root/usr/bin/crawler" -help-all >"$tmp/out" 2>&1 && grep -q "Exit status" "$tmp/out" &&
			"$root/usr/bin/playground" -version >/dev/null; then
			ok "the installed crawler runs: -help-all exits 0 with the manual"
		else
			bad "the installed crawler -help-all: $(head -3 "$tmp/out")"
		fi
		newer=
		for f in /usr/bin/crawler /usr/bin/playground /usr/share/man/man1/crawler.1; do
			[ "$f" -nt "$tmp/before-install" ] && newer+=" $f"
		done
		if show make -s install DESTDIR="$tmp/root2" PREFIX="$tmp/prefix" >"$tmp/install.out" 2>&1 &&
			[ ! -e "$tmp/prefix" ] && [ -x "$tmp/root2$tmp/prefix/bin/crawler" ] && [ -z "$newer" ]; then
			ok "make install wrote nothing outside DESTDIR"
		else
			bad "make install wrote outside DESTDIR:$newer $(ls -d "$tmp/prefix" 2>/dev/null) $(cat "$tmp/install.out")"
		fi
		if show make -s uninstall DESTDIR="$root" PREFIX=/usr >"$tmp/install.out" 2>&1 && [ -z "$(find "$root" -type f)" ]; then
			ok "make uninstall removed the three files"
		else
			bad "make uninstall left: $(find "$root" -type f) $(cat "$tmp/install.out")"
		fi
	else
		bad "make install DESTDIR=… PREFIX=/usr: $(cat "$tmp/install.out")"
	fi
else
	skip "make install (no make)"
fi

echo "== -warc, read back by warcio"
# warccheck FILE: index FILE with warcio, the webrecorder project's
# reader, and check what it found: a warcinfo record first, each request
# paired with the response after it, records end to end up to the file's
# end, and no other type. warcio exits 0 even on garbage, hence the
# checks. It prints how many responses there are.
warccheck() {
	npx -y warcio@2.4.11 index "$1" \
		--fields warc-type,warc-record-id,warc-concurrent-to,http:status,offset,length 2>/dev/null |
	node -e '
const fs = require("fs");
const file = process.argv[1];
const gz = file.endsWith(".gz"), size = fs.statSync(file).size;
const recs = fs.readFileSync(0, "utf8").split("\n").filter(Boolean).map(JSON.parse);
const bad = [];
let end = 0, responses = 0, ok = 0;
recs.forEach((r, i) => {
	if (r.offset !== end) bad.push(`record ${i} at byte ${r.offset}, not ${end}`);
	end = r.offset + r.length + (gz ? 0 : 4);
	const t = r["warc-type"], next = recs[i + 1] || {};
	if (i === 0 && t !== "warcinfo") bad.push("no warcinfo record first");
	if (t === "request" && (next["warc-type"] !== "response" ||
	    r["warc-concurrent-to"] !== next["warc-record-id"] || next["warc-concurrent-to"] !== r["warc-record-id"]))
		bad.push(`request ${i} is not paired with the response after it`);
	if (t === "response") { responses++; if (String(r["http:status"]) === "200") ok++; }
	if (!["warcinfo", "request", "response"].includes(t)) bad.push(`record ${i} has type ${t}`);
});
if (recs.length === 0) bad.push("warcio read no record");
if (end !== size) bad.push(`the records end at byte ${end}, the file at ${size}`);
if (bad.length) { console.error(bad.join("\n")); process.exit(1); }
console.log(responses, ok);
' "$1"
}
dir=$(newdir)
warc=$tmp/zoo.warc.gz
if show env HTTP_PROXY="$OWN" ./crawler -q -delay 0 -warc "$warc" "$zoo" "$dir" 3 2>"$tmp/err"; then
	ok "-warc crawled the zoo into $(basename "$warc")"
	pages=$(find "$dir" -type f ! -name .crawler | wc -l)
	if ! command -v npx >/dev/null || ! command -v node >/dev/null; then
		optional "-warc read back by warcio (no node; the Go tests read it back too)"
	elif ! npx -y warcio@2.4.11 --help >/dev/null 2>&1; then
		optional "-warc read back by warcio (npm could not fetch warcio@2.4.11)"
	elif counts=$(warccheck "$warc" 2>"$tmp/warcerr"); then
		# Robots.txt's 200 is the one response 200 that is no page here.
		if [ "${counts#* }" -eq $((pages + 1)) ]; then
			ok "warcio reads $warc whole: ${counts% *} responses, a 200 for each of the $pages pages and robots.txt"
		else
			bad "warcio finds ${counts#* } responses 200 in $warc, for $pages pages and robots.txt"
		fi
	else
		bad "warcio and the checks on its index: $(cat "$tmp/warcerr")"
	fi
else
	bad "-warc: $(cat "$tmp/err")"
fi

echo "== -warc archives the site as it looked: the museum's pages and requisites, read back by warcio"
# testdata/requisites-crawl: three pages on www.example.net that need every
# kind of requisite there and on cdn.example.net, whose robots.txt, like
# www's, disallows one. Every file of the site but those two must have
# exactly one response 200 in the archive, and the page directory must be
# that of the same crawl without -warc.
start_server museum "-vhosts testdata/requisites-crawl" || abort "the playground server did not start"
museum() {
	show env HTTP_PROXY="$PROXY" ./crawler -q -delay 0 -scope http://www.example.net/ "$@" http://www.example.net/index.html "$dir" 2
}
dir=$(newdir)
warc=$tmp/museum.warc.gz
if museum -warc "$warc" 2>"$tmp/err"; then
	archived=$dir
	dir=$(newdir)
	if museum 2>"$tmp/err" && diff -r "$archived" "$dir" >"$tmp/diff"; then
		ok "-warc crawled the museum with its requisites, and saved the pages the crawl without -warc saves, byte for byte"
	else
		bad "the museum with -warc and without differ: $(head -5 "$tmp/diff") $(cat "$tmp/err")"
	fi
	want=$(cd testdata/requisites-crawl && find www.example.net cdn.example.net -type f ! -path '*/private/*' ! -path '*/blocked/*' |
		sed 's|^www.example.net/exhibit/index.html$|www.example.net/exhibit/|; s|^|http://|' | sort)
	if ! command -v npx >/dev/null || ! command -v node >/dev/null; then
		optional "the museum's archive read back by warcio (no node; the Go tests read it back too)"
	elif ! npx -y warcio@2.4.11 --help >/dev/null 2>&1; then
		optional "the museum's archive read back by warcio (npm could not fetch warcio@2.4.11)"
	elif counts=$(warccheck "$warc" 2>"$tmp/warcerr") &&
		got=$(npx -y warcio@2.4.11 cdx-index "$warc" 2>"$tmp/warcerr" | node -e '
for (const line of require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean)) {
	const r = JSON.parse(line.slice(line.indexOf("{")));
	if (r.status === "200") console.log(r.url);
}' | sort); then
		if [ "$got" = "$want" ]; then
			ok "warcio's cdx-index of the museum: one response 200 for each of its $(echo "$want" | wc -l) pages, requisites and robots.txt files, of ${counts% *} responses"
		else
			bad "warcio's cdx-index of the museum: the responses 200 differ from the site's files: $(diff <(echo "$want") <(echo "$got") | head -10)"
		fi
	else
		bad "warcio and the checks on its index of the museum: $(cat "$tmp/warcerr")"
	fi
else
	bad "-warc of the museum: $(cat "$tmp/err")"
fi

echo "== make demo leaves data/ alone"
# data/ is where README's examples put their crawls, so the demo must not
# touch it. A marker file of this run's own stands for a user's crawl.
made_data=
[ -d data ] || { mkdir data && made_data=1; }
keep="data/.testing-keep.$$"
echo "a user's crawl" >"$keep"
if command -v make >/dev/null; then
	if show make -s demo >"$tmp/demo.out" 2>&1 && grep -q "Fetched" "$tmp/demo.out" && [ -f "$keep" ]; then
		ok "make demo crawled, and left data/ as it was"
	else
		bad "make demo: $(tail -5 "$tmp/demo.out"); data/ holds: $(ls -A data 2>&1)"
	fi
else
	skip "make demo (no make)"
fi
rm -f "$keep"
[ -z "$made_data" ] || rmdir data 2>/dev/null

finish
