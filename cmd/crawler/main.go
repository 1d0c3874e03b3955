package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
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
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
