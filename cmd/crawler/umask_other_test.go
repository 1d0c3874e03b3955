//go:build !unix

package main

// setUmask does nothing: these systems have no umask.
func setUmask(string) {}
