package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

func main() {
	// A crawl spends its time waiting for servers, even with several
	// hosts fetched at once, so one processor runs it best: with more,
	// every handoff between the crawl and net/http's connection goroutines
	// wakes another thread (measured on two processors, wikipedia at
	// depth 2: as fast, for an eighth less CPU, and a sixth less with
	// -warc x.warc.gz). Saving still overlaps fetching, as the disk's
	// system calls release the processor.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	// net/http's transport tells some things a server does wrong, such as
	// a response sent unasked, through the log package, straight to
	// stderr, past the escaping every other message gets. The crawler
	// does not use the log package: what it says goes through run's
	// writers, and what the transport saw shows in the fetch's error.
	log.SetOutput(io.Discard)
	// The first SIGINT or SIGTERM cancels the crawl, which then stops
	// cleanly; restoring the default handlers lets a second one kill the
	// process at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		cancel(stopSignal{sig.(syscall.Signal)})
	}()
	os.Exit(run(ctx, os.Args, os.Stdout, os.Stderr, os.Getenv))
}
