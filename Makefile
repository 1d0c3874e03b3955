# Every target is a thin wrapper over the go command and testing.sh. Only
# install and uninstall write outside this directory and the temporary
# directories that demo and test make and remove.
GO       ?= go
FUZZTIME ?= 30s

# Where install puts things: $(DESTDIR)$(PREFIX)/bin and .../share/man/man1.
# DESTDIR is for packagers, who stage the files under it.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MAN1DIR  = $(DESTDIR)$(PREFIX)/share/man/man1

.PHONY: all build demo install uninstall test lint vet unit system fuzz bench clean

all: build

# -buildvcs=auto stamps the git revision that -version prints, even where
# GOFLAGS says -buildvcs=false; outside a git checkout it stamps nothing.
build:
	$(GO) build -buildvcs=auto -o crawler ./cmd/crawler
	$(GO) build -buildvcs=auto -o playground ./cmd/playground

# A real crawl, with the default one-second pause, of the zoo site bundled
# in testdata/, served on a free loopback port by the playground server.
# Needs no network and nothing outside this repository. Everything it
# writes, the crawl included, goes into a fresh temporary directory of its
# own, which it removes when it ends: it never deletes a file it did not
# make.
DEMO_SEED = http://cs50tse.cs.dartmouth.edu/tse/zoo/index.html
demo: build
	@tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/crawler-demo.XXXXXX") || exit 1; \
	./playground -addr 127.0.0.1:0 -log $$tmp/server.log testdata/playground >$$tmp/addr 2>$$tmp/err & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; rm -rf "$$tmp"' EXIT INT TERM; \
	until [ -s $$tmp/addr ] || ! kill -0 $$pid 2>/dev/null; do sleep 0.1; done; \
	proxy=$$(cat $$tmp/addr); \
	[ -n "$$proxy" ] || { cat $$tmp/err; exit 1; }; \
	cat $$tmp/err; \
	mkdir $$tmp/pages && cd $$tmp && \
	echo "\$$ cd $$tmp && mkdir pages" && \
	echo "\$$ HTTP_PROXY=$$proxy $(CURDIR)/crawler $(DEMO_SEED) pages 2" && \
	HTTP_PROXY=$$proxy $(CURDIR)/crawler $(DEMO_SEED) pages 2 && \
	echo && echo "\$$ ls -A pages" && ls -A pages && \
	echo && echo "\$$ head -6 pages/2" && head -6 pages/2 && \
	echo && echo "The server saw these requests, at least a second apart:" && cat server.log && \
	echo && echo "(The demo removes $$tmp, which it made, as it ends.)"

install: build
	install -d "$(BINDIR)" "$(MAN1DIR)"
	install -m 755 crawler playground "$(BINDIR)"
	install -m 644 cmd/crawler/crawler.1 "$(MAN1DIR)/crawler.1"

uninstall:
	rm -f "$(BINDIR)/crawler" "$(BINDIR)/playground" "$(MAN1DIR)/crawler.1"

# The whole suite: static checks, then the Go tests under the race detector
# and the binary's regression tests, the second run even when the first
# fails, and last one line that adds up both. unit and system leave their
# counts, "passed failed skipped", in COUNTS when it names a directory.
test: lint
	@counts=$$(mktemp -d "$${TMPDIR:-/tmp}/crawler-test.XXXXXX") || exit 1; \
	trap 'rm -rf "$$counts"' EXIT; \
	$(MAKE) --no-print-directory -j1 -k unit system COUNTS="$$counts"; status=$$?; \
	passed=0; failed=0; skipped=0; \
	echo "== go test and testing.sh together"; \
	for part in unit system; do \
		if [ -f "$$counts/$$part" ] && read p f s <"$$counts/$$part"; then \
			passed=$$((passed + p)); failed=$$((failed + f)); skipped=$$((skipped + s)); \
		else \
			echo "$$part stopped before it counted its tests"; failed=$$((failed + 1)); \
		fi; \
	done; \
	echo "$$passed passed, $$failed failed, $$skipped skipped"; \
	[ "$$failed" -eq 0 ] && [ "$$status" -eq 0 ]

# staticcheck and deadcode at pinned versions, fetched by the go command
# like any module, and installed nowhere. deadcode -test counts what tests
# call as live, so that it names only what nothing calls; it exits 0
# whatever it finds, so its output is the verdict.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEADCODE    = golang.org/x/tools/cmd/deadcode@v0.52.0
lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@echo '$(GO) run $(DEADCODE) -test ./...'; \
	out=$$($(GO) run $(DEADCODE) -test ./...) || exit 1; \
	if [ -n "$$out" ]; then echo "dead code:"; echo "$$out"; exit 1; fi
	@out=$$(gofmt -l cmd internal); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# lint's former name.
vet: lint

# -count=1, because the test cache does not know about ../shared: a test
# that skipped without it would be replayed as "ok (cached)" once it is
# there, without running.
# testsum prints each package's result, failed tests and skips, not the
# whole -json stream.
# -timeout: go test's default of 10 minutes is too short for a cold run on
# a busy 2-core machine, where ./cmd/crawler, the slowest package at about
# two minutes under -race on an idle one, ran past it. UNITTIMEOUT is more
# than five times that; a package that runs past it still fails, and
# testsum counts the test it was in as failed.
UNITTIMEOUT ?= 20m
unit:
	@echo "== go test -race ./...: each package is printed as it ends, ./cmd/crawler after minutes"
	$(GO) run ./internal/devtools/testsum $(if $(COUNTS),-counts "$(COUNTS)/unit") $(GO) test -race -count=1 -timeout $(UNITTIMEOUT) -json ./...

system: build
	$(if $(COUNTS),TESTING_COUNTS="$(COUNTS)/system") bash testing.sh

# The micro-benchmarks, then whole crawls timed as processes: the crawler,
# with and without -warc, against wget on the playground's wikipedia, a
# synthetic site of 100,000 pages, one of a million with and without -stats
# (ten minutes; crawlbench -stats-pages 0 skips it), html mode against
# reference mode on a link-heavy site shaped like javadoc's, the Python
# docs with -warc, and again with -since from nginx (apt-get install
# nginx-light; crawlbench -since=false skips it), the OpenJDK docs against
# wget (when python3.11-doc and openjdk-17-doc are installed), the Python
# docs link checked as a folder (-check DIR) against linkinator (with npx;
# crawlbench -folder=false skips it), the PostgreSQL docs link checked with
# -check against wget --spider (when postgresql-doc-15 is; crawlbench
# -postgres '' skips them), a polite crawl of a synthetic site on four
# hosts, one page at a time and four hosts at once, a link check of a site
# with links to ten other hosts without -check-cache and twice with one
# (crawlbench -checkcache=false skips it), and the crawler's
# peak memory on a page of 50 MiB, a gzip bomb of a GiB and a million links
# that robots.txt disallows (crawlbench -memory=false skips it). BENCHDIR
# is where the crawls write (a tmpfs if there is one, to leave the disk's
# own noise out; give BENCHDIR=/tmp for the disk).
BENCHDIR ?= $(shell [ -d /dev/shm ] && echo /dev/shm || echo /tmp)
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...
	$(GO) run ./internal/devtools/crawlbench -dir $(BENCHDIR)

# go test -fuzz runs one target of one package at a time, so fuzz asks
# go test -list for every package's targets, which it prints before the
# package's "ok" line, and runs each in turn for FUZZTIME, stopping at the
# first that fails.
fuzz:
	@out=$$($(GO) test -list '^Fuzz' ./...) || { printf '%s\n' "$$out"; exit 1; }; \
	targets=$$(printf '%s\n' "$$out" | awk '/^Fuzz[A-Za-z0-9_]*$$/ { t[n++] = $$1; next } $$1 == "ok" { for (i = 0; i < n; i++) print $$2 ":" t[i]; n = 0 }'); \
	[ -n "$$targets" ] || { echo "go test -list found no fuzz targets"; exit 1; }; \
	for t in $$targets; do \
		pkg=$${t%:*} name=$${t##*:}; \
		echo "$(GO) test $$pkg -run '^\$$' -fuzz '^$$name\$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s || exit 1; \
	done

# Only what the build makes: data/ and other page directories are the
# user's.
clean:
	rm -f crawler playground crawlbench testsum testing.out
