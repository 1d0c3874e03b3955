package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
)

func main() {
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
